import { type Dialect, orderBook, orderBookSize } from './support/order-book.ts';
import { BENCH_ADMIN_API_KEY, type RunningServer, startPlatformProcess } from './support/processes.ts';
import { percentile } from './support/stats.ts';

export type { Dialect };

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
const DAY_MS = 86_400_000;

/**
 * `searchOrders` latency with a large order book: the orders are written straight into the tables by
 * bulk SQL, as the platform writes them (`support/million-orders.ts`), then the built platform runs
 * as in production and answers the merchant's documented filters over HTTP, newest first, a page of 50.
 */
export async function measureOrderSearch(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<OrderSearchResult> {
  const notes: string[] = [];
  // the run's book on this dialect, seeded once and shared with the back office table's bench
  const { dataDir, databaseUrl, seeded } = await orderBook(dialect, orderBookSize(options.quick));
  const orders = seeded.count;
  const newest = seeded.newest;
  const buildSeconds = seeded.seconds;

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
      'a tag': { 'tags.privateTags.tagIds': { $hasSome: [seeded.privateTag] } },
      'a buyer email': { 'buyerInfo.email': `buyer${1234 % seeded.emails}@example.com` },
      'an order number': { number: String(seeded.firstNumber + Math.floor(orders / 2)) },
    };
    const byFilter: OrderSearchResult['byFilter'] = {};
    let failures = 0;
    const rounds = options.quick ? 10 : 100;
    for (const [name, filter] of Object.entries(filters)) {
      const body = JSON.stringify({
        search: { filter, sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: 50 } },
      });
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
  }
}
