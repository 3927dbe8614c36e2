import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import { OWNER, OWNER_ENV } from '../packages/platform/test/staff-support.ts';
import { startTestPlatform, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import {
  E2E_SUITE,
  eventually,
  newTestPage,
  releaseChromium,
  sharedChromium,
  TEST_TIMEOUT,
} from './support/browser.ts';
import { POSTGRES, requireBuilt, screenshot } from './support/store.ts';

/**
 * A merchant's day in the back office (issue 36), in Chromium against the built platform, signed in as
 * the store's owner through the hosted login page: the mailbox read with that sign-in, Enter in the bulk
 * tag dialog, a second partial shipment that starts from a fresh form, a shipped order that says how
 * it can be canceled and whose shipments are edited and deleted, one notice on screen at a time, the
 * refund button in the store's currency format, and a new product's blank weight and its later options.
 */
describe.each(POSTGRES)("a merchant's day in the back office in Chromium on %s", E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  /** Three lanterns, only authorized; one lantern, paid. */
  let shipped: { orderId: string; number: string };
  let paid: { orderId: string; number: string };
  const shot = (name: string) => screenshot(page, `backoffice-merchant-day-${dialect}-${name}`);
  const stored = async (orderId: string) =>
    (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
  const fulfillmentsOf = async (orderId: string) =>
    (await admin(platform).get(`/ecom/v1/fulfillments/orders/${orderId}?orderId=${orderId}`)).body
      .orderWithFulfillments.fulfillments as Array<{ trackingInfo?: { trackingNumber?: string } }>;
  const captureMode = (mode: string) =>
    admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture: mode } });

  beforeAll(async () => {
    requireBuilt('backoffice', 'hosted');
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
    await shipToUs(platform);
    const lantern = await stockedProduct(platform, 'Camp Lantern', 30.49, 20);
    expect((await captureMode('AUTHORIZE_ONLY')).status).toBe(200);
    const first = (await placeOrder(platform, lantern.id, { quantity: 3 })).orderId;
    expect((await captureMode('IMMEDIATE')).status).toBe(200);
    const second = (await placeOrder(platform, lantern.id)).orderId;
    shipped = { orderId: first, number: String((await stored(first)).number) };
    paid = { orderId: second, number: String((await stored(second)).number) };
    browser = await sharedChromium();
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await releaseChromium(browser);
    await platform?.stop();
  }, TEST_TIMEOUT);

  it('the owner signed in as staff reads the mailbox without being asked for the admin API key', async () => {
    await page.goto(`${platform.url}/admin/mailbox`);
    await page.getByRole('button', { name: 'Use your staff account' }).click();
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/admin/mailbox');
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);

    // the order confirmations are in it
    const latest = async () => (await admin(platform).get('/api/cartwheel/mailbox?limit=1')).body.messages;
    await eventually(async () => (await latest()).length).toBe(1);
    const [newest] = await latest();
    await eventually(() => page.locator('.message__subject').first().textContent()).toBe(newest.subject);
    expect(await page.getByLabel('Admin API key', { exact: true }).count()).toBe(0);
    // still signed in as the owner: nothing asked for a key or ended the sign-in
    expect(await page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);
    await shot('mailbox');
  });

  it('Enter in the bulk "Add a tag" dialog adds the tag, and its outcome goes when the list shows another view', async () => {
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await eventually(() => page.getByTestId('order-row').count()).toBe(2);
    await page.getByLabel(`Select order #${paid.number}`).check();
    await page.getByRole('button', { name: 'Add tag…', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Tag', { exact: true }).fill('gift');
    await dialog.getByLabel('Tag', { exact: true }).press('Enter');
    await eventually(() => page.getByRole('status').filter({ hasText: '1 of 1 done' }).count()).toBe(1);
    expect(await dialog.count()).toBe(0);
    expect((await stored(paid.orderId)).tags.tags.tagIds).toEqual(['gift']);

    await page.getByLabel('Find an order').fill(paid.number);
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.getByTestId('order-row').count()).toBe(1);
    expect(await page.getByRole('status').filter({ hasText: '1 of 1 done' }).count()).toBe(0);
  });

  it('after a partial shipment the "Ship items" form starts fresh: no tracking number, what is left to ship', async () => {
    await page.goto(`${platform.url}/admin/orders/${shipped.orderId}`);
    const payment = page.getByTestId('payment');
    await payment.getByRole('button', { name: 'Capture' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Capture payment' }).click();
    await eventually(() => page.getByRole('status').first().textContent()).toContain('Captured');

    const quantity = page.getByLabel('Quantity of Camp Lantern to ship');
    await eventually(() => quantity.inputValue()).toBe('3');
    await quantity.fill('1');
    await page.getByLabel('Carrier').selectOption({ label: 'UPS' });
    await page.getByLabel('Tracking number (optional)').fill('PARCEL-ONE');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(1);

    // the form is new: two left to ship, no carrier or tracking number of the first parcel
    await eventually(() => quantity.inputValue()).toBe('2');
    expect(await page.getByLabel('Tracking number (optional)').inputValue()).toBe('');
    expect(await page.getByLabel('Carrier').inputValue()).toBe('usps');
    // one notice on screen: the shipment's, not the capture before it
    expect(await page.getByRole('status').allTextContents()).toEqual(['1 item(s) marked as shipped.']);
    await shot('second-parcel');

    await page.getByLabel('Tracking number (optional)').fill('PARCEL-TWO');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(2);
    const numbers = (await fulfillmentsOf(shipped.orderId)).map((item) => item.trackingInfo?.trackingNumber);
    expect(numbers).toEqual(['PARCEL-ONE', 'PARCEL-TWO']);
  });

  it('a shipped order says how it can be canceled: its shipments are edited and deleted here, then it cancels', async () => {
    await eventually(() => page.getByTestId('fulfillment-status').textContent()).toBe('Fulfilled');
    expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    expect(await page.getByTestId('cancel-unavailable').textContent()).toBe(
      'Shipped orders cannot be canceled: delete the shipments below first.',
    );

    // the second parcel's tracking, corrected: another carrier and number, the link follows
    await page.getByRole('button', { name: 'Edit tracking of shipment 2 (2 × Camp Lantern)' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByLabel('Tracking number').inputValue()).toBe('PARCEL-TWO');
    await dialog.getByLabel('Carrier').selectOption({ label: 'FedEx' });
    await dialog.getByLabel('Tracking number').fill('PARCEL-TWO-B');
    await dialog.getByRole('button', { name: 'Save tracking' }).click();
    await eventually(() => page.getByTestId('fulfillment').nth(1).textContent()).toContain(
      'FedEx PARCEL-TWO-B',
    );
    const fulfillments = await fulfillmentsOf(shipped.orderId);
    expect(fulfillments.map((item) => item.trackingInfo?.trackingNumber)).toEqual([
      'PARCEL-ONE',
      'PARCEL-TWO-B',
    ]);
    expect(fulfillments[1]!.trackingInfo).toMatchObject({ shippingProvider: 'fedex' });

    // both shipments deleted after confirming: nothing shipped, and the order can be canceled again
    for (const name of ['Delete shipment 2 (2 × Camp Lantern)', 'Delete shipment 1 (1 × Camp Lantern)']) {
      await page.getByRole('button', { name }).click();
      await dialog.getByRole('button', { name: 'Delete shipment' }).click();
      await eventually(() => dialog.count()).toBe(0);
    }
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(0);
    expect(await fulfillmentsOf(shipped.orderId)).toEqual([]);
    await eventually(() => page.getByTestId('fulfillment-status').textContent()).toBe('Not fulfilled');
    await eventually(() => page.getByRole('button', { name: 'Cancel order' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await eventually(() => page.getByTestId('order-status').textContent()).toBe('Canceled');
    expect((await stored(shipped.orderId)).status).toBe('CANCELED');
  });

  it('the refund button says its amount in the store currency format, as its preview does', async () => {
    await page.goto(`${platform.url}/admin/orders/${paid.orderId}`);
    await page.getByLabel('Quantity of Camp Lantern to refund').fill('1');
    await eventually(() => page.getByTestId('refund-preview').textContent()).toMatch(
      /^Refund total \$30\.49/,
    );
    await eventually(() => page.getByRole('button', { name: 'Refund $30.49' }).count()).toBe(1);
  });

  it('a new product says where its options and variants come, and a blank weight stays blank once saved', async () => {
    await page.goto(`${platform.url}/admin/products/new`);
    await eventually(() => page.getByTestId('after-creating').count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Options and variants' }).count()).toBe(1);
    await page.getByLabel('Name').fill('Folding Stool');
    await page.getByLabel('Price').fill('22');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/admin\/products\/(?!new)[^/]+$/);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Folding Stool');
    await page.reload();
    await eventually(() => page.getByLabel('Price').inputValue()).toBe('22');
    expect(await page.getByLabel('Weight (optional)').inputValue()).toBe('');
    expect(await page.getByTestId('after-creating').count()).toBe(0);
  });
});
