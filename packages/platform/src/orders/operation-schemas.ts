import Type from 'typebox';
import { BuyerAddress, Id, Ignored, Nullable, OneOf, OpenObject, Text } from '../http/input.ts';
import { MAX_BULK_ORDERS } from './operations.ts';

/**
 * The merchant's order operations' inputs, as the hosted client (`@wix/ecom`'s `orders`) sends them.
 * Fields of the hosted order that updateOrder does not change, there as here, may come along (an order
 * read and sent back): they are taken and left as they were (`UNCHANGED_BY_UPDATE`). A key the
 * hosted order does not have is refused.
 */

const ContactDetails = Type.Object({
  firstName: Type.Optional(Nullable(Text(200))),
  lastName: Type.Optional(Nullable(Text(200))),
  phone: Type.Optional(Nullable(Text(50))),
  company: Type.Optional(Nullable(Text(200))),
});

const AddressAndContact = Nullable(
  Type.Object({
    address: Type.Optional(Nullable(BuyerAddress)),
    contactDetails: Type.Optional(Nullable(ContactDetails)),
  }),
);

const OrderFields = {
  buyerInfo: Type.Optional(Nullable(Type.Object({ email: Type.Optional(Nullable(Text(320))) }))),
  buyerLanguage: Type.Optional(Nullable(Text(10))),
  weightUnit: Type.Optional(Nullable(OneOf(['KG', 'LB']))),
  billingInfo: Type.Optional(AddressAndContact),
  recipientInfo: Type.Optional(AddressAndContact),
  shippingInfo: Type.Optional(
    Nullable(
      Type.Object({
        logistics: Type.Optional(
          Nullable(Type.Object({ shippingDestination: Type.Optional(AddressAndContact) })),
        ),
      }),
    ),
  ),
  archived: Type.Optional(Nullable(Type.Boolean())),
  seenByAHuman: Type.Optional(Nullable(Type.Boolean())),
  attributionSource: Type.Optional(Nullable(OneOf(['UNSPECIFIED', 'FACEBOOK_ADS']))),
};

/** The hosted `Order`'s other keys (`@wix/auto_sdk_ecom_orders`), which its updateOrder leaves as they were. */
const UNCHANGED_BY_UPDATE = Object.fromEntries(
  [
    'number',
    'createdDate',
    'updatedDate',
    'lineItems',
    'paymentStatus',
    'fulfillmentStatus',
    'currency',
    'currencyConversionDetails',
    'taxIncludedInPrices',
    'siteLanguage',
    'priceSummary',
    'buyerNote',
    'status',
    'taxSummary',
    'taxInfo',
    'appliedDiscounts',
    'activities',
    'createdBy',
    'channelInfo',
    'checkoutId',
    'customFields',
    'balanceSummary',
    'additionalFees',
    'extendedFields',
    'purchaseFlowId',
    'tags',
    'purchasedDate',
    'businessLocation',
    'payAfterFreeTrial',
    'platformFeeSummary',
    'imported',
  ].map((key) => [
    key,
    Type.Optional(Ignored('updateOrder does not change it: an order read and sent back')),
  ]),
);

export const OrderIdParams = Type.Object({ id: Id() });

export const UpdateOrderBody = Type.Object({
  order: Type.Object({ id: Type.Optional(Id()), ...OrderFields, ...UNCHANGED_BY_UPDATE }),
  fieldMask: Type.Optional(Text(2000)),
});

export const BulkUpdateOrdersBody = Type.Object({
  orders: Type.Array(
    Type.Object({
      order: Type.Optional(Type.Object({ id: Type.Optional(Id()), ...OrderFields, ...UNCHANGED_BY_UPDATE })),
      fieldMask: Type.Optional(Text(2000)),
    }),
    { minItems: 1, maxItems: MAX_BULK_ORDERS },
  ),
  returnEntity: Type.Optional(Type.Boolean()),
});

export const CancelOrderBody = Type.Object({
  sendOrderCanceledEmail: Type.Optional(Type.Boolean()),
  customMessage: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1000 }))),
  restockAllItems: Type.Optional(Type.Boolean()),
});

const TagIds = Type.Object({
  tagIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
});
const Tags = Type.Object({ tags: Type.Optional(TagIds), privateTags: Type.Optional(TagIds) });

export const BulkUpdateOrderTagsBody = Type.Object({
  orderIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_BULK_ORDERS }),
  assignTags: Type.Optional(Tags),
  unassignTags: Type.Optional(Tags),
});

export const ActivitiesParams = Type.Object({ orderId: Id() });

export const AddActivitiesBody = Type.Object({
  orderActivities: Type.Array(
    Type.Object({
      merchantComment: Type.Optional(
        Type.Object({ message: Type.String({ minLength: 1, maxLength: 5000 }) }),
      ),
      customActivity: Type.Optional(
        Type.Object({
          appId: Type.Optional(Text(100)),
          type: Text(100),
          additionalData: Type.Optional(
            Type.Unsafe<Record<string, string>>({
              type: 'object',
              additionalProperties: Text(500),
              maxProperties: 50,
            }),
          ),
        }),
      ),
    }),
    { minItems: 1, maxItems: 300 },
  ),
});

export const ActivityParams = Type.Object({ id: Id(), activityId: Id() });

/** The filter is checked field by field by `compileFilter`; here only its size. */
const Filter = OpenObject(
  'compiled field by field by orders/search.ts, which names a field it does not filter on',
  {
    maxProperties: 50,
  },
);

export const AggregateOrdersBody = Type.Object({
  filter: Type.Optional(Nullable(Filter)),
  aggregation: OpenObject('each aggregation checked by OrderOperations.aggregate, which names a wrong one', {
    minProperties: 1,
    maxProperties: 10,
  }),
  hierarchySeparatorOverride: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
});
