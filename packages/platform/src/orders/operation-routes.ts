import type { HttpApp } from '../http/app.ts';
import type { Services } from '../platform.ts';
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

/**
 * The merchant's order operations (`@wix/ecom`'s `orders`): the admin API key only (routes that say
 * nothing of access are the admin's); a member or visitor is refused with 403, no token with 401.
 */
export function orderOperationRoutes(app: HttpApp, services: Pick<Services, 'orderOperations'>): void {
  const operations = services.orderOperations;
  const path = '/ecom/v1/orders';

  app.patch(`${path}/:id`, { schema: { params: OrderIdParams, body: UpdateOrderBody } }, async (request) => ({
    order: await operations.update(request.params.id, request.body.order, request.body.fieldMask),
  }));

  app.post('/ecom/v1/bulk/orders/update', { schema: { body: BulkUpdateOrdersBody } }, (request) =>
    operations.bulkUpdate(request.body.orders, request.body.returnEntity ?? false),
  );

  app.post(
    `${path}/:id/cancel`,
    { schema: { params: OrderIdParams, body: CancelOrderBody } },
    async (request) => ({
      order: await operations.cancel(request.params.id, request.body),
    }),
  );

  app.post('/ecom/v1/bulk/orders/update-tags', { schema: { body: BulkUpdateOrderTagsBody } }, (request) =>
    operations.bulkUpdateTags(request.body.orderIds, request.body.assignTags, request.body.unassignTags),
  );

  app.post(
    `${path}/:orderId/activities/add`,
    { schema: { params: ActivitiesParams, body: AddActivitiesBody } },
    (request) => operations.addActivities(request.params.orderId, request.body.orderActivities),
  );

  app.delete(
    `${path}/:id/activities/:activityId`,
    { schema: { params: ActivityParams } },
    async (request) => ({
      order: await operations.deleteActivity(request.params.id, request.params.activityId),
    }),
  );

  app.post(`${path}/aggregate`, { schema: { body: AggregateOrdersBody } }, (request) =>
    operations.aggregate(
      request.body.filter ?? undefined,
      request.body.aggregation,
      request.body.hierarchySeparatorOverride ?? undefined,
    ),
  );
}
