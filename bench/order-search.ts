import fs from 'node:fs';
import { configFromEnv } from '../packages/platform/src/config.ts';
import type { OrderRow } from '../packages/platform/src/orders/tables.ts';
import { openServices } from '../packages/platform/src/platform.ts';
import { adminQuery, databaseUrl as postgresDatabaseUrl, query } from './support/postgres.ts';
import {
  BENCH_ADMIN_API_KEY,
  BENCH_CLIENT_ID,
  BENCH_PUBLIC_URL,
  type RunningServer,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { percentile } from './support/stats.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface OrderSearchResult {
  dialect: Dialect;
  orders: number;
  buildSeconds: number;
  /** p50 and p99 of each documented filter, newest first, a page of 50, one request at a time. */
  byFilter: Record<string, { requests: number; p50Ms: number; p99Ms: number; found: number }>;
  failures: number;
  notes: string[];
}

/** The target for every documented filter's p99. */
export const ORDER_SEARCH_TARGET_MS = 50;
const BENCH_DATABASE = 'cartwheel_bench_order_search';
const DAY_MS = 86_400_000;
const EMAILS = 20_000;

/**
 * `searchOrders` latency with a large order book: the orders are written straight into the tables
 * (the search reads only its columns, side tables and the document), then the platform runs as in
 * production and answers the merchant's documented filters, newest first, a page of 50.
 */
export async function measureOrderSearch(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<OrderSearchResult> {
  const orders = options.quick ? 2_000 : 100_000;
  const notes: string[] = [];
  const dataDir = tempDir('cartwheel-bench-orders-search-');
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${BENCH_DATABASE}`);
    databaseUrl = postgresDatabaseUrl(BENCH_DATABASE);
  }
  const started = performance.now();
  const newest = Date.UTC(2026, 10, 1);
  await buildOrders({ dataDir, databaseUrl, orders, newest });
  const buildSeconds = (performance.now() - started) / 1000;
  if (databaseUrl) await query(databaseUrl, 'VACUUM ANALYZE');

  let platform: RunningServer | undefined;
  try {
    platform = await startPlatformProcess({ dataDir, databaseUrl, seedDemo: false });
    const iso = (ms: number) => new Date(ms).toISOString();
    const filters: Record<string, Record<string, unknown>> = {
      status: { status: 'APPROVED' },
      'payment PENDING (capture queue)': { paymentStatus: 'PENDING' },
      'a month of dates': {
        createdDate: { $gte: iso(newest - 120 * DAY_MS), $lt: iso(newest - 90 * DAY_MS) },
      },
      'a tag': { 'tags.privateTags.tagIds': { $hasSome: ['vip'] } },
      'a buyer email': { 'buyerInfo.email': 'buyer1234@example.com' },
      'an order number': { number: String(10_001 + Math.floor(orders / 2)) },
    };
    const byFilter: OrderSearchResult['byFilter'] = {};
    let failures = 0;
    const rounds = options.quick ? 10 : 100;
    for (const [name, filter] of Object.entries(filters)) {
      const body = JSON.stringify({ search: { filter, cursorPaging: { limit: 50 } } });
      const samples: number[] = [];
      let found = 0;
      for (let round = 0; round < rounds + 10; round++) {
        const begin = performance.now();
        const response = await fetch(`${platform.url}/ecom/v1/orders/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: BENCH_ADMIN_API_KEY },
          body,
        });
        const answer = (await response.json()) as { orders?: unknown[] };
        const ms = performance.now() - begin;
        if (response.status !== 200) failures++;
        found = answer.orders?.length ?? 0;
        if (round >= 10) samples.push(ms); // the first ten warm the pages and the JIT
      }
      byFilter[name] = {
        requests: samples.length,
        p50Ms: percentile(samples, 50),
        p99Ms: percentile(samples, 99),
        found,
      };
    }
    notes.push(
      `${orders.toLocaleString('en')} orders written in ${buildSeconds.toFixed(0)} s; each filter asked ${rounds} times after 10 to warm up`,
    );
    return { dialect, orders, buildSeconds, byFilter, failures, notes };
  } finally {
    await platform?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
  }
}

