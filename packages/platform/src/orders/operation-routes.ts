import type { HttpApp } from '../http/app.ts';
import {
  ActivitiesParams,
  ActivityParams,
  AddActivitiesBody,
  AggregateOrdersBody,
  BulkUpdateOrdersBody,
  BulkUpdateOrderTagsBody,
  CancelOrderBody,
  OrderIdParams,
  UpdateOrderBody,
} from './operation-schemas.ts';
import type { OrderOperations } from './operations.ts';
import { ORDER_OPERATIONS } from './operations-access.ts';
import {
  AddActivitiesAnswer,
  AggregateOrdersAnswer,
  BulkUpdateOrdersAnswer,
  BulkUpdateOrderTagsAnswer,
  OrderAnswer,
} from './responses.ts';

/**
 * The merchant's order operations (`@wix/ecom`'s `orders`): for the admin key, and staff and keys
 * holding the permission `ORDER_OPERATIONS` names; a member or visitor is refused with 403, no token
 * with 401.
 */
export function orderOperationRoutes(app: HttpApp, services: { orderOperations: OrderOperations }): void {
  const operations = services.orderOperations;
  const path = '/ecom/v1/orders';

  app.patch(
    `${path}/:id`,
    {
      schema: { params: OrderIdParams, body: UpdateOrderBody, response: { 200: OrderAnswer } },
      config: ORDER_OPERATIONS.updateOrder,
    },
    async (request) => ({
      order: await operations.update(request.params.id, request.body.order, request.body.fieldMask),
    }),
  );

  app.post(
    '/ecom/v1/bulk/orders/update',
    {
      schema: { body: BulkUpdateOrdersBody, response: { 200: BulkUpdateOrdersAnswer } },
      config: ORDER_OPERATIONS.bulkUpdateOrders,
    },
    (request) => operations.bulkUpdate(request.body.orders, request.body.returnEntity ?? false),
  );

  app.post(
    `${path}/:id/cancel`,
    {
      schema: { params: OrderIdParams, body: CancelOrderBody, response: { 200: OrderAnswer } },
      config: ORDER_OPERATIONS.cancelOrder,
    },
    async (request) => ({
      order: await operations.cancel(request.params.id, request.body),
    }),
  );

  app.post(
    '/ecom/v1/bulk/orders/update-tags',
    {
      schema: { body: BulkUpdateOrderTagsBody, response: { 200: BulkUpdateOrderTagsAnswer } },
      config: ORDER_OPERATIONS.bulkUpdateOrderTags,
    },
    (request) =>
      operations.bulkUpdateTags(request.body.orderIds, request.body.assignTags, request.body.unassignTags),
  );

  app.post(
    `${path}/:orderId/activities/add`,
    {
      schema: { params: ActivitiesParams, body: AddActivitiesBody, response: { 200: AddActivitiesAnswer } },
      config: ORDER_OPERATIONS.addActivities,
    },
    (request) => operations.addActivities(request.params.orderId, request.body.orderActivities),
  );

  app.delete(
    `${path}/:id/activities/:activityId`,
    {
      schema: { params: ActivityParams, response: { 200: OrderAnswer } },
      config: ORDER_OPERATIONS.deleteActivity,
    },
    async (request) => ({
      order: await operations.deleteActivity(request.params.id, request.params.activityId),
    }),
  );

  app.post(
    `${path}/aggregate`,
    {
      schema: { body: AggregateOrdersBody, response: { 200: AggregateOrdersAnswer } },
      config: ORDER_OPERATIONS.aggregateOrders,
    },
    (request) =>
      operations.aggregate(
        request.body.filter ?? undefined,
        request.body.aggregation,
        request.body.hierarchySeparatorOverride ?? undefined,
      ),
  );
}
