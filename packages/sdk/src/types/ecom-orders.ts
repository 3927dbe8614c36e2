/** Orders (`/v1/orders`), their states of point 4 and their reason codes of point 8. */
import type {
  Address,
  AddressWithContact,
  BuyerInfo,
  ExtendedFields,
  Image,
  Price,
  TranslatableString,
  WeightUnit,
} from './common.ts';
import type {
  AdditionalFee,
  AppliedDiscount,
  CatalogReference,
  ChannelType,
  DeliveryTimeSlot,
  DescriptionLine,
  ItemType,
  JurisdictionType,
  PaymentOptionType,
  PhysicalProperties,
  PickupMethod,
  ShippingRegion,
  SubscriptionFrequency,
  TaxSummary,
} from './ecom-common.ts';
import type { CursorPaging, CursorPagingMetadata, Filter, Sorting } from './paging.ts';

export const ORDER_STATUSES = ['INITIALIZED', 'APPROVED', 'CANCELED', 'PENDING', 'REJECTED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_PAYMENT_STATUSES = [
  'UNSPECIFIED',
  'NOT_PAID',
  'PAID',
  'PARTIALLY_REFUNDED',
  'FULLY_REFUNDED',
  'PENDING',
  'PARTIALLY_PAID',
  'PENDING_MERCHANT',
  'CANCELED',
  'DECLINED',
] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];

/** `CANCELED` appears in one variant of the wire only (point 4). */
export const FULFILLMENT_STATUSES = [
  'NOT_FULFILLED',
  'FULFILLED',
  'PARTIALLY_FULFILLED',
  'CANCELED',
] as const;
export type FulfillmentStatus = (typeof FULFILLMENT_STATUSES)[number];

/** Invoice drafts of an order. */
export const INVOICE_DRAFT_STATUSES = ['DRAFT', 'COMMITTED'] as const;
export type InvoiceDraftStatus = (typeof INVOICE_DRAFT_STATUSES)[number];

/** Why an order could not be created, imported or changed (point 8). */
export const ORDER_REASON_CODES = [
  'PARTIALLY_OR_FULLY_REFUNDED',
  'UNSUPPORTED_CHANNEL_TYPE',
  'ORDER_STATUS_IS_NOT_SUPPORTED',
  'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT',
  'ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT',
  'AMOUNTS_DO_NOT_ADD_UP',
  'ORDER_NOT_FOUND',
  'SUBSCRIPTION_LINE_ITEM_EXISTS',
  'UNSUPPORTED_CATALOG_ITEM',
  'TAXABLE_EXISTING_ADDITIONAL_FEE',
] as const;
export type OrderReasonCode = (typeof ORDER_REASON_CODES)[number];

export interface DigitalFile {
  fileId?: string;
  /** Download link; it stops working at `expirationDate`. */
  link?: string | null;
  expirationDate?: Date;
}

export interface OrderSubscriptionInfo {
  id?: string | null;
  /** Which cycle of the subscription this order pays for. */
  cycleNumber?: number;
  subscriptionOptionTitle?: string;
  subscriptionOptionDescription?: string | null;
  subscriptionSettings?: {
    frequency?: SubscriptionFrequency;
    interval?: number | null;
    autoRenewal?: boolean;
    billingCycles?: number | null;
    startDate?: Date;
  };
}

/** Tax of one order line: the amount, what it was charged on, the rate, and each jurisdiction's part. */
export interface LineItemTaxInfo {
  taxAmount?: Price;
  taxableAmount?: Price;
  /** Decimal string between 0 and 1. */
  taxRate?: string | null;
  taxGroupId?: string | null;
  taxIncludedInPrice?: boolean;
  taxBreakdown?: Array<{
    jurisdiction?: string | null;
    rate?: string | null;
    taxAmount?: Price;
    taxType?: string | null;
    taxName?: string | null;
    jurisdictionType?: JurisdictionType;
    nonTaxableAmount?: Price;
    taxableAmount?: Price;
  }>;
}

/** Tax of the whole order, summed per jurisdiction. */
export interface OrderTaxInfo {
  totalTax?: Price;
  taxBreakdown?: Array<{
    taxName?: string;
    taxType?: string;
    jurisdiction?: string;
    jurisdictionType?: JurisdictionType;
    rate?: string;
    aggregatedTaxAmount?: Price;
  }>;
  taxExempt?: boolean | null;
}

