import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileFilter, pageKeysQuery } from '../src/orders/search.ts';
import { admin } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A page deep in the order book costs what the first one does: the cursor's key is where the index
 * walk starts (not a filter over every row before it), and orders created at the same instant page by
 * id without one lost or seen twice.
 */
describe.each(DIALECTS)('order search pages, on %s', (dialect) => {
  let platform: TestPlatform;
  const at = '2026-05-01T10:00:00.000Z';
  /** Seven orders created at one instant, two before it and two after. */
  const dates = [
    '2026-04-01T10:00:00.000Z',
    '2026-04-02T10:00:00.000Z',
    ...Array.from({ length: 7 }, () => at),
    '2026-06-01T10:00:00.000Z',
    '2026-06-02T10:00:00.000Z',
  ];
  const ids = dates.map((_, index) => `paged-${String(index).padStart(2, '0')}`);

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await platform.services.database.db
      .insertInto('orders')
      .values(
        dates.map((created, index) => ({
          id: ids[index]!,
          number: 5000 + index,
          status: 'APPROVED',
          payment_status: 'PAID',
          fulfillment_status: 'NOT_FULFILLED',
          checkout_id: null,
          visitor_id: 'v-paged',
          member_id: null,
          buyer_email: 'paged@example.com',
          created_at: created,
          updated_at: created,
          doc: JSON.stringify({ currency: 'USD', lineItems: [] }),
          holds_stock: 0,
          contact_id: null,
          billing_first_name: null,
          billing_last_name: null,
          total_amount: 10,
          archived: 0,
          seen_by_a_human: 0,
          channel_type: 'WEB',
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('pages through orders created at one instant by id, forward and back, none lost or repeated', async () => {
    const search = (body: unknown) => admin(platform).post('/ecom/v1/orders/search', body);
    const newestFirst = [...ids.keys()].sort((a, b) => dates[b]!.localeCompare(dates[a]!) || b - a);
    const expected = newestFirst.map((index) => ids[index]);
    const seen: string[] = [];
    const pages: Array<{ cursors: { next: string | null; prev: string | null } }> = [];
    let answer = await search({
      search: { filter: { 'buyerInfo.email': 'paged@example.com' }, cursorPaging: { limit: 2 } },
    });
    for (;;) {
      expect(answer.status).toBe(200);
      seen.push(...answer.body.orders.map((order: { id: string }) => order.id));
      pages.push(answer.body.metadata);
      const next = answer.body.metadata.cursors.next;
      if (!next) break;
      answer = await search({ search: { cursorPaging: { cursor: next } } });
    }
    expect(seen).toEqual(expected);
    // back from the last page, across the tied instant, to the first
    const back: string[] = [];
    let cursor = pages[pages.length - 1]!.cursors.prev;
    while (cursor) {
      const previous = await search({ search: { cursorPaging: { cursor } } });
      back.unshift(...previous.body.orders.map((order: { id: string }) => order.id));
      cursor = previous.body.metadata.cursors.prev;
    }
    expect(back).toEqual(expected.slice(0, expected.length - 1));
  });

  it('starts the index walk at the cursor key rather than filtering every newer order', async () => {
    const { db } = platform.services.database;
    const query = pageKeysQuery(db, {
      condition: compileFilter({}, 'search.filter'),
      sort: { column: 'created_at', descending: true },
      hiddenStatuses: ['PENDING', 'REJECTED'],
      owner: { kind: 'admin' },
      after: [at, ids[5]!],
      limit: 51,
    }).compile();
    if (dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      // a SEARCH bounded on the created date, not a SCAN of the index from its newest end
      expect(plan.rows.map((row) => row.detail).join('\n')).toMatch(
        /SEARCH orders USING INDEX \w+ \(created_at<\?\)/,
      );
    } else {
      const plan = await db.connection().execute(async (connection) => {
        // the table is small: make the planner show the index walk it would take over a large one
        await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
        await connection.executeQuery(CompiledQuery.raw('set enable_sort = off'));
        try {
          const explained = await connection.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
          );
          return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
        } finally {
          await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
          await connection.executeQuery(CompiledQuery.raw('reset enable_sort'));
        }
      });
      expect(plan).toMatch(/Index Cond: \(created_at <= /);
    }
  });
});
