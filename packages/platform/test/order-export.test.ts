import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../src/orders/export.ts';
import { admin, call, visitorToken } from './catalog-http.ts';
import { createKey } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The orders CSV export (`GET /api/cartwheel/orders/export.csv`, issue 22): every order a filter finds,
 * streamed a page at a time, with cells escaped for spreadsheets; and the orders table's saved views.
 */

const ORDERS = 5_000;
const EXPORT = '/api/cartwheel/orders/export.csv';

/** Parses RFC 4180 CSV text into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index++;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe('a CSV cell', () => {
  it('quotes commas, quotes and line breaks, and guards cells a spreadsheet would run as formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });
});

describe.each(DIALECTS)('the orders export and saved views, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    const db = platform.services.database.db as unknown as Kysely<any>;
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const rows = Array.from({ length: ORDERS }, (_, index) => {
      const at = new Date(start + index * 60_000).toISOString();
      const tricky = index === 0;
      return {
        id: `order-${String(index).padStart(5, '0')}`,
        number: 20_000 + index,
        status: 'APPROVED',
        payment_status: 'PAID',
        fulfillment_status: 'NOT_FULFILLED',
        checkout_id: null,
        visitor_id: null,
        member_id: null,
        buyer_email: `buyer${index}@example.com`,
        created_at: at,
        updated_at: at,
        doc: JSON.stringify({
          buyerInfo: { email: `buyer${index}@example.com` },
          billingInfo: {
            contactDetails: tricky
              ? { firstName: '=cmd|"/c calc"', lastName: 'Doe, "Jr"\nthe second' }
              : { firstName: 'Buyer', lastName: `Number ${index}` },
          },
          currency: 'USD',
          priceSummary: { total: { amount: `${(index % 100) + 1}.50` } },
          tags: { tags: { tagIds: index % 2 === 0 ? ['even'] : [] } },
          archived: false,
        }),
        holds_stock: 0,
        contact_id: null,
        billing_first_name: tricky ? '=cmd|"/c calc"' : 'Buyer',
        billing_last_name: tricky ? 'Doe, "Jr"\nthe second' : `Number ${index}`,
        total_amount: (index % 100) + 1.5,
        archived: 0,
        seen_by_a_human: 0,
        channel_type: null,
      };
    });
    for (let at = 0; at < rows.length; at += 500) {
      await db
        .insertInto('orders')
        .values(rows.slice(at, at + 500))
        .execute();
    }
    const tags = rows
      .filter((_, index) => index % 2 === 0)
      .map((row) => ({ order_id: row.id, kind: 'public', tag_id: 'even' }));
    for (let at = 0; at < tags.length; at += 500) {
      await db
        .insertInto('order_tags')
        .values(tags.slice(at, at + 500))
        .execute();
    }
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  const download = (query = '', auth: string | undefined = platform.adminApiKey) =>
    fetch(`${platform.url}${EXPORT}${query}`, { headers: auth ? { Authorization: auth } : {} });

  it('streams every order as an attachment, newest first, each row escaped', async () => {
    const response = await download();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-.*\.csv"$/);
    const rows = parseCsv(await response.text());
    expect(rows[0]).toEqual([
      'Order number',
      'Date',
      'Buyer email',
      'Name',
      'Total',
      'Currency',
      'Payment status',
      'Fulfillment status',
      'Tags',
    ]);
    expect(rows).toHaveLength(ORDERS + 1);
    const numbers = rows.slice(1).map((row) => Number(row[0]));
    expect(new Set(numbers).size).toBe(ORDERS);
    expect(numbers[0]).toBe(20_000 + ORDERS - 1);
    expect(numbers.at(-1)).toBe(20_000);
    const tricky = rows.at(-1)!;
    expect(tricky).toEqual([
      '20000',
      '2026-01-01T00:00:00.000Z',
      'buyer0@example.com',
      `'=cmd|"/c calc" Doe, "Jr"\nthe second`,
      '1.50',
      'USD',
      'PAID',
      'NOT_FULFILLED',
      'even',
    ]);
  });

  it('exports only what the filter finds, in the sort asked', async () => {
    const filter = {
      $and: [
        { 'tags.tags.tagIds': { $hasSome: ['even'] } },
        {
          createdDate: { $lt: new Date(Date.parse('2026-01-01T00:00:00.000Z') + 10 * 60_000).toISOString() },
        },
      ],
    };
    const response = await download(`?filter=${encodeURIComponent(JSON.stringify(filter))}&order=ASC`);
    expect(response.status).toBe(200);
    const rows = parseCsv(await response.text()).slice(1);
    expect(rows.map((row) => row[0])).toEqual(['20000', '20002', '20004', '20006', '20008']);
  });

  it('answers other requests while an export streams', async () => {
    const response = await download();
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    // the export has begun; it is not read further while another call is made
    await reader.read();
    const started = Date.now();
    const other = await admin(platform).post('/ecom/v1/orders/search', {
      search: { cursorPaging: { limit: 1 } },
    });
    expect(other.status).toBe(200);
    expect(other.body.orders).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      bytes += chunk.value.length;
    expect(bytes).toBeGreaterThan(ORDERS * 50);
  });

  it('refuses a caller without the key, a shopper, and a filter it cannot read', async () => {
    expect((await download('', '')).status).toBe(401);
    const shopper = await download('', `Bearer ${await visitorToken(platform)}`);
    expect(shopper.status).toBe(403);
    const broken = await download('?filter=%7Bnot-json');
    expect(broken.status).toBe(400);
    expect((await broken.json()).details.validationError.fieldViolations[0].field).toBe('filter');
    const unknownField = await download(`?filter=${encodeURIComponent('{"secret":1}')}`);
    expect(unknownField.status).toBe(400);
  });

  it('lets a key holding orders.read export and list views, but only orders.manage save them', async () => {
    const reader = (await createKey(platform, platform.adminApiKey, ['orders.read'])).key;
    expect((await download('?filter=%7B%22number%22%3A20001%7D', reader)).status).toBe(200);
    const views = '/api/cartwheel/order-views';
    const refused = await call(
      platform,
      'POST',
      views,
      { view: { name: 'Mine', params: { tag: 'x' } } },
      reader,
    );
    expect(refused.status).toBe(403);
    const manager = (await createKey(platform, platform.adminApiKey, ['orders.read', 'orders.manage'])).key;
    const saved = await call(
      platform,
      'POST',
      views,
      { view: { name: 'Even orders', params: { tag: 'even', order: 'ASC' } } },
      manager,
    );
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.view).toMatchObject({ name: 'Even orders', params: { tag: 'even', order: 'ASC' } });
    // the same name again replaces that view's filters
    const again = await call(
      platform,
      'POST',
      views,
      { view: { name: 'Even orders', params: { tag: 'even' } } },
      manager,
    );
    expect(again.body.view.id).toBe(saved.body.view.id);
    const listed = await call(platform, 'GET', views, undefined, reader);
    expect(listed.status).toBe(200);
    expect(listed.body.views).toEqual([
      expect.objectContaining({ name: 'Even orders', params: { tag: 'even' } }),
    ]);
    const blank = await call(platform, 'POST', views, { view: { name: '   ', params: {} } }, manager);
    expect(blank.status).toBe(400);
    expect((await call(platform, 'DELETE', `${views}/${saved.body.view.id}`, undefined, reader)).status).toBe(
      403,
    );
    expect(
      (await call(platform, 'DELETE', `${views}/${saved.body.view.id}`, undefined, manager)).status,
    ).toBe(200);
    expect(
      (await call(platform, 'DELETE', `${views}/${saved.body.view.id}`, undefined, manager)).status,
    ).toBe(404);
    expect((await call(platform, 'GET', views, undefined, undefined)).status).toBe(401);
  });
});
