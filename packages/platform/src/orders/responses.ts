import Type from 'typebox';
import {
  AdditionalFee,
  Address,
  AddressWithContact,
  AnyValue,
  AppliedDiscount,
  BulkActionMetadata,
  BuyerInfo,
  CatalogReference,
  CreatedBy,
  CursorPagingMetadata,
  DateText,
  DescriptionLine,
  ExtendedFields,
  Image,
  ItemMetadata,
  ItemType,
  MultiCurrencyPrice,
  OpenObject,
  OrNull,
  PageUrl,
  PhysicalProperties,
  Price,
  TaxSummary,
  TranslatableString,
} from '../http/responses.ts';

/** The order calls' answers (the SDK's types/ecom-orders.ts), as response schemas. */

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));
const flag = Type.Optional(Type.Boolean());
const money = Type.Optional(Price);

/** A line's tax by jurisdiction, as pricing worked it out: its money in both currencies. */
const TaxBreakdownOfLine = Type.Object({
  jurisdiction: nullableText,
  rate: nullableText,
  taxAmount: Type.Optional(MultiCurrencyPrice),
  taxType: nullableText,
  taxName: nullableText,
  jurisdictionType: text,
  nonTaxableAmount: Type.Optional(MultiCurrencyPrice),
  taxableAmount: Type.Optional(MultiCurrencyPrice),
});

export const OrderLineItem = Type.Object({
  id: text,
  productName: Type.Optional(TranslatableString),
  catalogReference: Type.Optional(CatalogReference),
  quantity: Type.Optional(Type.Number()),
  totalDiscount: money,
  descriptionLines: Type.Optional(Type.Array(DescriptionLine)),
  image: Type.Optional(Image),
  /** The product's page, as the checkout line had it (made absolute when answered): not in the SDK's type. */
  url: Type.Optional(PageUrl),
  physicalProperties: Type.Optional(PhysicalProperties),
  itemType: Type.Optional(ItemType),
  fulfillerId: nullableText,
  refundQuantity: Type.Optional(OrNull(Type.Number())),
  restockQuantity: Type.Optional(OrNull(Type.Number())),
  /** Units of the line put back in stock (refunds and cancels): Cartwheel's, not in the SDK's type. */
  restockedQuantity: Type.Optional(Type.Number()),
  price: money,
  priceBeforeDiscounts: money,
  totalPriceBeforeTax: money,
  totalPriceAfterTax: money,
  paymentOption: text,
  taxDetails: Type.Optional(Type.Object({ taxRate: text, totalTax: money, taxableAmount: money })),
  digitalFile: Type.Optional(
    Type.Object({ fileId: text, link: nullableText, expirationDate: Type.Optional(DateText) }),
  ),
  subscriptionInfo: Type.Optional(
    Type.Object({
      id: nullableText,
      cycleNumber: Type.Optional(Type.Number()),
      subscriptionOptionTitle: text,
      subscriptionOptionDescription: nullableText,
      subscriptionSettings: Type.Optional(
        Type.Object({
          frequency: text,
          interval: Type.Optional(OrNull(Type.Number())),
          autoRenewal: flag,
          billingCycles: Type.Optional(OrNull(Type.Number())),
          startDate: Type.Optional(DateText),
        }),
      ),
    }),
  ),
  depositAmount: money,
  lineItemPrice: money,
  taxInfo: Type.Optional(
    Type.Object({
      taxAmount: money,
      taxableAmount: money,
      taxRate: nullableText,
      taxGroupId: nullableText,
      taxIncludedInPrice: flag,
      taxBreakdown: Type.Optional(Type.Array(TaxBreakdownOfLine)),
    }),
  ),
  priceDescription: Type.Optional(TranslatableString),
  locations: Type.Optional(Type.Array(Type.Object({ id: text, quantity: Type.Optional(Type.Number()) }))),
  taxableAddress: Type.Optional(Type.Object({ addressType: text })),
  priceUndetermined: flag,
  fixedQuantity: flag,
  extendedFields: Type.Optional(ExtendedFields),
});

export const OrderShippingInfo = Type.Object({
  carrierId: nullableText,
  code: nullableText,
  title: text,
  logistics: Type.Optional(
    Type.Object({
      shippingDestination: Type.Optional(AddressWithContact),
      pickupDetails: Type.Optional(Type.Object({ address: Type.Optional(Address), pickupMethod: text })),
      deliveryTime: nullableText,
      instructions: nullableText,
      deliverByDate: Type.Optional(DateText),
      deliveryTimeSlot: Type.Optional(
        Type.Object({ from: Type.Optional(DateText), to: Type.Optional(DateText) }),
      ),
    }),
  ),
  cost: Type.Optional(
    Type.Object({
      price: money,
      totalPriceBeforeTax: money,
      totalPriceAfterTax: money,
      taxDetails: Type.Optional(Type.Object({ taxRate: text, totalTax: money })),
      discount: money,
    }),
  ),
  region: Type.Optional(Type.Object({ id: text, name: text })),
});

/** A payment an activity reports on: a capture or a void of an authorization. */
const AuthorizedPaymentAction = Type.Optional(
  Type.Object({ paymentId: text, amount: money, lastFourDigits: nullableText, brand: nullableText }),
);

