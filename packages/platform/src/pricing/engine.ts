import type {
  Address,
  AppliedDiscount,
  AppliedDiscountType,
  CalculatedLineItem,
  CalculationErrorDetails,
  CalculationErrors,
  DiscountRule,
  DiscountRuleDiscount,
  DiscountTrigger,
  ItemTaxFullDetails,
  LineItem,
  SelectedCarrierServiceOption,
  ShippingInfo,
  ShippingOption,
  Violation,
} from '@cartwheel/sdk';
import {
  type CommerceSettings,
  type Coupon,
  momentOf,
  type PickupLocation,
  type ShippingRateOption,
  type ShippingRegion,
  type TaxRegion,
  windowStatus,
} from '../store-settings/model.ts';
import type { Priced, PricingRequest } from './contract.ts';
import { isCountryCode, type PlacedSubdivision, placeSubdivision } from './countries.ts';
import type { ResolvedLine } from './lines.ts';
import {
  allocate,
  Big,
  type Currency,
  currencyOf,
  decimal,
  maxBig,
  minBig,
  minus,
  plus,
  sumBig,
} from './money.ts';

/** The one carrier the store's own shipping and pickup options belong to. */
export const STORE_CARRIER_ID = 'cartwheel-shipping';

const ZERO = new Big(0);
const HUNDRED = new Big(100);

/** A line while discounts are laid on it. */
interface LineState {
  line: ResolvedLine;
  /** `lineItemPrice`: unit price times quantity. */
  amount: Big;
  discount: Big;
}

const remainingOf = (state: LineState) => minus(state.amount, state.discount);

