/** The checkout (`/v1/checkouts`) and the checkout page's settings. */
import type {
  AddressWithContact,
  BuyerInfo,
  ExtendedFields,
  Image,
  MultiCurrencyPrice,
  TranslatableString,
  WeightUnit,
} from './common.ts';
import type { CustomLineItem, LineItem } from './ecom-cart.ts';
import type {
  AdditionalFee,
  AppliedDiscount,
  CalculationErrors,
  ChannelType,
  ItemTaxFullDetails,
  MembershipOptions,
  PriceSummary,
  ShippingInfo,
  TaxSummary,
  Violation,
} from './ecom-common.ts';

/**
 * A checkout's line: a cart line with its taxes and discount worked out. The hosted wire names the
 * line's image `media`; `image` (the cart's name) is kept for Cartwheel's own pages.
 */
export interface CheckoutLineItem extends LineItem {
  media?: Image;
  totalPriceBeforeTax?: MultiCurrencyPrice;
  totalPriceAfterTax?: MultiCurrencyPrice;
  taxDetails?: ItemTaxFullDetails;
  /** Discount of the whole line. */
  discount?: MultiCurrencyPrice;
  priceDescription?: TranslatableString;
  savePaymentMethod?: boolean;
  membersOnly?: boolean;
}

/** One charge of a subscription bought in the checkout: which cycles, how much, billed when. */
export interface SubscriptionCharge {
  cycleFrom?: number;
  cycleCount?: number | null;
  priceSummary?: PriceSummary;
  cycleBillingDate?: Date;
}

export interface Checkout {
  id?: string | null;
  lineItems?: CheckoutLineItem[];
  billingInfo?: AddressWithContact;
  shippingInfo?: ShippingInfo;
  buyerNote?: string | null;
  buyerInfo?: BuyerInfo;
  conversionCurrency?: string;
  priceSummary?: PriceSummary;
  calculationErrors?: CalculationErrors;
  giftCard?: { id?: string; obfuscatedCode?: string; amount?: MultiCurrencyPrice; appId?: string };
  appliedDiscounts?: AppliedDiscount[];
  customFields?: Array<{ value?: unknown; title?: string; translatedTitle?: string | null }>;
  weightUnit?: WeightUnit;
  taxSummary?: TaxSummary;
  currency?: string;
  channelType?: ChannelType;
  siteLanguage?: string;
  buyerLanguage?: string;
  /** True once an order was created from it. */
  completed?: boolean;
  taxIncludedInPrice?: boolean;
  createdBy?: { userId?: string; memberId?: string; visitorId?: string; appId?: string };
  createdDate?: Date;
  updatedDate?: Date;
  payNow?: PriceSummary;
  payLater?: PriceSummary;
  membershipOptions?: MembershipOptions;
  additionalFees?: AdditionalFee[];
  cartId?: string | null;
  violations?: Violation[];
  purchaseFlowId?: string | null;
  extendedFields?: ExtendedFields;
  /** What the buyer may not change in the checkout. */
  customSettings?: {
    lockGiftCard?: boolean;
    lockCouponCode?: boolean;
    disabledPolicyAgreementCheckbox?: boolean;
    disabledManualPayment?: boolean;
  };
  subscriptionCharges?: {
    lineItemIds?: string[];
    description?: string | null;
    charges?: SubscriptionCharge[];
  };
  payAfterFreeTrial?: PriceSummary;
  businessLocationId?: string | null;
  /** The currency the buyer pays in. */
  paymentCurrency?: string;
  taxExemptGroupId?: string | null;
}

/** `POST /v1/checkouts`: a checkout from lines (or from `checkoutInfo`), not from a cart. */
export interface CreateCheckoutOptions {
  /** Fields of the new checkout: buyer info, addresses, the selected carrier option, ... */
  checkoutInfo?: Checkout;
  couponCode?: string | null;
  lineItems?: LineItem[];
  customLineItems?: CustomLineItem[];
  channelType: ChannelType;
  giftCardCode?: string | null;
  /** Where the buyer pays instead of the platform's checkout page. */
  overrideCheckoutUrl?: string | null;
  giftCardRedeemAmount?: string | null;
}

