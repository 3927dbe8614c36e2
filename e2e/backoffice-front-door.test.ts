import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, OWNER_ENV } from '../packages/platform/test/staff-support.ts';
import { startTestPlatform, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import {
  E2E_SUITE,
  eventually,
  newTestContext,
  releaseChromium,
  sharedChromium,
  TEST_TIMEOUT,
} from './support/browser.ts';
import { requireBuilt, screenshot } from './support/store.ts';

/**
 * The back office's front door, tried as a new merchant would (issue 33): `/admin` signed out leads
 * with signing in, the staff account first and the admin API key below it as the developer's way;
 * after signing in on the hosted login page the merchant is back on the page they asked for. The
 * page's storage is the browser's only: one database is enough.
 */
describe('the back office front door in Chromium', E2E_SUITE, () => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    requireBuilt('backoffice', 'hosted');
    platform = await startTestPlatform({ dialect: 'sqlite', env: OWNER_ENV });
    browser = await sharedChromium();
  }, TEST_TIMEOUT);
  afterAll(async () => {
    await releaseChromium(browser);
    await platform?.stop();
  }, TEST_TIMEOUT);

  it('/admin signed out leads with the staff sign-in, the admin key below it, and signing in stays on the home page', async () => {
    const context = await newTestContext(browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${platform.url}/admin`);
    const staffButton = page.getByRole('button', { name: 'Use your staff account' });
    await staffButton.waitFor();
    const keyField = page.getByLabel('Admin API key', { exact: true });
    // staff first: the staff sign-in comes before the key, and before the sections that need either
    const staffTop = (await staffButton.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const keyTop = (await keyField.boundingBox())?.y ?? Number.NEGATIVE_INFINITY;
    const tilesTop =
      (await page.getByRole('link', { name: 'Orders', exact: true }).last().boundingBox())?.y ?? 0;
    expect(staffTop).toBeLessThan(keyTop);
    expect(keyTop).toBeLessThan(tilesTop);
    expect(await page.getByRole('heading', { name: 'Developers: the admin API key' }).count()).toBe(1);
    await screenshot(page, `backoffice-front-door-signed-out`);

    await staffButton.click();
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/admin\/?$/);
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);
    expect(await staffButton.count()).toBe(0);
    await context.close();
  });

  it('a page asked for while signed out is where the staff sign-in brings the merchant back', async () => {
    const context = await newTestContext(browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${platform.url}/admin/members?status=PENDING`);
    await page.getByRole('button', { name: 'Use your staff account' }).click();
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${platform.url}/admin/members?status=PENDING`);
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);
    await eventually(() => page.getByRole('heading', { level: 1, name: 'Members' }).count()).toBe(1);
    await context.close();
  });
});
