import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { admin } from './catalog-http.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/** The last migration before a tag's rows carried their order's created date. */
const BEFORE = '0034_catalog_media_uploads';

/**
 * Tag rows an earlier version wrote have no created date: the upgrade fills it from their orders, so a
 * search by tag (which walks the tag's rows newest first) finds them in the right order at once.
 */
describe.each(DIALECTS)('tags an earlier version wrote, on %s', (dialect) => {
  let platform: TestPlatform;
  const dates = ['2026-01-05T10:00:00.000Z', '2026-03-01T10:00:00.000Z', '2026-02-01T10:00:00.000Z'];

  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db, database) => {
      await db
        .insertInto('orders')
        .values(
          dates.map((at, index) => ({
            id: `legacy-tagged-${index}`,
            number: 800 + index,
            status: 'APPROVED',
            payment_status: 'PAID',
            fulfillment_status: 'NOT_FULFILLED',
            checkout_id: null,
            visitor_id: 'v-legacy',
            member_id: null,
            created_at: at,
            updated_at: at,
            doc: JSON.stringify({ tags: { tags: { tagIds: ['legacy'] }, privateTags: { tagIds: [] } } }),
            total_amount: 10,
          })),
        )
        .execute();
      await db
        .insertInto('order_tags')
        .values(
          dates.map((_, index) => ({
            order_id: `legacy-tagged-${index}`,
            kind: 'public',
            tag_id: 'legacy',
          })),
        )
        .execute();
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('fills each tag row with its order’s created date, and a search by tag walks them newest first', async () => {
    const rows = await platform.services.database.db
      .selectFrom('order_tags')
      .select(['order_id', 'order_created_at'])
      .where('tag_id', '=', 'legacy')
      .orderBy('order_id')
      .execute();
    expect(rows.map((row) => row.order_created_at)).toEqual(dates);
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'tags.tags.tagIds': { $hasSome: ['legacy'] } }, cursorPaging: { limit: 2 } },
    });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.orders.map((order: { id: string }) => order.id)).toEqual([
      'legacy-tagged-1',
      'legacy-tagged-2',
    ]);
  });
});
