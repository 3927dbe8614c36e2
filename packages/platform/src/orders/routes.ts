import type { HttpApp } from '../http/app.ts';
import { ORDER_OPERATIONS } from './operations-access.ts';
import { OrderAnswer, SearchOrdersAnswer } from './responses.ts';
import { CreateOrderBody, OrderIdParams, SearchOrdersBody } from './schemas.ts';
import type { OrderService } from './service.ts';

/**
 * The buyer's and the admin's order reads: a member reads their own orders, a visitor those they
 * placed as that visitor, the admin key all; anyone else is told an order does not exist. And
 * `createOrder`, for the admin key and staff or keys holding orders.manage.
 */
export function orderRoutes(app: HttpApp, services: { orders: OrderService }): void {
  const orders = services.orders;
  const path = '/ecom/v1/orders';

  app.get(
    `${path}/:id`,
    {
      schema: { params: OrderIdParams, response: { 200: OrderAnswer } },
      config: ORDER_OPERATIONS.getOrder,
    },
    async (request) => ({
      order: await orders.get(request.params.id, request.principal),
    }),
  );

  app.post(
    `${path}/search`,
    {
      schema: { body: SearchOrdersBody, response: { 200: SearchOrdersAnswer } },
      config: ORDER_OPERATIONS.searchOrders,
    },
    (request) => orders.search(request.body.search ?? {}, request.principal),
  );

  // an order the merchant or an app records (a till): those who may change orders
  app.post(
    path,
    {
      schema: { body: CreateOrderBody, response: { 200: OrderAnswer } },
      config: ORDER_OPERATIONS.createOrder,
    },
    async (request) => ({
      order: await orders.createRecorded(request.body.order, request.body.settings ?? undefined),
    }),
  );
}
