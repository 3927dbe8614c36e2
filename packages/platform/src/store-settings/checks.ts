import type { DiscountRule, FieldViolation, RuleName } from '@cartwheel/sdk';
import { isCountryCode, subdivisionCode } from '../shared/countries.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { decimal } from '../shared/money.ts';
import type {
  CouponDraft,
  PickupLocationDraft,
  ShippingRegionDraft,
  StoreCommerceSettings,
  TaxRegionDraft,
} from './model.ts';

/**
 * The store settings' rules a schema cannot say (schemas.ts declares the shapes): real country and
 * currency codes, amounts as decimals, a window's end after its start, a trigger's nesting. Each
 * `check...` answers the setting as it is kept (codes upper-cased, defaults filled in) or throws every
 * violation of the request at once.
 */

/** The store's own settings: a currency is an ISO 4217 code this runtime knows. */
export function checkStoreSettings(patch: Partial<Pick<StoreCommerceSettings, 'currency'>>): void {
  if (patch.currency !== undefined && !isCurrencyCode(patch.currency)) {
    throw invalidArgument([
      violation('storeSettings.currency', 'must be an ISO 4217 currency code', 'FORMAT'),
    ]);
  }
}

function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return true;
  }
}

/** Collects business-rule violations the schemas cannot express (real country codes, ranges). */
class Problems {
  readonly list: FieldViolation[] = [];
  add(field: string, description: string, rule: RuleName = 'VALIDATION'): void {
    this.list.push(violation(field, description, rule));
  }
  country(field: string, value: string): void {
    if (!isCountryCode(value)) this.add(field, 'must be an ISO 3166-1 alpha-2 country code (US, DE, ...)');
  }
  amount(field: string, value: string | null | undefined): void {
    if (value === null || value === undefined) return;
    const amount = decimal(value);
    if (!amount || amount.lt(0)) this.add(field, 'must be a decimal amount of zero or more ("5.99")');
  }
  /**
   * A percentage off: above 0, at most 100, and (as the catalog's percent discounts) at most two
   * decimals, so `1e-300` is refused rather than kept as a discount of nothing.
   */
  percentage(field: string, value: number | null | undefined, required: string | null): void {
    if (value === null || value === undefined) {
      if (required) this.add(field, required);
    } else if (!(value > 0 && value <= 100)) {
      this.add(field, required ?? 'must be above 0, at most 100');
    } else if (Math.round(value * 100) / 100 !== value) {
      this.add(field, 'must have at most two decimals', 'DECIMAL_MAX_SCALE');
    }
  }
  /** An ISO-8601 date, as milliseconds; undefined (and a violation) when it is not one. */
  date(field: string, value: unknown): number | undefined {
    if (value === null || value === undefined) return undefined;
    const time = Date.parse(String(value));
    if (Number.isNaN(time)) this.add(field, 'must be an ISO-8601 date');
    return Number.isNaN(time) ? undefined : time;
  }
  /** A window's end after its start, named at the end: the field a merchant moves. */
  window(startField: string, start: number | undefined, endField: string, end: number | undefined): void {
    if (start !== undefined && end !== undefined && start >= end)
      this.add(endField, `must be after ${startField.slice(startField.lastIndexOf('.') + 1)}`);
  }
  done<T>(value: T): T {
    if (this.list.length > 0) throw invalidArgument(this.list);
    return value;
  }
}

export function checkTaxRegion(draft: TaxRegionDraft, prefix: string): TaxRegionDraft {
  const problems = new Problems();
  const country = draft.country.toUpperCase();
  problems.country(`${prefix}.country`, country);
  const subdivision = draft.subdivision ? subdivisionCode(country, draft.subdivision) : null;
  if (subdivision && !subdivision.startsWith(`${country}-`)) {
    problems.add(`${prefix}.subdivision`, `must be a subdivision of ${country} (${country}-XX)`);
  }
  const rate = decimal(draft.rate);
  if (!rate || rate.lt(0) || rate.gt(1))
    problems.add(`${prefix}.rate`, 'must be a decimal between 0 and 1 ("0.08875")');
  return problems.done({
    ...draft,
    country,
    subdivision,
    rate: rate ? rate.toString() : draft.rate,
    taxShipping: draft.taxShipping ?? false,
  });
}

