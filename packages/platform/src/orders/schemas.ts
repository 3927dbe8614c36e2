import { CHANNEL_TYPES } from '@cartwheel/sdk';
import Type, { type Static } from 'typebox';
import {
  BuyerAddress,
  DescriptionLines,
  Id,
  Ignored,
  NotSupportedYet,
  Nullable,
  OneOf,
  OpenObject,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import { MAX_FILTER_TEXT } from '../shared/filter-budget.ts';
import { MAX_ORDERS_PAGE } from './search.ts';

/** Lines one recorded order may hold (the hosted platform's limit). */
export const MAX_RECORDED_LINES = 300;

const FORMATTED = "formatted by Cartwheel from the amount and the store's currency";
const COMPUTED = "worked out by Cartwheel from the line's price, quantity and shares";
const SET_BY_PLATFORM = "set by the platform (the store's units, the order's number, dates and statuses)";
const APP_OPTIONS =
  "the app's own choices of its item, kept as given; the stores app's checked against the catalog";
export const SHIPPING_AS_GIVEN =
  "the hosted ShippingInformation, kept as given once it fits the order's answer, no key beyond it (recorded.ts)";
export const DISCOUNTS_AS_GIVEN =
  "the hosted AppliedDiscount, kept as given once it fits the order's answer, no key beyond it (recorded.ts)";

/** The buyer's and the admin's order reads, as the hosted client sends them. */

export const OrderIdParams = Type.Object({ id: Id() });

/** The filter is checked field by field by the service (`compileFilter`); here only its size. */
const Filter = OpenObject(
  'compiled field by field by orders/search.ts, which names a field it does not filter on',
  {
    maxProperties: 50,
  },
);

export const SearchOrdersBody = Type.Object({
  search: Type.Optional(
    Type.Object({
      filter: Type.Optional(Filter),
      /**
       * Cartwheel's free search (the hosted platform's search form, `SearchDetails.expression`, which
       * its orders search lacks): an order number, or part of the buyer's email or billing name.
       */
      search: Type.Optional(
        Nullable(Type.Object({ expression: Type.Optional(Nullable(Text(MAX_FILTER_TEXT))) })),
      ),
      sort: Type.Optional(
        Type.Array(
          Type.Object({ fieldName: Type.Optional(Text(100)), order: Type.Optional(OneOf(['ASC', 'DESC'])) }),
          { maxItems: 3 },
        ),
      ),
      cursorPaging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_ORDERS_PAGE })),
          cursor: Type.Optional(Type.Union([Text(4096), Type.Null()])),
        }),
      ),
    }),
  ),
});

// ---- createOrder ----

/** A sum of money as the wire writes it; its digits and the currency's decimals are recorded.ts's rules. */
const Price = Type.Object({
  amount: Type.String({ maxLength: 40 }),
  formattedAmount: Type.Optional(Ignored(FORMATTED)),
});
const OptionalPrice = Type.Optional(Nullable(Price));

const ContactDetails = Type.Object({
  firstName: Type.Optional(Nullable(Text(200))),
  lastName: Type.Optional(Nullable(Text(200))),
  phone: Type.Optional(Nullable(Text(50))),
  company: Type.Optional(Nullable(Text(200))),
  vatId: NotSupportedYet(),
});
const AddressWithContact = Nullable(
  Type.Object({
    address: Type.Optional(Nullable(BuyerAddress)),
    contactDetails: Type.Optional(Nullable(ContactDetails)),
  }),
);
const TagIds = Type.Optional(Nullable(Type.Object({ tagIds: Type.Optional(Type.Array(Text(100))) })));