/** A discount in the making: its amount grows as its parts (lines, shipping) are applied. */
interface DiscountEntry {
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
 * The first moment after `now` at which the clock alone changes what `priceLines` answers with these
 * settings: a discount rule's or a coupon's window opening or closing (Infinity: none ahead). Every
 * window counts, whether or not a cart uses it: a cached price is never trusted past it.
 */
export function nextWindowChange(settings: CommerceSettings, now: Date): number {
  const at = now.getTime();
  let next = Number.POSITIVE_INFINITY;
  const consider = (moment: string | Date | null | undefined) => {
    if (!moment) return;
    const time = momentOf(moment);
    // an unreadable date never settles: no answer may be kept
    if (Number.isNaN(time)) next = at;
    else if (time > at && time < next) next = time;
  };
  for (const rule of settings.discountRules) {
    consider(rule.activeTimeInfo?.start);
    consider(rule.activeTimeInfo?.end);
  }
  for (const coupon of settings.coupons.values()) {
    consider(coupon.startTime);
    consider(coupon.expirationTime);
  }
  return next;
}

/**
 * Lines to money. Pure: the lines are already resolved against the catalog, the settings loaded.
 *
 * Order of work: line amounts (unit price after the catalog's discount, times quantity), then the
 * live discount rules, the coupon and the merchant's discounts on the items (each split across its
 * lines to the cent), then shipping (free-above thresholds see the discounted items), shipping
 * discounts, then tax per line on the discounted amount, rounded per line. So for every result
 * `total = subtotal + shipping - discount (+ tax unless prices include it)`, to the cent.
 */
export function priceLines(
  lines: readonly ResolvedLine[],
  settings: CommerceSettings,
  request: PricingRequest,
  now: Date = request.now ?? new Date(),
): Priced {
  const currency = currencyOf(settings.store.currency);
  const money = (amount: Big) => currency.price(amount);
  const states: LineState[] = lines.map((line) => ({
    line,
    amount: line.counted ? line.amount : ZERO,
    discount: ZERO,
  }));
  const counted = states.filter((state) => state.line.counted);
  const subtotal = sumBig(counted.map((state) => state.amount));
  const itemQuantity = counted.reduce((sum, state) => sum + state.line.quantity, 0);
  const errors: CalculationErrors = {};
  const violations: Violation[] = lineViolations(lines);
  const entries: DiscountEntry[] = [];
  const shippingDiscounts: ShippingDiscount[] = [];

  /** Lays `amountFor(base)` (base: what the targets still cost) across the targets, to the cent. */
  const discountLines = (entry: DiscountEntry, targets: LineState[], amountFor: (base: Big) => Big) => {
    const weights = targets.map(remainingOf);
    const base = sumBig(weights);
    if (targets.length === 0 || base.lte(0)) return;
    const shares = allocate(maxBig(amountFor(base), ZERO), weights, currency);
    targets.forEach((state, index) => {
      const share = shares[index]!;
      if (share.lte(0)) return;
      state.discount = state.discount.plus(share);
      entry.amount = entry.amount.plus(share);
      entry.lineItemIds.add(state.line.id);
    });
  };
  const percentOf = (percentage: Big) => (base: Big) => currency.round(base.times(percentage).div(HUNDRED));

  // 1. automatic discount rules, oldest first
  for (const rule of liveRules(settings.discountRules, now)) {
    if (!triggerHolds(rule.trigger, { subtotal, itemQuantity })) continue;
    const values = rule.discounts?.values ?? [];
    const entry: DiscountEntry = {
      amount: ZERO,
      lineItemIds: new Set(),
      type: targetOf(values[0]),
      describe: (amount) => ({
        discountRule: {
          id: rule.id ?? undefined,
          name: { original: rule.name ?? '', translated: rule.name ?? '' },
          amount: money(amount),
        },
      }),
    };
    entries.push(entry);
    for (const value of values) {
      const target = targetOf(value);
      const percentage = value.percentage === undefined ? null : decimal(value.percentage);
      const fixedAmount = decimal(value.fixedAmount);
      if (target === 'SHIPPING') {
        shippingDiscounts.push({ entry, percentage, fixedAmount });
        continue;
      }
      const targets = target === 'SPECIFIC_ITEMS' ? counted.filter((s) => inScopes(s.line, value)) : counted;
      const fixedPrice = decimal(value.fixedPrice);
      if (value.discountType === 'FIXED_PRICE' && fixedPrice) {
        // each unit sells at the fixed price: the discount is what each line costs above it
        for (const state of targets) {
          discountLines(entry, [state], (base) => base.minus(fixedPrice.times(state.line.quantity)));
        }
      } else if (percentage) {
        discountLines(entry, targets, percentOf(percentage));
      } else if (fixedAmount) {
        discountLines(entry, targets, () => fixedAmount);
      }
    }
  }

  // 2. the coupon: refused ones are dropped and said so
  const couponCode = request.couponCode?.trim();
  if (couponCode) {
    const coupon = settings.coupons.get(couponCode.toUpperCase());
    let refusal = couponRefusal(coupon, couponCode, now);
    const minimum = decimal(coupon?.minimumSubtotal);
    if (!refusal && minimum && subtotal.lt(minimum)) {
      refusal = {
        code: 'COUPON_MINIMUM_SUBTOTAL_NOT_REACHED',
        description: `Coupon "${couponCode}" needs a subtotal of at least ${currency.format(minimum)}`,
      };
    }
    if (refusal || !coupon) {
      errors.couponCalculationError = { applicationError: refusal! };
      violations.push({
        severity: 'WARNING',
        target: { other: { name: 'coupon' } },
        description: refusal!.description,
      });
    } else {
      const scoped = (coupon.productIds?.length ?? 0) + (coupon.collectionIds?.length ?? 0) > 0;
      const entry: DiscountEntry = {
        amount: ZERO,
        lineItemIds: new Set(),
        type: coupon.discountType === 'FREE_SHIPPING' ? 'SHIPPING' : scoped ? 'SPECIFIC_ITEMS' : 'GLOBAL',
        describe: (amount) => ({
          coupon: { id: coupon.id, code: coupon.code, name: coupon.name, amount: money(amount) },
        }),
      };
      entries.push(entry);
      const percentage = decimal(coupon.percentage);
      const fixedAmount = decimal(coupon.fixedAmount);
      if (coupon.discountType === 'FREE_SHIPPING') {
        shippingDiscounts.push({ entry, percentage: HUNDRED, fixedAmount: null });
      } else {
        const targets = scoped
          ? counted.filter(
              (s) =>
                (s.line.productId !== null && coupon.productIds?.includes(s.line.productId)) ||
                s.line.collectionIds.some((id) => coupon.collectionIds?.includes(id)),
            )
          : counted;
        if (coupon.discountType === 'PERCENTAGE' && percentage)
          discountLines(entry, targets, percentOf(percentage));
        if (coupon.discountType === 'FIXED_AMOUNT' && fixedAmount)
          discountLines(entry, targets, () => fixedAmount);
      }
    }
  }

  // 3. the merchant's own discounts (the caller checked who may give them)
  for (const merchant of request.merchantDiscounts ?? []) {
    const ids = merchant.lineItemIds ?? [];
    const targets = ids.length > 0 ? counted.filter((s) => ids.includes(s.line.id)) : counted;
    const percentage = decimal((merchant as { percentage?: unknown }).percentage);
    const amount = decimal(merchant.amount);
    const entry: DiscountEntry = {
      amount: ZERO,
      lineItemIds: new Set(),
      type: ids.length > 0 ? 'SPECIFIC_ITEMS' : 'GLOBAL',
      describe: (total) => ({
        merchantDiscount: { amount: money(total), percentage: percentage ? Number(percentage) : null },
      }),
    };
    entries.push(entry);
    if (percentage) discountLines(entry, targets, percentOf(percentage));
    else if (amount) discountLines(entry, targets, () => amount);
  }

  const itemsDiscount = sumBig(counted.map((state) => state.discount));
  const discountedSubtotal = minus(subtotal, itemsDiscount);

  // 4. shipping
  const shippable = counted.some((state) => state.line.shippable);
  let shipmentWeight: Big | undefined;
  const shipping = shippingOf({
    settings,
    request,
    currency,
    shippable,
    discountedSubtotal,
    weight: () =>
      (shipmentWeight ??= sumBig(
        counted.filter((s) => s.line.shippable).map((s) => s.line.unitWeight.times(s.line.quantity)),
      )),
    errors,
  });
  let shippingDiscount = ZERO;
  for (const discount of shippingDiscounts) {
    const left = shipping.cost.minus(shippingDiscount);
    if (left.lte(0)) break;
    const wanted = discount.percentage
      ? currency.round(left.times(discount.percentage).div(HUNDRED))
      : (discount.fixedAmount ?? ZERO);
    const share = minBig(currency.round(maxBig(wanted, ZERO)), left);
    shippingDiscount = shippingDiscount.plus(share);
    discount.entry.amount = discount.entry.amount.plus(share);
    discount.entry.type = 'SHIPPING';
  }
  const shippingNet = minus(shipping.cost, shippingDiscount);

  // 5. tax, per line on what the line costs after its discounts
  const tax = taxOf({ settings, request, currency, pickup: shipping.pickup, errors });
  const included = settings.store.taxIncludedInPrices;
  const taxOfAmount = (amount: Big): { tax: Big; taxable: Big } => {
    if (!tax.region || tax.rate.eq(0)) return { tax: ZERO, taxable: included ? amount : amount };
    if (included) {
      const part = currency.round(amount.times(tax.rate).div(tax.rate.plus(1)));
      return { tax: part, taxable: amount.minus(part) };
    }
    return { tax: currency.round(amount.times(tax.rate)), taxable: amount };
  };
  const rateText = tax.rate.toString();
  const taxDetails = (taxable: Big, amount: Big): ItemTaxFullDetails => ({
    taxableAmount: money(taxable),
    taxRate: rateText,
    totalTax: money(amount),
    rateBreakdown: tax.region ? [{ name: tax.region.name, rate: rateText, tax: money(amount) }] : [],
    taxBreakdown: tax.region
      ? [
          {
            jurisdiction: tax.region.name,
            jurisdictionType: tax.region.subdivision ? 'STATE' : 'COUNTRY',
            nonTaxableAmount: money(ZERO),
            rate: rateText,
            taxAmount: money(amount),
            taxableAmount: money(taxable),
            taxType: 'Sales Tax',
            taxName: `${tax.region.name} tax`,
          },
        ]
      : [],
  });

  let taxTotal = ZERO;
  let taxableTotal = ZERO;
  const lineTaxes = states.map((state) => {
    const net = remainingOf(state);
    const lineTax = taxOfAmount(net);
    taxTotal = plus(taxTotal, lineTax.tax);
    taxableTotal = plus(taxableTotal, lineTax.taxable);
    return { state, net, lineTax };
  });
  // the money objects below are built when first read: a cart shows none of them, only its lines
  const calculatedLineItems = (): CalculatedLineItem[] =>
    lineTaxes.map(({ state, net, lineTax }) => ({
      lineItemId: state.line.id,
      pricesBreakdown: {
        totalPriceAfterTax: money(included ? net : net.plus(lineTax.tax)),
        totalPriceBeforeTax: money(included ? net.minus(lineTax.tax) : net),
        taxDetails: taxDetails(lineTax.taxable, lineTax.tax),
        totalDiscount: money(state.discount),
        price: money(state.line.unitPrice),
        priceBeforeDiscounts: money(state.line.unitPrice),
        lineItemPrice: money(state.amount),
        fullPrice: money(state.line.fullUnitPrice),
      },
      paymentOption: state.line.lineItem.paymentOption ?? 'FULL_PAYMENT_ONLINE',
    }));
  const shippingTax = tax.region?.taxShipping ? taxOfAmount(shippingNet) : { tax: ZERO, taxable: ZERO };
  taxTotal = plus(taxTotal, shippingTax.tax);
  taxableTotal = plus(taxableTotal, shippingTax.taxable);

  const discountTotal = plus(itemsDiscount, shippingDiscount);
  const total = plus(minus(plus(subtotal, shipping.cost), discountTotal), included ? ZERO : taxTotal);

  const selected = shipping.selected;
  const shippingInfo = (shippingOptions = shipping.options()): ShippingInfo => ({
    ...(request.shippingAddress ? { shippingDestination: { address: request.shippingAddress } } : {}),
    ...(shipping.region ? { region: { id: shipping.region.id, name: shipping.region.name } } : {}),
    carrierServiceOptions:
      shippingOptions.length > 0 ? [{ carrierId: STORE_CARRIER_ID, shippingOptions }] : [],
    ...(selected
      ? {
          selectedCarrierServiceOption: {
            code: selected.code,
            title: selected.title,
            logistics: selected.logistics,
            cost: {
              price: money(shipping.cost),
              otherCharges: [],
              totalPriceBeforeTax: money(included ? shippingNet.minus(shippingTax.tax) : shippingNet),
              totalPriceAfterTax: money(included ? shippingNet : shippingNet.plus(shippingTax.tax)),
            },
            requestedShippingOption: shipping.requested,
            carrierId: STORE_CARRIER_ID,
          } satisfies SelectedCarrierServiceOption,
        }
      : {}),
  });

  // an item's own prices came with it (lines.ts): the cart's discounts are in calculatedLineItems
  const lineItems: LineItem[] = lines.map((line) => line.lineItem);

  const appliedDiscounts = entries
    .filter((entry) => entry.amount.gt(0))
    .map((entry) => ({
      ...entry.describe(entry.amount),
      discountType: entry.type,
      ...(entry.type === 'SPECIFIC_ITEMS' || entry.lineItemIds.size > 0
        ? { lineItemIds: [...entry.lineItemIds] }
        : {}),
    }));

  const text = (amount: Big) => currency.text(amount);
  return withLazyParts(
    {
      currency: currency.code,
      weightUnit: settings.store.weightUnit,
      taxIncludedInPrices: included,
      lineItems,
      lineItemTexts: lines.map((line) => line.text),
      appliedDiscounts,
      ...(Object.keys(errors).length > 0 ? { calculationErrors: errors } : {}),
      membershipOptions: {
        eligibleMemberships: [],
        invalidMemberships: [],
        selectedMemberships: { memberships: [] },
      },
      violations,
      shippable,
    },
    {
      calculatedLineItems,
      priceSummary: () => ({
        subtotal: money(subtotal),
        shipping: money(shipping.cost),
        tax: money(taxTotal),
        discount: money(discountTotal),
        total: money(total),
        additionalFees: money(ZERO),
      }),
      taxSummary: () => ({
        taxableAmount: money(taxableTotal),
        totalTax: money(taxTotal),
        calculationDetails: tax.region
          ? { rateType: 'MANUAL_RATE', manualRateReason: 'REGION_SETTING_TO_MANUAL' }
          : { rateType: 'NO_TAX_COLLECTED', manualRateReason: 'GLOBAL_SETTING_TO_MANUAL' },
      }),
      shippingInfo,
      amounts: () => ({
        subtotal: text(subtotal),
        shipping: text(shipping.cost),
        tax: text(taxTotal),
        discount: text(discountTotal),
        total: text(total),
      }),
    },
  );
}

/** The parts of a price built only when read. */
type LazyPart = 'calculatedLineItems' | 'priceSummary' | 'taxSummary' | 'shippingInfo' | 'amounts';

/**
 * `eager` with each of `lazy`'s parts built on its first read and kept. A cart answer reads none of
 * them; a checkout, estimate-totals and an order read them all. The parts are getters of the object's
 * class: `toJSON` writes them out (checkouts store their price as JSON), but a spread would not copy
 * them, so a price is read by its properties, never spread.
 */
function withLazyParts(
  eager: Omit<Priced, LazyPart>,
  lazy: { [Part in LazyPart]: () => Priced[Part] },
): Priced {
  return Object.assign(new LazyPriced(lazy), eager) as Priced;
}

class LazyPriced {
  readonly #built: { [Part in LazyPart]?: Priced[Part] } = {};
  readonly #lazy: { [Part in LazyPart]: () => Priced[Part] };

