import { STORES_APP_ID } from '@cartwheel/sdk';
import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { inTransaction } from '../packages/platform/src/db/database.ts';
import type { OrderSource } from '../packages/platform/src/orders/model.ts';
import { openFreshStore } from './support/fresh-store.ts';
import { query } from './support/postgres.ts';
import { percentile } from './support/stats.ts';

export type Dialect = 'sqlite' | 'postgres';

/** One size of the abandoned-checkout scan's read. */
export interface ScanFigure {
  checkouts: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Checkouts the scan's page answered (the newly idle ones past its last stop). */
  returned: number;
  /** Rows the database read for it (PostgreSQL's EXPLAIN ANALYZE: scanned and filtered out); SQLite does not say. */
  rowsRead: number | null;
  /** Buffers (8 kB pages) PostgreSQL touched for it, hit or read. */
  buffers: number | null;
  /** The plan, as the database gives it in a line. */
  plan: string;
  seedSeconds: number;
}

export interface StoreServicesResult {
  dialect: Dialect;
  /** The baseline: the same scan over the small table, in the same run. */
  small: ScanFigure;
  large: ScanFigure;
  notes: string[];
}

/** Unfinished checkouts idle since the scan's last stop: what each run of the scan finds anew. */
const FRESH = 100;
/** The platform's scan page (abandoned-checkouts/service.ts reads 200 at a time). */
const SCAN_PAGE = 200;
const START = Date.UTC(2025, 0, 1) / 1000;
const STEP_SECONDS = 10;
const BENCH_DATABASE = 'cartwheel_bench_store_services';

/**
 * The abandoned-checkout scan (issue 34) as a table grows: `checkouts` filled by bulk SQL with `size`
 * checkouts over months (nine in ten completed, the rest unfinished and already scanned), then the
 * `FRESH` newest left unfinished past the scan's stored position; the scan's own query
 * (`CheckoutService.unfinishedChangedInQuery`, a range of the `checkouts_unfinished` index from that
 * position) is timed one at a time, and its plan read. The baseline is the same at `small` checkouts.
 */