export function checkShippingRegion(draft: ShippingRegionDraft, prefix: string): ShippingRegionDraft {
  const problems = new Problems();
  const destinations = draft.destinations.map((destination, index) => {
    const country = destination.country.toUpperCase();
    problems.country(`${prefix}.destinations[${index}].country`, country);
    const subdivisions = (destination.subdivisions ?? []).map((s) => subdivisionCode(country, s)!);
    subdivisions.forEach((s, i) => {
      if (!s.startsWith(`${country}-`))
        problems.add(
          `${prefix}.destinations[${index}].subdivisions[${i}]`,
          `must be a subdivision of ${country}`,
        );
    });
    return subdivisions.length > 0 ? { country, subdivisions } : { country };
  });
  const codes = new Set<string>();
  draft.options.forEach((option, index) => {
    const field = `${prefix}.options[${index}]`;
    if (codes.has(option.code)) problems.add(`${field}.code`, 'is used by another option of this region');
    codes.add(option.code);
    problems.amount(`${field}.rate.price`, option.rate.price);
    problems.amount(`${field}.rate.pricePerWeightUnit`, option.rate.pricePerWeightUnit);
    problems.amount(`${field}.rate.freeShippingAbove`, option.rate.freeShippingAbove);
    (option.rate.weightBrackets ?? []).forEach((bracket, i) => {
      problems.amount(`${field}.rate.weightBrackets[${i}].price`, bracket.price);
    });
    if (option.rate.kind === 'FLAT_RATE' && option.rate.price === undefined)
      problems.add(`${field}.rate.price`, 'is required for a FLAT_RATE option');
    if (
      option.rate.kind === 'BY_WEIGHT' &&
      option.rate.pricePerWeightUnit === undefined &&
      !option.rate.weightBrackets?.length
    ) {
      problems.add(`${field}.rate`, 'a BY_WEIGHT option needs pricePerWeightUnit or weightBrackets');
    }
    (option.deliveryTimeSlots ?? []).forEach((slot, i) => {
      if (!(Date.parse(slot.from) < Date.parse(slot.to)))
        problems.add(`${field}.deliveryTimeSlots[${i}]`, 'from must be a date before to');
    });
  });
  return problems.done({ ...draft, destinations });
}

export function checkPickupLocation(draft: PickupLocationDraft, prefix: string): PickupLocationDraft {
  const problems = new Problems();
  const country = draft.address.country?.toUpperCase();
  if (country) problems.country(`${prefix}.address.country`, country);
  problems.amount(`${prefix}.price`, draft.price);
  return problems.done({
    ...draft,
    address: { ...draft.address, ...(country ? { country } : {}) },
    price: draft.price ?? '0.00',
    pickupMethod: draft.pickupMethod ?? 'STORE_PICKUP',
  });
}

export function checkCoupon(draft: CouponDraft, prefix: string): CouponDraft {
  const problems = new Problems();
  problems.percentage(
    `${prefix}.percentage`,
    draft.percentage,
    draft.discountType === 'PERCENTAGE'
      ? 'a PERCENTAGE coupon needs a percentage above 0, at most 100'
      : null,
  );
  if (draft.discountType === 'FIXED_AMOUNT') {
    const amount = decimal(draft.fixedAmount);
    if (!amount || amount.lte(0))
      problems.add(`${prefix}.fixedAmount`, 'a FIXED_AMOUNT coupon needs a decimal amount above 0 ("5.00")');
  }
  problems.amount(`${prefix}.minimumSubtotal`, draft.minimumSubtotal);
  problems.window(
    `${prefix}.startTime`,
    problems.date(`${prefix}.startTime`, draft.startTime),
    `${prefix}.expirationTime`,
    problems.date(`${prefix}.expirationTime`, draft.expirationTime),
  );
  return problems.done({
    ...draft,
    code: draft.code.trim(),
    name: draft.name ?? draft.code.trim(),
    active: draft.active ?? true,
  });
}

export function checkDiscountRule(rule: DiscountRule, prefix: string): DiscountRule {
  const problems = new Problems();
  const { start, end } = rule.activeTimeInfo ?? {};
  problems.window(
    `${prefix}.activeTimeInfo.start`,
    problems.date(`${prefix}.activeTimeInfo.start`, start),
    `${prefix}.activeTimeInfo.end`,
    problems.date(`${prefix}.activeTimeInfo.end`, end),
  );
  (rule.discounts?.values ?? []).forEach((value, index) => {
    const field = `${prefix}.discounts.values[${index}]`;
    const type = value.discountType ?? (value.percentage != null ? 'PERCENTAGE' : 'FIXED_AMOUNT');
    problems.percentage(
      `${field}.percentage`,
      value.percentage,
      type === 'PERCENTAGE' ? 'a PERCENTAGE discount needs a percentage above 0, at most 100' : null,
    );
    if (type === 'FIXED_AMOUNT') problems.amount(`${field}.fixedAmount`, value.fixedAmount ?? '-');
    if (type === 'FIXED_PRICE') problems.amount(`${field}.fixedPrice`, value.fixedPrice ?? '-');
  });
  checkTrigger(problems, rule.trigger as Record<string, unknown> | undefined, `${prefix}.trigger`, 0);
  if ((rule.discounts?.values ?? []).length === 0)
    problems.add(`${prefix}.discounts.values`, 'needs at least one discount');
  return problems.done({ ...rule, active: rule.active ?? true });
}

