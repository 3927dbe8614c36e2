import fs from 'node:fs';
import path from 'node:path';
import { ApiKeyStrategy, createClient, products, type Tokens } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import {
  type DialectName,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../packages/platform/test/support/platform.ts';
import { launchChromium } from './browser.ts';

/**
 * What the browser suites share about the store they run against: a test platform and Chromium
 * started for a `describe` block, the apps it serves, and the shopper's tokens the apps keep.
 */

/** Where the browser tests leave their screenshots. */
export const SHOTS = '/tmp/cartwheel-shots';
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

/** Fails, saying how to build them, unless each of `apps` (storefront, hosted, backoffice) is built. */
export function requireBuilt(...apps: string[]): void {
  for (const app of apps) {
    const built = path.resolve(import.meta.dirname, `../../apps/${app}/dist/index.html`);
    if (!fs.existsSync(built)) {
      throw new Error(`apps/${app} is not built (${built} is missing): run \`npm run build\` first`);
    }
  }
}

/** A platform and the Chromium that browses it, as a suite's `beforeAll` starts them. */
export interface StoreInBrowser {
  platform: TestPlatform;
  browser: Browser;
}

/**
 * For a suite's `beforeAll`: checks `apps` are built, makes the screenshots folder, starts a platform
 * on `dialect` (with the demo store when `seedDemo`) and launches Chromium.
 */
export async function startStoreInBrowser(
  dialect: DialectName,
  options: { apps: string[]; seedDemo: boolean; env?: Record<string, string> },
): Promise<StoreInBrowser> {
  requireBuilt(...options.apps);
  fs.mkdirSync(SHOTS, { recursive: true });
  const platform = await startTestPlatform({
    dialect,
    seedDemo: options.seedDemo,
    ...(options.env ? { env: options.env } : {}),
  });
  try {
    return { platform, browser: await launchChromium() };
  } catch (error) {
    await platform.stop();
    throw error;
  }
}

/** For a suite's `afterAll`: closes the browser and stops the platform, whichever of them started. */
export async function stopStoreInBrowser(platform?: TestPlatform, browser?: Browser): Promise<void> {
  await browser?.close();
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
