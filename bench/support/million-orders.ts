import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import type { Database } from '../../packages/platform/src/db/database.ts';
import type { Tables } from '../../packages/platform/src/db/tables.ts';
import { searchColumns, tagsOf } from '../../packages/platform/src/orders/search.ts';
import type { OrderRow } from '../../packages/platform/src/orders/tables.ts';

/** What the seeded order book looks like, for a bench to ask about (filters that find something). */
export interface SeededOrders {
  count: number;
  /** The newest order's created date (ms); the others go back a year from it, evenly. */
  newest: number;
  firstNumber: number;
  /** Distinct buyer emails (`buyer{n}@example.com`), each buying about `count / emails` orders. */
  emails: number;
  /** Billing last names: `lastNameStem` and a number below `lastNames` (`Hopper42`). */
  lastNameStem: string;
  lastNames: number;
  /** A private tag held by about 2% of the orders, a public one by 20%. */
  privateTag: string;
  publicTag: string;
  seconds: number;
}

const DAY_MS = 86_400_000;
const EMAILS = 20_000;
const LAST_NAME_STEM = 'Hopper';
const LAST_NAMES = 1_000;
const PRODUCTS = 5_000;
/** Orders a transaction writes: few commits, each small enough to keep memory flat. */
const TRANSACTION = 20_000;
/** Orders a PostgreSQL statement writes: 20 columns each, under its 65,535 bound parameters. */
const POSTGRES_BATCH = 1_000;
/** Tables the seeding writes, whose secondary indexes are built once after the rows are in. */
const SEEDED_TABLES = ['orders', 'order_tags', 'order_line_items'] as const;

/** One order's rows: the order, its tags, its line. */
interface SeededRows {
  order: OrderRow;
  tags: Tables['order_tags'][];
  line: Tables['order_line_items'];
}

/**
 * Writes `count` paid orders of a year's trade into a migrated database, as the platform writes them:
 * the wire document of a checkout's order (one line, addresses, totals, tax), its search columns by
 * the platform's own `searchColumns`, its tag rows with the order's created date, its line rows.
 * Fast by bulk SQL, as a restore loads a dump: the tables' secondary indexes dropped first and built
 * again after, many orders to a transaction, durability waived for the load only (SQLite's
 * `synchronous = OFF`, PostgreSQL's `synchronous_commit = off`: a crash mid-load loses the book, not
 * what it says). SQLite: one prepared statement a table, run on the connection's own driver; PostgreSQL:
 * multi-row inserts, 1,000 orders a statement.
 * Deterministic: the same count writes the same book (but for its random ids).
 */
export async function seedMillionOrders(
  database: Pick<Database, 'db' | 'dialect' | 'sqlite'>,
  count: number,
  options: { newest?: number; firstNumber?: number } = {},
): Promise<SeededOrders> {
  const started = performance.now();
  const { db } = database;
  const newest = options.newest ?? Date.UTC(2026, 10, 1);
  const firstNumber = options.firstNumber ?? 10_001;
  const span = 365 * DAY_MS;
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  /** The `index`th order's rows; orders must be made in order (they share the random sequence). */
  const orderAt = (index: number): SeededRows => {
    const id = randomUUID();
    const at = new Date(newest - span + Math.floor((span * (index + 1)) / count)).toISOString();
    const roll = random();
    const paymentStatus = roll < 0.05 ? 'PENDING' : roll < 0.08 ? 'PARTIALLY_REFUNDED' : 'PAID';
    const fulfillmentStatus =
      random() < 0.6 ? 'FULFILLED' : random() < 0.5 ? 'PARTIALLY_FULFILLED' : 'NOT_FULFILLED';
    const status = random() < 0.03 ? 'CANCELED' : 'APPROVED';
    const doc = orderDocument(index, random, {
      privateTags: random() < 0.02 ? ['vip'] : [],
      publicTags: random() < 0.2 ? ['wholesale'] : [],
    });
    const order: OrderRow = {
      id,
      number: firstNumber + index,
      status,
      payment_status: paymentStatus,
      fulfillment_status: fulfillmentStatus,
      checkout_id: doc.checkoutId,
      visitor_id: doc.buyerInfo.visitorId,
      member_id: null,
      created_at: at,
      updated_at: at,
      doc: JSON.stringify(doc),
      holds_stock: 0,
      ...searchColumns(doc),
    };
    const tags: Tables['order_tags'][] = [];
    const held = tagsOf(doc);
    for (const tag_id of held.private)
      tags.push({ order_id: id, kind: 'private', tag_id, order_created_at: at });
    for (const tag_id of held.public)
      tags.push({ order_id: id, kind: 'public', tag_id, order_created_at: at });
    const line = doc.lineItems[0]!;
    return {
      order,
      tags,
      line: {
        order_id: id,
        product_id: line.catalogReference.catalogItemId,
        product_name: line.productName.original,
      },
    };
  };

  const indexes = await dropSecondaryIndexes(database);
  try {
    if (database.dialect === 'sqlite') await writeSqlite(database, count, orderAt);
    else await writePostgres(database, count, orderAt);
    // the counter gives the next order the number after the book's
    await db
      .insertInto('order_counters')
      .values({ name: 'orders', value: firstNumber + count - 1 })
      .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: firstNumber + count - 1 }))
      .execute();
  } finally {
    await restoreIndexes(database, indexes);
  }
  return {
    count,
    newest,
    firstNumber,
    emails: EMAILS,
    lastNameStem: LAST_NAME_STEM,
    lastNames: LAST_NAMES,
    privateTag: 'vip',
    publicTag: 'wholesale',
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * SQLite: each row by a statement prepared once, on the connection's own driver (no promise, no query
 * building a row), `TRANSACTION` orders a transaction, without syncing to disk until the load is done.
 */
