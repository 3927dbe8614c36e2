import { orderFulfillments as hostedOrderFulfillments } from '@wix/ecom';
import { createClient as createHostedClient, ApiKeyStrategy as HostedApiKeyStrategy } from '@wix/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, HOSTED_API_HOST, orderFulfillments } from '../src/index.ts';
import { TRACING_HEADER } from '../src/wire/index.ts';
import { recordingFetch, type SentRequest } from './support/recording-fetch.ts';

/**
 * Cartwheel's `orderFulfillments` beside the hosted client's own, both pointed at the hosted API host:
 * each call sends the same request (method, URL with its query, body bytes, content type,
 * authorization, a tracing header of the same shape naming the same method) and answers the same.
 */

const HOSTED_TRACING_HEADER = 'x-wix-bi-gateway';
const API_KEY = 'admin-api-key';
const ours = recordingFetch();
const theirs = recordingFetch();
beforeEach(() => {
  ours.requests.length = 0;
  theirs.requests.length = 0;
});

const cartwheel = createClient({
  host: HOSTED_API_HOST,
  auth: ApiKeyStrategy({ apiKey: API_KEY }),
  fetch: ours.fetch,
  modules: { orderFulfillments },
});
const hosted = createHostedClient({
  auth: HostedApiKeyStrategy({ apiKey: API_KEY, siteId: 'cartwheel-test-site' }),
  fetch: theirs.fetch,
  modules: { orderFulfillments: hostedOrderFulfillments },
});

function traceShape(value: string | null) {
  if (value === null) return null;
  const fields = value.split(',').map((field) => field.split('='));
  const fqn = fields.find(([key]) => key === 'method-fqn')?.[1] ?? '';
  return { keys: fields.map(([key]) => key), method: fqn.slice(fqn.lastIndexOf('.') + 1) };
}

function only(requests: SentRequest[]): SentRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

const FULFILLMENTS = {
  orderId: 'o1',
  fulfillments: [
    {
      id: 'f1',
      createdDate: '2026-11-27T03:00:00.000Z',
      lineItems: [{ id: 'li1', quantity: 1 }],
      trackingInfo: {
        trackingNumber: '1Z',
        shippingProvider: 'ups',
        trackingLink: 'https://www.ups.com/track?tracknum=1Z',
      },
    },
  ],
};
const ANSWERS = {
  listFulfillmentsForSingleOrder: { orderWithFulfillments: FULFILLMENTS },
  listFulfillmentsForMultipleOrders: { ordersWithFulfillments: [FULFILLMENTS] },
  createFulfillment: { orderWithFulfillments: FULFILLMENTS, fulfillmentId: 'f1' },
  updateFulfillment: { orderWithFulfillments: FULFILLMENTS },
  deleteFulfillment: { orderWithFulfillments: FULFILLMENTS },
  bulkCreateFulfillments: {
    results: [
      { itemMetadata: { id: 'o1', originalIndex: 0, success: true }, ordersWithFulfillments: FULFILLMENTS },
    ],
    bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 },
  },
};

/** The hosted client's answer with its renamed keys back under the wire's names. */
function wireNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(wireNames);
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key === '_id' ? 'id' : key === '_createdDate' ? 'createdDate' : key,
      wireNames(child),
    ]),
  );
}

type Row = [
  name: string,
  ourCall: (c: typeof cartwheel) => Promise<unknown>,
  theirCall: (h: typeof hosted) => Promise<unknown>,
];

const calls: Row[] = [
  [
    'listFulfillmentsForSingleOrder',
    (c) => c.orderFulfillments.listFulfillmentsForSingleOrder('o1'),
    (h) => h.orderFulfillments.listFulfillmentsForSingleOrder('o1'),
  ],
  [
    'listFulfillmentsForMultipleOrders',
    (c) => c.orderFulfillments.listFulfillmentsForMultipleOrders(['o1', 'o2']),
    (h) => h.orderFulfillments.listFulfillmentsForMultipleOrders(['o1', 'o2']),
  ],
  [
    'createFulfillment',
    (c) =>
      c.orderFulfillments.createFulfillment('o1', {
        lineItems: [{ quantity: 1, id: 'li1' }],
        trackingInfo: { trackingNumber: '1Z', shippingProvider: 'ups' },
      }),
    (h) =>
      h.orderFulfillments.createFulfillment('o1', {
        lineItems: [{ _id: 'li1', quantity: 1 }],
        trackingInfo: { trackingNumber: '1Z', shippingProvider: 'ups' },
      }),
  ],
  [
    'updateFulfillment',
    (c) =>
      c.orderFulfillments.updateFulfillment(
        { fulfillmentId: 'f1', orderId: 'o1' },
        {
          fulfillment: {
            trackingInfo: { trackingNumber: '94001', shippingProvider: 'usps' },
            status: 'In_Delivery',
          },
        },
      ),
    (h) =>
      h.orderFulfillments.updateFulfillment(
        { fulfillmentId: 'f1', orderId: 'o1' },
        {
          fulfillment: {
            trackingInfo: { trackingNumber: '94001', shippingProvider: 'usps' },
            status: 'In_Delivery',
          },
        },
      ),
  ],
  [
    'deleteFulfillment',
    (c) => c.orderFulfillments.deleteFulfillment({ fulfillmentId: 'f1', orderId: 'o1' }),
    (h) => h.orderFulfillments.deleteFulfillment({ fulfillmentId: 'f1', orderId: 'o1' }),
  ],
  [
    'bulkCreateFulfillments',
    (c) =>
      c.orderFulfillments.bulkCreateFulfillments([
        { orderId: 'o1', fulfillments: [{ lineItems: [{ quantity: 2, id: 'li1' }] }] },
      ]),
    (h) =>
      h.orderFulfillments.bulkCreateFulfillments([
        { orderId: 'o1', fulfillments: [{ lineItems: [{ _id: 'li1', quantity: 2 }] }] },
      ]),
  ],
];

describe("orderFulfillments requests equal to the hosted client's", () => {
  it('pins every method of the module', () => {
    expect(new Set(Object.keys(orderFulfillments))).toEqual(new Set(calls.map(([name]) => name)));
  });

  it.each(calls)(
    '%s sends what the hosted client sends and answers the same',
    async (_name, ourCall, theirCall) => {
      // each call's own answer: the hosted client reads dates only where its call's answer has them
      const answer = ANSWERS[_name as keyof typeof ANSWERS];
      ours.answer = answer;
      theirs.answer = answer;
      const ourAnswer = await ourCall(cartwheel);
      const theirAnswer = await theirCall(hosted);
      const [ourRequest, theirRequest] = [only(ours.requests), only(theirs.requests)];
      expect(ourRequest.method).toBe(theirRequest.method);
      expect(ourRequest.url).toBe(theirRequest.url);
      expect(ourRequest.body).toBe(theirRequest.body);
      expect(ourRequest.headers.get('content-type')).toBe(theirRequest.headers.get('content-type'));
      expect(ourRequest.headers.get('authorization')).toBe(theirRequest.headers.get('authorization'));
      const shape = traceShape(theirRequest.headers.get(HOSTED_TRACING_HEADER));
      expect(traceShape(ourRequest.headers.get(TRACING_HEADER))).toEqual(shape);
      // the hosted client names ids `_id` (and dates `_createdDate`); Cartwheel's keeps the wire's names
      expect(ourAnswer).toEqual(wireNames(theirAnswer));
    },
  );
});
