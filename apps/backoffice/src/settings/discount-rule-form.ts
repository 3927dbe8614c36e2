import type { DiscountRule, DiscountRuleDiscount, DiscountTrigger } from '@cartwheel/sdk';
import { localInputOf } from './common.tsx';

/**
 * The discount rule form's values and their translation to and from the platform's rule (the hosted
 * shapes: `discounts.values[0]`, `trigger`, `activeTimeInfo`). Only what pricing applies is offered
 * (packages/platform/src/pricing/discounts.ts): a percentage, an amount or a fixed price per item, off
 * the entire cart, off chosen products and collections, or off shipping; when the cart's subtotal or
 * item count reaches a minimum; inside a time window. The checks mirror the platform's
 * (store-settings/checks.ts and schemas.ts).
 */

export type RuleTarget = 'ENTIRE_CART' | 'SPECIFIC_ITEMS' | 'SHIPPING';
export type RuleDiscountType = 'PERCENTAGE' | 'FIXED_AMOUNT' | 'FIXED_PRICE';

export interface RuleFormValues {
  name: string;
  target: RuleTarget;
  /** For `SPECIFIC_ITEMS`: the products and the collections whose items it takes off. */
  productIds: string[];
  collectionIds: string[];
  discountType: RuleDiscountType;
  /** The percentage, the amount off, or the price each item sells at, by the type. */
  value: string;
  /** The cart subtotal from which the rule applies; empty: any subtotal. */
  minimumSubtotal: string;
  /** The number of items from which the rule applies; empty: any number. */
  minimumQuantity: string;
  /** `datetime-local` values, or empty. */
  start: string;
  end: string;
  active: boolean;
}

export const EMPTY_RULE: RuleFormValues = {
  name: '',
  target: 'ENTIRE_CART',
  productIds: [],
  collectionIds: [],
  discountType: 'PERCENTAGE',
  value: '',
  minimumSubtotal: '',
  minimumQuantity: '',
  start: '',
  end: '',
  active: true,
};

/** The platform's limits (schemas.ts): a name's length, ids per scope. */
export const NAME_LIMIT = 200;
export const SCOPE_IDS_LIMIT = 200;

const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;
/** Above 0, at most 100, at most two decimals (checks.ts `percentage`). */
const PERCENTAGE = /^\d{1,3}(\.\d{1,2})?$/;

export const checks = {
  name: (value: string) =>
    value.trim() === ''
      ? 'Name the rule, like Summer sale.'
      : value.trim().length > NAME_LIMIT
        ? `At most ${NAME_LIMIT} characters.`
        : true,
  value: (value: string, all: RuleFormValues) => {
    const text = value.trim();
    if (all.discountType === 'PERCENTAGE')
      return (
        (PERCENTAGE.test(text) && Number(text) > 0 && Number(text) <= 100) ||
        'A percentage above 0, at most 100, with at most two decimals.'
      );
    if (all.discountType === 'FIXED_PRICE' && all.target === 'SHIPPING')
      return 'A fixed price is for items: choose a percentage or an amount off shipping.';
    return (
      AMOUNT.test(text) ||
      (all.discountType === 'FIXED_PRICE' ? 'A price like 9.99.' : 'An amount like 5.00.')
    );
  },
  minimumSubtotal: (value: string) =>
    value.trim() === '' || AMOUNT.test(value.trim()) || 'An amount like 50.00.',
  minimumQuantity: (value: string) =>
    value.trim() === '' ||
    (/^\d{1,9}$/.test(value.trim()) && Number(value) >= 0) ||
    'A whole number of items, like 3.',
  end: (value: string, all: RuleFormValues) =>
    !value || !all.start || value > all.start || 'The end comes after the start.',
  /** Specific items need something to take off: a rule with no product or collection discounts nothing. */
  scope: (all: RuleFormValues) =>
    all.target !== 'SPECIFIC_ITEMS' ||
    (all.productIds.length === 0 && all.collectionIds.length === 0
      ? 'Choose at least one product or collection.'
      : all.productIds.length > SCOPE_IDS_LIMIT || all.collectionIds.length > SCOPE_IDS_LIMIT
        ? `At most ${SCOPE_IDS_LIMIT} products and ${SCOPE_IDS_LIMIT} collections.`
        : true),
};

/** The conditions the form edits, read from a trigger; `other` when the trigger holds more than they say. */
function conditionsOf(trigger: DiscountTrigger | undefined): {
  minimumSubtotal: string;
  minimumQuantity: string;
  other: boolean;
} {
  const found = { minimumSubtotal: '', minimumQuantity: '', other: false };
  const parts = trigger?.and ? (trigger.and.triggers ?? []) : trigger ? [trigger] : [];
  for (const part of parts) {
    if (part.subtotalRange) {
      found.minimumSubtotal = part.subtotalRange.from ?? '';
      if (part.subtotalRange.to != null) found.other = true;
    } else if (part.itemQuantityRange) {
      found.minimumQuantity = part.itemQuantityRange.from != null ? String(part.itemQuantityRange.from) : '';
      if (part.itemQuantityRange.to != null) found.other = true;
    } else if (part.and || part.or || part.customTrigger) {
      found.other = true;
    }
  }
  return found;
}

/** Whether saving the form would drop part of the rule that it cannot show (made through the API). */
export function moreThanTheFormShows(rule: DiscountRule): boolean {
  const values = rule.discounts?.values ?? [];
  return values.length > 1 || conditionsOf(rule.trigger).other;
}

type Scope = NonNullable<NonNullable<DiscountRuleDiscount['specificItemsInfo']>['scopes']>[number];

