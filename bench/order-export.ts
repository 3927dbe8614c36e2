import { type Dialect, orderBook, orderBookSize } from './support/order-book.ts';
import { BENCH_ADMIN_API_KEY, type RunningServer, startPlatformProcess } from './support/processes.ts';
import { percentile } from './support/stats.ts';

export interface OrderExportResult {
  dialect: Dialect;
  orders: number;
  /** Lines of the CSV (the header and a line an order), and how long the whole file took. */
  lines: number;
  seconds: number;
  firstByteMs: number;
  /** The capture queue's search (a page of 50), asked again and again while the export streams … */
  during: { requests: number; p50Ms: number; p99Ms: number };
  /** … and asked the same number of times with no export running: the same run's baseline. */
  alone: { requests: number; p50Ms: number; p99Ms: number };
  failures: number;
}

/**
 * The back office's CSV export of every order in the book (`GET /api/cartwheel/orders/export.csv`),
 * read to its end as a browser saves it, with a merchant's search asked every 50 ms meanwhile: the
 * export must stream the whole book without holding other requests up (issue 22: an anchor's export
 * froze its server). The same search asked with no export running is the baseline.
 */
export async function measureOrderExport(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<OrderExportResult> {
  const { dataDir, databaseUrl, seeded } = await orderBook(dialect, orderBookSize(options.quick));
  let platform: RunningServer | undefined;
  try {
    platform = await startPlatformProcess({ dataDir, databaseUrl, seedDemo: false });
    const url = platform.url;
    let failures = 0;
    const body = JSON.stringify({
      search: { filter: { paymentStatus: 'PENDING' }, cursorPaging: { limit: 50 } },
    });
    const search = async (): Promise<number> => {
      const begin = performance.now();
      const response = await fetch(`${url}/ecom/v1/orders/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: BENCH_ADMIN_API_KEY },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 200) failures++;
      return performance.now() - begin;
    };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

    const started = performance.now();
    let firstByteMs = 0;
    let lines = 0;
    let finished = false;
    const exporting = (async () => {
      try {
        const response = await fetch(`${url}/api/cartwheel/orders/export.csv`, {
          headers: { authorization: BENCH_ADMIN_API_KEY },
        });
        if (response.status !== 200 || !response.body) {
          failures++;
          return;
        }
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (firstByteMs === 0) firstByteMs = performance.now() - started;
          for (const byte of value) if (byte === 10) lines++;
        }
      } finally {
        finished = true;
      }
    })();
    const during: number[] = [];
    while (!finished) {
      during.push(await search());
      await pause();
    }
    await exporting;
    const seconds = (performance.now() - started) / 1000;
    const alone: number[] = [];
    for (let index = 0; index < during.length; index++) {
      alone.push(await search());
      await pause();
    }
    const summary = (samples: number[]) => ({
      requests: samples.length,
      p50Ms: percentile(samples, 50),
      p99Ms: percentile(samples, 99),
    });
    return {
      dialect,
      orders: seeded.count,
      lines,
      seconds,
      firstByteMs,
      during: summary(during),
      alone: summary(alone),
      failures,
    };
  } finally {
    await platform?.stop();
  }
}
