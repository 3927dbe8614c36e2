import type {
  AppliedDiscount,
  AppliedDiscountType,
  DiscountRule,
  DiscountRuleDiscount,
  DiscountTrigger,
} from '@cartwheel/sdk';
import { allocate, Big, type Currency, decimal, maxBig, minBig, minus, sumBig } from '../shared/money.ts';
import { type Coupon, windowStatus } from '../store-settings/model.ts';
import type { PricingRequest } from './contract.ts';
import type { ResolvedLine } from './lines.ts';

/**
 * The discounts `priceLines` lays on a cart, one step each: the store's automatic rules, the coupon,
 * the merchant's own discounts (each split across its lines to the cent), then those on shipping once
 * shipping is known. Each records what it took as an entry of the answer's `appliedDiscounts`.
 */

const ZERO = new Big(0);
export const HUNDRED = new Big(100);

/** A line while discounts are laid on it. */
export interface LineState {
  line: ResolvedLine;
  /** `lineItemPrice`: unit price times quantity. */
  amount: Big;
  discount: Big;
}

export const remainingOf = (state: LineState) => minus(state.amount, state.discount);

/** The lines as discounts see them: those counted toward the subtotal, and what they come to. */
export interface CartLines {
  states: LineState[];
  counted: LineState[];
  subtotal: Big;
  itemQuantity: number;
}

/** A discount in the making: its amount grows as its parts (lines, shipping) are applied. */
export interface DiscountEntry {
  amount: Big;
  lineItemIds: Set<string>;
  type: AppliedDiscountType;
  describe: (amount: Big) => AppliedDiscount;
}

/** A discount on shipping, applied once shipping is known. */
interface ShippingDiscount {
  entry: DiscountEntry;
  percentage: Big | null;
  fixedAmount: Big | null;
}

/** Every discount of one price, as it is laid on the lines and then on shipping. */
export class DiscountLedger {
  /** In the order they were opened: the answer's `appliedDiscounts`. */
  readonly entries: DiscountEntry[] = [];
  /** Those on shipping, laid once shipping's cost is known (`discountShipping`). */
  readonly onShipping: ShippingDiscount[] = [];

  constructor(readonly currency: Currency) {}

  open(type: AppliedDiscountType, describe: (amount: Big) => AppliedDiscount): DiscountEntry {
    const entry: DiscountEntry = { amount: ZERO, lineItemIds: new Set(), type, describe };
    this.entries.push(entry);
    return entry;
  }

  /** Lays `amountFor(base)` (base: what the targets still cost) across the targets, to the cent. */
  spread(entry: DiscountEntry, targets: LineState[], amountFor: (base: Big) => Big): void {
    const weights = targets.map(remainingOf);
    const base = sumBig(weights);
    if (targets.length === 0 || base.lte(0)) return;
    const shares = allocate(maxBig(amountFor(base), ZERO), weights, this.currency);
    targets.forEach((state, index) => {
      const share = shares[index]!;
      if (share.lte(0)) return;
      state.discount = state.discount.plus(share);
      entry.amount = entry.amount.plus(share);
      entry.lineItemIds.add(state.line.id);
    });
  }

  /** `percentage` percent of a base, rounded to the currency. */
  percentOf(percentage: Big): (base: Big) => Big {
    return (base) => this.currency.round(base.times(percentage).div(HUNDRED));
  }
}

/** Step 1: the store's automatic discount rules that are live now and whose trigger holds, oldest first. */
export function applyDiscountRules(
  ledger: DiscountLedger,
  cart: CartLines,
  rules: readonly DiscountRule[],
  now: Date,
): void {
  const { currency } = ledger;
  for (const rule of liveRules(rules, now)) {
    if (!triggerHolds(rule.trigger, cart)) continue;
    const values = rule.discounts?.values ?? [];
    const entry = ledger.open(targetOf(values[0]), (amount) => ({
      discountRule: {
        id: rule.id ?? undefined,
        name: { original: rule.name ?? '', translated: rule.name ?? '' },
        amount: currency.price(amount),
      },
    }));
    for (const value of values) {
      const target = targetOf(value);
      const percentage = value.percentage === undefined ? null : decimal(value.percentage);
      const fixedAmount = decimal(value.fixedAmount);
      if (target === 'SHIPPING') {
        ledger.onShipping.push({ entry, percentage, fixedAmount });
        continue;
      }
      const targets =
        target === 'SPECIFIC_ITEMS' ? cart.counted.filter((s) => inScopes(s.line, value)) : cart.counted;
      const fixedPrice = decimal(value.fixedPrice);
      if (value.discountType === 'FIXED_PRICE' && fixedPrice) {
        // each unit sells at the fixed price: the discount is what each line costs above it
        for (const state of targets) {
          ledger.spread(entry, [state], (base) => base.minus(fixedPrice.times(state.line.quantity)));
        }
      } else if (percentage) {
        ledger.spread(entry, targets, ledger.percentOf(percentage));
      } else if (fixedAmount) {
        ledger.spread(entry, targets, () => fixedAmount);
      }
    }
  }
}

