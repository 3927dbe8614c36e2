/**
 * How long the back office takes to show its orders table, 50 rows over a large order book, in
 * Chromium, beside how long the storefront takes to show its first page of products, from the same
 * platform process in the same run.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../e2e/support/chromium.ts';
import { buildApp } from './support/apps.ts';
import { type Dialect, orderBook, orderBookSize } from './support/order-book.ts';
import { BENCH_ADMIN_API_KEY, type RunningServer, startPlatformProcess } from './support/processes.ts';
import { median } from './support/stats.ts';

/** One app's page: where it is, what shows it is ready, and how a shopper or merchant leaves it. */
interface Screen {
  name: string;
  path: string;
  /** What the page shows once its list is there: `count` of `selector`. */
  selector: string;
  count: number;
  /** A link in the list to another page of the app (an order, a product), for the warm figure. */
  link: string;
  /** The heading that page shows once its item is there. */
  itemHeading: RegExp;
}

/** The back office's orders table: newest first, a page of 50 (`OrdersPage.tsx`, `DataTable.tsx`). */
const BACK_OFFICE: Screen = {
  name: 'back office',
  path: '/admin/orders',
  selector: '[data-testid="order-row"]',
  count: 50,
  link: '[data-testid="order-link"]',
  itemHeading: /^Order #\d+$/,
};
/** The storefront's product listing: a page of 12 cards (`ProductListPage.tsx`'s `PAGE_SIZE`). */
const STOREFRONT: Screen = {
  name: 'storefront',
  path: '/products',
  selector: '.product-grid .product-card',
  count: 12,
  link: '.product-grid .product-card__link',
  itemHeading: /^(?!All products$)./,
};
/** Where the back office keeps the admin key it calls with (`apps/backoffice/src/admin-key.ts`). */
const ADMIN_KEY_STORAGE = 'cartwheel.backoffice.adminApiKey';
const VIEWPORT = { width: 1440, height: 900 };
const WAIT_MS = 120_000;

export interface ScreenTimes {
  /** Navigation start to the list shown, in a new browser context: no cache, no storage. */
  coldMs: number[];
  /** Back to the list from one of its items' pages, in the same tab (the app's own navigation). */
  warmMs: number[];
  coldMedianMs: number;
  warmMedianMs: number;
}

export interface BackofficeTableResult {
  dialect: Dialect;
  orders: number;
  runs: number;
  backOffice: ScreenTimes;
  storefront: ScreenTimes;
  /** Loads that never showed their list. */
  failures: number;
  notes: string[];
}

/**
 * Seeds (or reuses) the run's order book on `dialect`, starts the built platform over it with the
 * demo store's catalog, and times each app in Chromium, runs taken in alternation: a new context
 * loading the page (cold), then into an item's page and back (warm).
 */
