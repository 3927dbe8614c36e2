import fs from 'node:fs';
import { CompiledQuery, sql } from 'kysely';
import { configFromEnv } from '../packages/platform/src/config.ts';
import { openServices } from '../packages/platform/src/platform.ts';
import { adminQuery, databaseUrl as postgresDatabaseUrl, query } from './support/postgres.ts';
import { BENCH_ADMIN_API_KEY, BENCH_CLIENT_ID, BENCH_PUBLIC_URL, tempDir } from './support/processes.ts';
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

async function scanAt(dialect: Dialect, size: number, rounds: number): Promise<ScanFigure> {
  const dataDir = tempDir('cartwheel-bench-store-services-');
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${BENCH_DATABASE}`);
    databaseUrl = postgresDatabaseUrl(BENCH_DATABASE);
  }
  const opened = await openServices({
    ...configFromEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: BENCH_PUBLIC_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CARTWHEEL_ADMIN_API_KEY: BENCH_ADMIN_API_KEY,
      CARTWHEEL_DEMO_CLIENT_ID: BENCH_CLIENT_ID,
      CARTWHEEL_SEED_DEMO: 'false',
    }),
    databaseUrl,
  });
  try {
    const { db } = opened.services.database;
    process.stderr.write(`bench: writing ${size.toLocaleString('en')} checkouts on ${dialect}...\n`);
    const seedStarted = performance.now();
    const firstFresh = size - FRESH + 1;
    if (dialect === 'postgres') {
      await sql`
        INSERT INTO checkouts (id, cart_id, visitor_id, member_id, channel_type, completed, order_id,
                               inputs, priced, created_at, updated_at)
        SELECT 'co-' || lpad(i::text, 9, '0'), NULL, 'visitor-' || i, NULL, 'WEB',
               CASE WHEN i >= ${firstFresh} OR i % 10 = 0 THEN 0 ELSE 1 END, NULL, '{"lines":[]}', '{}',
               to_char(to_timestamp(${START} + i * ${STEP_SECONDS}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               to_char(to_timestamp(${START} + i * ${STEP_SECONDS}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        FROM generate_series(1, ${size}) AS i`.execute(db);
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
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
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
