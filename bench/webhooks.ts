/**
 * Webhooks (issue 31): events delivered per second to a local receiver while 32 buyers place orders
 * (beside the orders placed per second that produce them), the delivery lag p50/p99 under that load,
 * and what 10 subscribed endpoints cost an add to cart (beside a store with none, in alternation).
 * See bench/README.md.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { type LoadFigure, loadTiming, measureInAlternation } from './support/alternate.ts';
import { BENCH_ADMIN_API_KEY } from './support/processes.ts';
import { visitorToken } from './support/recording.ts';
import {
  benchProducts,
  call,
  catalogLine,
  type Dialect,
  payCheckout,
  readyCheckout,
  startBenchShop,
} from './support/shop.ts';
import { percentile } from './support/stats.ts';

const BUYERS = 32;
const LOOPBACK = { CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' };
/** What a store's integration typically takes of an order's life. */
const ORDER_EVENTS = [
  'wix.ecom.v1.order_created',
  'wix.ecom.v1.order_updated',
  'wix.ecom.v1.order_approved',
  'wix.ecom.v1.checkout_completed',
  'wix.ecom.v1.order_transactions_updated',
];
const json = { 'content-type': 'application/json' };

export interface WebhookDeliveryFigure {
  dialect: Dialect;
  buyers: number;
  orders: number;
  /** Orders placed per second by the buyers. */
  ordersPerSecond: number;
  /** Deliveries received in all, and per second from the first order to the last delivery. */
  delivered: number;
  deliveredPerSecond: number;
  /** Distinct event ids among the deliveries (fewer than `delivered`: some came twice). */
  distinct: number;
  /** From an event's time to its arrival at the receiver. */
  lagP50Ms: number;
  lagP99Ms: number;
  /** Seconds after the last order until the receiver had every event. */
  drainSeconds: number;
  notes: string[];
}

export interface AddToCartFigure {
  endpoints: number;
  figure: LoadFigure;
  notes: string[];
}

/** A receiver on a loopback port answering 200 at once: each body's arrival time kept. */
async function receiver() {
  const arrivals: { at: number; body: string }[] = [];
  let listeners: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      arrivals.push({ at: Date.now(), body });
      response.writeHead(200).end('ok');
      for (const listener of listeners) listener();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    /** Resolves once `done()` holds, or after `ms` without one. */
    until(done: () => boolean, ms: number): Promise<boolean> {
      if (done()) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => finish(false), ms);
        const check = () => {
          if (done()) finish(true);
        };
        const finish = (value: boolean) => {
          clearTimeout(timer);
          listeners = listeners.filter((listener) => listener !== check);
          resolve(value);
        };
        listeners.push(check);
      });
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The domain event a JWT delivery carries (read, not verified: the tests verify). */
function eventOf(body: string): { id: string; eventTime: string; eventType: string } {
  const claims = JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8'));
  const data = JSON.parse(claims.data);
  return { ...JSON.parse(data.data), eventType: data.eventType };
}

async function subscribe(url: string, target: string, eventTypes: string[]): Promise<void> {
  const answer = (await call(url, 'POST', '/api/cartwheel/webhooks', BENCH_ADMIN_API_KEY, {
    webhook: { url: target, eventTypes },
  })) as any;
  if (!answer?.webhook?.id) throw new Error(`subscribing answered ${JSON.stringify(answer)}`);
}

