/**
 * Refunds per second: 32 merchants at once, each refunding its own order of its own product one unit
 * at a time (with restock, the shipping with the last), so no two refunds wait on one stock row; then
 * the money invariant checked: every order gave back exactly its total, never more, and each product's
 * stock is back where it started. Beside a bare `node:http` server answering refund bytes in the same
 * run. See bench/README.md.
 */

import { BENCH_ADMIN_API_KEY } from './support/processes.ts';
import {
  benchProducts,
  call,
  type Dialect,
  fixedAnswerRps,
  payCheckout,
  readyCheckout,
  startBenchShop,
} from './support/shop.ts';
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
const json = { 'content-type': 'application/json' };
const cents = (amount: string) => Math.round(Number(amount) * 100);

export async function measureRefunds(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<RefundsFigure & { notes: string[] }> {
  const notes: string[] = [];
  const shop = await startBenchShop(dialect, 'cartwheel_bench_refunds');
  const units = options.quick ? 2 : 6;
  try {
    // each merchant's order is of a product of its own: refunds of different orders share no stock row
    const productIds = await benchProducts(shop.url, MERCHANTS, { trackInventory: true, quantity: units });
    const orderIds = await Promise.all(
      productIds.map(async (productId) => {
        const paid = await payCheckout(shop.url, await readyCheckout(shop.url, productId, units));
        if (paid.status !== 200)
          throw new Error(`pay answered ${paid.status}: ${JSON.stringify(paid.answer)}`);
        return paid.answer.orderId as string;
      }),
    );
    const orders = await Promise.all(
      orderIds.map(async (orderId, index) => {
        const order = (
          (await call(shop.url, 'GET', `/ecom/v1/orders/${orderId}`, BENCH_ADMIN_API_KEY)) as any
        ).order;
        const transactions = (await call(
          shop.url,
          'GET',
          `/ecom/v1/payments/orders/${orderId}`,
          BENCH_ADMIN_API_KEY,
        )) as any;
        return {
          orderId,
          productId: productIds[index]!,
          lineItemId: order.lineItems[0].id as string,
          paymentId: transactions.orderTransactions.payments[0].id as string,
          total: cents(order.priceSummary.total.amount),
          // a dearer order ships free in the demo store: there is no shipping to give back then
          shipped: cents(order.shippingInfo?.cost?.totalPriceAfterTax?.amount ?? '0') > 0,
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
          const response = await fetch(`${shop.url}/ecom/v1/order-billing/refund-payments`, {
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
                ...(last && order.shipped ? { shipping: {} } : {}),
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

    // the money invariant: each order gave back exactly what was paid, and its product's stock came back
    let invariantHolds = true;
    for (const order of orders) {
      const transactions = (await call(
        shop.url,
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
      const product = (await call(
        shop.url,
        'GET',
        `/stores-reader/v1/products/${order.productId}`,
        BENCH_ADMIN_API_KEY,
      )) as any;
      const stockAfter = Number(product?.product?.stock?.quantity ?? Number.NaN);
      if (stockAfter !== units) {
        invariantHolds = false;
        notes.push(
          `product ${order.productId}: stock ${stockAfter} after the refunds, ${units} before the order`,
        );
      }
    }

    const baselineRps = await fixedAnswerRps(
      shop,
      { refund: { id: 'x', transactions: [] } },
      { connections: MERCHANTS, quick: options.quick },
    );
    const refundsPerSecond = refunds / seconds;
    return {
      dialect,
      merchants: MERCHANTS,
      refunds,
      failures,
      refundsPerSecond,
      baselineRps,
      ratio: refundsPerSecond / baselineRps,
      p99Ms: percentile(taken, 99),
      invariantHolds,
      notes,
    };
  } finally {
    await shop.close();
  }
}