/** Why a coupon may not be used now; null when it may. */
export function couponRefusal(
  coupon: Coupon | undefined,
  code: string,
  now: Date,
): { code: string; description: string } | null {
  if (!coupon) return { code: 'COUPON_DOES_NOT_EXIST', description: `Coupon "${code}" does not exist` };
  if (!coupon.active)
    return { code: 'COUPON_IS_DISABLED', description: `Coupon "${code}" is no longer offered` };
  const status = windowStatus(coupon.startTime, coupon.expirationTime, now);
  if (status === 'EXPIRED') return { code: 'COUPON_IS_EXPIRED', description: `Coupon "${code}" has expired` };
  if (status === 'PENDING') {
    return { code: 'COUPON_IS_NOT_ACTIVE_YET', description: `Coupon "${code}" cannot be used yet` };
  }
  return null;
}

/**
 * Step 2: the coupon the cart holds, laid on its lines (or its shipping), or the reason it is refused
 * now (it is dropped, and the caller says so).
 */
export function applyCoupon(
  ledger: DiscountLedger,
  cart: CartLines,
  coupons: ReadonlyMap<string, Coupon>,
  couponCode: string,
  now: Date,
): { code: string; description: string } | null {
  const { currency } = ledger;
  const coupon = coupons.get(couponCode.toUpperCase());
  const refusal = couponRefusal(coupon, couponCode, now);
  if (refusal || !coupon) return refusal;
  const minimum = decimal(coupon.minimumSubtotal);
  if (minimum && cart.subtotal.lt(minimum)) {
    return {
      code: 'COUPON_MINIMUM_SUBTOTAL_NOT_REACHED',
      description: `Coupon "${couponCode}" needs a subtotal of at least ${currency.format(minimum)}`,
    };
  }
  const scoped = (coupon.productIds?.length ?? 0) + (coupon.collectionIds?.length ?? 0) > 0;
  const type = coupon.discountType === 'FREE_SHIPPING' ? 'SHIPPING' : scoped ? 'SPECIFIC_ITEMS' : 'GLOBAL';
  const entry = ledger.open(type, (amount) => ({
    coupon: { id: coupon.id, code: coupon.code, name: coupon.name, amount: currency.price(amount) },
  }));
  const percentage = decimal(coupon.percentage);
  const fixedAmount = decimal(coupon.fixedAmount);
  if (coupon.discountType === 'FREE_SHIPPING') {
    ledger.onShipping.push({ entry, percentage: HUNDRED, fixedAmount: null });
    return null;
  }
  const targets = scoped
    ? cart.counted.filter(
        (s) =>
          (s.line.productId !== null && coupon.productIds?.includes(s.line.productId)) ||
          s.line.collectionIds.some((id) => coupon.collectionIds?.includes(id)),
      )
    : cart.counted;
  if (coupon.discountType === 'PERCENTAGE' && percentage)
    ledger.spread(entry, targets, ledger.percentOf(percentage));
  if (coupon.discountType === 'FIXED_AMOUNT' && fixedAmount) ledger.spread(entry, targets, () => fixedAmount);
  return null;
}

/**
 * Step 3: the merchant's own discounts (the caller checked who may give them): an amount off, or a
 * percentage of the targets' price before the rules and the coupon took their part.
 */
