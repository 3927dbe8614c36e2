import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
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
  /** A private tag held by about 2% of the orders, a public one by 20%. */
  privateTag: string;
  publicTag: string;
  seconds: number;
}

const DAY_MS = 86_400_000;
const EMAILS = 20_000;
const PRODUCTS = 5_000;
/** Rows a multi-row insert carries: under SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 1_000;
/** Tables the seeding writes, whose secondary indexes are built once after the rows are in. */
const SEEDED_TABLES = ['orders', 'order_tags', 'order_line_items'];

/**
 * Writes `count` paid orders of a year's trade into a migrated database, as the platform writes them:
 * the wire document of a checkout's order (one line, addresses, totals, tax), its search columns by
 * the platform's own `searchColumns`, its tag rows with the order's created date, its line rows.
 * Fast by bulk SQL: multi-row inserts, many to a transaction, the tables' secondary indexes dropped
 * first and built again after (as a restore does). Deterministic: the same count writes the same book.
 */
export async function seedMillionOrders(
  database: Pick<Database, 'db' | 'dialect'>,
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

  // a bigger page cache for the load: ids are random, so the primary key's pages are touched all over
  if (database.dialect === 'sqlite') await sql`pragma cache_size = -262144`.execute(db);
  const indexes = await dropSecondaryIndexes(database);
  try {
    for (let start = 0; start < count; start += BATCH * 10) {
      // ten batches a transaction: few commits, each small enough to keep memory flat
      await db.transaction().execute(async (trx) => {
        for (let batch = start; batch < Math.min(count, start + BATCH * 10); batch += BATCH) {
          const orders: OrderRow[] = [];
          const tags: Tables['order_tags'][] = [];
          const lines: Tables['order_line_items'][] = [];
          for (let index = batch; index < Math.min(count, batch + BATCH); index++) {
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
            orders.push({
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
            });
            const held = tagsOf(doc);
            for (const tag_id of held.private)
              tags.push({ order_id: id, kind: 'private', tag_id, order_created_at: at });
            for (const tag_id of held.public)
              tags.push({ order_id: id, kind: 'public', tag_id, order_created_at: at });
            const line = doc.lineItems[0]!;
            lines.push({
              order_id: id,
              product_id: line.catalogReference.catalogItemId,
              product_name: line.productName.original,
            });
          }
          await trx.insertInto('orders').values(orders).execute();
          if (tags.length > 0) await trx.insertInto('order_tags').values(tags).execute();
          await trx.insertInto('order_line_items').values(lines).execute();
        }
      });
    }
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
    privateTag: 'vip',
    publicTag: 'wholesale',
    seconds: (performance.now() - started) / 1000,
  };
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
  const lastName = `Buyer${index % 1_000}`;
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
