import { describe, expect, it } from 'vitest';
import {
  ApplicationError,
  HOSTED_API_HOST,
  ORDERS,
  orders,
  paymentsCollector,
  toPublicPath,
} from '../src/index.ts';
import type { RecordedRequest } from './support/loopback-server.ts';
import {
  ADMIN_KEY,
  adminClient,
  type CallRow,
  expectRowsCover,
  expectWireCall,
  startWireServer,
  tracing,
} from './support/wire-calls.ts';

/**
 * Each orders call against a loopback server that records what arrives. Expectations are the wire
 * contract's orders list, written out by hand; an admin's client, since most of these are the
 * merchant's calls.
 */

const CREATED = '2024-05-01T10:00:00.000Z';
const UPDATED = '2024-05-02T10:00:00.000Z';
const PURCHASED = '2024-05-01T10:00:05.000Z';
const DELIVER_BY = '2024-05-06T00:00:00.000Z';
const ACTIVITY = '2024-05-01T10:00:06.000Z';
const ORDER_ON_WIRE = {
  id: 'o1',
  number: '1001',
  status: 'APPROVED',
  paymentStatus: 'PAID',
  fulfillmentStatus: 'NOT_FULFILLED',
  priceSummary: { subtotal: { amount: '25.00' }, total: { amount: '27.50' } },
  shippingInfo: { title: 'Standard', logistics: { deliverByDate: DELIVER_BY } },
  activities: [{ type: 'ORDER_PLACED', createdDate: ACTIVITY }],
  createdDate: CREATED,
  updatedDate: UPDATED,
  purchasedDate: PURCHASED,
};
/** The order as the SDK answers it: every date field a `Date`. */
const ORDER = {
  ...ORDER_ON_WIRE,
  shippingInfo: { title: 'Standard', logistics: { deliverByDate: new Date(DELIVER_BY) } },
  activities: [{ type: 'ORDER_PLACED', createdDate: new Date(ACTIVITY) }],
  createdDate: new Date(CREATED),
  updatedDate: new Date(UPDATED),
  purchasedDate: new Date(PURCHASED),
};
const METADATA = { count: 1, cursors: { next: 'cursor-2', prev: null }, hasNext: true };
const BULK = {
  results: [{ itemMetadata: { id: 'o1', originalIndex: 0, success: true } }],
  bulkActionMetadata: {},
};
const ADDRESS = { country: 'US', city: 'New York', postalCode: '10001', addressLine: '350 Fifth Avenue' };
const ADDRESS_ON_WIRE = {
  city: 'New York',
  country: 'US',
  postalCode: '10001',
  addressLine: '350 Fifth Avenue',
};

function ordersPlatform(request: RecordedRequest) {
  if (request.path.endsWith('/aggregate')) return { body: { aggregates: { byStatus: { APPROVED: 3 } } } };
  if (request.path.endsWith('/activities/add'))
    return { body: { order: ORDER_ON_WIRE, activityIds: ['a1'] } };
  if (request.path.endsWith('/search')) return { body: { orders: [ORDER_ON_WIRE], metadata: METADATA } };
  if (request.path.startsWith('/ecom/v1/bulk/')) return { body: BULK };
  return { body: { order: ORDER_ON_WIRE } };
}

const server = await startWireServer(ordersPlatform);
const admin = adminClient(server, { orders });
const ADMIN = { authorization: ADMIN_KEY, trace: tracing('cartwheel.ecom.orders.v1.Orders', 'order') };