/** An entry of the order's history; which of its parts is set follows its `type`. */
export const OrderActivity = Type.Object({
  id: nullableText,
  authorEmail: nullableText,
  createdDate: Type.Optional(DateText),
  type: text,
  merchantComment: Type.Optional(Type.Object({ message: text })),
  orderRefunded: Type.Optional(
    Type.Object({
      manual: flag,
      amount: money,
      reason: text,
      refundId: text,
      restocked: Type.Optional(
        Type.Array(Type.Object({ productId: text, quantity: Type.Optional(Type.Number()) })),
      ),
    }),
  ),
  /** The fulfillment a fulfillment's activity (tracking added, shipping confirmation sent) is about. */
  fulfillmentId: text,
  authorizedPaymentCaptured: AuthorizedPaymentAction,
  authorizedPaymentVoided: AuthorizedPaymentAction,
  customActivity: Type.Optional(
    Type.Object({ type: text, additionalData: Type.Optional(Type.Record(Type.String(), Type.String())) }),
  ),
});

const TagList = Type.Object({ tagIds: Type.Optional(Type.Array(Type.String())) });

export const Order = Type.Object({
  id: nullableText,
  number: text,
  createdDate: Type.Optional(DateText),
  updatedDate: Type.Optional(DateText),
  purchasedDate: Type.Optional(DateText),
  lineItems: Type.Optional(Type.Array(OrderLineItem)),
  buyerInfo: Type.Optional(BuyerInfo),
  paymentStatus: text,
  fulfillmentStatus: text,
  buyerLanguage: nullableText,
  weightUnit: text,
  currency: nullableText,
  taxIncludedInPrices: flag,
  siteLanguage: nullableText,
  priceSummary: Type.Optional(
    Type.Object({
      subtotal: money,
      shipping: money,
      tax: money,
      discount: money,
      total: money,
      totalAdditionalFees: money,
    }),
  ),
  billingInfo: Type.Optional(AddressWithContact),
  shippingInfo: Type.Optional(OrderShippingInfo),
  buyerNote: nullableText,
  status: text,
  archived: Type.Optional(OrNull(Type.Boolean())),
  taxSummary: Type.Optional(TaxSummary),
  appliedDiscounts: Type.Optional(Type.Array(AppliedDiscount)),
  activities: Type.Optional(Type.Array(OrderActivity)),
  channelInfo: Type.Optional(
    Type.Object({ type: text, externalOrderId: nullableText, externalOrderUrl: nullableText }),
  ),
  seenByAHuman: Type.Optional(OrNull(Type.Boolean())),
  checkoutId: nullableText,
  customFields: Type.Optional(
    Type.Array(Type.Object({ value: Type.Optional(AnyValue), title: text, translatedTitle: nullableText })),
  ),
  balanceSummary: Type.Optional(
    Type.Object({
      balance: Type.Optional(Type.Object({ amount: text, formattedAmount: text })),
      paid: money,
      refunded: money,
    }),
  ),
  recipientInfo: Type.Optional(AddressWithContact),
  tags: Type.Optional(Type.Object({ privateTags: Type.Optional(TagList), tags: Type.Optional(TagList) })),
  purchaseFlowId: nullableText,
  taxInfo: Type.Optional(
    Type.Object({
      totalTax: money,
      taxBreakdown: Type.Optional(
        Type.Array(
          Type.Object({
            taxName: text,
            taxType: text,
            jurisdiction: text,
            jurisdictionType: text,
            rate: text,
            aggregatedTaxAmount: money,
          }),
        ),
      ),
      taxExempt: Type.Optional(OrNull(Type.Boolean())),
    }),
  ),
  additionalFees: Type.Optional(Type.Array(AdditionalFee)),
  createdBy: Type.Optional(CreatedBy),
  extendedFields: Type.Optional(ExtendedFields),
  businessLocation: Type.Optional(Type.Object({ id: text, name: text })),
  imported: flag,
});

export const OrderAnswer = Type.Object({ order: Order });

export const SearchOrdersAnswer = Type.Object({
  orders: Type.Array(Order),
  metadata: CursorPagingMetadata,
});

const BulkOrderResult = Type.Object({
  itemMetadata: Type.Optional(ItemMetadata),
  item: Type.Optional(Order),
});

export const BulkUpdateOrdersAnswer = Type.Object({
  results: Type.Optional(Type.Array(BulkOrderResult)),
  bulkActionMetadata: Type.Optional(BulkActionMetadata),
});

export const BulkUpdateOrderTagsAnswer = Type.Object({
  results: Type.Optional(Type.Array(Type.Object({ itemMetadata: Type.Optional(ItemMetadata) }))),
  bulkActionMetadata: Type.Optional(BulkActionMetadata),
});

export const AddActivitiesAnswer = Type.Object({
  order: Type.Optional(Order),
  activityIds: Type.Optional(Type.Array(Type.String())),
});

/** Each named figure: a count, a sum, or groups of them, as the aggregation asked (open by design). */
export const AggregateOrdersAnswer = Type.Object({ aggregates: Type.Optional(OrNull(OpenObject)) });