/** The hosted line's fields Cartwheel works out itself from the line's price, quantity and shares. */
const COMPUTED_LINE_FIELDS = [
  'lineItemPrice',
  'totalDiscount',
  'priceBeforeDiscounts',
  'totalPriceBeforeTax',
  'totalPriceAfterTax',
  'taxInfo',
];
/** The hosted line's fields Cartwheel does not keep yet. */
const LINE_FIELDS_NOT_SUPPORTED = [
  'fulfillerId',
  'refundQuantity',
  'restockQuantity',
  'digitalFile',
  'subscriptionInfo',
  'priceDescription',
  'depositAmount',
  'locations',
  'taxableAddress',
  'priceUndetermined',
  'fixedQuantity',
  'decimalQuantity',
  'extendedFields',
  'modifierGroups',
];

/**
 * A recorded order's line (the hosted `OrderLineItem`). Counts, names and amounts are typed loosely
 * on purpose: recorded.ts reports every bad line field at once, with the store's currency in hand.
 */
const RecordedLine = Type.Object({
  id: Type.Optional(Nullable(Text(100))),
  productName: Type.Optional(
    Nullable(
      Type.Union([
        Text(500),
        Type.Object({ original: Type.Optional(Text(500)), translated: Type.Optional(Nullable(Text(500))) }),
      ]),
    ),
  ),
  quantity: Type.Optional(Type.Number()),
  price: OptionalPrice,
  catalogReference: Type.Optional(
    Nullable(
      Type.Object({
        appId: Type.Optional(Nullable(Text(200))),
        catalogItemId: Type.Optional(Nullable(Text(200))),
        options: Type.Optional(Nullable(OpenObject(APP_OPTIONS, { maxProperties: 50 }))),
      }),
    ),
  ),
  descriptionLines: Type.Optional(Nullable(DescriptionLines)),
  image: Type.Optional(
    Nullable(
      Type.Object({
        id: Type.Optional(Nullable(Text(200))),
        url: Type.Optional(Nullable(Text(URL_MAX_LENGTH))),
        height: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
        width: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
        altText: Type.Optional(Nullable(Text(500))),
        filename: Type.Optional(Nullable(Text(500))),
      }),
    ),
  ),
  physicalProperties: Type.Optional(
    Nullable(
      Type.Object({
        weight: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }))),
        sku: Type.Optional(Nullable(Text(100))),
        shippable: Type.Optional(Nullable(Type.Boolean())),
      }),
    ),
  ),
  itemType: Type.Optional(
    Type.Object({ preset: Type.Optional(Nullable(Text(40))), custom: Type.Optional(Nullable(Text(100))) }),
  ),
  paymentOption: Type.Optional(
    Nullable(
      OneOf([
        'FULL_PAYMENT_ONLINE',
        'FULL_PAYMENT_OFFLINE',
        'MEMBERSHIP',
        'DEPOSIT_ONLINE',
        'MEMBERSHIP_OFFLINE',
      ]),
    ),
  ),
  taxDetails: Type.Optional(
    Nullable(
      Type.Object({
        taxRate: Type.Optional(Nullable(Text(20))),
        totalTax: OptionalPrice,
        taxableAmount: Type.Optional(Ignored(COMPUTED)),
      }),
    ),
  ),
  ...Object.fromEntries(COMPUTED_LINE_FIELDS.map((key) => [key, Type.Optional(Ignored(COMPUTED))])),
  ...Object.fromEntries(LINE_FIELDS_NOT_SUPPORTED.map((key) => [key, NotSupportedYet()])),
});
export type RecordedLineInput = Static<typeof RecordedLine>;

/** The hosted order's fields the platform sets itself (its id, number, dates, statuses it derives). */
const SET_BY_THE_PLATFORM = [
  'id',
  'number',
  'createdDate',
  'updatedDate',
  'fulfillmentStatus',
  'siteLanguage',
  'activities',
  'createdBy',
  'balanceSummary',
  'payAfterFreeTrial',
  'imported',
  'weightUnit',
  'taxIncludedInPrices',
];
/** The hosted order's writable fields Cartwheel does not keep yet. */
const ORDER_FIELDS_NOT_SUPPORTED = [
  'currencyConversionDetails',
  'archived',
  'taxSummary',
  'taxInfo',
  'seenByAHuman',
  'checkoutId',
  'customFields',
  'additionalFees',
  'extendedFields',
  'purchaseFlowId',
  'purchasedDate',
  'businessLocation',
  'platformFeeSummary',
];

