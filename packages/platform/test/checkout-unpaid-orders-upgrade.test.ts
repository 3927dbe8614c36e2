import { DEFAULT_VARIANT_ID } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, inTransaction } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import {
  adminOrder,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
} from './checkout-support.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/** The last migration before unpaid orders stopped taking stock. */
const BEFORE = '0020_pricing_versions';

/**
 * Until this version, create-order took an unpaid order's stock at once; now paying takes it. Orders
 * an earlier version left unpaid keep what they took (`holds_stock`): paying them takes none again,
 * and canceling them gives it back, so an upgrade never counts stock twice nor loses it.
 */
describe.each(DIALECTS)('unpaid orders an earlier version made, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db, database) => {
      const order = (id: string, number: number | null, status: string) => ({
        id,
        number,
        status,
        payment_status: status === 'APPROVED' ? 'PAID' : 'NOT_PAID',
        fulfillment_status: 'NOT_FULFILLED',
        checkout_id: null,
        visitor_id: 'v-legacy',
        member_id: null,
        created_at: '2026-11-01T00:00:00.000Z',
        updated_at: '2026-11-01T00:00:00.000Z',
        doc: '{}',
      });
      await db
        .insertInto('orders')
        .values([
          order('legacy-unpaid', 900, 'INITIALIZED'),
          order('legacy-paying', null, 'INITIALIZED'),
          order('legacy-approved', 901, 'APPROVED'),
        ])
        .execute();
    });
    await shipToUs(platform);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** Makes `orderId` an unpaid order as an earlier version left it: holding its lines' stock. */
  const asLeftByEarlierVersion = async (orderId: string, productId: string, quantity: number) => {
    await inTransaction(platform.services.database.db, async (trx) => {
      await platform.services.catalog.takeStock(trx, [
        { productId, variantId: DEFAULT_VARIANT_ID, quantity },
      ]);
      await trx.updateTable('orders').set({ holds_stock: 1 }).where('id', '=', orderId).execute();
    });
  };

  it('marks the numbered unpaid orders as holding their stock, and no other', async () => {
    const rows = await platform.services.database.db
      .selectFrom('orders')
      .select(['id', 'holds_stock'])
      .where('id', 'like', 'legacy-%')
      .orderBy('id')
      .execute();
    expect(rows.map((row) => [row.id, Number(row.holds_stock)])).toEqual([
      ['legacy-approved', 0],
      ['legacy-paying', 0],
      ['legacy-unpaid', 1],
    ]);
  });

  it('pays such an order without taking its stock a second time', async () => {
    const stool = await stockedProduct(platform, 'Legacy Stool', 25, 5);
    const shopper = await shopperCheckout(platform, [{ productId: stool.id, quantity: 2 }]);
    const created = await checkoutCalls(platform, shopper.auth).createOrder(shopper.checkoutId);
    await asLeftByEarlierVersion(created.body.orderId, stool.id, 2);
    expect(await stockOf(platform, stool.id)).toBe(3);

    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const paid = await page.pay('pay-a-legacy-order', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect(paid.body.orderId).toBe(created.body.orderId);
    expect(await stockOf(platform, stool.id)).toBe(3);
  });

  it('gives the stock back when a change to its checkout cancels it', async () => {
    const bench = await stockedProduct(platform, 'Legacy Bench', 60, 5);
    const shopper = await shopperCheckout(platform, [{ productId: bench.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const created = await calls.createOrder(shopper.checkoutId);
    await asLeftByEarlierVersion(created.body.orderId, bench.id, 1);
    expect(await stockOf(platform, bench.id)).toBe(4);

    const [line] = (await calls.get(shopper.checkoutId)).body.checkout.lineItems;
    const changed = await calls.setQuantities(shopper.checkoutId, [{ id: line.id, quantity: 2 }]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await adminOrder(platform, created.body.orderId)).status).toBe('CANCELED');
    expect(await stockOf(platform, bench.id)).toBe(5);
  });
});
