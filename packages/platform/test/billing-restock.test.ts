import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, buy, orderOf } from './billing-support.ts';
import { admin } from './catalog-http.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A refund's restock moves the variant's count and what must follow it (the stock flags, the rendered
 * documents, the store variant), nothing else: two processes restocking one variant at once both count,
 * and a restock costs a refund a handful of statements, not a rewrite of the product.
 */
describe.each(DIALECTS)('restocking refunds, on %s', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect });
    second = await startTestPlatform({ dialect, sharing: first });
    await shipToUs(first);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  async function paidOrder(platform: TestPlatform, productId: string) {
    const orderId = await buy(platform, [{ productId, quantity: 1 }]);
    const lineItemId = (await orderOf(platform, orderId)).lineItems[0].id as string;
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0]
      .id as string;
    return { orderId, lineItemId, paymentId };
  }

  it('refunds restocking one variant on both processes at once all land, flags and documents in step', async () => {
    const product = await stockedProduct(first, 'Restocked Bowl', 12, 6);
    const orders = [];
    for (let index = 0; index < 6; index++) orders.push(await paidOrder(first, product.id));
    expect(await stockOf(first, product.id)).toBe(0);
    const soldOut = await admin(second).get(`/stores-reader/v1/products/${product.id}`);
    expect(soldOut.body.product.stock).toMatchObject({ inStock: false, inventoryStatus: 'OUT_OF_STOCK' });

    const answers = await Promise.all(
      orders.map(({ orderId, lineItemId, paymentId }, index) =>
        billing([first, second][index % 2]!).refund(
          orderId,
          {
            paymentRefunds: [{ paymentId }],
            refundItems: { lineItems: [{ lineItemId, quantity: 1 }] },
            sideEffects: { restock: { lineItems: [{ lineItemId, quantity: 1 }] } },
          },
          `restock-race-${index}`,
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(orders.map(() => 200));

    // every restock counted, on the admin's and the visitor's documents and on the store variant
    const merchant = await admin(second).get(
      `/stores-reader/v1/products/${product.id}?includeMerchantSpecificData=true`,
    );
    expect(merchant.body.product.stock).toMatchObject({
      quantity: 6,
      inStock: true,
      inventoryStatus: 'IN_STOCK',
    });
    expect(merchant.body.product.variants[0].stock).toMatchObject({ quantity: 6, inStock: true });
    const db = first.services.database.db;
    const row = await db
      .selectFrom('products')
      .select(['in_stock', 'inventory_status', 'record', 'doc', 'last_updated'])
      .where('id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect({ inStock: row.in_stock, status: row.inventory_status }).toEqual({
      inStock: 1,
      status: 'IN_STOCK',
    });
    expect(JSON.parse(row.record).variants[0].quantity).toBe(6);
    expect(JSON.parse(row.doc).stock).toMatchObject({ quantity: 6, inStock: true });
    expect(JSON.parse(row.doc).lastUpdated).toBe(row.last_updated);
    const variant = await db
      .selectFrom('product_variants')
      .select(['in_stock', 'doc'])
      .where('product_id', '=', product.id)
      .executeTakeFirstOrThrow();
    expect(variant.in_stock).toBe(1);
    expect(JSON.parse(variant.doc).stock).toMatchObject({ quantity: 6, inStock: true });
    // and the stock sells again
    await buy(second, [{ productId: product.id, quantity: 6 }]);
    expect(await stockOf(first, product.id)).toBe(0);
  });

  it('a restock adds a handful of statements to a refund, not a rewrite of the product', async () => {
    const product = await stockedProduct(first, 'Counted Cup', 9, 10);
    const plain = await paidOrder(first, product.id);
    const restocked = await paidOrder(first, product.id);
    const services = first.services;
    const refund = (order: typeof plain, restock: boolean) =>
      services.billing.refund(order.orderId, {
        paymentRefunds: [{ paymentId: order.paymentId }],
        refundItems: { lineItems: [{ lineItemId: order.lineItemId, quantity: 1 }] },
        ...(restock
          ? { sideEffects: { restock: { lineItems: [{ lineItemId: order.lineItemId, quantity: 1 }] } } }
          : {}),
      } as never);
    const without = await countStatements(services.database.db, () => refund(plain, false));
    const withRestock = await countStatements(services.database.db, () => refund(restocked, true));
    console.info(`${dialect}: a refund runs ${without} statements, ${withRestock} with restock`);
    expect(await stockOf(first, product.id)).toBe(9);
    expect(without).toBeGreaterThan(0);
    // lock and read the product, write its row, its store variant, the pricing version, the stock's
    // event and its entity's event number
    expect(withRestock - without).toBeLessThanOrEqual(6);
  });
});

const counted = new AsyncLocalStorage<{ statements: number }>();
let patched = false;

/**
 * The statements `work` sends through Kysely (queries and raw SQL; not BEGIN and COMMIT), counted in
 * its own async context so nothing else the process runs meanwhile is counted.
 */
async function countStatements(db: Kysely<any>, work: () => Promise<unknown>): Promise<number> {
  if (!patched) {
    let proto = Object.getPrototypeOf(db.getExecutor());
    while (proto && !Object.hasOwn(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto);
    const original = proto.executeQuery;
    proto.executeQuery = function (this: unknown, ...args: unknown[]) {
      const counter = counted.getStore();
      if (counter) counter.statements++;
      return original.apply(this, args);
    };
    patched = true;
  }
  const counter = { statements: 0 };
  await counted.run(counter, work);
  return counter.statements;
}
