import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM } from './chromium.ts';

/**
 * The one place the browser tests launch Chromium and say how long they wait.
 *
 * The waits are long because CI runs lint, typecheck, build and every test file at once on two
 * cores: a first page load or a form's round trip can take many seconds there. Each wait ends as
 * soon as its condition holds, so a long limit costs nothing on a fast machine; it only decides how
 * long a test that is going to fail takes to say so.
 */

/** A click, a fill, a locator's read, a screenshot: what Playwright waits for before it gives up. */
export const ACTION_TIMEOUT = 60_000;
/** A page load, a reload, `waitForURL`. */
export const NAVIGATION_TIMEOUT = 60_000;
/** How long `eventually` keeps asking before the last answer is the one asserted. */
export const EVENTUALLY_TIMEOUT = 60_000;
/** One browser test, or one hook (a platform with the demo store and Chromium starting). */
export const TEST_TIMEOUT = 180_000;

/** The options every browser test's `describe` takes: `describe.each(...)(name, E2E_SUITE, fn)`. */
export const E2E_SUITE = { timeout: TEST_TIMEOUT };

/** Debian's Chromium, headless, without the background chatter that slows a loaded machine further. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ ...CHROMIUM, timeout: TEST_TIMEOUT });
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The test worker's Chromium: launched by the first suite that asks and kept for the worker's next
 * files (a worker runs its files one after another and keeps its modules, `isolate: false`), since a
 * launch and a close cost a second or more on a loaded machine. Suites share nothing through it: each
 * opens contexts of its own (fresh cookies and storage) and `releaseChromium` closes them. Playwright
 * closes the browser when the worker exits; a browser that went away is launched again.
 */
export function sharedChromium(): Promise<Browser> {
  workerChromium ??= launchChromium().then(
    (browser) => {
      browser.once('disconnected', () => {
        workerChromium = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      workerChromium = undefined;
      throw error;
    },
  );
  return workerChromium;
}

/** Gives back the shared Chromium: closes every context the suite opened in it. */
export async function releaseChromium(browser: Browser | undefined): Promise<void> {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

export interface Viewport {
  width: number;
  height: number;
}

/** A fresh context (no cookies, no storage) whose pages wait as long as the constants above say. */
export async function newTestContext(browser: Browser, viewport: Viewport): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(ACTION_TIMEOUT);
  context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT);
  return context;
}

/** A page in a fresh context of its own (closed with the browser). */
export async function newTestPage(browser: Browser, viewport: Viewport): Promise<Page> {
  return (await newTestContext(browser, viewport)).newPage();
}

/**
 * `expect.poll` with the browser tests' deadline: `await eventually(() => locator.textContent()).toBe(x)`
 * asks again until the page shows `x`, and fails with the last answer if it never does. Use it for
 * anything the page shows after an action (a value read once may be the one from before the page
 * updated); `expect.poll`'s own default gives up after one second.
 */
export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: EVENTUALLY_TIMEOUT, interval: 100 });
}
