/**
 * Pieces the cart, the checkout, orders and subscription contracts share: catalog references,
 * line-item parts, discounts, shipping, taxes and totals, with the enumerations of point 3.
 */
import type { Address, AddressWithContact, Image, MultiCurrencyPrice, TranslatableString } from './common.ts';

/** Line item types of point 3; `CUSTOM_AMOUNT_ITEM` marks a custom line. */
export const ITEM_TYPE_PRESETS = [
  'PHYSICAL',
  'DIGITAL',
  'GIFT_CARD',
  'SERVICE',
  'CUSTOM_AMOUNT_ITEM',
] as const;
export type ItemTypePreset = (typeof ITEM_TYPE_PRESETS)[number];

export const PICKUP_METHODS = ['STORE_PICKUP', 'PICKUP_POINT'] as const;
export type PickupMethod = (typeof PICKUP_METHODS)[number];

export const PAYMENT_OPTION_TYPES = [
  'FULL_PAYMENT_ONLINE',
  'FULL_PAYMENT_OFFLINE',
  'MEMBERSHIP',
  'DEPOSIT_ONLINE',
  'MEMBERSHIP_OFFLINE',
] as const;
export type PaymentOptionType = (typeof PAYMENT_OPTION_TYPES)[number];

export const ITEM_AVAILABILITY_STATUSES = [
  'AVAILABLE',
  'NOT_FOUND',
  'NOT_AVAILABLE',
  'PARTIALLY_AVAILABLE',
] as const;
export type ItemAvailabilityStatus = (typeof ITEM_AVAILABILITY_STATUSES)[number];

