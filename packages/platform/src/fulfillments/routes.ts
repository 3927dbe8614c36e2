import type { HttpApp } from '../http/app.ts';
import { FULFILLMENT_OPERATIONS } from './operations-access.ts';
import {
  BulkCreateFulfillmentsAnswer,
  CreateFulfillmentAnswer,
  OrderFulfillmentsAnswer,
  OrdersFulfillmentsAnswer,
} from './responses.ts';
import {
  BulkCreateFulfillmentsBody,
  CreateFulfillmentBody,
  FulfillmentParams,
  ListByIdsBody,
  OrderIdParams,
  UpdateFulfillmentBody,
} from './schemas.ts';
import type { FulfillmentService } from './service.ts';

/**
 * `@wix/ecom`'s `orderFulfillments` (`/ecom/v1/fulfillments/...`): the admin API key changes them;
 * a buyer reads their own order's (a member their own, a visitor what they placed), never another's.
 */
export function fulfillmentRoutes(app: HttpApp, services: { fulfillments: FulfillmentService }): void {
  const fulfillments = services.fulfillments;
  const path = '/ecom/v1/fulfillments';

  app.get(
    `${path}/orders/:orderId`,
    {
      schema: { params: OrderIdParams, response: { 200: OrderFulfillmentsAnswer } },
      config: FULFILLMENT_OPERATIONS.listFulfillmentsForSingleOrder,
    },
    async (request) => ({
      orderWithFulfillments: await fulfillments.listForOrder(request.params.orderId, request.principal),
    }),
  );

  app.post(
    `${path}/list-by-ids`,
    {
      schema: { body: ListByIdsBody, response: { 200: OrdersFulfillmentsAnswer } },
      config: FULFILLMENT_OPERATIONS.listFulfillmentsForMultipleOrders,
    },
    async (request) => ({
      ordersWithFulfillments: await fulfillments.listForOrders(request.body.orderIds, request.principal),
    }),
  );

  app.post(
    `${path}/orders/:orderId/create-fulfillment`,
    {
      schema: {
        params: OrderIdParams,
        body: CreateFulfillmentBody,
        response: { 200: CreateFulfillmentAnswer },
      },
      config: FULFILLMENT_OPERATIONS.createFulfillment,
    },
    (request) => fulfillments.create(request.params.orderId, request.body.fulfillment),
  );

  app.patch(
    `${path}/:fulfillmentId/orders/:orderId`,
    {
      schema: {
        params: FulfillmentParams,
        body: UpdateFulfillmentBody,
        response: { 200: OrderFulfillmentsAnswer },
      },
      config: FULFILLMENT_OPERATIONS.updateFulfillment,
    },
    async (request) => ({
      orderWithFulfillments: await fulfillments.update(
        request.params.orderId,
        request.params.fulfillmentId,
        request.body.fulfillment,
      ),
    }),
  );

  app.delete(
    `${path}/:fulfillmentId/orders/:orderId`,
    {
      schema: { params: FulfillmentParams, response: { 200: OrderFulfillmentsAnswer } },
      config: FULFILLMENT_OPERATIONS.deleteFulfillment,
    },
    async (request) => ({
      orderWithFulfillments: await fulfillments.delete(request.params.orderId, request.params.fulfillmentId),
    }),
  );

  app.post(
    `${path}/orders/bulk/create-fulfillments`,
    {
      schema: { body: BulkCreateFulfillmentsBody, response: { 200: BulkCreateFulfillmentsAnswer } },
      config: FULFILLMENT_OPERATIONS.bulkCreateFulfillment,
    },
    (request) => fulfillments.bulkCreate(request.body.ordersWithFulfillments),
  );
}