/** The deepest a rule's `and`/`or` triggers nest, and the most triggers one level holds. */
const MAX_TRIGGER_DEPTH = 4;
const MAX_TRIGGERS = 20;

/** The hosted platform's trigger types (its `TriggerType`): a name outside them is refused, not kept. */
export const DISCOUNT_TRIGGER_TYPES = [
  'UNDEFINED',
  'AND',
  'SUBTOTAL_RANGE',
  'ITEM_QUANTITY_RANGE',
  'CUSTOM',
  'OR',
] as const;

/**
 * A trigger is one of: `and`/`or` of triggers, `subtotalRange` {from, to}, `itemQuantityRange`
 * {from, to}, `customTrigger` {id, appId}; `triggerType` names which. A range's `to` is not below its
 * `from`.
 */
function checkTrigger(
  problems: Problems,
  trigger: Record<string, unknown> | undefined,
  field: string,
  depth: number,
): void {
  if (trigger === undefined || trigger === null) return;
  if (typeof trigger !== 'object' || Array.isArray(trigger)) {
    problems.add(field, 'must be an object');
    return;
  }
  const type = trigger.triggerType;
  if (
    type !== undefined &&
    type !== null &&
    !(typeof type === 'string' && (DISCOUNT_TRIGGER_TYPES as readonly string[]).includes(type))
  ) {
    problems.add(
      `${field}.triggerType`,
      `must be one of ${DISCOUNT_TRIGGER_TYPES.join(', ')}`,
      'INVALID_ENUM_VALUE',
    );
  }
  for (const group of ['and', 'or'] as const) {
    const value = trigger[group] as { triggers?: unknown } | undefined;
    if (value === undefined) continue;
    const triggers = value?.triggers;
    if (depth >= MAX_TRIGGER_DEPTH) {
      problems.add(`${field}.${group}`, `nests deeper than ${MAX_TRIGGER_DEPTH} levels`);
      return;
    }
    if (!Array.isArray(triggers) || triggers.length > MAX_TRIGGERS) {
      problems.add(`${field}.${group}.triggers`, `must be a list of at most ${MAX_TRIGGERS} triggers`);
      return;
    }
    triggers.forEach((t, i) => {
      checkTrigger(problems, t as Record<string, unknown>, `${field}.${group}.triggers[${i}]`, depth + 1);
    });
  }
  const subtotal = trigger.subtotalRange as Record<string, unknown> | undefined;
  if (subtotal !== undefined) {
    const [from, to] = (['from', 'to'] as const).map((end) => {
      const value = subtotal?.[end];
      if (value === undefined || value === null) return undefined;
      const amount = typeof value === 'string' ? decimal(value) : null;
      if (!amount || amount.lt(0)) {
        problems.add(`${field}.subtotalRange.${end}`, 'must be a decimal amount of zero or more ("50.00")');
        return undefined;
      }
      return amount;
    });
    if (from && to?.lt(from)) problems.add(`${field}.subtotalRange.to`, 'must not be below from');
  }
  const quantity = trigger.itemQuantityRange as Record<string, unknown> | undefined;
  if (quantity !== undefined) {
    const [from, to] = (['from', 'to'] as const).map((end) => {
      const value = quantity?.[end];
      if (value === undefined || value === null) return undefined;
      if (!Number.isSafeInteger(value) || (value as number) < 0) {
        problems.add(`${field}.itemQuantityRange.${end}`, 'must be a whole number of zero or more');
        return undefined;
      }
      return value as number;
    });
    if (from !== undefined && to !== undefined && to < from)
      problems.add(`${field}.itemQuantityRange.to`, 'must not be below from');
  }
  const custom = trigger.customTrigger as Record<string, unknown> | undefined;
  if (custom !== undefined && custom !== null) {
    for (const key of ['id', 'appId']) {
      const value = custom[key];
      if (value !== undefined && value !== null && (typeof value !== 'string' || value.length > 200))
        problems.add(`${field}.customTrigger.${key}`, 'must be text of at most 200 characters', 'FORMAT');
    }
  }
}
