import Type from 'typebox';
import { BulkActionMetadata, DateText, ItemMetadata, OrNull } from '../http/responses.ts';

/** The order fulfillment calls' answers (the SDK's types/ecom-fulfillments.ts), as response schemas. */

const nullableText = Type.Optional(OrNull(Type.String()));

export const Fulfillment = Type.Object({
  id: nullableText,
  createdDate: Type.Optional(DateText),
  lineItems: Type.Optional(
    Type.Array(
      Type.Object({ id: Type.Optional(Type.String()), quantity: Type.Optional(OrNull(Type.Number())) }),
    ),
  ),
  trackingInfo: Type.Optional(
    Type.Object({ trackingNumber: nullableText, shippingProvider: nullableText, trackingLink: nullableText }),
  ),
  customInfo: Type.Optional(
    Type.Object({ fieldsData: Type.Optional(Type.Record(Type.String(), Type.String())) }),
  ),
  status: nullableText,
  completed: Type.Optional(OrNull(Type.Boolean())),
});

export const OrderWithFulfillments = Type.Object({
  orderId: Type.Optional(Type.String()),
  fulfillments: Type.Optional(Type.Array(Fulfillment)),
});

export const OrderFulfillmentsAnswer = Type.Object({
  orderWithFulfillments: Type.Optional(OrderWithFulfillments),
});

export const OrdersFulfillmentsAnswer = Type.Object({
  ordersWithFulfillments: Type.Optional(Type.Array(OrderWithFulfillments)),
});

export const CreateFulfillmentAnswer = Type.Object({
  orderWithFulfillments: Type.Optional(OrderWithFulfillments),
  fulfillmentId: Type.Optional(Type.String()),
});

export const BulkCreateFulfillmentsAnswer = Type.Object({
  results: Type.Optional(
    Type.Array(
      Type.Object({
        itemMetadata: Type.Optional(ItemMetadata),
        ordersWithFulfillments: Type.Optional(OrderWithFulfillments),
      }),
    ),
  ),
  bulkActionMetadata: Type.Optional(BulkActionMetadata),
});
