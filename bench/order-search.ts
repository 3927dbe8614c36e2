import { type Dialect, orderBook, orderBookSize } from './support/order-book.ts';
import { BENCH_ADMIN_API_KEY, type RunningServer, startPlatformProcess } from './support/processes.ts';
import { percentile } from './support/stats.ts';

export type { Dialect };

export interface OrderSearchResult {
  dialect: Dialect;
  orders: number;
  buildSeconds: number;
  /**
   * p50 and p99 of each documented filter and of the back office's free search (`search.expression`),
   * newest first, a page of 50, one request at a time.
   */
  byFilter: Record<string, { requests: number; p50Ms: number; p99Ms: number; found: number }>;
  failures: number;
  notes: string[];
}

/** Today's whole-email search, and the free searches compared with it (issue 36). */
export const WHOLE_EMAIL = 'a buyer email';
export const PART_OF_EMAIL = 'part of an email';
export const PART_OF_NAME = 'part of a last name';

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
      [WHOLE_EMAIL]: { 'buyerInfo.email': `buyer${1234 % seeded.emails}@example.com` },
      'an order number': { number: String(seeded.firstNumber + Math.floor(orders / 2)) },
    };
    // the back office's search box (issue 36): what a merchant types, through the trigram index
    const typed: Record<string, string> = {
      [PART_OF_EMAIL]: `uyer${1234 % seeded.emails}@exa`,
      [PART_OF_NAME]: `${seeded.lastNameStem.slice(1).toLowerCase()}${777 % seeded.lastNames}`,
      // the worst cases: every order matches, so the answer is the newest 50 of a million
      'part of an email every order holds': 'example.com',
      'the first 2 letters of every last name': seeded.lastNameStem.slice(0, 2).toLowerCase(),
    };
    const byFilter: OrderSearchResult['byFilter'] = {};
    let failures = 0;
    const rounds = options.quick ? 10 : 100;
    const asked = [
      ...Object.entries(filters).map(([name, filter]) => [name, { filter }] as const),
      ...Object.entries(typed).map(([name, expression]) => [name, { search: { expression } }] as const),
    ];
    for (const [name, query] of asked) {
      const body = JSON.stringify({
        search: {
          ...query,
          sort: [{ fieldName: 'createdDate', order: 'DESC' }],
          cursorPaging: { limit: 50 },
        },
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