export interface OrderLineItem {
  id?: string;
  productName?: TranslatableString;
  catalogReference?: CatalogReference;
  quantity?: number;
  totalDiscount?: Price;
  descriptionLines?: DescriptionLine[];
  image?: Image;
  physicalProperties?: PhysicalProperties;
  itemType?: ItemType;
  fulfillerId?: string | null;
  refundQuantity?: number | null;
  restockQuantity?: number | null;
  /** Cartwheel's own: units of the line put back in stock already (a cancel or refunds with restock). */
  restockedQuantity?: number;
  price?: Price;
  priceBeforeDiscounts?: Price;
  totalPriceBeforeTax?: Price;
  totalPriceAfterTax?: Price;
  paymentOption?: PaymentOptionType;
  taxDetails?: { taxRate?: string; totalTax?: Price; taxableAmount?: Price };
  digitalFile?: DigitalFile;
  subscriptionInfo?: OrderSubscriptionInfo;
  depositAmount?: Price;
  lineItemPrice?: Price;
  taxInfo?: LineItemTaxInfo;
  priceDescription?: TranslatableString;
  /** Stock locations the line is taken from. */
  locations?: Array<{ id?: string; quantity?: number }>;
  taxableAddress?: { addressType?: 'BUSINESS' | 'BILLING' | 'SHIPPING' };
  priceUndetermined?: boolean;
  fixedQuantity?: boolean;
  extendedFields?: ExtendedFields;
}

export interface OrderPickupDetails {
  address?: Address;
  pickupMethod?: PickupMethod;
}

/** How and when an order reaches its recipient. */
export interface OrderDeliveryLogistics {
  shippingDestination?: AddressWithContact;
  pickupDetails?: OrderPickupDetails;
  deliveryTime?: string | null;
  instructions?: string | null;
  deliverByDate?: Date;
  deliveryTimeSlot?: DeliveryTimeSlot;
}

export interface OrderShippingInfo {
  carrierId?: string | null;
  code?: string | null;
  title?: string;
  logistics?: OrderDeliveryLogistics;
  cost?: {
    price?: Price;
    totalPriceBeforeTax?: Price;
    totalPriceAfterTax?: Price;
    taxDetails?: { taxRate?: string; totalTax?: Price };
    discount?: Price;
  };
  region?: ShippingRegion;
}

export interface OrderPriceSummary {
  subtotal?: Price;
  shipping?: Price;
  tax?: Price;
  discount?: Price;
  total?: Price;
  totalAdditionalFees?: Price;
}

/** An entry of the order's history: the type says what happened. */
export interface OrderActivity {
  id?: string | null;
  authorEmail?: string | null;
  createdDate?: Date;
  /** `ORDER_PLACED`, `ORDER_PAID`, `MERCHANT_COMMENT`, ... */
  type?: string;
  merchantComment?: { message?: string };
  orderRefunded?: { manual?: boolean; amount?: Price; reason?: string };
  /** An app's (or the platform's own) activity: its own type name and data. */
  customActivity?: { type?: string; additionalData?: Record<string, string> };
}

export interface TagList {
  tagIds?: string[];
}

/** Tags on an order: private ones only the merchant sees, and public ones. */
export interface OrderTags {
  privateTags?: TagList;
  tags?: TagList;
}

export interface OrderChannelInfo {
  type?: ChannelType;
  externalOrderId?: string | null;
  externalOrderUrl?: string | null;
}

export interface Order {
  id?: string | null;
  /** The order number buyers see, sequential per site. */
  number?: string;
  createdDate?: Date;
  updatedDate?: Date;
  /** When the buyer bought: differs from `createdDate` for imported orders. */
  purchasedDate?: Date;
  lineItems?: OrderLineItem[];
  buyerInfo?: BuyerInfo;
  paymentStatus?: OrderPaymentStatus;
  fulfillmentStatus?: FulfillmentStatus;
  buyerLanguage?: string | null;
  weightUnit?: WeightUnit;
  currency?: string | null;
  taxIncludedInPrices?: boolean;
  siteLanguage?: string | null;
  priceSummary?: OrderPriceSummary;
  billingInfo?: AddressWithContact;
  shippingInfo?: OrderShippingInfo;
  buyerNote?: string | null;
  status?: OrderStatus;
  archived?: boolean | null;
  taxSummary?: TaxSummary;
  appliedDiscounts?: AppliedDiscount[];
  activities?: OrderActivity[];
  channelInfo?: OrderChannelInfo;
  seenByAHuman?: boolean | null;
  checkoutId?: string | null;
  customFields?: Array<{ value?: unknown; title?: string; translatedTitle?: string | null }>;
  balanceSummary?: {
    balance?: { amount?: string; formattedAmount?: string };
    paid?: Price;
    refunded?: Price;
  };
  recipientInfo?: AddressWithContact;
  tags?: OrderTags;
  purchaseFlowId?: string | null;
  taxInfo?: OrderTaxInfo;
  additionalFees?: AdditionalFee[];
  createdBy?: { userId?: string; memberId?: string; visitorId?: string; appId?: string };
  extendedFields?: ExtendedFields;
  /** The store location the order belongs to. */
  businessLocation?: { id?: string; name?: string };
  /** True for an order imported from another platform. */
  imported?: boolean;
}

