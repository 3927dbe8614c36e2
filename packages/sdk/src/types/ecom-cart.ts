/** The current visitor's cart (`/v1/carts/current`), its updates and its totals estimate. */
import type {
  Address,
  AddressWithContact,
  BuyerInfo,
  Image,
  MultiCurrencyPrice,
  PageUrl,
  TranslatableString,
  WeightUnit,
} from './common.ts';
import type {
  AdditionalFee,
  AppliedDiscount,
  CalculatedLineItem,
  CalculationErrors,
  CatalogOverrideFields,
  CatalogReference,
  ChannelType,
  Coupon,
  DescriptionLine,
  ItemAvailabilityInfo,
  ItemType,
  MembershipOptions,
  MerchantDiscount,
  MerchantDiscountInput,
  PaymentOptionType,
  PhysicalProperties,
  PriceSummary,
  SelectedMembership,
  SelectedShippingOption,
  ServiceProperties,
  ShippingInfo,
  SubscriptionOptionInfo,
  TaxSummary,
  Violation,
} from './ecom-common.ts';

export interface LineItem {
  id?: string | null;
  quantity?: number;
  catalogReference?: CatalogReference;
  productName?: TranslatableString;
  url?: PageUrl;
  /** Unit price after catalog discounts. */
  price?: MultiCurrencyPrice;
  /** Unit price before any discount (the catalog's list price). */
  fullPrice?: MultiCurrencyPrice;
  priceBeforeDiscounts?: MultiCurrencyPrice;
  /** `price` times `quantity`. */
  lineItemPrice?: MultiCurrencyPrice;
  descriptionLines?: DescriptionLine[];
  image?: Image;
  availability?: ItemAvailabilityInfo;
  physicalProperties?: PhysicalProperties;
  itemType?: ItemType;
  subscriptionOptionInfo?: SubscriptionOptionInfo;
  paymentOption?: PaymentOptionType;
  serviceProperties?: ServiceProperties;
  rootCatalogItemId?: string | null;
  depositAmount?: MultiCurrencyPrice;
  selectedMembership?: SelectedMembership;
  /** True for a line the caller priced itself rather than the catalog. */
  customLineItem?: boolean;
  priceUndetermined?: boolean;
  fixedQuantity?: boolean;
  catalogOverrideFields?: CatalogOverrideFields;
}

/** A line the caller describes in full, with its own price: no catalog lookup. */
export interface CustomLineItem {
  id?: string | null;
  quantity?: number;
  /** Decimal string. */
  price?: string;
  fullPrice?: string | null;
  productName?: TranslatableString;
  descriptionLines?: DescriptionLine[];
  /** Image url. */
  media?: string;
  url?: PageUrl;
  itemType?: ItemType;
  quantityAvailable?: number | null;
  physicalProperties?: PhysicalProperties;
  paymentOption?: PaymentOptionType;
  serviceProperties?: ServiceProperties;
  rootCatalogItemId?: string | null;
  depositAmount?: string | null;
  catalogReference?: CatalogReference;
  priceUndetermined?: boolean;
  fixedQuantity?: boolean;
}

export interface CartDiscount {
  coupon?: Coupon;
  merchantDiscount?: MerchantDiscount;
}

export interface Cart {
  id?: string | null;
  lineItems?: LineItem[];
  buyerNote?: string | null;
  buyerInfo?: BuyerInfo;
  currency?: string;
  conversionCurrency?: string;
  buyerLanguage?: string | null;
  siteLanguage?: string | null;
  taxIncludedInPrices?: boolean | null;
  weightUnit?: WeightUnit;
  /** The checkout last created from this cart. */
  checkoutId?: string | null;
  appliedDiscounts?: CartDiscount[];
  createdDate?: Date;
  updatedDate?: Date;
  contactInfo?: AddressWithContact;
  selectedShippingOption?: SelectedShippingOption;
  overrideCheckoutUrl?: string | null;
  purchaseFlowId?: string | null;
}

/** `PATCH /v1/carts/current`: the fields a cart update may carry. */
export interface UpdateCartRequest {
  cartInfo?: Cart;
  couponCode?: string | null;
  merchantDiscounts?: MerchantDiscountInput[];
  lineItems?: LineItem[];
  customLineItems?: CustomLineItem[];
}

export interface AddToCartRequest {
  lineItems?: LineItem[];
  customLineItems?: CustomLineItem[];
  /** Sent by the hosted client when given; the specification does not list it. */
  businessLocationId?: string | null;
}

/** `update-line-items-quantity`: a line of the cart and its new quantity (1 or more). */
export interface LineItemQuantityUpdate {
  id?: string;
  quantity?: number;
}

/** The answer of the current-cart calls that change the cart: the cart after the change. */
export interface CartResponse {
  cart: Cart;
}

export interface CreateCheckoutFromCartRequest {
  channelType?: ChannelType;
  shippingAddress?: Address;
  billingAddress?: Address;
  selectedShippingOption?: SelectedShippingOption;
  email?: string | null;
}

/** The answer of `create-checkout`: the checkout's id, not the checkout. */
export interface CreateCheckoutFromCartResponse {
  checkoutId: string;
}

export interface EstimateTotalsRequest {
  selectedShippingOption?: SelectedShippingOption;
  shippingAddress?: Address;
  billingAddress?: Address;
  selectedMemberships?: { memberships?: SelectedMembership[] };
  calculateTax?: boolean | null;
  calculateShipping?: boolean | null;
  /** Sent by the hosted client when given; the specification does not list it. */
  calculateAdditionalFees?: boolean | null;
}

/** The answer of `estimate-totals`: the cart with every total a checkout would show. */
export interface EstimateTotalsResponse {
  cart?: Cart;
  calculatedLineItems?: CalculatedLineItem[];
  priceSummary?: PriceSummary;
  taxSummary?: TaxSummary;
  shippingInfo?: ShippingInfo;
  appliedDiscounts?: AppliedDiscount[];
  calculationErrors?: CalculationErrors;
  weightUnit?: WeightUnit;
  currency?: string;
  /** What the buyer pays now, and later (deposits, memberships). */
  payNow?: PriceSummary;
  payLater?: PriceSummary;
  membershipOptions?: MembershipOptions;
  additionalFees?: AdditionalFee[];
  violations?: Violation[];
}