async function writeSqlite(
  database: Pick<Database, 'db' | 'sqlite'>,
  count: number,
  orderAt: (index: number) => SeededRows,
): Promise<void> {
  const driver = database.sqlite;
  if (!driver) throw new Error('seedMillionOrders needs the SQLite connection (Database.sqlite)');
  const { db } = database;
  // a bigger page cache for the load: ids are random, so the primary key's pages are touched all over
  await sql`pragma cache_size = -262144`.execute(db);
  await sql`pragma synchronous = OFF`.execute(db);
  try {
    const insert = <Row extends object>(table: string, sample: Row) => {
      const columns = Object.keys(sample);
      const text = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      return (row: Row) =>
        driver.run(
          CompiledQuery.raw(
            text,
            columns.map((column) => row[column as keyof Row] as unknown),
          ),
        );
    };
    const first = orderAt(0);
    const insertOrder = insert('orders', first.order);
    const insertTag = insert<Tables['order_tags']>('order_tags', {
      order_id: '',
      kind: '',
      tag_id: '',
      order_created_at: '',
    });
    const insertLine = insert('order_line_items', first.line);
    const write = (rows: SeededRows) => {
      insertOrder(rows.order);
      for (const tag of rows.tags) insertTag(tag);
      insertLine(rows.line);
    };
    for (let start = 0; start < count; start += TRANSACTION) {
      // the connection held: no Kysely query runs on it between the driver's calls
      await db.connection().execute(async () => {
        driver.transaction(() => {
          for (let index = start; index < Math.min(count, start + TRANSACTION); index++)
            write(index === 0 ? first : orderAt(index));
        });
      });
    }
  } finally {
    await sql`pragma synchronous = NORMAL`.execute(db);
  }
}

/**
 * PostgreSQL: multi-row inserts of `POSTGRES_BATCH` orders (under its bound-parameter limit), each
 * sent before the next batch is made, `TRANSACTION` orders a transaction, commits not waiting for
 * the disk. (One typed array a column,
 * `insert ... select from unnest(...)`, measured three times slower here: the time went between client and
 * server, not in the insert itself.)
 */
async function writePostgres(
  database: Pick<Database, 'db'>,
  count: number,
  orderAt: (index: number) => SeededRows,
): Promise<void> {
  const { db } = database;
  for (let start = 0; start < count; start += TRANSACTION) {
    const end = Math.min(count, start + TRANSACTION);
    await db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      // the server writes a batch while this process makes the next
      let pending: Promise<void> = Promise.resolve();
      for (let batch = start; batch < end; batch += POSTGRES_BATCH) {
        const orders: OrderRow[] = [];
        const tags: Tables['order_tags'][] = [];
        const lines: Tables['order_line_items'][] = [];
        for (let index = batch; index < Math.min(end, batch + POSTGRES_BATCH); index++) {
          const rows = orderAt(index);
          orders.push(rows.order);
          tags.push(...rows.tags);
          lines.push(rows.line);
        }
        await pending;
        pending = (async () => {
          await trx.insertInto('orders').values(orders).execute();
          if (tags.length > 0) await trx.insertInto('order_tags').values(tags).execute();
          await trx.insertInto('order_line_items').values(lines).execute();
        })();
        pending.catch(() => {}); // awaited before the next batch; its failure is thrown there
        // let the statement reach the server before making the next batch holds this thread
        await new Promise((resolve) => setImmediate(resolve));
      }
      await pending;
    });
  }
}