/** Where an order came from. The spec names the first five "and others": these are the wire's. */
export const CHANNEL_TYPES = [
  'WEB',
  'POS',
  'EBAY',
  'AMAZON',
  'OTHER_PLATFORM',
  'UNSPECIFIED',
  'WIX_APP_STORE',
  'WIX_INVOICES',
  'BACKOFFICE_MERCHANT',
  'WISH',
  'CLASS_PASS',
  'GLOBAL_E',
  'FACEBOOK',
  'ETSY',
  'TIKTOK',
  'FAIRE_COM',
  'PAYPAL_AGENTIC_CHECKOUT',
  'STRIPE_AGENTIC_CHECKOUT',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const TAX_RATE_TYPES = ['NO_TAX_COLLECTED', 'MANUAL_RATE', 'AUTO_RATE', 'FALLBACK_RATE'] as const;
export type TaxRateType = (typeof TAX_RATE_TYPES)[number];

/** What an applied discount covers. (The catalog's product discount is `DiscountType`.) */
export const APPLIED_DISCOUNT_TYPES = ['GLOBAL', 'SPECIFIC_ITEMS', 'SHIPPING'] as const;
export type AppliedDiscountType = (typeof APPLIED_DISCOUNT_TYPES)[number];

/** Shipping charges beyond the rate itself. */
export const CHARGE_TYPES = ['HANDLING_FEE', 'INSURANCE'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const JURISDICTION_TYPES = ['COUNTRY', 'STATE', 'COUNTY', 'CITY', 'SPECIAL'] as const;
export type JurisdictionType = (typeof JURISDICTION_TYPES)[number];

export const SUBSCRIPTION_FREQUENCIES = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type SubscriptionFrequency = (typeof SUBSCRIPTION_FREQUENCIES)[number];

/** Why tax fell back to a rate (point 8). */
export const TAX_FALLBACK_REASONS = ['AUTO_TAX_FAILED', 'AUTO_TAX_DEACTIVATED'] as const;
export type TaxFallbackReason = (typeof TAX_FALLBACK_REASONS)[number];

/** Why tax was calculated manually (point 8). */
export const TAX_MANUAL_CALCULATION_REASONS = [
  'GLOBAL_SETTING_TO_MANUAL',
  'REGION_SETTING_TO_MANUAL',
] as const;
export type TaxManualCalculationReason = (typeof TAX_MANUAL_CALCULATION_REASONS)[number];

/**
 * Points a line item at the catalog item it sells: for the stores catalog `appId` is
 * `STORES_APP_ID`, `catalogItemId` the product id, `options` `{variantId}` or `{options: {Size: 'M'}}`.
 */
export interface CatalogReference {
  catalogItemId?: string;
  appId?: string;
  options?: Record<string, unknown> | null;
}

export interface ItemType {
  preset?: ItemTypePreset;
  /** A type of the merchant's own, when no preset fits. */
  custom?: string;
}

export interface DescriptionLine {
  name?: TranslatableString;
  plainText?: TranslatableString;
  colorInfo?: { original?: string; translated?: string | null; code?: string | null };
  lineType?: string;
}

export interface ItemAvailabilityInfo {
  status?: ItemAvailabilityStatus;
  quantityAvailable?: number | null;
}

export interface PhysicalProperties {
  weight?: number | null;
  sku?: string | null;
  shippable?: boolean;
}

export interface FreeTrialPeriod {
  frequency?: SubscriptionFrequency;
  interval?: number;
}

export interface SubscriptionSettings {
  frequency?: SubscriptionFrequency;
  interval?: number | null;
  autoRenewal?: boolean;
  billingCycles?: number | null;
  enableCustomerCancellation?: boolean;
  freeTrialPeriod?: FreeTrialPeriod;
  /** When the first cycle begins. */
  startDate?: Date;
}

export interface SubscriptionOptionInfo {
  subscriptionSettings?: SubscriptionSettings;
  title?: TranslatableString;
  description?: TranslatableString;
}

/** A booked service: when it takes place and for how many. */
export interface ServiceProperties {
  scheduledDate?: Date;
  numberOfParticipants?: number | null;
}

/** Values the caller sets on a catalog line item in place of the catalog's own. */
export interface CatalogOverrideFields {
  productName?: TranslatableString;
  price?: string | null;
  fullPrice?: string | null;
  descriptionLines?: DescriptionLine[];
  physicalProperties?: PhysicalProperties;
  image?: Image;
  paymentOption?: { value?: PaymentOptionType };
  depositAmount?: string | null;
}

export interface SelectedShippingOption {
  carrierId?: string | null;
  code?: string;
}

export interface Coupon {
  id?: string;
  code?: string;
  name?: string;
  amount?: MultiCurrencyPrice;
}

export interface MerchantDiscount {
  amount?: MultiCurrencyPrice;
  percentage?: number | null;
}

/** A merchant discount as a cart update sends it. */
/** A merchant's discount on a cart: an `amount` off, or a `percentage` (0.01 to 100) of the items' price before other discounts. */
export interface MerchantDiscountInput {
  amount?: string;
  percentage?: number;
  lineItemIds?: string[];
}

export interface AppliedDiscountRule {
  id?: string;
  name?: TranslatableString;
  amount?: MultiCurrencyPrice;
}

/** A discount in effect on a cart, checkout or order: exactly one of its sources is set. */
export interface AppliedDiscount {
  coupon?: Coupon;
  merchantDiscount?: MerchantDiscount;
  discountRule?: AppliedDiscountRule;
  discountType?: AppliedDiscountType;
  /** The items it applies to, for `SPECIFIC_ITEMS`. */
  lineItemIds?: string[];
}

export interface DeliveryTimeSlot {
  from?: Date;
  to?: Date;
}

export interface PickupDetails {
  address?: Address;
  businessLocation?: boolean;
  pickupMethod?: PickupMethod;
}

export interface DeliveryLogistics {
  /** Free text such as "3-5 business days". */
  deliveryTime?: string | null;
  instructions?: string | null;
  pickupDetails?: PickupDetails;
  deliveryTimeSlot?: DeliveryTimeSlot;
}

export interface OtherCharge {
  type?: ChargeType;
  price?: MultiCurrencyPrice;
  details?: string | null;
}

export interface ShippingPrice {
  price?: MultiCurrencyPrice;
  otherCharges?: OtherCharge[];
}

export interface ShippingOption {
  code?: string;
  title?: string;
  logistics?: DeliveryLogistics;
  cost?: ShippingPrice;
}

export interface CarrierServiceOption {
  carrierId?: string;
  shippingOptions?: ShippingOption[];
}

export interface SelectedCarrierServiceOption {
  code?: string;
  title?: string;
  logistics?: DeliveryLogistics;
  cost?: ShippingPrice & {
    totalPriceAfterTax?: MultiCurrencyPrice;
    totalPriceBeforeTax?: MultiCurrencyPrice;
  };
  requestedShippingOption?: boolean;
  carrierId?: string | null;
}

export interface ShippingRegion {
  id?: string;
  name?: string;
}

/** Shipping on a cart estimate or a checkout: where to, the choice made, and every choice offered. */
export interface ShippingInfo {
  shippingDestination?: AddressWithContact;
  selectedCarrierServiceOption?: SelectedCarrierServiceOption;
  region?: ShippingRegion;
  carrierServiceOptions?: CarrierServiceOption[];
}

export interface MembershipName {
  original?: string;
  translated?: string | null;
}

export interface Membership {
  id?: string;
  appId?: string;
  name?: MembershipName;
  lineItemIds?: string[];
  credits?: { total?: number; remaining?: number };
  expirationDate?: Date;
}

export interface InvalidMembership {
  membership?: Membership;
  reason?: string;
}

export interface SelectedMembership {
  id?: string;
  appId?: string;
  lineItemIds?: string[];
}

/** Memberships the buyer could pay with, could not, and did choose. */
export interface MembershipOptions {
  eligibleMemberships?: Membership[];
  invalidMemberships?: InvalidMembership[];
  selectedMemberships?: { memberships?: SelectedMembership[] };
}

export interface TaxRateBreakdown {
  name?: string;
  rate?: string;
  tax?: MultiCurrencyPrice;
}

export interface TaxBreakdown {
  jurisdiction?: string | null;
  jurisdictionType?: JurisdictionType;
  nonTaxableAmount?: MultiCurrencyPrice;
  rate?: string | null;
  taxAmount?: MultiCurrencyPrice;
  taxableAmount?: MultiCurrencyPrice;
  taxType?: string | null;
  taxName?: string | null;
}

export interface ItemTaxFullDetails {
  taxableAmount?: MultiCurrencyPrice;
  taxRate?: string;
  totalTax?: MultiCurrencyPrice;
  rateBreakdown?: TaxRateBreakdown[];
  taxBreakdown?: TaxBreakdown[];
}

export interface TaxCalculationDetails {
  rateType?: TaxRateType;
  fallbackReason?: TaxFallbackReason;
  manualRateReason?: TaxManualCalculationReason;
}

export interface TaxSummary {
  taxableAmount?: MultiCurrencyPrice;
  totalTax?: MultiCurrencyPrice;
  calculationDetails?: TaxCalculationDetails;
}

export interface PriceSummary {
  subtotal?: MultiCurrencyPrice;
  shipping?: MultiCurrencyPrice;
  tax?: MultiCurrencyPrice;
  discount?: MultiCurrencyPrice;
  total?: MultiCurrencyPrice;
  additionalFees?: MultiCurrencyPrice;
}

export interface AdditionalFee {
  code?: string | null;
  name?: string;
  price?: MultiCurrencyPrice;
  taxDetails?: ItemTaxFullDetails;
  lineItemIds?: string[];
}

/** Problems of a checkout the buyer should see. */
export const VIOLATION_SEVERITIES = ['WARNING', 'ERROR'] as const;
export type ViolationSeverity = (typeof VIOLATION_SEVERITIES)[number];

export const SUGGESTED_FIXES = ['REMOVE_LINE_ITEM'] as const;
export type SuggestedFix = (typeof SUGGESTED_FIXES)[number];

export interface Violation {
  severity?: ViolationSeverity;
  target?: {
    other?: { name?: string };
    lineItem?: { id?: string | null; name?: string; suggestedFix?: SuggestedFix };
  };
  description?: string | null;
}

/** An error a calculation step met, in the wire's error form. */
export interface CalculationErrorDetails {
  applicationError?: { code?: string; description?: string; data?: Record<string, unknown> };
  validationError?: { fieldViolations?: Array<{ field?: string; description?: string }> };
  tracing?: Record<string, string>;
}

export interface CalculationErrors {
  generalShippingCalculationError?: CalculationErrorDetails;
  carrierErrors?: { errors?: Array<{ carrierId?: string; error?: CalculationErrorDetails }> };
  selectedShippingOptionError?: CalculationErrorDetails;
  taxCalculationError?: CalculationErrorDetails;
  couponCalculationError?: CalculationErrorDetails;
  giftCardCalculationError?: CalculationErrorDetails;
  orderValidationErrors?: Array<{ code?: string; description?: string; data?: Record<string, unknown> }>;
  membershipError?: CalculationErrorDetails;
  discountsCalculationError?: CalculationErrorDetails;
}

/** Per-line prices after discounts and taxes, as totals calculation returns them. */
export interface CalculatedLineItem {
  lineItemId?: string;
  pricesBreakdown?: {
    totalPriceAfterTax?: MultiCurrencyPrice;
    totalPriceBeforeTax?: MultiCurrencyPrice;
    taxDetails?: ItemTaxFullDetails;
    totalDiscount?: MultiCurrencyPrice;
    price?: MultiCurrencyPrice;
    priceBeforeDiscounts?: MultiCurrencyPrice;
    lineItemPrice?: MultiCurrencyPrice;
    fullPrice?: MultiCurrencyPrice;
  };
  paymentOption?: PaymentOptionType;
}
