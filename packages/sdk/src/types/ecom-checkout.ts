/** The checkout (`/v1/checkouts`) and the checkout page's settings. */
import type { AddressWithContact, BuyerInfo, Image, MultiCurrencyPrice, WeightUnit } from './common.ts';
import type { LineItem } from './ecom-cart.ts';
import type {
  AdditionalFee,
  AppliedDiscount,
  CalculationErrors,
  ChannelType,
  MembershipOptions,
  PriceSummary,
  ShippingInfo,
  TaxSummary,
  Violation,
} from './ecom-common.ts';

export interface Checkout {
  id?: string | null;
  lineItems?: LineItem[];
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
