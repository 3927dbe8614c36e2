/**
 * The buying path under load: the current cart (get and add, 32 shoppers at once), estimate totals of
 * a 50-line cart, and orders placed per second by 32 buyers paying at once, each figure beside a bare
 * `node:http` server answering the very same bytes in the same run. See bench/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { type LoadFigure, loadTiming, measureInAlternation } from './support/alternate.ts';
import type { RecordedResponse } from './support/baseline-server.ts';
import {
  BENCH_ADMIN_API_KEY,
  type RunningServer,
  startBaselineProcess,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { recordResponse, visitorToken } from './support/recording.ts';
import {
  benchProducts,
  call,
  catalogLine,
  type Dialect,
  fixedAnswerRps,
  payCheckout,
  readyCheckout,
  startBenchShop,
} from './support/shop.ts';
import { percentile } from './support/stats.ts';

export type { Dialect } from './support/shop.ts';

export interface EstimateFigure {
  lines: number;
  samples: number;
  platformP50Ms: number;
  platformP99Ms: number;
  baselineP99Ms: number;
  status: number;
}

export interface OrdersFigure {
  dialect: Dialect;
  buyers: number;
  /** Checkouts that tried to pay. */
  attempts: number;
  orders: number;
  outOfStock: number;
  /** Answers that were neither an order nor a clear out-of-stock refusal: a figure with any is void. */
  failures: number;
  ordersPerSecond: number;
  baselineRps: number;
  ratio: number;
  p99Ms: number;
  stockBefore: number;
  stockAfter: number;
  /** Stock never below zero, and what was sold equals what left the shelf. */
  stockConsistent: boolean;
}

export interface CommerceResult {
  connections: number;
  durationSeconds: number;
  getCart?: LoadFigure;
  addToCart?: LoadFigure;
  estimate?: EstimateFigure;
  orders: OrdersFigure[];
  notes: string[];
}

const CONNECTIONS = 32;
const json = { 'content-type': 'application/json' };

