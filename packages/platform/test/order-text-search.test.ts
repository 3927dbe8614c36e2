import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMON_MATCHES,
  type Condition,
  compileFilter,
  pageKeysQuery,
  searchColumns,
  type TextSearchWay,
  textSearch,
  textSearchWay,
} from '../src/orders/search.ts';
import type { OrderRow } from '../src/orders/tables.ts';
import { admin } from './catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct, violatedFields } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The back office's "Order number, buyer email or name" (issue 36): part of an email or of a name in
 * any letter case, a number with or without its #, 1 or 2 characters as the start of an email or a
 * name; each form answered through an index made for it (the plans below), and an order's search text
 * kept in step with its email and name through every write.
 */
describe.each(DIALECTS)('orders found by what a merchant types, on %s', (dialect) => {
  let platform: TestPlatform;
  /**
   * Orders a store holds besides the ones searched for: enough for the planners to prefer an index,
   * and for a needle they all hold (`shop.test`) to be a common one on SQLite.
   */
  const FILLER = COMMON_MATCHES;
  const buyers = [
    { key: 'ann', email: 'Ann.Smith@Example.com', firstName: 'Ann', lastName: 'Smith' },
    { key: 'wu', email: 'bob@other.org', firstName: 'Bob', lastName: 'Wu' },
    { key: 'ada', email: 'carla@example.com', firstName: 'Ada', lastName: 'Lovelace' },
    { key: 'mc', email: 'd.mcdonald@farm.test', firstName: 'Dana', lastName: 'McDonald' },
    { key: 'percent', email: 'half_off%@deals.test', firstName: 'Per', lastName: 'Cent' },
  ] as const;
  const idOf: Record<string, string> = {};
  const numberOf: Record<string, number> = {};
  let placedId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    const at = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString();
    const row = (
      index: number,
      id: string,
      buyer: { email: string; firstName: string; lastName: string },
    ) => {
      const doc = {
        currency: 'USD',
        lineItems: [],
        buyerInfo: { email: buyer.email },
        billingInfo: { contactDetails: { firstName: buyer.firstName, lastName: buyer.lastName } },
      };
      return {
        id,
        number: 70_000 + index,
        status: 'APPROVED',
        payment_status: 'PAID',
        fulfillment_status: 'NOT_FULFILLED',
        checkout_id: null,
        visitor_id: null,
        member_id: null,
        created_at: at(index),
        updated_at: at(index),
        doc: JSON.stringify(doc),
        holds_stock: 0,
        ...searchColumns(doc),
      } satisfies OrderRow;
    };
    const rows: OrderRow[] = [];
    for (let index = 0; index < FILLER; index++)
      rows.push(
        row(index, `filler-${index}`, {
          email: `filler${index}@shop.test`,
          firstName: 'Filler',
          lastName: `Person${index}`,
        }),
      );
    buyers.forEach((buyer, offset) => {
      const index = FILLER + offset;
      idOf[buyer.key] = `buyer-${buyer.key}`;
      numberOf[buyer.key] = 70_000 + index;
      rows.push(row(index, idOf[buyer.key]!, buyer));
    });
    const { db } = platform.services.database;
    for (let start = 0; start < rows.length; start += 500)
      await db
        .insertInto('orders')
        .values(rows.slice(start, start + 500))
        .execute();
    await sql`analyze`.execute(db);
    // one order placed as a shopper places it: numbered when paid, which is when it becomes searchable
    await shipToUs(platform);
    const product = await stockedProduct(platform, 'Searched Teapot', 12, 10);
    placedId = (await placeOrder(platform, product.id)).orderId;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const search = (expression: unknown, more: Record<string, unknown> = {}) =>
    admin(platform).post('/ecom/v1/orders/search', { search: { search: { expression }, ...more } });
  /** The orders found, the placed one (a shopper's, whose email and name the test changes) left out. */
  const found = async (expression: string, withPlaced = false) => {
    const answer = await search(expression);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const ids = answer.body.orders.map((order: { id: string }) => order.id) as string[];
    return withPlaced ? ids : ids.filter((id) => id !== placedId);
  };

  it('finds part of an email anywhere in it, in any letter case', async () => {
    expect(await found('ann@exa')).toEqual([]); // the email is ann.smith@…
    expect(await found('nn.smith@exa')).toEqual([idOf.ann]);
    expect(await found('NN.S')).toEqual([idOf.ann]);
    expect(await found('example.com')).toEqual([idOf.ada, idOf.ann]);
    expect(await found('ob@')).toEqual([idOf.wu]);
    expect(await found('ann.smith@example.com')).toEqual([idOf.ann]);
    // LIKE's wildcards are characters like any other
    expect(await found('f_off%')).toEqual([idOf.percent]);
    expect(await found('f%of')).toEqual([]);
  });

  it('finds part of a first or last name, or both as written, in any letter case', async () => {
    expect(await found('velac')).toEqual([idOf.ada]);
    expect(await found('ADA')).toEqual([idOf.ada]);
    expect(await found('ada lovelace')).toEqual([idOf.ada]);
    expect(await found('  Ada   LOVELACE ')).toEqual([idOf.ada]);
    expect(await found('cdon')).toEqual([idOf.mc]);
    // the email and the name are not one text
    expect(await found('example.com ada')).toEqual([]);
  });

  it('finds an order by its number, with or without its #', async () => {
    expect(await found(String(numberOf.wu))).toEqual([idOf.wu]);
    expect(await found(`#${numberOf.wu}`)).toEqual([idOf.wu]);
    expect(await found('#99999999999999999999')).toEqual([]);
  });

  it('takes 1 or 2 characters as the start of an email, a first or a last name, in any letter case', async () => {
    expect(await found('wu')).toEqual([idOf.wu]);
    expect(await found('WU')).toEqual([idOf.wu]);
    expect(await found('mc')).toEqual([idOf.mc]); // McDonald
    expect(await found('d.')).toEqual([idOf.mc]); // d.mcdonald@…
    // not inside a word: "nn" is in Ann but starts nothing
    expect(await found('nn')).toEqual([]);
  });

  it('keeps the search through the pages of its answer', async () => {
    const first = await search('example.com', {
      filter: { number: { $gte: 70_000 } },
      cursorPaging: { limit: 1 },
    });
    expect(first.body.orders.map((order: { id: string }) => order.id)).toEqual([idOf.ada]);
    const next = await admin(platform).post('/ecom/v1/orders/search', {
      search: { cursorPaging: { cursor: first.body.metadata.cursors.next } },
    });
    expect(next.body.orders.map((order: { id: string }) => order.id)).toEqual([idOf.ann]);
    expect(next.body.metadata.hasNext).toBe(false);
  });

  it('combines with the filter', async () => {
    const answer = await search('example.com', { filter: { number: { $gte: 70_000, $lt: numberOf.ada } } });
    expect(answer.body.orders.map((order: { id: string }) => order.id)).toEqual([idOf.ann]);
  });

  it('finds a placed order once paid, and follows its email and name as the merchant changes them', async () => {
    const placed = await admin(platform).get(`/ecom/v1/orders/${placedId}`);
    const email: string = placed.body.order.buyerInfo.email;
    expect(await found(email.slice(1), true)).toContain(placedId);
    const changed = await admin(platform).patch(`/ecom/v1/orders/${placedId}`, {
      order: {
        id: placedId,
        buyerInfo: { email: 'grace.hopper@navy.test' },
        billingInfo: { contactDetails: { firstName: 'Grace', lastName: 'Hopper' } },
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await found('hopper@navy', true)).toEqual([placedId]);
    expect(await found('race hop', true)).toEqual([placedId]);
    await admin(platform).patch(`/ecom/v1/orders/${placedId}`, {
      order: { id: placedId, buyerInfo: { email: 'g.h@navy.test' } },
    });
    expect(await found('hopper@navy', true)).toEqual([]);
    expect(await found('g.h@navy', true)).toEqual([placedId]);
  });

  it('keeps $startsWith as the hosted platform means it: the start, in the letter case given', async () => {
    const starts = async (field: string, prefix: string) => {
      const answer = await admin(platform).post('/ecom/v1/orders/search', {
        search: { filter: { [field]: { $startsWith: prefix } } },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.orders.map((order: { id: string }) => order.id);
    };
    expect(await starts('billingInfo.contactDetails.lastName', 'Love')).toEqual([idOf.ada]);
    expect(await starts('billingInfo.contactDetails.lastName', 'love')).toEqual([]);
    expect(await starts('billingInfo.contactDetails.firstName', 'Da')).toEqual([idOf.mc]);
    expect(await starts('buyerInfo.email', 'BOB@')).toEqual([idOf.wu]); // emails are kept in lower case
    expect(await starts('buyerInfo.email', 'ob@')).toEqual([]);
  });

  it('refuses a search that is not text, too long, or asks for what it does not do, naming the field', async () => {
    expect(violatedFields(await search(42))).toContain('search.search.expression');
    expect(violatedFields(await search('x'.repeat(201)))).toContain('search.search.expression');
    const fuzzy = await admin(platform).post('/ecom/v1/orders/search', {
      search: { search: { expression: 'ann', fuzzy: true } },
    });
    expect(fuzzy.status).toBe(400);
    expect(JSON.stringify(fuzzy.body)).toContain('fuzzy');
    // blank finds every order, as no search does
    const blank = await search('   ', { cursorPaging: { limit: 1 } });
    expect(blank.status).toBe(200);
    expect(blank.body.orders).toHaveLength(1);
  });

  /** A page of 50 newest first, as the search asks for it. */
  const pageOf = (condition: Condition) =>
    pageKeysQuery(platform.services.database.db, {
      condition,
      sort: { column: 'created_at', descending: true },
      hiddenStatuses: ['PENDING', 'REJECTED'],
      owner: { kind: 'admin' },
      limit: 51,
    });
  /** The plan of a page of 50 newest first, as the search runs it. */
  const planOf = async (condition: Condition): Promise<string> => {
    const { db } = platform.services.database;
    const query = pageOf(condition).compile();
    if (dialect === 'sqlite') {
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return plan.rows.map((row) => row.detail).join('\n');
    }
    return db.connection().execute(async (connection) => {
      // a table of a few thousand rows: no whole-table read, which is what a million would rule out
      await connection.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
      try {
        const explained = await connection.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
        );
        return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await connection.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
      }
    });
  };
  const typed = (expression: string) => textSearch(expression, dialect)!;

  it('looks part of an email or a name up in the trigram index', async () => {
    const plan = await planOf(typed('nn.smith@exa'));
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SCAN order_search VIRTUAL TABLE INDEX \d+:M/);
      expect(plan).toMatch(/SEARCH orders USING INDEX sqlite_autoindex_orders_\d \(number=\?\)/);
    } else {
      expect(plan).toMatch(/Bitmap Index Scan on orders_search_text/);
    }
    expect(plan).not.toMatch(/SCAN orders\b(?! USING)|Seq Scan/);
  });

  it('walks the email and name indexes for 1 or 2 characters', async () => {
    const plan = await planOf(typed('wu'));
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/MULTI-INDEX OR/);
      for (const column of ['buyer_email', 'billing_first_name', 'billing_last_name'])
        expect(plan).toMatch(
          new RegExp(`SEARCH orders USING INDEX orders_\\w*${column} \\(${column}>\\? AND ${column}<\\?\\)`),
        );
    } else {
      for (const column of ['buyer_email', 'billing_first_name', 'billing_last_name'])
        expect(plan).toMatch(
          new RegExp(`Bitmap Index Scan on orders_\\w+ .*\\n\\s*Index Cond: \\(\\(${column} >= `),
        );
    }
    expect(plan).not.toMatch(/SCAN orders\b(?! USING)|Seq Scan/);
  });

  it('walks the column’s index for $startsWith on an email or a name', async () => {
    for (const [field, column] of [
      ['buyerInfo.email', 'buyer_email'],
      ['billingInfo.contactDetails.firstName', 'billing_first_name'],
      ['billingInfo.contactDetails.lastName', 'billing_last_name'],
    ] as const) {
      const plan = await planOf(compileFilter({ [field]: { $startsWith: 'Lo' } }, 'search.filter'));
      if (dialect === 'sqlite')
        expect(plan).toMatch(
          new RegExp(`SEARCH orders USING INDEX orders_\\w*${column} \\(${column}>\\? AND ${column}<\\?\\)`),
        );
      else expect(plan).toMatch(new RegExp(`Index Cond: \\(\\(${column} >= .*\\) AND \\(${column} < `));
    }
  });

  it('finds a number by the number’s own index', async () => {
    const plan = await planOf(typed(`#${numberOf.wu}`));
    if (dialect === 'sqlite')
      expect(plan).toMatch(/SEARCH orders USING INDEX sqlite_autoindex_orders_\d \(number=\?\)/);
    else expect(plan).toMatch(/Index Cond: \(.*\(number = /);
  });

  it('walks newest first for a needle most orders hold on SQLite, finding what the index finds', async () => {
    const { db } = platform.services.database;
    expect(await textSearchWay(db, 'shop.test', dialect)).toBe(dialect === 'sqlite' ? 'walk' : 'index');
    expect(await textSearchWay(db, 'fi', dialect)).toBe(dialect === 'sqlite' ? 'walk' : 'index');
    expect(await textSearchWay(db, 'filler12@', dialect)).toBe('index');
    expect(await textSearchWay(db, 'wu', dialect)).toBe('index');
    const ids = async (expression: string, way: TextSearchWay) =>
      (await pageOf(textSearch(expression, dialect, way)!).execute()).map((row) => row.id);
    for (const expression of ['shop.test', 'nn.smith@exa', 'ada lovelace', 'f_off%', 'fi', 'wu', 'mc', 'd.'])
      expect(await ids(expression, 'walk'), expression).toEqual(await ids(expression, 'index'));
    if (dialect === 'sqlite') {
      for (const expression of ['shop.test', 'fi']) {
        const plan = await planOf(textSearch(expression, dialect, 'walk')!);
        expect(plan).toMatch(/^SCAN orders USING INDEX orders_created$/);
      }
    }
  });
});
