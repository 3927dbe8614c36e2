import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { focused, tabTo } from './support/keyboard.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The back office with the keyboard alone (issue 22's test): from the orders table, a merchant finds an
 * order by its buyer's email, opens it and captures its authorized payment after confirming, using
 * Tab, Shift+Tab, Enter, Space and typing only; every control reached shows where the focus is.
 */
describe.each(SQLITE)('the back office by keyboard alone in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let order: { id: string; number: string; email: string };

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    const lamp = await stockedProduct(platform, 'Keyboard Lamp', 30, 10);
    const capture = (mode: string) =>
      admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture: mode } });
    // another buyer's paid order, so the search has something to leave out
    await placeOrder(platform, lamp.id, { quantity: 2 });
    expect((await capture('AUTHORIZE_ONLY')).status).toBe(200);
    const { orderId } = await placeOrder(platform, lamp.id);
    expect((await capture('IMMEDIATE')).status).toBe(200);
    const email = `keys.${dialect}@example.com`;
    // the second order's buyer gets an email of their own (placeOrder's buyer is always the same)
    const renamed = await admin(platform).patch(`/ecom/v1/orders/${orderId}`, {
      order: { buyerInfo: { email } },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    order = { id: orderId, number: String(renamed.body.order.number), email };
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('finds an order by buyer email, opens it and captures its payment with the keyboard alone', async () => {
    await page.goto(`${platform.url}/admin/orders`);
    await page.getByLabel('Admin API key', { exact: true }).waitFor();

    await tabTo(page, 'Admin API key');
    await page.keyboard.type(platform.adminApiKey);
    await page.keyboard.press('Enter');
    await eventually(() => page.getByTestId('order-row').count()).toBe(2);

    await tabTo(page, 'Find an order');
    await page.keyboard.type(order.email);
    await page.keyboard.press('Enter');
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([`#${order.number}`]);

    await tabTo(page, `#${order.number}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/admin/orders/${order.id}`);
    await eventually(() => page.getByTestId('payment').textContent()).toContain('Authorized, not captured');

    await tabTo(page, 'Capture');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.count()).toBe(1);
    // the dialog holds the focus: Tab from inside it never leaves it
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await tabTo(page, 'Capture payment', { limit: 5 });
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    // Shift+Tab goes back to "Keep it" and Tab returns; Space presses the button like a click
    await tabTo(page, 'Keep it', { backwards: true, limit: 5 });
    await tabTo(page, 'Capture payment', { limit: 5 });
    await screenshot(page, `backoffice-keyboard-${dialect}-confirm`);
    await page.keyboard.press('Space');

    await eventually(() => page.getByTestId('payment').textContent()).toContain('Captured');
    await eventually(() => page.getByTestId('payment-status').textContent()).toBe('Paid');
    // the button that opened the dialog is gone: the focus is on what the capture did, not lost
    await eventually(async () => (await focused(page)).name).toMatch(/^Captured \d+\.\d{2} of /);
    expect((await admin(platform).get(`/ecom/v1/orders/${order.id}`)).body.order.paymentStatus).toBe('PAID');
    await screenshot(page, `backoffice-keyboard-${dialect}-captured`);
  });
});
