/**
 * Refunds per second: 32 merchants at once, each refunding its own order one unit at a time (with
 * restock, the shipping with the last), then the money invariant checked: every order gave back exactly
 * its total, never more, and the stock is back where it started. Beside a bare `node:http` server
 * answering the same refund bytes in the same run. See bench/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchProducts, call, type Dialect, readyCheckout } from './commerce.ts';
import { adminQuery, databaseUrl } from './support/postgres.ts';
import {
  BENCH_ADMIN_API_KEY,
  type RunningServer,
  startBaselineProcess,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { percentile } from './support/stats.ts';

export interface RefundsFigure {
  dialect: Dialect;
  merchants: number;
  refunds: number;
  /** Answers that were not a refund: a figure with any is void. */
  failures: number;
  refundsPerSecond: number;
  baselineRps: number;
  ratio: number;
  p99Ms: number;
  /** Every order refunded exactly its total (to the cent) and the stock is back. */
  invariantHolds: boolean;
}

const MERCHANTS = 32;
const DATABASE = 'cartwheel_bench_refunds';
const json = { 'content-type': 'application/json' };
const cents = (amount: string) => Math.round(Number(amount) * 100);

export async function measureRefunds(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<RefundsFigure & { notes: string[] }> {
  const notes: string[] = [];
  let postgresUrl: string | undefined;
  if (dialect === 'postgres') {
    await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${DATABASE}`);
    postgresUrl = databaseUrl(DATABASE);
  }
  const dataDir = tempDir(`cartwheel-bench-refunds-${dialect}-`);
  const servers: RunningServer[] = [];
  const units = options.quick ? 2 : 6;
  try {
    const platform = await startPlatformProcess({
      dataDir,
      seedDemo: true,
      ...(postgresUrl ? { databaseUrl: postgresUrl } : {}),
    });
    servers.push(platform);
    const stockBefore = MERCHANTS * units;
    const [productId] = await benchProducts(platform.url, 1, { trackInventory: true, quantity: stockBefore });
    // 32 paid orders of `units` each, one per merchant
    const orderIds = await Promise.all(
      Array.from({ length: MERCHANTS }, async () => {
        const session = await readyCheckout(platform.url, productId!, units);
        const response = await fetch(`${platform.url}/_api/checkout-page/v1/pay`, {
          method: 'POST',
          headers: { ...json, 'x-checkout-session': session },
          body: JSON.stringify({
            attemptKey: crypto.randomUUID(),
            card: { number: '4242424242424242', expiry: '12/34', cvc: '123' },
          }),
        });
        const answer = (await response.json()) as { orderId: string };
        return answer.orderId;
      }),
    );
    const orders = await Promise.all(
      orderIds.map(async (orderId) => {
        const order = (
          (await call(platform.url, 'GET', `/ecom/v1/orders/${orderId}`, BENCH_ADMIN_API_KEY)) as any
        ).order;
        const transactions = (await call(
          platform.url,
          'GET',
          `/ecom/v1/payments/orders/${orderId}`,
          BENCH_ADMIN_API_KEY,
        )) as any;
        return {
          orderId,
          lineItemId: order.lineItems[0].id as string,
          paymentId: transactions.orderTransactions.payments[0].id as string,
          total: cents(order.priceSummary.total.amount),
        };
      }),
    );

    let refunds = 0;
    let failures = 0;
    const failuresSeen = new Map<string, number>();
    const taken: number[] = [];
    const started = performance.now();
    await Promise.all(
      orders.map(async (order) => {
        for (let unit = 0; unit < units; unit++) {
          const last = unit === units - 1;
          const begun = performance.now();
          const response = await fetch(`${platform.url}/ecom/v1/order-billing/refund-payments`, {
            method: 'POST',
            headers: {
              ...json,
              authorization: BENCH_ADMIN_API_KEY,
              'idempotency-key': `${order.orderId}-${unit}`,
            },
            body: JSON.stringify({
              orderId: order.orderId,
              paymentRefunds: [{ paymentId: order.paymentId }],
              refundItems: {
                lineItems: [{ lineItemId: order.lineItemId, quantity: 1 }],
                ...(last ? { shipping: {} } : {}),
              },
              sideEffects: { restock: { lineItems: [{ lineItemId: order.lineItemId, quantity: 1 }] } },
            }),
          });
          const answer = (await response.json().catch(() => ({}))) as any;
          taken.push(performance.now() - begun);
          if (response.status === 200) refunds++;
          else {
            failures++;
            const key = `${response.status} ${answer?.details?.applicationError?.code ?? answer?.message ?? ''}`;
            failuresSeen.set(key, (failuresSeen.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const [key, count] of failuresSeen) notes.push(`refund answered ${key} ${count} times`);

    // the money invariant: each order gave back exactly what was paid, and the stock came back
    let invariantHolds = true;
    for (const order of orders) {
      const transactions = (await call(
        platform.url,
        'GET',
        `/ecom/v1/payments/orders/${order.orderId}`,
        BENCH_ADMIN_API_KEY,
      )) as any;
      const refunded = transactions.orderTransactions.refunds
        .flatMap((refund: any) => refund.transactions)
        .reduce((sum: number, transaction: any) => sum + cents(transaction.amount.amount), 0);
      if (refunded !== order.total) {
        invariantHolds = false;
        notes.push(`order ${order.orderId} refunded ${refunded} cents of ${order.total}`);
      }
    }
    const product = (await call(
      platform.url,
      'GET',
      `/stores-reader/v1/products/${productId}`,
      BENCH_ADMIN_API_KEY,
    )) as any;
    const stockAfter = Number(product?.product?.stock?.quantity ?? Number.NaN);
    if (stockAfter !== stockBefore) {
      invariantHolds = false;
      notes.push(`stock ${stockAfter} after the refunds, ${stockBefore} before the orders`);
    }

    const responses = path.join(dataDir, 'baseline-responses.json');
    fs.writeFileSync(
      responses,
      JSON.stringify({
        '/refund': {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: Buffer.from(JSON.stringify({ refund: { id: 'x', transactions: [] } })).toString('base64'),
        },
      }),
    );
    const baseline = await startBaselineProcess(responses);
    servers.push(baseline);
    const base = await autocannon({
      url: `${baseline.url}/refund`,
      connections: MERCHANTS,
      duration: options.quick ? 1 : 3,
      method: 'POST',
      body: '{}',
    });
    const refundsPerSecond = refunds / seconds;
    return {
      dialect,
      merchants: MERCHANTS,
      refunds,
      failures,
      refundsPerSecond,
      baselineRps: base.requests.average,
      ratio: refundsPerSecond / base.requests.average,
      p99Ms: percentile(taken, 99),
      invariantHolds,
      notes,
    };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgresUrl) await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  }
}