/**
 * `createOrder`'s order: the hosted `Order` as a till or an app records it. The rules a schema cannot
 * say (amounts that add up to the cent, the store's currency, a buyer to send it to, lines of the
 * catalog that exist) are recorded.ts's.
 */
export const RecordedOrderInput = Type.Object({
  lineItems: Type.Optional(Type.Array(RecordedLine, { maxItems: MAX_RECORDED_LINES })),
  buyerInfo: Type.Optional(
    Nullable(
      Type.Object({
        email: Type.Optional(Nullable(Text(320))),
        contactId: Type.Optional(Nullable(Text(100))),
        memberId: Type.Optional(Nullable(Text(100))),
        visitorId: NotSupportedYet(),
        userId: NotSupportedYet(),
      }),
    ),
  ),
  paymentStatus: Type.Optional(Nullable(Text(40))),
  status: Type.Optional(Nullable(Text(40))),
  currency: Type.Optional(Nullable(Text(10))),
  buyerLanguage: Type.Optional(Nullable(Text(10))),
  buyerNote: Type.Optional(Nullable(Text(1000))),
  billingInfo: Type.Optional(AddressWithContact),
  recipientInfo: Type.Optional(AddressWithContact),
  shippingInfo: Type.Optional(Nullable(OpenObject(SHIPPING_AS_GIVEN))),
  channelInfo: Type.Optional(
    Nullable(
      Type.Object({
        type: Type.Optional(OneOf(CHANNEL_TYPES)),
        externalOrderId: Type.Optional(Nullable(Text(200))),
        externalOrderUrl: Type.Optional(Nullable(Text(URL_MAX_LENGTH))),
      }),
    ),
  ),
  priceSummary: Type.Optional(
    Nullable(
      Type.Object({
        subtotal: OptionalPrice,
        shipping: OptionalPrice,
        tax: OptionalPrice,
        discount: OptionalPrice,
        total: OptionalPrice,
        totalAdditionalFees: NotSupportedYet(),
      }),
    ),
  ),
  appliedDiscounts: Type.Optional(Nullable(Type.Array(OpenObject(DISCOUNTS_AS_GIVEN), { maxItems: 50 }))),
  attributionSource: Type.Optional(Nullable(OneOf(['UNSPECIFIED', 'FACEBOOK_ADS']))),
  tags: Type.Optional(Nullable(Type.Object({ tags: TagIds, privateTags: TagIds }))),
  ...Object.fromEntries(SET_BY_THE_PLATFORM.map((key) => [key, Type.Optional(Ignored(SET_BY_PLATFORM))])),
  ...Object.fromEntries(ORDER_FIELDS_NOT_SUPPORTED.map((key) => [key, NotSupportedYet()])),
});
export type RecordedOrderInput = Static<typeof RecordedOrderInput>;

/** `createOrder`'s settings (the hosted `OrderCreationSettings`); the one-of and the app ids are recorded.ts's. */
export const RecordedOrderSettings = Type.Object({
  orderApprovalStrategy: Type.Optional(Nullable(Text(40))),
  editableByEveryone: Type.Optional(Nullable(Type.Boolean())),
  editableByOwnerApps: Type.Optional(Nullable(Type.Object({ appIds: Type.Optional(Type.Array(Text(100))) }))),
  notifications: Type.Optional(
    Nullable(
      Type.Object({
        sendNotificationToBuyer: Type.Optional(Nullable(Type.Boolean())),
        sendNotificationsToBusiness: Type.Optional(Nullable(Type.Boolean())),
      }),
    ),
  ),
});
export type RecordedOrderSettings = Static<typeof RecordedOrderSettings>;

export const CreateOrderBody = Type.Object({
  order: RecordedOrderInput,
  settings: Type.Optional(Nullable(RecordedOrderSettings)),
});