  constructor(lazy: { [Part in LazyPart]: () => Priced[Part] }) {
    this.#lazy = lazy;
  }

  get calculatedLineItems() {
    this.#built.calculatedLineItems ??= this.#lazy.calculatedLineItems();
    return this.#built.calculatedLineItems;
  }
  get priceSummary() {
    this.#built.priceSummary ??= this.#lazy.priceSummary();
    return this.#built.priceSummary;
  }
  get taxSummary() {
    this.#built.taxSummary ??= this.#lazy.taxSummary();
    return this.#built.taxSummary;
  }
  get shippingInfo() {
    this.#built.shippingInfo ??= this.#lazy.shippingInfo();
    return this.#built.shippingInfo;
  }
  get amounts() {
    this.#built.amounts ??= this.#lazy.amounts();
    return this.#built.amounts;
  }

  toJSON(): object {
    const { calculatedLineItems, priceSummary, taxSummary, shippingInfo, amounts } = this;
    return { ...this, calculatedLineItems, priceSummary, taxSummary, shippingInfo, amounts };
  }
}

function lineViolations(lines: readonly ResolvedLine[]): Violation[] {
  return lines.flatMap((line): Violation[] => {
    const name = line.lineItem.productName?.original ?? '';
    const availability = line.lineItem.availability;
    switch (availability?.status) {
      case 'NOT_FOUND':
        return [
          {
            severity: 'ERROR',
            target: { lineItem: { id: line.id, name, suggestedFix: 'REMOVE_LINE_ITEM' } },
            description: 'This item is no longer sold.',
          },
        ];
      case 'NOT_AVAILABLE':
        return [
          {
            severity: 'ERROR',
            target: { lineItem: { id: line.id, name, suggestedFix: 'REMOVE_LINE_ITEM' } },
            description: `${name || 'This item'} is out of stock.`,
          },
        ];
      case 'PARTIALLY_AVAILABLE':
        return [
          {
            severity: 'WARNING',
            target: { lineItem: { id: line.id, name } },
            description: `Only ${availability.quantityAvailable} of ${name || 'this item'} left in stock.`,
          },
        ];
      default:
        return [];
    }
  });
}

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

// ---- shipping ----

interface ShippingResult {
  cost: Big;
  /** Every option offered (built when read: a cart's own answer shows none). */
  options: () => ShippingOption[];
  selected: ShippingOption | null;
  requested: boolean;
  region: ShippingRegion | null;
  /** The pickup location when the buyer collects the order (tax then follows its address). */
  pickup: PickupLocation | null;
}

interface OfferedOption {
  option: ShippingOption;
  cost: Big;
  pickup: PickupLocation | null;
}

function shippingOf(input: {
  settings: CommerceSettings;
  request: PricingRequest;
  currency: Currency;
  shippable: boolean;
  discountedSubtotal: Big;
  /** What the shippable lines weigh (summed when a rate asks). */
  weight: () => Big;
  errors: CalculationErrors;
}): ShippingResult {
  const { settings, request, currency, errors } = input;
  const none: ShippingResult = {
    cost: ZERO,
    options: () => [],
    selected: null,
    requested: false,
    region: null,
    pickup: null,
  };
  if (!input.shippable || request.calculateShipping === false) return none;

  const address = request.shippingAddress;
  const country = address?.country?.trim().toUpperCase() || null;
  if (country && !isCountryCode(country)) {
    errors.generalShippingCalculationError = countryError('shippingAddress.country', address?.country);
    return none;
  }
  const region = country ? regionFor(settings.shippingRegions, country, address?.subdivision) : null;
  const delivery: OfferedOption[] = region
    ? region.options.flatMap((option) => deliveryOptions(option, input))
    : [];
  const wanted = request.selectedShippingOption?.code;
  // nowhere to ship to and nothing chosen: nothing is selected or charged, only offered
  if (!country && wanted === undefined) {
    none.options = () => pickupsOf(settings, currency).map((offer) => offer.option);
    return none;
  }
  const pickups = pickupsOf(settings, currency);
  const offered = [...delivery, ...pickups];
  if (country && offered.length === 0) {
    errors.generalShippingCalculationError = {
      applicationError: {
        code: 'NO_SHIPPING_OPTIONS',
        description: `The store does not ship to ${country}${address?.subdivision ? ` (${address.subdivision})` : ''}`,
        data: { country, subdivision: address?.subdivision ?? null },
      },
    };
  }

  // the buyer's choice when it is offered; else, once there is a destination, the cheapest delivery
  // (a pickup only when nothing is delivered there)
  const chosen = offered.find((offer) => wanted !== undefined && offer.option.code === wanted);
  const cheapest = (options: OfferedOption[]) =>
    options.reduce<OfferedOption | null>(
      (best, offer) => (!best || offer.cost.lt(best.cost) ? offer : best),
      null,
    );
  const selected = chosen ?? (country ? (cheapest(delivery) ?? cheapest(pickups)) : null);
  return {
    cost: selected?.cost ?? ZERO,
    options: () => offered.map((offer) => offer.option),
    selected: selected?.option ?? null,
    requested: !!chosen,
    region,
    pickup: selected?.pickup ?? null,
  };
}

/** The store's pickup locations as offered options. */
function pickupsOf(settings: CommerceSettings, currency: Currency): OfferedOption[] {
  return settings.pickupLocations.map((location) => ({
    cost: currency.round(decimal(location.price) ?? ZERO),
    pickup: location,
    option: {
      code: location.code,
      title: location.title,
      logistics: {
        deliveryTime: location.deliveryTime ?? null,
        instructions: location.instructions ?? null,
        pickupDetails: {
          address: location.address,
          businessLocation: true,
          pickupMethod: location.pickupMethod,
        },
      },
      cost: { price: currency.price(currency.round(decimal(location.price) ?? ZERO)), otherCharges: [] },
    },
  }));
}

/**
 * The region naming the address's subdivision (however it is written: `placeSubdivision`), else one
 * naming the whole country; the oldest wins a tie.
 */
function regionFor(
  regions: readonly ShippingRegion[],
  country: string,
  written: string | null | undefined,
): ShippingRegion | null {
  const codes = regions.flatMap((region) =>
    region.destinations.flatMap((destination) =>
      destination.country === country ? (destination.subdivisions ?? []) : [],
    ),
  );
  const placed = placeSubdivision(country, written, codes);
  const subdivision = placed.kind === 'placed' ? placed.code : null;
  let best: ShippingRegion | null = null;
  let bestScore = 0;
  for (const region of regions) {
    for (const destination of region.destinations) {
      if (destination.country !== country) continue;
      const listed = destination.subdivisions ?? [];
      const score = listed.length === 0 ? 1 : subdivision && listed.includes(subdivision) ? 2 : 0;
      if (score > bestScore) {
        best = region;
        bestScore = score;
      }
    }
  }
  return best;
}

function deliveryOptions(
  setting: ShippingRateOption,
  input: { currency: Currency; discountedSubtotal: Big; weight: () => Big },
): OfferedOption[] {
  const { currency } = input;
  const cost = rateCost(setting, input);
  if (cost === null) return [];
  const make = (code: string, slot?: { from: string; to: string }): OfferedOption => ({
    cost,
    pickup: null,
    option: {
      code,
      title: setting.title,
      logistics: {
        deliveryTime: setting.deliveryTime ?? null,
        ...(slot ? { deliveryTimeSlot: { from: new Date(slot.from), to: new Date(slot.to) } } : {}),
      },
      cost: { price: currency.price(cost), otherCharges: [] },
    },
  });
  const slots = setting.deliveryTimeSlots ?? [];
  return slots.length > 0
    ? slots.map((slot, index) => make(`${setting.code}-slot-${index + 1}`, slot))
    : [make(setting.code)];
}

/** What an option costs for this shipment; null when it cannot carry it (heavier than every bracket). */
function rateCost(
  setting: ShippingRateOption,
  input: { currency: Currency; discountedSubtotal: Big; weight: () => Big },
): Big | null {
  const { rate } = setting;
  const freeAbove = decimal(rate.freeShippingAbove);
  let cost: Big | null;
  if (rate.kind === 'BY_WEIGHT') {
    const brackets = [...(rate.weightBrackets ?? [])].sort(
      (a, b) => (a.upToWeight ?? Number.POSITIVE_INFINITY) - (b.upToWeight ?? Number.POSITIVE_INFINITY),
    );
    const perUnit = decimal(rate.pricePerWeightUnit);
    if (brackets.length > 0) {
      const bracket = brackets.find((b) => b.upToWeight === null || input.weight().lte(b.upToWeight));
      cost = bracket ? (decimal(bracket.price) ?? ZERO) : null;
    } else {
      cost = input.weight().times(perUnit ?? ZERO);
    }
  } else {
    cost = decimal(rate.price) ?? ZERO;
  }
  if (cost === null) return null;
  if (freeAbove && input.discountedSubtotal.gte(freeAbove)) return ZERO;
  return input.currency.round(maxBig(cost, ZERO));
}

// ---- tax ----

function taxOf(input: {
  settings: CommerceSettings;
  request: PricingRequest;
  currency: Currency;
  pickup: PickupLocation | null;
  errors: CalculationErrors;
}): { region: TaxRegion | null; rate: Big } {
  const { request, errors } = input;
  const none = { region: null, rate: ZERO };
  if (request.calculateTax === false) return none;
  const [field, address]: [string, Address | null | undefined] = input.pickup
    ? ['shippingInfo.pickupDetails.address', input.pickup.address]
    : request.shippingAddress?.country
      ? ['shippingAddress', request.shippingAddress]
      : ['billingAddress', request.billingAddress];
  const country = address?.country?.trim().toUpperCase() || null;
  if (!country) return none;
  if (!isCountryCode(country)) {
    errors.taxCalculationError = countryError(`${field}.country`, address?.country);
    return none;
  }
  const regions = input.settings.taxRegions.filter((region) => region.country === country);
  const codes = regions.flatMap((region) => (region.subdivision ? [region.subdivision] : []));
  const placed = placeSubdivision(country, address?.subdivision, codes);
  if (placed.kind !== 'placed' && codes.length > 0) {
    // the store taxes this country by subdivision, and the address is in none it can name: no rate
    // is the right one, so the checkout says so instead of charging no tax
    errors.taxCalculationError = subdivisionError(`${field}.subdivision`, country, placed);
    return none;
  }
  const subdivision = placed.kind === 'placed' ? placed.code : null;
  const region =
    (subdivision ? regions.find((r) => r.subdivision === subdivision) : undefined) ??
    regions.find((r) => r.subdivision === null) ??
    null;
  return region ? { region, rate: decimal(region.rate) ?? ZERO } : none;
}

function subdivisionError(
  field: string,
  country: string,
  placed: Exclude<PlacedSubdivision, { kind: 'placed' }>,
): CalculationErrorDetails {
  const description =
    placed.kind === 'none'
      ? `is required: tax in ${country} depends on it`
      : `"${placed.text}" is not a subdivision of ${country}: give its ISO 3166-2 code (${country}-XX) or its name`;
  return { validationError: { fieldViolations: [{ field, description }] } };
}

function countryError(field: string, value: unknown): CalculationErrorDetails {
  return {
    validationError: {
      fieldViolations: [
        { field, description: `"${String(value)}" is not an ISO 3166-1 alpha-2 country code` },
      ],
    },
  };
}