const calls: CallRow<typeof admin>[] = [
  [
    'getOrder',
    (c) => c.orders.getOrder('o1'),
    { method: 'GET', path: '/ecom/v1/orders/o1', query: { id: 'o1' }, returns: ORDER },
  ],
  [
    'searchOrders',
    (c) => c.orders.searchOrders({ filter: { status: { $eq: 'APPROVED' } }, cursorPaging: { limit: 10 } }),
    {
      method: 'POST',
      path: '/ecom/v1/orders/search',
      body: { search: { filter: { status: { $eq: 'APPROVED' } }, cursorPaging: { limit: 10 } } },
      returns: { orders: [ORDER], metadata: METADATA },
    },
  ],
  [
    'createOrder',
    (c) => c.orders.createOrder({ lineItems: [], billingInfo: { address: ADDRESS }, currency: 'USD' }),
    {
      method: 'POST',
      path: '/ecom/v1/orders',
      body: { order: { lineItems: [], billingInfo: { address: ADDRESS_ON_WIRE }, currency: 'USD' } },
      returns: ORDER,
    },
  ],
  [
    'updateOrder',
    (c) => c.orders.updateOrder('o1', { buyerNote: 'leave at the door' }, { fieldMask: ['buyerNote'] }),
    {
      method: 'PATCH',
      path: '/ecom/v1/orders/o1',
      body: { order: { buyerNote: 'leave at the door', id: 'o1' }, fieldMask: 'buyerNote' },
      returns: ORDER,
    },
  ],
  [
    'bulkUpdateOrders',
    (c) =>
      c.orders.bulkUpdateOrders(
        [{ order: { id: 'o1', recipientInfo: { address: ADDRESS } }, fieldMask: ['recipientInfo'] }],
        { returnEntity: false },
      ),
    {
      method: 'POST',
      path: '/ecom/v1/bulk/orders/update',
      body: {
        orders: [
          { order: { id: 'o1', recipientInfo: { address: ADDRESS_ON_WIRE } }, fieldMask: 'recipientInfo' },
        ],
        returnEntity: false,
      },
      returns: BULK,
    },
  ],
  [
    'cancelOrder',
    (c) => c.orders.cancelOrder('o1', { sendOrderCanceledEmail: true, restockAllItems: true }),
    {
      method: 'POST',
      path: '/ecom/v1/orders/o1/cancel',
      body: { id: 'o1', sendOrderCanceledEmail: true, restockAllItems: true },
      returns: { order: ORDER },
    },
  ],
  [
    'bulkUpdateOrderTags',
    (c) => c.orders.bulkUpdateOrderTags(['o1'], { assignTags: { privateTags: { tagIds: ['t1'] } } }),
    {
      method: 'POST',
      path: '/ecom/v1/bulk/orders/update-tags',
      body: { orderIds: ['o1'], assignTags: { privateTags: { tagIds: ['t1'] } } },
      returns: BULK,
    },
  ],
  [
    'addActivities',
    (c) => c.orders.addActivities('o1', { orderActivities: [{ merchantComment: { message: 'Called' } }] }),
    {
      method: 'POST',
      path: '/ecom/v1/orders/o1/activities/add',
      body: { orderId: 'o1', orderActivities: [{ merchantComment: { message: 'Called' } }] },
      returns: { order: ORDER, activityIds: ['a1'] },
    },
  ],
  [
    'deleteActivity',
    (c) => c.orders.deleteActivity({ id: 'o1', activityId: 'a1' }),
    {
      method: 'DELETE',
      path: '/ecom/v1/orders/o1/activities/a1',
      query: { id: 'o1', activityId: 'a1' },
      returns: { order: ORDER },
    },
  ],
  [
    'aggregateOrders',
    (c) => c.orders.aggregateOrders({ aggregation: { byStatus: { $count: ['status'] } } }),
    {
      method: 'POST',
      path: '/ecom/v1/orders/aggregate',
      body: { aggregation: { byStatus: { $count: ['status'] } } },
      returns: { aggregates: { byStatus: { APPROVED: 3 } } },
    },
  ],
];

describe('orders calls on the wire (wire contract, Calls)', () => {
  it.each(calls)(
    'orders.%s sends the request the wire contract lists and returns what the hosted client returns',
    async (_name, call, expected) => {
      const result = await call(admin);
      expectWireCall(server.requests, expected, ADMIN);
      expect(result).toEqual(expected.returns);
    },
  );

  it('covers every method of the orders module (the collector calls it shares are pinned in payments-wire)', () => {
    const collector = new Set(Object.keys(paymentsCollector));
    expectRowsCover(
      calls,
      Object.keys(orders).filter((name) => !collector.has(name)),
    );
  });

  it('maps /v1/orders and /v1/bulk/orders under /ecom on the hosted API host and on any other host', () => {
    expect(toPublicPath(ORDERS, HOSTED_API_HOST, '/v1/orders/o1')).toBe('/ecom/v1/orders/o1');
    expect(toPublicPath(ORDERS, 'localhost:4000', '/v1/bulk/orders/update-tags')).toBe(
      '/ecom/v1/bulk/orders/update-tags',
    );
  });

  it('sends a search with nothing in it as an empty body, and no field mask unless one is given', async () => {
    await admin.orders.searchOrders();
    await admin.orders.updateOrder('o1', { buyerNote: 'x' });
    expect(server.requests.map((request) => request.body)).toEqual([
      {},
      { order: { buyerNote: 'x', id: 'o1' } },
    ]);
  });

  it("turns an order's dates into Dates, in a search's orders too", async () => {
    const order = await admin.orders.getOrder('o1');
    expect(order.purchasedDate).toEqual(new Date(PURCHASED));
    expect(order.shippingInfo?.logistics?.deliverByDate).toEqual(new Date(DELIVER_BY));
    const { orders: found, metadata } = await admin.orders.searchOrders({});
    expect(found[0]?.activities?.[0]?.createdDate).toEqual(new Date(ACTIVITY));
    expect(metadata.cursors.next).toBe('cursor-2');
  });

  it('raises an order that cannot be canceled as the application error the platform sent', async () => {
    server.respond = () => ({
      status: 428,
      body: {
        message: 'order already canceled',
        details: {
          applicationError: { code: 'ORDER_STATUS_IS_NOT_SUPPORTED', description: 'Order is canceled' },
        },
      },
    });
    const refused = admin.orders.cancelOrder('o1');
    await expect(refused).rejects.toBeInstanceOf(ApplicationError);
    await expect(refused).rejects.toMatchObject({ status: 428, code: 'ORDER_STATUS_IS_NOT_SUPPORTED' });
  });
});
