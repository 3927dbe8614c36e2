import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The merchant checks the store's payments against the provider from the back office (issue 32):
 * books that agree say so; money the provider took with no order shows as a difference naming its
 * transaction and amount. The comparison itself runs on both databases in payment-reconcile.test.ts;
 * this suite is about the page, on SQLite.
 */
describe('checking payments against the provider, in Chromium', E2E_SUITE, () => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser('sqlite', { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    const productId = (await stockedProduct(platform, 'Reconciled Teapot', 30, 20)).id;
    await placeOrder(platform, productId);
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('says the books agree, then shows money the provider took with no order', async () => {
    await page.goto(`${platform.url}/admin/settings/payments`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const check = page.getByRole('button', { name: 'Check payments' });
    await check.click();
    await eventually(() => page.getByText('No differences: the books agree.').count()).toBe(1);
    await expect(page.getByText('cartwheel-test-gateway: 1 payment, 1 charge').count()).resolves.toBe(1);

    // a charge made at the provider that never became an order (a page that died after paying)
    const stray = await platform.services.payments.providers.default.authorize({
      idempotencyKey: 'e2e-reconcile-stray',
      amount: '9.50',
      currency: 'USD',
      method: {
        kind: 'card',
        card: { number: '4242424242424242', last4: '4242', brand: 'VISA', expiryMonth: 12, expiryYear: 2040 },
      },
      capture: true,
    });
    expect(stray.status).toBe('APPROVED');
    await page
      .getByLabel('Until (not included)')
      .fill(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
    await check.click();
    const row = page.getByRole('row', { name: /Taken by the provider, no order here/ });
    await eventually(() => row.count()).toBe(1);
    const text = await row.textContent();
    expect(text).toContain(stray.status === 'APPROVED' ? stray.transactionId : 'none');
    expect(text).toContain('9.50 USD, captured');
    await screenshot(page, `backoffice-reconcile`);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
