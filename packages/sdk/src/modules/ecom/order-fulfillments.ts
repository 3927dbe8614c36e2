import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  BulkCreateFulfillmentsResponse,
  BulkCreateOrderWithFulfillments,
  CreateFulfillmentResponse,
  DeleteFulfillmentResponse,
  Fulfillment,
  FulfillmentIdentifiers,
  ListFulfillmentsForMultipleOrdersResponse,
  ListFulfillmentsForSingleOrderResponse,
  OrderWithFulfillments,
  UpdateFulfillmentOptions,
} from '../../types/ecom-fulfillments.ts';
import { segment } from '../stores/domains.ts';
import { ecomService, ORDER_FULFILLMENTS } from './domains.ts';

const call = ecomService(ORDER_FULFILLMENTS, 'orders.fulfillments.v1.Fulfillments', 'fulfillments');

/**
 * An order's fulfillments (`/ecom/v1/fulfillments/...`): what was shipped of which line, with
 * tracking. Names, arguments and answers are the hosted client's: `updateFulfillment` answers the
 * order's fulfillments themselves, the others the hosted answer's wrapper.
 */
export const orderFulfillments = {
  /** `GET /v1/fulfillments/orders/{orderId}?orderId={orderId}`. */
  listFulfillmentsForSingleOrder:
    (transport: Transport) =>
    (orderId: string): Promise<ListFulfillmentsForSingleOrderResponse> =>
      call(
        transport,
        'GET',
        `/v1/fulfillments/orders/${segment(orderId)}`,
        'ListFulfillmentsForSingleOrder',
        undefined,
        { orderId },
      ),

  /** `POST /v1/fulfillments/list-by-ids` {orderIds}. */
  listFulfillmentsForMultipleOrders:
    (transport: Transport) =>
    (orderIds: string[]): Promise<ListFulfillmentsForMultipleOrdersResponse> =>
      call(transport, 'POST', '/v1/fulfillments/list-by-ids', 'ListFulfillmentsForMultipleOrders', {
        orderIds,
      }),

  /** `POST /v1/fulfillments/orders/{orderId}/create-fulfillment` {orderId, fulfillment}. */
  createFulfillment:
    (transport: Transport) =>
    (orderId: string, fulfillment: Fulfillment): Promise<CreateFulfillmentResponse> =>
      call(
        transport,
        'POST',
        `/v1/fulfillments/orders/${segment(orderId)}/create-fulfillment`,
        'CreateFulfillment',
        { orderId, fulfillment },
      ),

  /** `PATCH /v1/fulfillments/{fulfillment.id}/orders/{orderId}` {fulfillment: {..., id}, orderId}. */
  updateFulfillment:
    (transport: Transport) =>
    async (
      identifiers: FulfillmentIdentifiers,
      options?: UpdateFulfillmentOptions,
    ): Promise<OrderWithFulfillments> =>
      (
        await call<{ orderWithFulfillments: OrderWithFulfillments }>(
          transport,
          'PATCH',
          `/v1/fulfillments/${segment(identifiers.fulfillmentId)}/orders/${segment(identifiers.orderId)}`,
          'UpdateFulfillment',
          {
            fulfillment: { ...options?.fulfillment, id: identifiers.fulfillmentId },
            orderId: identifiers.orderId,
          },
        )
      )?.orderWithFulfillments,

  /** `DELETE /v1/fulfillments/{fulfillmentId}/orders/{orderId}?fulfillmentId=...&orderId=...`. */
  deleteFulfillment:
    (transport: Transport) =>
    (identifiers: FulfillmentIdentifiers): Promise<DeleteFulfillmentResponse> =>
      call(
        transport,
        'DELETE',
        `/v1/fulfillments/${segment(identifiers.fulfillmentId)}/orders/${segment(identifiers.orderId)}`,
        'DeleteFulfillment',
        undefined,
        { fulfillmentId: identifiers.fulfillmentId, orderId: identifiers.orderId },
      ),

  /** `POST /v1/fulfillments/orders/bulk/create-fulfillments` {ordersWithFulfillments}: a result per order. */
  bulkCreateFulfillments:
    (transport: Transport) =>
    (ordersWithFulfillments: BulkCreateOrderWithFulfillments[]): Promise<BulkCreateFulfillmentsResponse> =>
      call(transport, 'POST', '/v1/fulfillments/orders/bulk/create-fulfillments', 'BulkCreateFulfillment', {
        ordersWithFulfillments,
      }),
} satisfies ModuleDefinition;
