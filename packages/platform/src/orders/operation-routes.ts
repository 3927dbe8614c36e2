import { CALLERS, type HttpApp } from '../http/app.ts';
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
import {
  AddActivitiesAnswer,
  AggregateOrdersAnswer,
  BulkUpdateOrdersAnswer,
  BulkUpdateOrderTagsAnswer,
  OrderAnswer,
} from './responses.ts';

/**
 * The merchant's order operations (`@wix/ecom`'s `orders`): the admin API key only (routes that say
 * nothing of access are the admin's); a member or visitor is refused with 403, no token with 401.
 */
/** Who may change orders (issue 21): the admin key, staff and API keys holding orders.manage. */
const MANAGERS = CALLERS.staff('orders.manage');

export function orderOperationRoutes(app: HttpApp, services: { orderOperations: OrderOperations }): void {
  const operations = services.orderOperations;
  const path = '/ecom/v1/orders';

  app.patch(
    `${path}/:id`,
    {
      schema: { params: OrderIdParams, body: UpdateOrderBody, response: { 200: OrderAnswer } },
      config: MANAGERS,
    },
    async (request) => ({
      order: await operations.update(request.params.id, request.body.order, request.body.fieldMask),
    }),
  );

  app.post(
    '/ecom/v1/bulk/orders/update',
    { schema: { body: BulkUpdateOrdersBody, response: { 200: BulkUpdateOrdersAnswer } }, config: MANAGERS },
    (request) => operations.bulkUpdate(request.body.orders, request.body.returnEntity ?? false),
  );

  app.post(
    `${path}/:id/cancel`,
    {
      schema: { params: OrderIdParams, body: CancelOrderBody, response: { 200: OrderAnswer } },
      config: MANAGERS,
    },
    async (request) => ({
      order: await operations.cancel(request.params.id, request.body),
    }),
  );

  app.post(
    '/ecom/v1/bulk/orders/update-tags',
    {
      schema: { body: BulkUpdateOrderTagsBody, response: { 200: BulkUpdateOrderTagsAnswer } },
      config: MANAGERS,
    },
    (request) =>
      operations.bulkUpdateTags(request.body.orderIds, request.body.assignTags, request.body.unassignTags),
  );

  app.post(
    `${path}/:orderId/activities/add`,
    {
      schema: { params: ActivitiesParams, body: AddActivitiesBody, response: { 200: AddActivitiesAnswer } },
      config: MANAGERS,
    },
    (request) => operations.addActivities(request.params.orderId, request.body.orderActivities),
  );

  app.delete(
    `${path}/:id/activities/:activityId`,
    { schema: { params: ActivityParams, response: { 200: OrderAnswer } }, config: MANAGERS },
    async (request) => ({
      order: await operations.deleteActivity(request.params.id, request.params.activityId),
    }),
  );

  app.post(
    `${path}/aggregate`,
    {
      schema: { body: AggregateOrdersBody, response: { 200: AggregateOrdersAnswer } },
      config: CALLERS.staff('orders.read'),
    },
    (request) =>
      operations.aggregate(
        request.body.filter ?? undefined,
        request.body.aggregation,
        request.body.hierarchySeparatorOverride ?? undefined,
      ),
  );
}