export function applyMerchantDiscounts(
  ledger: DiscountLedger,
  cart: CartLines,
  merchantDiscounts: PricingRequest['merchantDiscounts'],
): void {
  const { currency } = ledger;
  for (const merchant of merchantDiscounts ?? []) {
    const ids = merchant.lineItemIds ?? [];
    const targets = ids.length > 0 ? cart.counted.filter((s) => ids.includes(s.line.id)) : cart.counted;
    const percentage = decimal(merchant.percentage);
    const amount = decimal(merchant.amount);
    const entry = ledger.open(ids.length > 0 ? 'SPECIFIC_ITEMS' : 'GLOBAL', (total) => ({
      merchantDiscount: {
        amount: currency.price(total),
        percentage: percentage ? Number(percentage) : null,
      },
    }));
    // a percentage is of the items' price before other discounts (the hosted platform's rule), never
    // more than they still cost
    const before = sumBig(targets.map((state) => state.amount));
    if (percentage) ledger.spread(entry, targets, () => ledger.percentOf(percentage)(before));
    else if (amount) ledger.spread(entry, targets, () => amount);
  }
}

/** Step 4's second half: the discounts on shipping, in order, never past what shipping costs. Answers their sum. */
export function discountShipping(ledger: DiscountLedger, shippingCost: Big): Big {
  const { currency } = ledger;
  let shippingDiscount = ZERO;
  for (const discount of ledger.onShipping) {
    const left = shippingCost.minus(shippingDiscount);
    if (left.lte(0)) break;
    const wanted = discount.percentage
      ? currency.round(left.times(discount.percentage).div(HUNDRED))
      : (discount.fixedAmount ?? ZERO);
    const share = minBig(currency.round(maxBig(wanted, ZERO)), left);
    shippingDiscount = shippingDiscount.plus(share);
    discount.entry.amount = discount.entry.amount.plus(share);
    discount.entry.type = 'SHIPPING';
  }
  return shippingDiscount;
}

/** The answer's `appliedDiscounts`: every entry that took something. */
export function appliedDiscounts(ledger: DiscountLedger): AppliedDiscount[] {
  return ledger.entries
    .filter((entry) => entry.amount.gt(0))
    .map((entry) => ({
      ...entry.describe(entry.amount),
      discountType: entry.type,
      ...(entry.type === 'SPECIFIC_ITEMS' || entry.lineItemIds.size > 0
        ? { lineItemIds: [...entry.lineItemIds] }
        : {}),
    }));
}

// ---- discount rules ----
// ---- discount rules ----

function liveRules(rules: readonly DiscountRule[], now: Date): DiscountRule[] {
  return rules.filter(
    (rule) =>
      rule.active !== false &&
      windowStatus(rule.activeTimeInfo?.start, rule.activeTimeInfo?.end, now) === 'LIVE',
  );
}

function targetOf(value: DiscountRuleDiscount | undefined): AppliedDiscountType {
  if (value?.targetType === 'SPECIFIC_ITEMS') return 'SPECIFIC_ITEMS';
  if (value?.targetType === 'SHIPPING') return 'SHIPPING';
  return 'GLOBAL';
}

/** Scopes name products (`catalogItemFilter.catalogItemIds`) or collections (`customFilter.params.collectionIds`). */
interface RuleScope {
  catalogItemFilter?: { catalogItemIds?: string[] };
  customFilter?: { params?: { collectionIds?: string[] } };
}

function inScopes(line: ResolvedLine, value: DiscountRuleDiscount): boolean {
  const scopes = (value.specificItemsInfo?.scopes ?? []) as RuleScope[];
  return scopes.some(
    (scope) =>
      (line.productId !== null && (scope.catalogItemFilter?.catalogItemIds ?? []).includes(line.productId)) ||
      (scope.customFilter?.params?.collectionIds ?? []).some((id) => line.collectionIds.includes(id)),
  );
}

function triggerHolds(
  trigger: DiscountTrigger | undefined,
  cart: { subtotal: Big; itemQuantity: number },
): boolean {
  if (!trigger) return true;
  if (trigger.and) return (trigger.and.triggers ?? []).every((t) => triggerHolds(t, cart));
  if (trigger.or) return (trigger.or.triggers ?? []).some((t) => triggerHolds(t, cart));
  if (trigger.subtotalRange) {
    const from = decimal(trigger.subtotalRange.from);
    const to = decimal(trigger.subtotalRange.to);
    return (!from || cart.subtotal.gte(from)) && (!to || cart.subtotal.lte(to));
  }
  if (trigger.itemQuantityRange) {
    const { from, to } = trigger.itemQuantityRange;
    return (from == null || cart.itemQuantity >= from) && (to == null || cart.itemQuantity <= to);
  }
  // a custom trigger needs an app Cartwheel does not run: the rule does not apply
  if (trigger.customTrigger) return false;
  return true;
}
