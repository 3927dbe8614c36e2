import type {
  Address,
  CalculatedLineItem,
  CalculationErrorDetails,
  CalculationErrors,
  ItemTaxFullDetails,
  LineItem,
  SelectedCarrierServiceOption,
  ShippingInfo,
  ShippingOption,
  Violation,
} from '@cartwheel/sdk';
import { isCountryCode, type PlacedSubdivision, placeSubdivision } from '../shared/countries.ts';
import { Big, type Currency, currencyOf, decimal, maxBig, minus, plus, sumBig } from '../shared/money.ts';
import {
  type CommerceSettings,
  momentOf,
  type PickupLocation,
  type ShippingRateOption,
  type ShippingRegion,
  type TaxRegion,
} from '../store-settings/model.ts';
import type { Priced, PricingRequest } from './contract.ts';
import {
  appliedDiscounts,
  applyCoupon,
  applyDiscountRules,
  applyMerchantDiscounts,
  type CartLines,
  DiscountLedger,
  discountShipping,
  type LineState,
  remainingOf,
} from './discounts.ts';
import type { ResolvedLine } from './lines.ts';

export { couponRefusal } from './discounts.ts';

/** The one carrier the store's own shipping and pickup options belong to. */
export const STORE_CARRIER_ID = 'cartwheel-shipping';

const ZERO = new Big(0);

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
 * lines to the cent, discounts.ts), then shipping (free-above thresholds see the discounted items),
 * shipping discounts, then tax per line on the discounted amount, rounded per line. So for every
 * result `total = subtotal + shipping - discount (+ tax unless prices include it)`, to the cent.
 */
export function priceLines(
  lines: readonly ResolvedLine[],
  settings: CommerceSettings,
  request: PricingRequest,
  now: Date = request.now ?? new Date(),
): Priced {
  const currency = currencyOf(settings.store.currency);
  const cart = cartLines(lines);
  const errors: CalculationErrors = {};
  const violations: Violation[] = lineViolations(lines);
  const discounts = new DiscountLedger(currency);

  // 1-3. discounts on the items: automatic rules, the coupon, the merchant's own
  applyDiscountRules(discounts, cart, settings.discountRules, now);
  const couponCode = request.couponCode?.trim();
  if (couponCode) {
    const refusal = applyCoupon(discounts, cart, settings.coupons, couponCode, now);
    if (refusal) {
      errors.couponCalculationError = { applicationError: refusal };
      violations.push(couponWarning(refusal.description));
    }
  }
  applyMerchantDiscounts(discounts, cart, request.merchantDiscounts);
  const itemsDiscount = sumBig(cart.counted.map((state) => state.discount));

  // 4. shipping, on what the items cost after their discounts, then its own discounts
  const shippable = cart.counted.some((state) => state.line.shippable);
  let weight: Big | undefined;
  const shipping = shippingOf({
    settings,
    request,
    currency,
    shippable,
    discountedSubtotal: minus(cart.subtotal, itemsDiscount),
    weight: () => (weight ??= shippableWeight(cart)),
    errors,
  });
  const shippingDiscount = discountShipping(discounts, shipping.cost);

  // 5. tax, per line on what the line costs after its discounts
  const tax = taxOf({ settings, request, currency, pickup: shipping.pickup, errors });
  const taxes = taxLines(cart, minus(shipping.cost, shippingDiscount), {
    region: tax.region,
    rate: tax.rate,
    included: settings.store.taxIncludedInPrices,
    currency,
  });

  // 6. the answer
  return priceAnswer({
    lines,
    settings,
    request,
    currency,
    cart,
    shipping,
    shippable,
    discountTotal: plus(itemsDiscount, shippingDiscount),
    discounts,
    taxes,
    errors,
    violations,
  });
}

/** The lines as discounts see them; a line not counted (not found, not available) costs nothing. */
function cartLines(lines: readonly ResolvedLine[]): CartLines {
  const states: LineState[] = lines.map((line) => ({
    line,
    amount: line.counted ? line.amount : ZERO,
    discount: ZERO,
  }));
  const counted = states.filter((state) => state.line.counted);
  return {
    states,
    counted,
    subtotal: sumBig(counted.map((state) => state.amount)),
    itemQuantity: counted.reduce((sum, state) => sum + state.line.quantity, 0),
  };
}

/** What a refused coupon tells the buyer: a warning, the cart still priced without it. */
function couponWarning(description: string): Violation {
  return { severity: 'WARNING', target: { other: { name: 'coupon' } }, description };
}

/** What the shippable lines weigh (summed only when a rate asks). */
function shippableWeight(cart: CartLines): Big {
  return sumBig(
    cart.counted.filter((s) => s.line.shippable).map((s) => s.line.unitWeight.times(s.line.quantity)),
  );
}

/** The tax rule of one price: the region's rate, and whether the prices already include it. */
interface TaxRule {
  region: TaxRegion | null;
  rate: Big;
  included: boolean;
  currency: Currency;
}

/** Each line's tax and the shipping's, and their totals. */
interface Taxes {
  rule: TaxRule;
  lines: Array<{ state: LineState; net: Big; lineTax: TaxPart }>;
  shipping: TaxPart;
  shippingNet: Big;
  total: Big;
  taxable: Big;
}

interface TaxPart {
  tax: Big;
  taxable: Big;
}

/** The tax on an amount, rounded to the currency: taken out of it when prices include tax. */
function taxOfAmount(rule: TaxRule, amount: Big): TaxPart {
  if (!rule.region || rule.rate.eq(0)) return { tax: ZERO, taxable: amount };
  if (rule.included) {
    const part = rule.currency.round(amount.times(rule.rate).div(rule.rate.plus(1)));
    return { tax: part, taxable: amount.minus(part) };
  }
  return { tax: rule.currency.round(amount.times(rule.rate)), taxable: amount };
}