export async function measureBackofficeTable(
  dialect: Dialect,
  options: { quick: boolean },
): Promise<BackofficeTableResult> {
  // the apps as their source is now, built once per run (the apps section may have built them already)
  await Promise.all([buildApp('backoffice'), buildApp('storefront')]);
  const notes: string[] = [];
  const book = await orderBook(dialect, orderBookSize(options.quick));
  const runs = options.quick ? 3 : 7;
  let platform: RunningServer | undefined;
  let browser: Browser | undefined;
  try {
    // the demo store's catalog (products with pictures, collections) is what the storefront lists
    platform = await startPlatformProcess({
      dataDir: book.dataDir,
      databaseUrl: book.databaseUrl,
      seedDemo: true,
      // the demo products' pictures are links under the public address: the browser loads them
      ownPublicUrl: true,
    });
    browser = await chromium.launch(CHROMIUM);
    const times = {
      backOffice: { cold: [] as number[], warm: [] as number[] },
      storefront: { cold: [] as number[], warm: [] as number[] },
    };
    let failures = 0;
    // one untimed round first: the platform's first query of each kind, its file reads, Chromium's start
    for (let round = -1; round < runs; round++) {
      // the two apps alternate which goes first, so a slow spell of the machine falls on both
      const order =
        round % 2 === 0 ? (['backOffice', 'storefront'] as const) : (['storefront', 'backOffice'] as const);
      for (const which of order) {
        const screen = which === 'backOffice' ? BACK_OFFICE : STOREFRONT;
        try {
          const { cold, warm } = await timeScreen(browser, platform.url, screen);
          if (round >= 0) {
            times[which].cold.push(cold);
            times[which].warm.push(warm);
          }
        } catch (error) {
          failures++;
          const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
          notes.push(`the ${screen.name} did not show ${screen.count} items: ${message}`);
        }
      }
    }
    const figures = (samples: { cold: number[]; warm: number[] }): ScreenTimes => ({
      coldMs: samples.cold,
      warmMs: samples.warm,
      coldMedianMs: median(samples.cold),
      warmMedianMs: median(samples.warm),
    });
    notes.push(
      `${book.seeded.count.toLocaleString('en')} orders; ${runs} runs a side after an untimed one, in alternation;` +
        ` the owner calls with the admin API key, as the back office keeps it in the tab (sessionStorage)`,
    );
    return {
      dialect,
      orders: book.seeded.count,
      runs,
      backOffice: figures(times.backOffice),
      storefront: figures(times.storefront),
      failures,
      notes,
    };
  } finally {
    await browser?.close();
    await platform?.stop();
  }
}

/**
 * Times `screen` in a new context: from navigation start to the first frame after `count` items are
 * in the page (cold); then, after opening the first item's page, from going back to the same (warm).
 * Both are measured in the page by its own clock, so Playwright's round trips are not counted.
 */
async function timeScreen(
  browser: Browser,
  url: string,
  screen: Screen,
): Promise<{ cold: number; warm: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  try {
    // the owner is signed in as the back office signs a key in: in the tab's sessionStorage
    if (screen === BACK_OFFICE)
      await context.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [
        ADMIN_KEY_STORAGE,
        BENCH_ADMIN_API_KEY,
      ] as const);
    await context.addInitScript({ content: watchForList(screen.selector, screen.count) });
    const page = await context.newPage();
    await page.goto(`${url}${screen.path}`, { waitUntil: 'commit' });
    const cold = await shown(page);

    // into the first item's page (the app's own link), then back to the list
    await page.locator(screen.link).first().click();
    await page.waitForFunction(
      ({ selector, heading }) =>
        document.querySelectorAll(selector).length === 0 &&
        new RegExp(heading).test(document.querySelector('h1')?.textContent ?? ''),
      { selector: screen.selector, heading: screen.itemHeading.source },
    );
    const warm = await page.evaluate(`(() => {
      const listed = window.__watchList(performance.now());
      history.back();
      return listed;
    })()`);
    return { cold, warm: Number(warm) };
  } finally {
    await context.close();
  }
}

/** Waits for the init script to have seen the list; the ms it took from navigation start. */
async function shown(page: Page): Promise<number> {
  const handle = await page.waitForFunction('window.__listShown', undefined, {
    timeout: WAIT_MS,
    polling: 50,
  });
  return Number(await handle.jsonValue());
}

/**
 * An init script (runs in the page before its own scripts): watches the document for `count` of
 * `selector` and keeps the time of the first frame after they are in, in ms since navigation start,
 * as `window.__listShown`; `window.__watchList(start)` does the same again from `start`. Plain text,
 * not a function: the bench's TypeScript loader would wrap a function's inner functions in a helper the
 * page does not have.
 */
function watchForList(selector: string, count: number): string {
  return `(() => {
    const selector = ${JSON.stringify(selector)};
    const count = ${JSON.stringify(count)};
    window.__watchList = (start) => new Promise((resolve) => {
      const observer = new MutationObserver(() => check());
      function check() {
        if (document.querySelectorAll(selector).length < count) return;
        observer.disconnect();
        // the frame after they are in: when they are painted
        requestAnimationFrame(() => resolve(performance.now() - start));
      }
      observer.observe(document, { childList: true, subtree: true });
      check();
    });
    window.__watchList(0).then((ms) => { window.__listShown = ms; });
  })();`;
}