/** The cart figures (SQLite, the embedded default) and estimate totals. */
export async function measureCart(options: { quick: boolean }): Promise<CommerceResult> {
  const timing = loadTiming(options.quick);
  const { durationSeconds } = timing;
  const notes: string[] = [];
  const dataDir = tempDir('cartwheel-bench-cart-');
  const servers: RunningServer[] = [];
  try {
    const platform = await startPlatformProcess({ dataDir, seedDemo: true });
    servers.push(platform);
    const products = await benchProducts(platform.url, options.quick ? 10 : 50, { trackInventory: false });

    // 32 shoppers, each with a cart of three lines: the load of a shop, not of one cart row
    const shoppers = await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const token = await visitorToken(platform.url);
        await call(platform.url, 'POST', '/ecom/v1/carts/current/add-to-cart', token, {
          lineItems: products.slice(0, 3).map((id) => catalogLine(id, 1)),
        });
        return token;
      }),
    );
    const getPath = '/ecom/v1/carts/current';
    const addPath = '/ecom/v1/carts/current/add-to-cart';
    const addBody = JSON.stringify({ lineItems: [catalogLine(products[0]!, 1)] });
    const getRecorded = await recordResponse(platform.url, getPath, {
      headers: { ...json, authorization: shoppers[0]! },
    });
    const addRecorded = await recordResponse(platform.url, addPath, {
      method: 'POST',
      headers: { ...json, authorization: shoppers[0]! },
      body: addBody,
    });

    // estimate totals of a 50-line cart, to New York with tax and shipping
    const estimator = await visitorToken(platform.url);
    await call(platform.url, 'POST', '/ecom/v1/carts/current/add-to-cart', estimator, {
      lineItems: products.map((id) => catalogLine(id, 2)),
    });
    const estimatePath = '/ecom/v1/carts/current/estimate-totals';
    const estimateBody = JSON.stringify({
      shippingAddress: { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001' },
      calculateTax: true,
      calculateShipping: true,
    });
    const estimateRecorded = await recordResponse(platform.url, estimatePath, {
      method: 'POST',
      headers: { ...json, authorization: estimator },
      body: estimateBody,
    });

    const responsesFile = path.join(dataDir, 'baseline-responses.json');
    fs.writeFileSync(
      responsesFile,
      JSON.stringify({ [getPath]: getRecorded, [addPath]: addRecorded, [estimatePath]: estimateRecorded }),
    );
    const baseline = await startBaselineProcess(responsesFile);
    servers.push(baseline);

    const compare = (
      requestPath: string,
      recorded: RecordedResponse,
      request: { method: string; body?: string },
    ): Promise<LoadFigure> => {
      let clients = 0;
      return measureInAlternation(
        (side, duration) =>
          autocannon({
            url: (side === 'platform' ? platform.url : baseline.url) + requestPath,
            connections: CONNECTIONS,
            duration,
            method: request.method,
            ...(request.body ? { body: request.body } : {}),
            headers: { ...json, authorization: shoppers[0]! },
            // each connection is its own shopper with their own cart
            setupClient: (client) => {
              const index = clients++ % shoppers.length;
              client.setHeaders({ ...json, authorization: shoppers[index]! });
            },
          }),
        timing,
        recorded.status,
      );
    };
    const getCart = await compare(getPath, getRecorded, { method: 'GET' });
    const addToCart = await compare(addPath, addRecorded, { method: 'POST', body: addBody });

    // one shopper at a time: the latency a buyer waits for, not queueing behind 31 others
    const samples = options.quick ? 30 : 300;
    const timings = async (url: string) => {
      const taken: number[] = [];
      for (let index = 0; index < samples; index++) {
        const started = performance.now();
        const response = await fetch(url + estimatePath, {
          method: 'POST',
          headers: { ...json, authorization: estimator },
          body: estimateBody,
        });
        await response.arrayBuffer();
        taken.push(performance.now() - started);
      }
      return taken.slice(Math.floor(samples / 10)); // the first tenth warms up
    };
    const ours = await timings(platform.url);
    const base = await timings(baseline.url);
    const estimate: EstimateFigure = {
      lines: products.length,
      samples: ours.length,
      platformP50Ms: percentile(ours, 50),
      platformP99Ms: percentile(ours, 99),
      baselineP99Ms: percentile(base, 99),
      status: estimateRecorded.status,
    };
    for (const [name, status] of [
      ['get cart', getRecorded.status],
      ['add to cart', addRecorded.status],
      ['estimate totals', estimateRecorded.status],
    ] as const) {
      if (status !== 200) notes.push(`${name} answered ${status}, not 200: its figure is void`);
    }
    for (const [name, figure] of [
      ['get cart', getCart],
      ['add to cart', addToCart],
    ] as const) {
      if (figure.platformFailures > 0)
        notes.push(`${name}: ${figure.platformFailures} failed requests under load`);
    }
    return { connections: CONNECTIONS, durationSeconds, getCart, addToCart, estimate, orders: [], notes };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * 32 buyers pay at once, each for a checkout of their own cart, all buying one product whose stock runs
 * out before the last of them: orders per second, and the stock checked to never go below zero.
 */
export async function measureOrders(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<OrdersFigure & { notes: string[] }> {
  const notes: string[] = [];
  const shop = await startBenchShop(dialect, 'cartwheel_bench_orders');
  const perBuyer = options.quick ? 2 : 8;
  const attempts = CONNECTIONS * perBuyer;
  // a tenth of the buyers find the shelf empty: the race for the last items is part of the load
  const stockBefore = attempts - Math.ceil(attempts / 10);
  try {
    const [productId] = await benchProducts(shop.url, 1, { trackInventory: true, quantity: stockBefore });
    const sessions = [];
    for (let index = 0; index < attempts; index += CONNECTIONS) {
      const batch = Math.min(CONNECTIONS, attempts - index);
      sessions.push(
        ...(await Promise.all(Array.from({ length: batch }, () => readyCheckout(shop.url, productId!)))),
      );
    }

    let orders = 0;
    let outOfStock = 0;
    let failures = 0;
    const failuresSeen = new Map<string, number>();
    const taken: number[] = [];
    const queue = [...sessions];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let session = queue.shift(); session; session = queue.shift()) {
          const begun = performance.now();
          const { status, answer } = await payCheckout(shop.url, session);
          taken.push(performance.now() - begun);
          if (status === 200 && answer.status === 'APPROVED') orders++;
          else if (answer?.details?.applicationError?.code === 'OUT_OF_STOCK') outOfStock++;
          else {
            failures++;
            const key = `${status} ${answer?.details?.applicationError?.code ?? answer?.message ?? ''}`;
            failuresSeen.set(key, (failuresSeen.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const [key, count] of failuresSeen) notes.push(`pay answered ${key} ${count} times`);

    const product = (await call(
      shop.url,
      'GET',
      `/stores-reader/v1/products/${productId}`,
      BENCH_ADMIN_API_KEY,
    )) as any;
    const stockAfter = Number(product?.product?.stock?.quantity ?? Number.NaN);
    const stockConsistent = stockAfter >= 0 && stockBefore - stockAfter === orders;

    // the baseline: a bare server answering the same pay response bytes at the same concurrency
    const baselineRps = await fixedAnswerRps(
      shop,
      { status: 'APPROVED', orderId: 'x', redirectUrl: 'http://x' },
      { connections: CONNECTIONS, quick: options.quick },
    );
    const ordersPerSecond = orders / seconds;
    return {
      dialect,
      buyers: CONNECTIONS,
      attempts,
      orders,
      outOfStock,
      failures,
      ordersPerSecond,
      baselineRps,
      ratio: ordersPerSecond / baselineRps,
      p99Ms: percentile(taken, 99),
      stockBefore,
      stockAfter,
      stockConsistent,
      notes,
    };
  } finally {
    await shop.close();
  }
}