/** The products and collections a discount's scopes name. */
export function scopeIdsOf(discount: DiscountRuleDiscount | undefined) {
  const scopes: Scope[] = discount?.specificItemsInfo?.scopes ?? [];
  return {
    productIds: scopes.flatMap((scope) => scope.catalogItemFilter?.catalogItemIds ?? []),
    collectionIds: scopes.flatMap((scope) => scope.customFilter?.params?.collectionIds ?? []),
  };
}

export function targetOf(discount: DiscountRuleDiscount | undefined): RuleTarget {
  return discount?.targetType === 'SPECIFIC_ITEMS' || discount?.targetType === 'SHIPPING'
    ? discount.targetType
    : 'ENTIRE_CART';
}

export function typeOf(discount: DiscountRuleDiscount | undefined): RuleDiscountType {
  if (discount?.discountType === 'FIXED_PRICE' || discount?.discountType === 'FIXED_AMOUNT')
    return discount.discountType;
  if (discount?.discountType === 'PERCENTAGE' || discount?.percentage != null) return 'PERCENTAGE';
  return 'FIXED_AMOUNT';
}

export function valuesOf(rule: DiscountRule): RuleFormValues {
  const discount = rule.discounts?.values?.[0];
  const discountType = typeOf(discount);
  const { minimumSubtotal, minimumQuantity } = conditionsOf(rule.trigger);
  return {
    name: rule.name ?? '',
    target: targetOf(discount),
    ...scopeIdsOf(discount),
    discountType,
    value:
      discountType === 'PERCENTAGE'
        ? String(discount?.percentage ?? '')
        : discountType === 'FIXED_PRICE'
          ? (discount?.fixedPrice ?? '')
          : (discount?.fixedAmount ?? ''),
    minimumSubtotal,
    minimumQuantity,
    start: localInputOf(rule.activeTimeInfo?.start),
    end: localInputOf(rule.activeTimeInfo?.end),
    active: rule.active !== false,
  };
}

/** The rule the platform takes for the form's (checked) values. */
export function ruleOf(values: RuleFormValues): DiscountRule {
  const conditions: DiscountTrigger[] = [];
  const minimumSubtotal = values.minimumSubtotal.trim();
  const minimumQuantity = values.minimumQuantity.trim();
  if (minimumSubtotal)
    conditions.push({ triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: minimumSubtotal } });
  if (minimumQuantity)
    conditions.push({
      triggerType: 'ITEM_QUANTITY_RANGE',
      itemQuantityRange: { from: Number(minimumQuantity) },
    });
  // none: it applies to every cart; one: that one; both: both must hold
  const trigger: DiscountTrigger =
    conditions.length === 0
      ? {}
      : conditions.length === 1
        ? (conditions[0] as DiscountTrigger)
        : { triggerType: 'AND', and: { triggers: conditions } };
  const value = values.value.trim();
  const scopes: Scope[] = [];
  if (values.target === 'SPECIFIC_ITEMS') {
    if (values.productIds.length > 0)
      scopes.push({ type: 'CATALOG_ITEM', catalogItemFilter: { catalogItemIds: values.productIds } });
    if (values.collectionIds.length > 0)
      scopes.push({
        type: 'CUSTOM_FILTER',
        customFilter: { params: { collectionIds: values.collectionIds } },
      });
  }
  const discount: DiscountRuleDiscount = {
    discountType: values.discountType,
    targetType: values.target,
    ...(values.discountType === 'PERCENTAGE'
      ? { percentage: Number(value) }
      : values.discountType === 'FIXED_PRICE'
        ? { fixedPrice: value }
        : { fixedAmount: value }),
    ...(scopes.length > 0 ? { specificItemsInfo: { scopes } } : {}),
  };
  return {
    name: values.name.trim(),
    active: values.active,
    // the whole window is sent: a bound left empty is no bound (the rule's old one goes)
    activeTimeInfo: {
      ...(values.start ? { start: new Date(values.start) } : {}),
      ...(values.end ? { end: new Date(values.end) } : {}),
    },
    trigger,
    discounts: { values: [discount] },
  };
}

/** What a rule takes off and when, as the list says it; `names` gives products' and collections' names. */
export function describeRule(rule: DiscountRule, names: (id: string) => string | undefined): string {
  const discount = rule.discounts?.values?.[0];
  if (!discount) return '—';
  const type = typeOf(discount);
  const target = targetOf(discount);
  const what =
    type === 'PERCENTAGE'
      ? `${discount.percentage}% off`
      : type === 'FIXED_PRICE'
        ? `${discount.fixedPrice} each`
        : `${discount.fixedAmount} off`;
  let on: string;
  if (target === 'SHIPPING') on = 'shipping';
  else if (target === 'ENTIRE_CART') on = 'every item';
  else {
    const { productIds, collectionIds } = scopeIdsOf(discount);
    const named = [
      ...productIds.map((id) => names(id) ?? 'a product'),
      ...collectionIds.map((id) => `the collection ${names(id) ?? id}`),
    ];
    on = named.length > 3 ? `${named.slice(0, 3).join(', ')} and ${named.length - 3} more` : named.join(', ');
  }
  const { minimumSubtotal, minimumQuantity, other } = conditionsOf(rule.trigger);
  const when = [
    minimumSubtotal ? `subtotal from ${minimumSubtotal}` : '',
    minimumQuantity ? `${minimumQuantity} or more items` : '',
    other ? 'other conditions' : '',
  ].filter(Boolean);
  const text = type === 'FIXED_PRICE' ? `${on} at ${what}` : `${what} ${on}`;
  return when.length > 0 ? `${text}, carts with ${when.join(' and ')}` : `${text}, every cart`;
}