/** The fields an update may set: the id comes from the call. */
export type CheckoutUpdate = Omit<Checkout, 'id'>;

/** `PATCH /v1/checkouts/{id}`: what the update sends beside the checkout. */
export interface UpdateCheckoutOptions {
  couponCode?: string | null;
  giftCardCode?: string | null;
  overrideCheckoutUrl?: string | null;
  /** Lines to add. */
  lineItems?: LineItem[];
  customLineItems?: CustomLineItem[];
  giftCardRedeemAmount?: string | null;
}

export interface AddToCheckoutOptions {
  lineItems?: LineItem[];
  customLineItems?: CustomLineItem[];
}

/** The answer of the checkout calls that change lines or the coupon: the checkout after the change. */
export interface CheckoutResponse {
  checkout: Checkout;
}

/** `POST /v1/checkouts/{id}/create-order`. */
export interface CreateOrderFromCheckoutOptions {
  /** Keep the buyer's card for later purchases. */
  savePaymentMethod?: boolean;
  /** Authorize the payment now, capture it later. */
  delayCapture?: boolean;
}

/** The answer of `create-order`: the order's id (or a subscription's), not the order. */
export interface CreateOrderFromCheckoutResponse {
  orderId?: string;
  subscriptionId?: string;
  /** The payment to collect; absent when the total is 0. */
  paymentGatewayOrderId?: string | null;
}

/** The answer of `checkout-url`: the page where the buyer pays. */
export interface CheckoutUrlResponse {
  checkoutUrl?: string;
}

/** `POST /v1/checkouts/{id}/mark-as-completed`. */
export interface MarkCheckoutAsCompletedOptions {
  /** The order the checkout became, when it was paid elsewhere. */
  orderId?: string | null;
}

export const LOGO_SIZES = ['SMALL', 'MEDIUM', 'LARGE'] as const;
export type LogoSize = (typeof LOGO_SIZES)[number];

/** `SIDE` follows the reading direction of the site's language. */
export const LOGO_ALIGNMENTS = ['SIDE', 'CENTER'] as const;
export type LogoAlignment = (typeof LOGO_ALIGNMENTS)[number];

export const CHECKOUT_SETTINGS_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type CheckoutSettingsStatus = (typeof CHECKOUT_SETTINGS_STATUSES)[number];

export interface CheckoutLogo {
  image?: Image;
  size?: LogoSize;
}

export interface CheckoutBrand {
  header?: {
    logo?: CheckoutLogo;
    alignment?: LogoAlignment;
    backgroundColor?: string | null;
    textColor?: string | null;
  };
  mainSection?: Record<string, unknown>;
  footer?: Record<string, unknown>;
  global?: Record<string, unknown>;
}

export interface CheckoutPolicy {
  visible?: boolean;
  title?: string | null;
  /** Plain-text or rich-content body. */
  content?: string | null;
}

export interface CheckoutSettings {
  checkoutPolicies?: {
    termsAndConditions?: CheckoutPolicy;
    privacyPolicy?: CheckoutPolicy;
    returnPolicy?: CheckoutPolicy;
    digitalItemPolicy?: CheckoutPolicy;
    contactUs?: CheckoutPolicy;
    customPolicy?: CheckoutPolicy;
  };
  checkoutFields?: {
    policiesCheckbox?: { visible?: boolean; checkedByDefault?: boolean };
    subscriptionCheckbox?: { visible?: boolean; checkedByDefault?: boolean };
  };
  checkoutBrand?: CheckoutBrand;
  status?: CheckoutSettingsStatus;
  createdDate?: Date;
  updatedDate?: Date;
}
