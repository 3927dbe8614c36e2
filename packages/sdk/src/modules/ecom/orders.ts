import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  AddActivitiesOptions,
  AddActivitiesResponse,
  AggregateOrdersOptions,
  AggregateOrdersResponse,
  BulkUpdateOrdersOptions,
  BulkUpdateOrdersResponse,
  BulkUpdateOrderTagsOptions,
  BulkUpdateOrderTagsResponse,
  CancelOrderRequest,
  CancelOrderResponse,
  CreateOrderOptions,
  DeleteActivityIdentifiers,
  DeleteActivityResponse,
  MaskedOrder,
  Order,
  OrderSearch,
  OrderUpdate,
  SearchOrdersResponse,
  UpdateOrderOptions,
} from '../../types/ecom-orders.ts';
import { segment } from '../stores/domains.ts';
import { addressesOnWire, changeAt, fieldMaskOnWire, ORDER_ADDRESSES } from './addresses.ts';
import { ecomService, ORDERS, pick } from './domains.ts';
import { paymentsCollector } from './payments-collector.ts';

const call = ecomService(ORDERS, 'orders.v1.Orders', 'order');

type OrderAnswer = { order: Order };

/**
 * Orders (point 7): a buyer reads their own, an admin searches, creates, updates, cancels and tags
 * them. Names, arguments and answers are the hosted client's: `getOrder`, `createOrder` and
 * `updateOrder` answer the order itself; `searchOrders` answers `{orders, metadata}` (cursor paging);
 * `cancelOrder` answers `{order}`. Addresses and field masks go out as the hosted client sends them.
 */
export const orders = {
  // the payments collector's calls, which the hosted client's `orders` module has too
  ...paymentsCollector,
  /** `GET /v1/orders/{id}?id={id}`. */
  getOrder:
    (transport: Transport) =>
    async (id: string): Promise<Order> =>
      (await call<OrderAnswer>(transport, 'GET', `/v1/orders/${segment(id)}`, 'GetOrder', undefined, { id }))
        .order,

  /**
   * `POST /v1/orders/search` {search: {filter, sort, cursorPaging}}: newest first by default, never
   * INITIALIZED orders, PENDING and REJECTED ones only when the filter names them.
   */
  searchOrders:
    (transport: Transport) =>
    (search?: OrderSearch): Promise<SearchOrdersResponse> =>
      call(transport, 'POST', '/v1/orders/search', 'SearchOrders', { search }),

  /** `POST /v1/orders` {order, settings}. */
  createOrder:
    (transport: Transport) =>
    async (order: Order, options?: CreateOrderOptions): Promise<Order> =>
      (
        await call<OrderAnswer>(transport, 'POST', '/v1/orders', 'CreateOrder', {
          order: addressesOnWire(order, ORDER_ADDRESSES),
          settings: options?.settings,
        })
      ).order,

  /**
   * `PATCH /v1/orders/{id}` {order: {..., id}, fieldMask}: the hosted client sends no field mask, so
   * one goes out only when given (as the wire's comma-joined paths).
   */
  updateOrder:
    (transport: Transport) =>
    async (id: string, order: OrderUpdate, options?: UpdateOrderOptions): Promise<Order> =>
      (
        await call<OrderAnswer>(transport, 'PATCH', `/v1/orders/${segment(id)}`, 'UpdateOrder', {
          order: addressesOnWire({ ...order, id }, ORDER_ADDRESSES),
          fieldMask: fieldMaskOnWire(options?.fieldMask),
        })
      ).order,

  /** `POST /v1/bulk/orders/update` {orders: [{order, fieldMask}], returnEntity}: each order's own result. */
  bulkUpdateOrders:
    (transport: Transport) =>
    (maskedOrders: MaskedOrder[], options?: BulkUpdateOrdersOptions): Promise<BulkUpdateOrdersResponse> =>
      call(transport, 'POST', '/v1/bulk/orders/update', 'BulkUpdateOrders', {
        orders: changeAt(changeAt(maskedOrders, ['fieldMask'], fieldMaskOnWire), ['order'], (order: Order) =>
          addressesOnWire(order, ORDER_ADDRESSES),
        ),
        returnEntity: options?.returnEntity,
      }),

  /** `POST /v1/orders/{id}/cancel` {id, sendOrderCanceledEmail, customMessage, restockAllItems}. */
  cancelOrder:
    (transport: Transport) =>
    (id: string, options?: CancelOrderRequest): Promise<CancelOrderResponse> =>
      call(transport, 'POST', `/v1/orders/${segment(id)}/cancel`, 'CancelOrder', {
        id,
        ...pick(options, ['sendOrderCanceledEmail', 'customMessage', 'restockAllItems']),
      }),

  /** `POST /v1/bulk/orders/update-tags` {orderIds, assignTags, unassignTags}. */
  bulkUpdateOrderTags:
    (transport: Transport) =>
    (orderIds: string[], options?: BulkUpdateOrderTagsOptions): Promise<BulkUpdateOrderTagsResponse> =>
      call(transport, 'POST', '/v1/bulk/orders/update-tags', 'BulkUpdateOrderTags', {
        orderIds,
        ...pick(options, ['assignTags', 'unassignTags']),
      }),

  /** `POST /v1/orders/{orderId}/activities/add` {orderId, orderActivities}: `{order, activityIds}`. */
  addActivities:
    (transport: Transport) =>
    (orderId: string, options?: AddActivitiesOptions): Promise<AddActivitiesResponse> =>
      call(transport, 'POST', `/v1/orders/${segment(orderId)}/activities/add`, 'AddActivities', {
        orderId,
        orderActivities: options?.orderActivities,
      }),

  /** `DELETE /v1/orders/{id}/activities/{activityId}?id=...&activityId=...`: `{order}`. */
  deleteActivity:
    (transport: Transport) =>
    (identifiers: DeleteActivityIdentifiers): Promise<DeleteActivityResponse> =>
      call(
        transport,
        'DELETE',
        `/v1/orders/${segment(identifiers.id)}/activities/${segment(identifiers.activityId)}`,
        'DeleteActivity',
        undefined,
        { id: identifiers.id, activityId: identifiers.activityId },
      ),

  /** `POST /v1/orders/aggregate` {filter, aggregation, hierarchySeparatorOverride}: `{aggregates}`. */
  aggregateOrders:
    (transport: Transport) =>
    (options?: AggregateOrdersOptions): Promise<AggregateOrdersResponse> =>
      call(
        transport,
        'POST',
        '/v1/orders/aggregate',
        'AggregateOrders',
        pick(options, ['filter', 'aggregation', 'hierarchySeparatorOverride']),
      ),
} satisfies ModuleDefinition;