export async function measureAbandonedCheckoutScan(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<StoreServicesResult> {
  const small = options.quick ? 1_000 : 10_000;
  const large = options.quick ? 10_000 : Number(process.env.CARTWHEEL_BENCH_CHECKOUTS ?? 1_000_000);
  const rounds = options.quick ? 50 : 500;
  const baseline = await scanAt(dialect, small, rounds);
  const grown = await scanAt(dialect, large, rounds);
  return {
    dialect,
    small: baseline,
    large: grown,
    notes: [
      `Abandoned-checkout scan ${dialect}: ${large.toLocaleString('en')} checkouts written in ${grown.seedSeconds.toFixed(0)} s; ` +
        `its read asked ${rounds} times after 20 to warm up, ${grown.returned} newly idle checkouts a page; ` +
        `plan at ${large.toLocaleString('en')}: ${grown.plan}; at ${small.toLocaleString('en')}: ${baseline.plan}`,
    ],
  };
}

/** A fresh database on `dialect` with the platform's migrations, opened in the bench's process. */
async function openBenchDatabase(dialect: Dialect) {
  const store = await openFreshStore(dialect, {
    database: BENCH_DATABASE,
    prefix: 'cartwheel-bench-store-services-',
  });
  return {
    services: store.opened.services,
    databaseUrl: store.databaseUrl,
    async close() {
      await store.opened.close();
      await store.remove();
    },
  };
}

async function scanAt(dialect: Dialect, size: number, rounds: number): Promise<ScanFigure> {
  const opened = await openBenchDatabase(dialect);
  const { databaseUrl } = opened;
  try {
    const { db } = opened.services.database;
    process.stderr.write(`bench: writing ${size.toLocaleString('en')} checkouts on ${dialect}...\n`);
    const seedStarted = performance.now();
    const firstFresh = size - FRESH + 1;
    if (dialect === 'postgres') {
      await bulk(
        opened.databaseUrl,
        db,
        sql`
        INSERT INTO checkouts (id, cart_id, visitor_id, member_id, channel_type, completed, order_id,
                               inputs, priced, created_at, updated_at)
        SELECT 'co-' || lpad(i::text, 9, '0'), NULL, 'visitor-' || i, NULL, 'WEB',
               CASE WHEN i >= ${firstFresh} OR i % 10 = 0 THEN 0 ELSE 1 END, NULL, '{"lines":[]}', '{}',
               to_char(to_timestamp(${START} + i * ${STEP_SECONDS}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               to_char(to_timestamp(${START} + i * ${STEP_SECONDS}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        FROM generate_series(1, ${size}) AS i`,
      );
      // the planner's statistics and the visibility map, as a live database has them
      await query(databaseUrl!, 'VACUUM ANALYZE checkouts');
    } else {
      await sql`
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${size})
        INSERT INTO checkouts (id, cart_id, visitor_id, member_id, channel_type, completed, order_id,
                               inputs, priced, created_at, updated_at)
        SELECT printf('co-%09d', i), NULL, 'visitor-' || i, NULL, 'WEB',
               CASE WHEN i >= ${firstFresh} OR i % 10 = 0 THEN 0 ELSE 1 END, NULL, '{"lines":[]}', '{}',
               strftime('%Y-%m-%dT%H:%M:%fZ', ${START} + i * ${STEP_SECONDS}, 'unixepoch'),
               strftime('%Y-%m-%dT%H:%M:%fZ', ${START} + i * ${STEP_SECONDS}, 'unixepoch')
        FROM n`.execute(db);
      await sql`ANALYZE`.execute(db);
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const iso = (i: number) => new Date((START + i * STEP_SECONDS) * 1000).toISOString();
    // where the scan's last run stopped: the checkout just before the fresh ones
    const after = { updatedAt: iso(firstFresh - 1), id: `co-${String(firstFresh - 1).padStart(9, '0')}` };
    const upTo = iso(size + 1);
    const read = () => opened.services.checkouts.unfinishedChangedInQuery(after, upTo, SCAN_PAGE);

    const samples: number[] = [];
    let returned = 0;
    for (let round = 0; round < rounds + 20; round++) {
      const begin = performance.now();
      returned = (await read().execute()).length;
      const ms = performance.now() - begin;
      if (round >= 20) samples.push(ms);
    }
    const compiled = read().compile();
    let rowsRead: number | null = null;
    let buffers: number | null = null;
    let plan: string;
    if (dialect === 'postgres') {
      const explained = await db.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${compiled.sql}`, [
          ...compiled.parameters,
        ]),
      );
      const [first] = explained.rows;
      if (!first) throw new Error('EXPLAIN answered no plan');
      const top = (first['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
      rowsRead = 0;
      const shapes: string[] = [];
      walk(top, (node) => {
        if (node['Relation Name']) {
          rowsRead =
            (rowsRead ?? 0) +
            (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1) +
            (node['Rows Removed by Filter'] ?? 0);
        }
        shapes.push(`${node['Node Type']}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`);
      });
      buffers = (top['Shared Hit Blocks'] ?? 0) + (top['Shared Read Blocks'] ?? 0);
      plan = shapes.join(' > ');
    } else {
      const explained = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
      );
      plan = explained.rows.map((row) => row.detail).join('; ');
    }
    return {
      checkouts: size,
      requests: samples.length,
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
      returned,
      rowsRead,
      buffers,
      plan,
      seedSeconds,
    };
  } finally {
    await opened.close();
  }
}

export interface RenewalsResult {
  dialect: Dialect;
  orders: number;
  /** Seconds to renew every due contract (the worker's `renewDue` until none is due). */
  renewalSeconds: number;
  /** Seconds for as many ordinary orders made and paid by the same steps, without a contract. */
  orderSeconds: number;
  renewed: number;
  notes: string[];
}

/**
 * The time to make `orders` due subscription orders (issue 34): as many contracts, filled by bulk SQL
 * from one real contract's documents (a product, its priced line, a card saved with the test gateway),
 * all due at once, renewed by the worker's own `renewDue` in the bench's process. The baseline: as many
 * ordinary orders of the same line through the same steps a placed order takes (its stock taken and an
 * `INITIALIZED` order made in one transaction, the saved card charged, the order approved with its
 * payment in another), without the contract's claim and bookkeeping; the ratio is what a renewal adds.
 */
export async function measureRenewals(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<RenewalsResult> {
  const orders = options.quick ? 300 : 10_000;
  const opened = await openBenchDatabase(dialect);
  try {
    const { services } = opened;
    const { db } = services.database;
    const product = await services.catalog.createProduct({
      name: 'Bench coffee subscription',
      productType: 'physical',
      priceData: { price: 20 },
    } as never);
    const priced = await services.pricing.price({
      lines: [
        {
          id: 'bench-line',
          quantity: 1,
          catalogReference: { appId: STORES_APP_ID, catalogItemId: product.id! },
        },
      ],
      calculateTax: false,
      calculateShipping: false,
    });
    const providerId = services.config.defaultPaymentProvider;
    const provider = services.payments.providers.get(providerId);
    const memberId = 'bench-member';
    const savedMethodId = await provider.saveMethod!(memberId, {
      number: '4242424242424242',
      last4: '4242',
      brand: 'VISA',
      expiryMonth: 12,
      expiryYear: 2040,
    });
    const source: OrderSource = {
      checkoutId: 'bench-checkout',
      channelType: 'WEB',
      buyer: { visitorId: null, memberId, contactId: 'bench-contact', email: 'bench@example.com' },
      buyerNote: null,
      billingAddress: null,
      shippingAddress: null,
      contactDetails: null,
      priced,
    };
    const now = new Date(Date.UTC(2026, 5, 1));
    const due = new Date(now.getTime() - 60_000).toISOString();
    const doc = JSON.stringify({ title: 'Bench', lineItems: [], buyerInfo: { memberId }, priceSummary: {} });
    const text = JSON.stringify(source);
    const series =
      dialect === 'postgres'
        ? sql`generate_series(1, ${orders}) AS n(i)`
        : sql`(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${orders}) SELECT i FROM s) AS n`;
    const id = dialect === 'postgres' ? sql`'sc-' || lpad(i::text, 9, '0')` : sql`printf('sc-%09d', i)`;
    await bulk(
      opened.databaseUrl,
      db,
      sql`
      INSERT INTO subscription_contracts (id, member_id, contact_id, status, first_order_id, doc, source,
        frequency, interval_count, billing_cycles, cycles_billed, next_billing_at, due_at, anchor_at,
        anchor_cycle, provider_id, saved_method_id, customer_id, created_at, updated_at, revision)
      SELECT ${id}, ${memberId}, 'bench-contact', 'ACTIVE', 'first-' || i, ${doc}, ${text},
        'MONTH', 1, NULL, 1, ${due}, ${due}, ${due}, 2, ${providerId}, ${savedMethodId}, ${memberId},
        ${due}, ${due}, 1
      FROM ${series}`,
    );
    if (opened.databaseUrl) await query(opened.databaseUrl, 'VACUUM ANALYZE subscription_contracts');

    process.stderr.write(`bench: renewing ${orders.toLocaleString('en')} due contracts on ${dialect}...\n`);
    const renewStarted = performance.now();
    for (;;) {
      // each run renews a page of the due contracts, as the worker's does
      if ((await services.subscriptions.renewDue(now)) === 0) break;
    }
    const renewalSeconds = (performance.now() - renewStarted) / 1000;

    process.stderr.write(`bench: placing ${orders.toLocaleString('en')} ordinary orders on ${dialect}...\n`);
    const method = { kind: 'saved' as const, savedMethodId, customerId: memberId };
    const amount = priced.amounts.total;
    const orderStarted = performance.now();
    for (let i = 0; i < orders; i++) {
      const orderId = await inTransaction(db, async (trx) => {
        await services.catalog.takeStock(trx, [{ productId: product.id!, quantity: 1 }]);
        return services.orders.createInitialized(trx, source, now);
      });
      const key = `bench-order:${i}`;
      const result = await provider.authorize({
        idempotencyKey: key,
        amount,
        currency: priced.currency,
        method,
        capture: true,
        offSession: true,
      });
      if (result.status !== 'APPROVED')
        throw new Error(`the bench's order was not approved: ${result.status}`);
      await inTransaction(db, async (trx) => {
        await services.orders.approve(trx, orderId, { paymentStatus: 'PAID' }, now);
        await services.payments.recordPayment(
          trx,
          {
            orderId,
            attemptId: key,
            amount,
            formattedAmount: priced.priceSummary.total?.formattedAmount ?? amount,
            currency: priced.currency,
            providerId,
            transactionId: result.transactionId,
            providerTransactionId: result.providerTransactionId,
            card: result.card ?? { last4: '4242', brand: 'VISA' },
            authorizeOnly: !result.captured,
          },
          now,
        );
      });
    }
    const orderSeconds = (performance.now() - orderStarted) / 1000;
    const paid = await db
      .selectFrom('subscription_renewals')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('status', '=', 'PAID')
      .executeTakeFirstOrThrow();
    return {
      dialect,
      orders,
      renewalSeconds,
      orderSeconds,
      renewed: Number(paid.count),
      notes: [
        `Subscription renewals ${dialect}: ${Number(paid.count).toLocaleString('en')} of ${orders.toLocaleString('en')} due contracts renewed and paid ` +
          `in ${renewalSeconds.toFixed(1)} s (${Math.round(orders / renewalSeconds)}/s); as many ordinary orders by the same steps in ${orderSeconds.toFixed(1)} s`,
      ],
    };
  } finally {
    await opened.close();
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

/**
 * One bulk statement: on PostgreSQL over a connection of the bench's own (the platform's pool holds a
 * statement timeout that a million rows outlast), on SQLite through the platform's connection.
 */
async function bulk(databaseUrl: string | undefined, db: Kysely<any>, statement: RawBuilder<unknown>) {
  if (!databaseUrl) {
    await statement.execute(db);
    return;
  }
  const compiled = statement.compile(db);
  await query(databaseUrl, compiled.sql, [...compiled.parameters]);
}