/** Step 5: tax per line on what it costs after its discounts, and on shipping where the region taxes it. */
function taxLines(cart: CartLines, shippingNet: Big, rule: TaxRule): Taxes {
  let total = ZERO;
  let taxable = ZERO;
  const lines = cart.states.map((state) => {
    const net = remainingOf(state);
    const lineTax = taxOfAmount(rule, net);
    total = plus(total, lineTax.tax);
    taxable = plus(taxable, lineTax.taxable);
    return { state, net, lineTax };
  });
  const shipping = rule.region?.taxShipping ? taxOfAmount(rule, shippingNet) : { tax: ZERO, taxable: ZERO };
  total = plus(total, shipping.tax);
  taxable = plus(taxable, shipping.taxable);
  return { rule, lines, shipping, shippingNet, total, taxable };
}

/** A line's (or the order's) tax as the wire details it. */
function taxDetails(rule: TaxRule, taxable: Big, amount: Big): ItemTaxFullDetails {
  const money = (value: Big) => rule.currency.price(value);
  const rateText = rule.rate.toString();
  const region = rule.region;
  return {
    taxableAmount: money(taxable),
    taxRate: rateText,
    totalTax: money(amount),
    rateBreakdown: region ? [{ name: region.name, rate: rateText, tax: money(amount) }] : [],
    taxBreakdown: region
      ? [
          {
            jurisdiction: region.name,
            jurisdictionType: region.subdivision ? 'STATE' : 'COUNTRY',
            nonTaxableAmount: money(ZERO),
            rate: rateText,
            taxAmount: money(amount),
            taxableAmount: money(taxable),
            taxType: 'Sales Tax',
            taxName: `${region.name} tax`,
          },
        ]
      : [],
  };
}

/**
 * Step 6: the price as the contract answers it. Totals and the lines' own items are built now; the
 * money objects of the breakdowns when first read (a cart shows none of them, only its lines).
 */
function priceAnswer(input: {
  lines: readonly ResolvedLine[];
  settings: CommerceSettings;
  request: PricingRequest;
  currency: Currency;
  cart: CartLines;
  shipping: ShippingResult;
  shippable: boolean;
  discountTotal: Big;
  discounts: DiscountLedger;
  taxes: Taxes;
  errors: CalculationErrors;
  violations: Violation[];
}): Priced {
  const { lines, settings, request, currency, cart, shipping, discountTotal, taxes, errors } = input;
  const money = (amount: Big) => currency.price(amount);
  const text = (amount: Big) => currency.text(amount);
  const included = taxes.rule.included;
  const subtotal = cart.subtotal;
  const total = plus(minus(plus(subtotal, shipping.cost), discountTotal), included ? ZERO : taxes.total);

  const calculatedLineItems = (): CalculatedLineItem[] =>
    taxes.lines.map(({ state, net, lineTax }) => ({
      lineItemId: state.line.id,
      pricesBreakdown: {
        totalPriceAfterTax: money(included ? net : net.plus(lineTax.tax)),
        totalPriceBeforeTax: money(included ? net.minus(lineTax.tax) : net),
        taxDetails: taxDetails(taxes.rule, lineTax.taxable, lineTax.tax),
        totalDiscount: money(state.discount),
        price: money(state.line.unitPrice),
        priceBeforeDiscounts: money(state.line.unitPrice),
        lineItemPrice: money(state.amount),
        fullPrice: money(state.line.fullUnitPrice),
      },
      paymentOption: state.line.lineItem.paymentOption ?? 'FULL_PAYMENT_ONLINE',
    }));

  const selected = shipping.selected;
  const shippingNet = taxes.shippingNet;
  const shippingTax = taxes.shipping.tax;
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
              totalPriceBeforeTax: money(included ? shippingNet.minus(shippingTax) : shippingNet),
              totalPriceAfterTax: money(included ? shippingNet : shippingNet.plus(shippingTax)),
            },
            requestedShippingOption: shipping.requested,
            carrierId: STORE_CARRIER_ID,
          } satisfies SelectedCarrierServiceOption,
        }
      : {}),
  });

  // an item's own prices came with it (lines.ts): the cart's discounts are in calculatedLineItems
  const lineItems: LineItem[] = lines.map((line) => line.lineItem);

  return withLazyParts(
    {
      currency: currency.code,
      weightUnit: settings.store.weightUnit,
      taxIncludedInPrices: included,
      lineItems,
      appliedDiscounts: appliedDiscounts(input.discounts),
      ...(Object.keys(errors).length > 0 ? { calculationErrors: errors } : {}),
      membershipOptions: {
        eligibleMemberships: [],
        invalidMemberships: [],
        selectedMemberships: { memberships: [] },
      },
      violations: input.violations,
      shippable: input.shippable,
    },
    {
      calculatedLineItems,
      priceSummary: () => ({
        subtotal: money(subtotal),
        shipping: money(shipping.cost),
        tax: money(taxes.total),
        discount: money(discountTotal),
        total: money(total),
        additionalFees: money(ZERO),
      }),
      taxSummary: () => ({
        taxableAmount: money(taxes.taxable),
        totalTax: money(taxes.total),
        calculationDetails: taxes.rule.region
          ? { rateType: 'MANUAL_RATE', manualRateReason: 'REGION_SETTING_TO_MANUAL' }
          : { rateType: 'NO_TAX_COLLECTED', manualRateReason: 'GLOBAL_SETTING_TO_MANUAL' },
      }),
      shippingInfo,
      amounts: () => ({
        subtotal: text(subtotal),
        shipping: text(shipping.cost),
        tax: text(taxes.total),
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