/** Writes `orders` orders of a year's trade (newest first on `newest`) in batches, migrations run first. */
async function buildOrders(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  orders: number;
  newest: number;
}) {
  const opened = await openServices({
    ...configFromEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: BENCH_PUBLIC_URL,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'silent',
      CARTWHEEL_ADMIN_API_KEY: BENCH_ADMIN_API_KEY,
      CARTWHEEL_DEMO_CLIENT_ID: BENCH_CLIENT_ID,
      CARTWHEEL_SEED_DEMO: 'false',
    }),
    databaseUrl: options.databaseUrl,
  });
  try {
    const db = opened.services.database.db;
    const batch = 500;
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const span = 365 * DAY_MS;
    for (let start = 0; start < options.orders; start += batch) {
      const rows: OrderRow[] = [];
      const tags: Array<{ order_id: string; kind: string; tag_id: string }> = [];
      const lines: Array<{ order_id: string; product_id: string; product_name: string }> = [];
      for (let index = start; index < Math.min(options.orders, start + batch); index++) {
        const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
        const at = new Date(
          options.newest - span + Math.floor((span * index) / options.orders),
        ).toISOString();
        const roll = random();
        const paymentStatus = roll < 0.05 ? 'PENDING' : roll < 0.08 ? 'PARTIALLY_REFUNDED' : 'PAID';
        const fulfillmentStatus =
          random() < 0.6 ? 'FULFILLED' : random() < 0.5 ? 'PARTIALLY_FULFILLED' : 'NOT_FULFILLED';
        const status = random() < 0.03 ? 'CANCELED' : 'APPROVED';
        const email = `buyer${index % EMAILS}@example.com`;
        const total = (10 + Math.floor(random() * 20_000) / 100).toFixed(2);
        const privateTags = random() < 0.02 ? ['vip'] : [];
        const publicTags = random() < 0.2 ? ['wholesale'] : [];
        const productId = `product-${index % 5_000}`;
        const doc = {
          lineItems: [
            {
              id: `line-${index}`,
              productName: { original: `Product ${index % 5_000}` },
              catalogReference: { catalogItemId: productId },
              quantity: 1,
              physicalProperties: { shippable: true },
            },
          ],
          buyerInfo: { email, contactId: `contact-${index % EMAILS}` },
          billingInfo: { contactDetails: { firstName: 'Ada', lastName: `Buyer${index % 1_000}` } },
          priceSummary: { total: { amount: total, formattedAmount: `$${total}` } },
          currency: 'USD',
          channelInfo: { type: 'WEB' },
          tags: { privateTags: { tagIds: privateTags }, tags: { tagIds: publicTags } },
          activities: [],
        };
        rows.push({
          id,
          number: 10_001 + index,
          status,
          payment_status: paymentStatus,
          fulfillment_status: fulfillmentStatus,
          checkout_id: null,
          visitor_id: null,
          member_id: null,
          buyer_email: email,
          created_at: at,
          updated_at: at,
          doc: JSON.stringify(doc),
          holds_stock: 0,
          contact_id: doc.buyerInfo.contactId,
          billing_first_name: 'Ada',
          billing_last_name: doc.billingInfo.contactDetails.lastName,
          total_amount: Number(total),
          archived: 0,
          seen_by_a_human: 1,
          channel_type: 'WEB',
        });
        for (const tag of privateTags) tags.push({ order_id: id, kind: 'private', tag_id: tag });
        for (const tag of publicTags) tags.push({ order_id: id, kind: 'public', tag_id: tag });
        lines.push({
          order_id: id,
          product_id: productId,
          product_name: doc.lineItems[0]!.productName.original,
        });
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('orders').values(rows).execute();
        if (tags.length > 0) await trx.insertInto('order_tags').values(tags).execute();
        await trx.insertInto('order_line_items').values(lines).execute();
      });
    }
  } finally {
    await opened.close();
  }
}