/** An order's wire document as `orderDocument` (orders/model.ts) writes a checkout's, plus `shippable`. */
function orderDocument(
  index: number,
  random: () => number,
  tags: { privateTags: string[]; publicTags: string[] },
) {
  const product = index % PRODUCTS;
  const quantity = 1 + Math.floor(random() * 3);
  const unit = 5 + Math.floor(random() * 20_000) / 100;
  const lineTotal = unit * quantity;
  const tax = Math.round(lineTotal * 8.875) / 100;
  const shipping = 5;
  const total = lineTotal + tax + shipping;
  const money = (amount: number) => ({ amount: amount.toFixed(2), formattedAmount: `$${amount.toFixed(2)}` });
  const email = `buyer${index % EMAILS}@example.com`;
  const lastName = `${LAST_NAME_STEM}${index % LAST_NAMES}`;
  const address = {
    addressLine1: `${1 + (index % 900)} Main Street`,
    city: 'New York',
    subdivision: 'US-NY',
    country: 'US',
    postalCode: '10001',
  };
  const contactDetails = { firstName: 'Ada', lastName, phone: '+12125550100' };
  return {
    lineItems: [
      {
        id: randomUUID(),
        productName: { original: `Product ${product}`, translated: `Product ${product}` },
        catalogReference: {
          catalogItemId: `00000000-0000-4000-9000-${String(product).padStart(12, '0')}`,
          appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e',
        },
        quantity,
        price: money(unit),
        priceBeforeDiscounts: money(unit),
        lineItemPrice: money(lineTotal),
        totalPriceBeforeTax: money(lineTotal),
        totalPriceAfterTax: money(lineTotal + tax),
        totalDiscount: money(0),
        taxInfo: {
          taxAmount: money(tax),
          taxableAmount: money(lineTotal),
          taxRate: '0.08875',
          taxIncludedInPrice: false,
          taxBreakdown: [],
        },
        taxDetails: { taxRate: '0.08875', totalTax: money(tax), taxableAmount: money(lineTotal) },
        descriptionLines: [],
        physicalProperties: { shippable: true },
        itemType: { preset: 'PHYSICAL' },
        paymentOption: 'FULL_PAYMENT_ONLINE',
      },
    ],
    buyerInfo: { visitorId: randomUUID(), contactId: `contact-${index % EMAILS}`, email },
    buyerNote: null,
    billingInfo: { address, contactDetails },
    shippingInfo: {
      code: 'standard',
      title: 'Standard',
      logistics: { shippingDestination: { address, contactDetails }, deliveryTime: '3-5 days' },
      cost: {
        price: money(shipping),
        totalPriceBeforeTax: money(shipping),
        totalPriceAfterTax: money(shipping),
      },
    },
    recipientInfo: { address, contactDetails },
    priceSummary: {
      subtotal: money(lineTotal),
      shipping: money(shipping),
      tax: money(tax),
      discount: money(0),
      total: money(total),
      totalAdditionalFees: money(0),
    },
    appliedDiscounts: [],
    taxSummary: { totalTax: money(tax) },
    currency: 'USD',
    weightUnit: 'KG',
    taxIncludedInPrices: false,
    channelInfo: { type: 'WEB' },
    checkoutId: randomUUID(),
    tags: { privateTags: { tagIds: tags.privateTags }, tags: { tagIds: tags.publicTags } },
    activities: [],
    shippable: true,
  };
}

interface DroppedIndex {
  name: string;
  definition: string;
}

/** Drops the seeded tables' secondary indexes (not their keys): a bulk load builds each once after. */
async function dropSecondaryIndexes(database: Pick<Database, 'db' | 'dialect'>): Promise<DroppedIndex[]> {
  const { db } = database;
  const list = SEEDED_TABLES.map((table) => `'${table}'`).join(', ');
  const found =
    database.dialect === 'postgres'
      ? (
          await sql<{ name: string; definition: string }>`
            select i.indexname as name, i.indexdef as definition from pg_indexes i
            where i.schemaname = current_schema() and i.tablename in (${sql.raw(list)})
              and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(db)
        ).rows
      : (
          await sql<{ name: string; definition: string }>`
            select name, sql as definition from sqlite_master
            where type = 'index' and sql is not null and tbl_name in (${sql.raw(list)})`.execute(db)
        ).rows;
  for (const index of found) await sql`drop index ${sql.id(index.name)}`.execute(db);
  return found;
}

/** Builds the dropped indexes again and gathers the planners' statistics, as a live database has them. */
async function restoreIndexes(
  database: Pick<Database, 'db' | 'dialect'>,
  indexes: DroppedIndex[],
): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    // a million rows' index takes longer than the platform lets one of its statements run
    if (database.dialect === 'postgres') await sql`set local statement_timeout = 0`.execute(trx);
    for (const index of indexes) await sql.raw(index.definition).execute(trx);
    await sql`analyze`.execute(trx);
  });
}
