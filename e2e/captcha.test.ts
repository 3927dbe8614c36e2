import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../packages/platform/src/identity/service.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestContext, TEST_TIMEOUT } from './support/browser.ts';
import {
  PASSWORD,
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
  storedRole,
} from './support/store.ts';

/**
 * The platform's proof-of-work captcha in a real browser, with `identity.captcha` required: a shopper
 * signs up on the storefront and signs in on the hosted login page, the browser solving a challenge
 * before each form is sent; a refused answer is retried once with a fresh challenge, and a second
 * refusal is said plainly.
 */

const CHECKING = "Checking you're not a robot…";
const CHALLENGE = '**/api/cartwheel/captcha/challenge';

interface SentCaptcha {
  path: string;
  captchaTokens?: Array<{ Recaptcha?: string; InvisibleRecaptcha?: string }>;
}

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'));

/**
 * Challenges held back until `release()`, so the page's "checking" state stays on screen until the
 * test has seen it (and taken its picture), however slowly the machine runs.
 */
function heldChallenges(): { route: (route: Route) => Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    route: async (route) => {
      await released;
      await route.continue();
    },
    release,
  };
}

/** A real challenge with a forged signature: solvable, but the platform refuses the answer (-19970). */
async function forgedChallenge(route: Route): Promise<void> {
  const response = await route.fetch();
  const challenge = (await response.json()) as Record<string, unknown>;
  await route.fulfill({ response, json: { ...challenge, signature: '00'.repeat(32) } });
}

describe.each(POSTGRES)('captcha in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `captcha.${dialect}.${Date.now().toString(36)}@example.com`;
  /** Each registration and login the page sends, with the captcha it carried. */
  const sent: SentCaptcha[] = [];
  let challenges = 0;
  const shot = (name: string) => screenshot(page, `captcha-${dialect}-${name}`);
  const accountMenu = () => page.getByTestId('account-menu');
  const alertText = () => page.getByRole('alert').first().textContent();

  async function signOut(): Promise<void> {
    await accountMenu().getByRole('button', { name: 'Sign out' }).click();
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['storefront', 'hosted'],
      seedDemo: false,
    }));
    await platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'required');
    context = await newTestContext(browser, { width: 1200, height: 900 });
    page = await context.newPage();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('/captcha/challenge')) challenges += 1;
      if (/\/_api\/iam\/authentication\/v2\/(register|login)$/.test(pathname)) {
        sent.push({ path: pathname, ...(request.postDataJSON() as Omit<SentCaptcha, 'path'>) });
      }
    });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('the config tells the apps captcha is required, with both public site keys', async () => {
    const config = await storeConfig(platform);
    expect(config.captcha).toMatchObject({
      required: true,
      siteKey: expect.any(String),
      invisibleSiteKey: expect.any(String),
      challengeUrl: '/api/cartwheel/captcha/challenge',
    });
  });

  it('a shopper signs up on the storefront: the browser solves a challenge first and the account is made', async () => {
    const held = heldChallenges();
    await page.route(CHALLENGE, held.route);
    await page.goto(`${platform.url}/account/sign-up`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    sent.length = 0;
    challenges = 0;
    try {
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('button', { name: CHECKING }).waitFor();
      await shot('storefront-checking');
    } finally {
      held.release();
    }

    await page.waitForURL(`${platform.url}/`);
    await eventually(() => accountMenu().textContent()).toContain('Hi, Ada');
    await eventually(() => storedRole(page)).toBe('member');
    await page.unroute(CHALLENGE, held.route);

    // one challenge, one registration, carrying the solved challenge as the invisible captcha's token
    expect(challenges).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toMatch(/\/register$/);
    const tokens = sent[0]!.captchaTokens ?? [];
    expect(tokens).toHaveLength(1);
    expect(Object.keys(tokens[0]!)).toEqual(['InvisibleRecaptcha']);
    expect(decode(tokens[0]!.InvisibleRecaptcha!)).toEqual({
      algorithm: 'SHA-256',
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      number: expect.any(Number),
      salt: expect.any(String),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    await signOut();
  });

  it('a refused answer is retried once with a fresh challenge; a second refusal says so, and a new try works', async () => {
    const second = `captcha.again.${dialect}.${Date.now().toString(36)}@example.com`;
    await page.goto(`${platform.url}/account/sign-up`);
    await page.getByLabel('Email').fill(second);
    await page.getByLabel('Password').fill(PASSWORD);

    // every challenge forged: the first refusal is retried, the second shown
    await page.route(CHALLENGE, forgedChallenge);
    sent.length = 0;
    challenges = 0;
    await page.getByRole('button', { name: 'Create account' }).click();
    await eventually(alertText).toBe("We couldn't confirm you're not a robot. Please try again.");
    await shot('storefront-refused');
    expect(challenges).toBe(2);
    expect(sent.map((call) => call.captchaTokens?.[0]?.InvisibleRecaptcha)).toHaveLength(2);
    expect(new Set(sent.map((call) => call.captchaTokens?.[0]?.InvisibleRecaptcha)).size).toBe(2);
    await page.unroute(CHALLENGE, forgedChallenge);

    // only the first challenge forged (an answer that expired, say): the retry goes through unseen
    let forged = 0;
    const forgeOnce = (route: Route) => (forged++ === 0 ? forgedChallenge(route) : route.continue());
    await page.route(CHALLENGE, forgeOnce);
    sent.length = 0;
    challenges = 0;
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${platform.url}/`);
    await eventually(() => storedRole(page)).toBe('member');
    expect(challenges).toBe(2);
    expect(sent).toHaveLength(2);
    await page.unroute(CHALLENGE, forgeOnce);
    await signOut();
  });

  it('the shopper signs in on the hosted login page, the challenge solved there too, and comes back signed in', async () => {
    await page.goto(`${platform.url}/products`);
    await accountMenu().getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Continue with the store’s login page' }).click();
    await page.waitForURL('**/auth/login?**');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);

    // a refused answer twice over: the hosted page says it plainly and keeps the form
    await page.route(CHALLENGE, forgedChallenge);
    sent.length = 0;
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(alertText).toBe("We couldn't confirm you're not a robot. Please try again.");
    expect(sent).toHaveLength(2);
    await shot('hosted-refused');
    await page.unroute(CHALLENGE, forgedChallenge);

    const held = heldChallenges();
    await page.route(CHALLENGE, held.route);
    sent.length = 0;
    challenges = 0;
    try {
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('button', { name: CHECKING }).waitFor();
      await shot('hosted-checking');
    } finally {
      held.release();
    }
    await page.waitForURL('**/products');
    await eventually(() => accountMenu().textContent()).toContain('Hi, Ada');
    await eventually(() => storedRole(page)).toBe('member');
    await page.unroute(CHALLENGE, held.route);

    expect(challenges).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toMatch(/\/login$/);
    expect(Object.keys(sent[0]!.captchaTokens?.[0] ?? {})).toEqual(['InvisibleRecaptcha']);
  });
});