/** 32 buyers place orders while one endpoint takes each order's events; what arrives, how fast. */
export async function measureWebhookDelivery(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<WebhookDeliveryFigure> {
  const notes: string[] = [];
  const shop = await startBenchShop(dialect, 'cartwheel_bench_webhooks', LOOPBACK);
  const hooks = await receiver();
  try {
    await subscribe(shop.url, hooks.url, ORDER_EVENTS);
    const attempts = BUYERS * (options.quick ? 2 : 8);
    const [productId] = await benchProducts(shop.url, 1, { trackInventory: false });
    const sessions: string[] = [];
    for (let index = 0; index < attempts; index += BUYERS) {
      const batch = Math.min(BUYERS, attempts - index);
      sessions.push(
        ...(await Promise.all(Array.from({ length: batch }, () => readyCheckout(shop.url, productId!)))),
      );
    }
    // what setting up the carts and checkouts sent is not part of the figure
    await hooks.until(() => false, 1000);
    const before = hooks.arrivals.length;

    let orders = 0;
    const queue = [...sessions];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: BUYERS }, async () => {
        for (let session = queue.shift(); session; session = queue.shift()) {
          const { status, answer } = await payCheckout(shop.url, session);
          if (status === 200 && answer.status === 'APPROVED') orders++;
        }
      }),
    );
    const ordersDone = Date.now();
    if (orders < attempts) notes.push(`${attempts - orders} of ${attempts} payments did not make an order`);

    // wait for the flow to go quiet: no delivery for 1.5 s (a minute at most)
    const deadline = Date.now() + 60_000;
    let seen = hooks.arrivals.length;
    while (Date.now() < deadline) {
      await hooks.until(() => false, 1500);
      if (hooks.arrivals.length === seen) break;
      seen = hooks.arrivals.length;
    }
    const arrivals = hooks.arrivals.slice(before);
    const last = arrivals.at(-1)?.at ?? ordersDone;
    const lags = arrivals.map((arrival) => arrival.at - Date.parse(eventOf(arrival.body).eventTime));
    const ids = new Set(arrivals.map((arrival) => eventOf(arrival.body).id));
    const created = new Set(
      arrivals
        .map((arrival) => eventOf(arrival.body))
        .filter((event) => event.eventType === 'wix.ecom.v1.order_created')
        .map((event) => event.id),
    ).size;
    if (created !== orders) notes.push(`${created} order_created events arrived for ${orders} orders`);
    return {
      dialect,
      buyers: BUYERS,
      orders,
      ordersPerSecond: orders / ((ordersDone - started) / 1000),
      delivered: arrivals.length,
      deliveredPerSecond: arrivals.length / ((last - started) / 1000),
      distinct: ids.size,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      drainSeconds: Math.max(0, (last - ordersDone) / 1000),
      notes,
    };
  } finally {
    await hooks.close();
    await shop.close();
  }
}

/**
 * Add to cart at 32 shoppers on a store whose 10 endpoints take every cart event, beside the same on a
 * store with none, in alternation on two platform processes (SQLite, the embedded default).
 */
export async function measureAddToCartWithEndpoints(options: { quick: boolean }): Promise<AddToCartFigure> {
  const endpoints = 10;
  const notes: string[] = [];
  const [plain, subscribed] = [
    await startBenchShop('sqlite', 'cartwheel_bench_cart_plain', LOOPBACK),
    await startBenchShop('sqlite', 'cartwheel_bench_cart_hooked', LOOPBACK),
  ];
  const hooks = await receiver();
  try {
    for (let index = 0; index < endpoints; index++) {
      await subscribe(subscribed.url, `${hooks.url}/${index}`, [
        'wix.ecom.v1.cart_created',
        'wix.ecom.v1.cart_updated',
      ]);
    }
    const shoppersOf = async (url: string) => {
      const products = await benchProducts(url, 3, { trackInventory: false });
      const shoppers = await Promise.all(
        Array.from({ length: BUYERS }, async () => {
          const token = await visitorToken(url);
          await call(url, 'POST', '/ecom/v1/carts/current/add-to-cart', token, {
            lineItems: products.map((id) => catalogLine(id, 1)),
          });
          return token;
        }),
      );
      return { shoppers, body: JSON.stringify({ lineItems: [catalogLine(products[0]!, 1)] }) };
    };
    const sides = { platform: await shoppersOf(subscribed.url), baseline: await shoppersOf(plain.url) };
    const figure = await measureInAlternation(
      (side, duration) => {
        const { shoppers, body } = sides[side];
        let clients = 0;
        return autocannon({
          url: `${side === 'platform' ? subscribed.url : plain.url}/ecom/v1/carts/current/add-to-cart`,
          connections: BUYERS,
          duration,
          method: 'POST',
          body,
          headers: { ...json, authorization: shoppers[0]! },
          setupClient: (client) => {
            client.setHeaders({ ...json, authorization: shoppers[clients++ % shoppers.length]! });
          },
        });
      },
      loadTiming(options.quick),
      200,
    );
    notes.push(`the receiver got ${hooks.arrivals.length} deliveries during the run`);
    return { endpoints, figure, notes };
  } finally {
    await hooks.close();
    await subscribed.close();
    await plain.close();
  }
}