/** `POST /v1/orders/search`'s `search`: cursor paging, newest first unless `sort` says otherwise. */
export interface OrderSearch {
  filter?: Filter;
  /**
   * Cartwheel's free search, what a merchant types in "Order number, buyer email or name": an order
   * number with or without its `#`, or part of the buyer's email or billing name (3 characters or
   * more; 1 or 2 find an email or a name that starts with them), in any letter case. The hosted
   * platform's orders search does not know it; Cartwheel's platform does.
   */
  search?: { expression: string };
  sort?: Sorting[];
  cursorPaging?: CursorPaging;
}

/** The answer of `searchOrders`: a page of orders and the cursors to the next and previous pages. */
export interface SearchOrdersResponse {
  orders: Order[];
  metadata: CursorPagingMetadata;
}

/** `POST /v1/orders`: how the created order may be changed and approved. */
export type OrderApprovalStrategy = 'DEFAULT' | 'PAYMENT_RECEIVED' | 'PAYMENT_METHOD_SAVED';

export interface CreateOrderOptions {
  settings?: {
    editableByEveryone?: boolean;
    editableByOwnerApps?: { appIds?: string[] };
    /**
     * When the order is approved: `DEFAULT` (an order of 0, or once paid), `PAYMENT_RECEIVED` (once
     * paid), `PAYMENT_METHOD_SAVED` (once its payment method is saved; Cartwheel saves none, so once
     * paid). Until then it is `INITIALIZED`.
     */
    orderApprovalStrategy?: OrderApprovalStrategy;
    /** The buyer's confirmation (default yes) and the business's notifications, as the hosted call names them. */
    notifications?: {
      sendNotificationToBuyer?: boolean | null;
      sendNotificationsToBusiness?: boolean | null;
    };
  };
}

/** The fields an update may set: the id comes from the call. */
export type OrderUpdate = Omit<Order, 'id'>;

export interface UpdateOrderOptions {
  /** Fields to update, dotted paths (`buyerNote`, `shippingInfo.title`); all given fields when absent. */
  fieldMask?: string[];
}

export interface BulkUpdateOrdersOptions {
  /** Answer each updated order in `results[].item`. */
  returnEntity?: boolean;
}

export interface CancelOrderResponse {
  order?: Order;
}

export interface BulkUpdateOrderTagsOptions {
  assignTags?: OrderTags;
  unassignTags?: OrderTags;
}

export interface BulkUpdateOrderTagsResponse {
  results?: Array<{ itemMetadata?: BulkOrderResult['itemMetadata'] }>;
  bulkActionMetadata?: BulkActionMetadata;
}

/** `POST /v1/orders/{id}/cancel`. */
export interface CancelOrderRequest {
  sendOrderCanceledEmail?: boolean;
  customMessage?: string | null;
  restockAllItems?: boolean;
}

export interface MaskedOrder {
  order?: Order;
  /** Fields to update, dotted paths; all given fields when absent. */
  fieldMask?: string[];
}

/** `POST /v1/bulk/orders/update`. */
export interface BulkUpdateOrdersRequest {
  orders: MaskedOrder[];
  returnEntity?: boolean;
}

export interface BulkOrderResult {
  itemMetadata?: {
    id?: string | null;
    originalIndex?: number;
    success?: boolean;
    error?: { code?: string; description?: string; data?: Record<string, unknown> };
  };
  item?: Order;
}

export interface BulkActionMetadata {
  totalSuccesses?: number;
  totalFailures?: number;
  undetailedFailures?: number;
}

export interface BulkUpdateOrdersResponse {
  results?: BulkOrderResult[];
  bulkActionMetadata?: BulkActionMetadata;
}

/** `POST /v1/bulk/orders/update-tags`. */
export interface BulkUpdateOrderTagsRequest {
  orderIds: string[];
  assignTags?: OrderTags;
  unassignTags?: OrderTags;
}

/** `POST /v1/orders/{orderId}/activities/add`: merchant comments and custom activities. */
export interface AddActivitiesOptions {
  orderActivities?: Array<{
    merchantComment?: { message?: string };
    customActivity?: { appId?: string; type?: string; additionalData?: Record<string, string> };
  }>;
}

export interface AddActivitiesResponse {
  order?: Order;
  /** The new activities' ids, in the order given. */
  activityIds?: string[];
}

/** Which activity of which order `deleteActivity` removes (a merchant comment or custom activity). */
export interface DeleteActivityIdentifiers {
  id: string;
  activityId: string;
}

export interface DeleteActivityResponse {
  order?: Order;
}

/**
 * `POST /v1/orders/aggregate`: `aggregation` names each figure, `{$count: [fields]}` or
 * `{$sum: "priceSummary.total.amount", groupBy?: [fields]}`, over the orders `filter` selects.
 */
export interface AggregateOrdersOptions {
  filter?: Record<string, unknown> | null;
  aggregation?: Record<string, unknown> | null;
  /** Joins the values of several grouping fields in a key: `(APPROVED|PAID)` by default. */
  hierarchySeparatorOverride?: string | null;
}

export interface AggregateOrdersResponse {
  aggregates?: Record<string, unknown> | null;
}
