import fs from 'node:fs';
import path from 'node:path';
import { ApiKeyStrategy, createClient, products, type Tokens } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import {
  DIALECTS,
  type DialectName,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../packages/platform/test/support/platform.ts';
import { releaseChromium, sharedChromium } from './browser.ts';

/**
 * What the browser suites share about the store they run against: a test platform and Chromium
 * started for a `describe` block, the apps it serves, and the shopper's tokens the apps keep.
 */

/** Where the browser tests leave their screenshots, when asked to (`screenshot`). */
export const SHOTS = '/tmp/cartwheel-shots';

/**
 * Whether the browser tests keep screenshots of what they saw: `CARTWHEEL_E2E_SHOTS=1`. Off by default:
 * a full-page screenshot costs about a second on this machine, and the suites take hundreds of them;
 * they are for a person looking at a page, not for the test (a failure's own message says what differed).
 */
const KEEP_SCREENSHOTS = Boolean(process.env.CARTWHEEL_E2E_SHOTS);

/** Saves the whole page as `SHOTS/<name>.png` when screenshots are asked for; otherwise does nothing. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!KEEP_SCREENSHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
/** The password the suites' shoppers and members sign up with. */
export const PASSWORD = 'correct horse battery';
/** The localStorage key under which the storefront (the test client) keeps its tokens. */
export const TOKENS_KEY = `cartwheel.tokens.${TEST_CLIENT_ID}`;

/** An SDK client with the platform's admin API key, for reading and changing the catalog. */
export function adminClient(platform: TestPlatform) {
  return createClient({
    host: platform.url,
    auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
    modules: { products },
  });
}

/** What `adminClient` answers. */
export type AdminClient = ReturnType<typeof adminClient>;

/**
 * The databases a browser suite runs on: the one its file names (`describe.each(SQLITE)` or
 * `describe.each(POSTGRES)`), or both with `CARTWHEEL_E2E_DATABASES=both`. What the platform keeps is
 * proven on SQLite and PostgreSQL alike by its own suites (races, money, stock, migrations, query plans,
 * the hosted client's calls); a browser suite proves what a shopper or merchant sees and does, which no
 * database changes, so each runs once. The files are split between the two databases, so both serve the
 * apps in Chromium on every run.
 */
export function browserDatabases(dialect: DialectName): DialectName[] {
  return process.env.CARTWHEEL_E2E_DATABASES === 'both' ? DIALECTS : [dialect];
}

/** A browser suite's databases when its file names SQLite (`browserDatabases`). */
export const SQLITE = browserDatabases('sqlite');
/** A browser suite's databases when its file names PostgreSQL (`browserDatabases`). */
export const POSTGRES = browserDatabases('postgres');

/** Fails, saying how to build them, unless each of `apps` (storefront, hosted, backoffice) is built. */
export function requireBuilt(...apps: string[]): void {
  for (const app of apps) {
    const built = path.resolve(import.meta.dirname, `../../apps/${app}/dist/index.html`);
    if (!fs.existsSync(built)) {
      throw new Error(`apps/${app} is not built (${built} is missing): run \`npm run build\` first`);
    }
  }
}

/** A platform and the (worker's shared) Chromium that browses it, as a suite's `beforeAll` starts them. */
export interface StoreInBrowser {
  platform: TestPlatform;
  browser: Browser;
}

/**
 * For a suite's `beforeAll`: checks `apps` are built, starts a platform
 * on `dialect` (with the demo store when `seedDemo`) and launches Chromium.
 */
export async function startStoreInBrowser(
  dialect: DialectName,
  options: { apps: string[]; seedDemo: boolean; env?: Record<string, string> },
): Promise<StoreInBrowser> {
  requireBuilt(...options.apps);
  const platform = await startTestPlatform({
    dialect,
    seedDemo: options.seedDemo,
    ...(options.env ? { env: options.env } : {}),
  });
  try {
    return { platform, browser: await sharedChromium() };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}

/** For a suite's `afterAll`: closes the suite's browser contexts and stops the platform, whichever started. */
export async function stopStoreInBrowser(platform?: TestPlatform, browser?: Browser): Promise<void> {
  await releaseChromium(browser);
  await platform?.stop();
}

/** The public config the apps load (`/api/cartwheel/config`): the store's name, captcha keys and so on. */
export async function storeConfig(platform: TestPlatform): Promise<Record<string, any>> {
  return (await fetch(`${platform.url}/api/cartwheel/config`)).json() as Promise<Record<string, any>>;
}

/** The tokens the storefront keeps in the page's localStorage, or null before it has any. */
export async function storedTokens(page: Page): Promise<Tokens | null> {
  const text = await page.evaluate((key) => localStorage.getItem(key), TOKENS_KEY);
  return text ? (JSON.parse(text) as Tokens) : null;
}

/** Whom the page's stored tokens speak for: `visitor`, `member`, or nothing stored. */
export async function storedRole(page: Page): Promise<Tokens['refreshToken']['role'] | undefined> {
  return (await storedTokens(page))?.refreshToken.role;
}
