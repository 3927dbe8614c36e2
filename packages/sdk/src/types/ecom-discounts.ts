/** Automatic discount rules: when they are live and what they take off. */

export const DISCOUNT_RULE_STATUSES = ['LIVE', 'EXPIRED', 'PENDING'] as const;
export type DiscountRuleStatus = (typeof DISCOUNT_RULE_STATUSES)[number];

/** When a rule applies; no `end` means open-ended. */
export interface ActiveTimeInfo {
  start?: Date;
  end?: Date;
}

/** One discount of a rule: exactly one of its kinds is set. */
export interface DiscountRuleDiscount {
  percentage?: number;
  /** Decimal string. */
  fixedAmount?: string;
  fixedPrice?: string;
  /** `ENTIRE_CART`, `SPECIFIC_ITEMS` or `SHIPPING`. */
  targetType?: string;
  /** For `SPECIFIC_ITEMS`: the products (`catalogItemFilter`) or collections (`customFilter`) it takes off. */
  specificItemsInfo?: {
    scopes?: Array<{
      id?: string;
      type?: string;
      catalogItemFilter?: { catalogAppId?: string; catalogItemIds?: string[] };
      customFilter?: { appId?: string; params?: { collectionIds?: string[] } };
    }>;
  };
  discountType?: string;
}

/** What must hold for the rule to apply: nested `and`/`or`, subtotal or quantity ranges. */
export interface DiscountTrigger {
  and?: { triggers?: DiscountTrigger[] };
  or?: { triggers?: DiscountTrigger[] };
  subtotalRange?: { from?: string | null; to?: string | null };
  itemQuantityRange?: { from?: number | null; to?: number | null };
  customTrigger?: { id?: string; appId?: string };
  triggerType?: string;
}

export interface DiscountRule {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  active?: boolean | null;
  name?: string | null;
  trigger?: DiscountTrigger;
  activeTimeInfo?: ActiveTimeInfo;
  discounts?: { values?: DiscountRuleDiscount[] };
  status?: DiscountRuleStatus;
  usageCount?: number;
}
