import Type from 'typebox';
import { Id, Nullable, PathIdCopy, Text, URL_MAX_LENGTH } from '../http/input.ts';
import { MAX_BULK_ORDERS } from '../orders/operations.ts';

/** The fulfillments calls' inputs, as the hosted client (`@wix/ecom`'s `orderFulfillments`) sends them. */

/** Lines of one fulfillment (the hosted platform's bound). */
export const MAX_FULFILLMENT_LINES = 300;

const FulfillmentLine = Type.Object({
  id: Id(),
  quantity: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100000 }))),
});

const TrackingInfo = Type.Object({
  trackingNumber: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  shippingProvider: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  trackingLink: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: URL_MAX_LENGTH, pattern: '^https?://' })),
  ),
});

const CustomInfo = Type.Object({
  fieldsData: Type.Optional(
    Type.Unsafe<Record<string, string>>({
      type: 'object',
      additionalProperties: Text(500),
      maxProperties: 100,
    }),
  ),
});

const FulfillmentFields = {
  trackingInfo: Type.Optional(Nullable(TrackingInfo)),
  customInfo: Type.Optional(Nullable(CustomInfo)),
  status: Type.Optional(Nullable(OneOfStatus())),
  completed: Type.Optional(Nullable(Type.Boolean())),
};

function OneOfStatus() {
  return Type.Enum(['Pending', 'Accepted', 'Ready', 'In_Delivery', 'Fulfilled']);
}

export const NewFulfillment = Type.Object({
  ...FulfillmentFields,
  lineItems: Type.Array(FulfillmentLine, { minItems: 1, maxItems: MAX_FULFILLMENT_LINES }),
});

export const OrderIdParams = Type.Object({ orderId: Id() });
export const FulfillmentParams = Type.Object({ orderId: Id(), fulfillmentId: Id() });

export const ListByIdsBody = Type.Object({
  orderIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_BULK_ORDERS }),
});

export const CreateFulfillmentBody = Type.Object({ fulfillment: NewFulfillment });

export const UpdateFulfillmentBody = Type.Object({
  fulfillment: Type.Object({
    id: PathIdCopy(),
    ...FulfillmentFields,
    lineItems: Type.Optional(Type.Array(FulfillmentLine, { maxItems: MAX_FULFILLMENT_LINES })),
  }),
});

export const BulkCreateFulfillmentsBody = Type.Object({
  ordersWithFulfillments: Type.Array(
    Type.Object({
      orderId: Id(),
      fulfillments: Type.Array(NewFulfillment, { minItems: 1, maxItems: 10 }),
    }),
    { minItems: 1, maxItems: MAX_BULK_ORDERS },
  ),
});
