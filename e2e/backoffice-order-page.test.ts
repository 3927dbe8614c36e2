import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createProduct } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
} from './support/store.ts';

/**
 * The order page's own tools in Chromium against the built platform: merchant comments on the timeline
 * (added and deleted, shown at once), the buyer's email and addresses edited with the same checks as
 * the platform's and only the changed fields sent, and the packing slip of what is left to ship.
 */
describe.each(POSTGRES)('the back office order page in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let orderId: string;
  let number: string;
  const shot = (name: string) => screenshot(page, `backoffice-order-page-${dialect}-${name}`);
  const stored = async () => (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    const tent = await createProduct(platform, {
      name: 'Ridge Tent',
      productType: 'physical',
      priceData: { price: 120 },
      sku: 'TENT-RIDGE-2',
    });
    ({ orderId } = await placeOrder(platform, tent.id, { quantity: 3 }));
    number = String((await stored()).number);
    page = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/admin/orders/${orderId}`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: `Order #${number}` }).waitFor();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('adds a merchant comment to the timeline and deletes it, each shown without a reload', async () => {
    const timeline = page.getByRole('region', { name: 'Timeline' });
    // an empty comment is refused before anything is sent
    await timeline.getByRole('button', { name: 'Add comment' }).click();
    await eventually(() => timeline.getByText('Write the comment first.').count()).toBe(1);

    await page.getByLabel('Add a comment').fill('Buyer asked to ship after Monday');
    await timeline.getByRole('button', { name: 'Add comment' }).click();
    await eventually(() => timeline.getByTestId('timeline-comment').allTextContents()).toEqual([
      expect.stringContaining('Buyer asked to ship after Monday'),
    ]);
    expect(await timeline.getByRole('status').textContent()).toBe('Comment added to the timeline.');
    expect(await page.getByLabel('Add a comment').inputValue()).toBe('');
    const comments = (await stored()).activities.filter(
      (activity: { type: string }) => activity.type === 'MERCHANT_COMMENT',
    );
    expect(comments.map((activity: any) => activity.merchantComment.message)).toEqual([
      'Buyer asked to ship after Monday',
    ]);
    await shot('comment');

    // a second comment, then the first is deleted after confirming; the other stays
    await page.getByLabel('Add a comment').fill('Gift wrap requested');
    await timeline.getByRole('button', { name: 'Add comment' }).click();
    await eventually(() => timeline.getByTestId('timeline-comment').count()).toBe(2);
    await timeline.getByRole('button', { name: 'Delete comment “Buyer asked to ship after Monday”' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading').textContent()).toBe('Delete this comment?');
    await dialog.getByRole('button', { name: 'Delete comment' }).click();
    await eventually(() => timeline.getByTestId('timeline-comment').allTextContents()).toEqual([
      expect.stringContaining('Gift wrap requested'),
    ]);
    await eventually(() => timeline.getByRole('status').textContent()).toBe('Comment deleted.');
    // its Delete button went with it: the focus is on the confirmation, not lost to the page
    await eventually(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Comment deleted.');
    const left = (await stored()).activities
      .filter((activity: { type: string }) => activity.type === 'MERCHANT_COMMENT')
      .map((activity: any) => activity.merchantComment.message);
    expect(left).toEqual(['Gift wrap requested']);
    // the platform's own activities have no delete button
    expect(await timeline.getByTestId('timeline-entry').first().getByRole('button').count()).toBe(0);
  });

  it('edits the buyer email and the addresses: checked as typed, nothing typed lost, only changes sent', async () => {
    const before = await stored();
    await page.getByRole('button', { name: 'Edit addresses' }).click();
    const form = page.getByRole('form', { name: 'Edit addresses' });
    await eventually(() => form.getByLabel('Buyer email').inputValue()).toBe(before.buyerInfo.email);

    // the platform's own checks, here first: a bad email and a phone too long are refused as typed
    await form.getByLabel('Buyer email').fill('not an email');
    const billing = form.getByRole('group', { name: 'Billing' });
    await billing.getByLabel('Phone').fill('5'.repeat(51));
    await billing.getByLabel('City').fill('Brooklyn');
    await form.getByRole('button', { name: 'Save addresses' }).click();
    await eventually(() => form.getByText('Enter an email address, like name@example.com.').count()).toBe(1);
    expect(await form.getByText('At most 50 characters.').count()).toBe(1);
    expect(await billing.getByLabel('City').inputValue()).toBe('Brooklyn');
    expect((await stored()).billingInfo.address.city).toBe(before.billingInfo.address.city);

    await form.getByLabel('Buyer email').fill('grace@example.com');
    await billing.getByLabel('Phone').fill('+1 555 0100');
    await billing.getByLabel('First name').fill('Grace');
    const shipping = form.getByRole('group', { name: 'Shipping' });
    await shipping.getByLabel('Street address').fill('22 Ocean Avenue');
    await shipping.getByLabel('Postal code').fill('11225');
    await form.getByRole('button', { name: 'Save addresses' }).click();

    await eventually(() =>
      page.getByRole('region', { name: 'Buyer' }).getByRole('status').textContent(),
    ).toBe('Saved the buyer’s email and the billing address and the shipping address.');
    expect(await form.count()).toBe(0);
    await eventually(() => page.getByTestId('shipping-address').textContent()).toContain('22 Ocean Avenue');
    expect(await page.getByTestId('billing-address').textContent()).toContain('Brooklyn');
    expect(await page.getByTestId('buyer-email').textContent()).toBe('grace@example.com');
    await eventually(() => page.getByRole('region', { name: 'Timeline' }).textContent()).toContain(
      'Shipping address changed',
    );
    await shot('addresses');

    const after = await stored();
    expect(after.buyerInfo.email).toBe('grace@example.com');
    expect(after.billingInfo.address).toMatchObject({ city: 'Brooklyn', country: 'US', postalCode: '10001' });
    expect(after.billingInfo.contactDetails).toMatchObject({ firstName: 'Grace', phone: '+1 555 0100' });
    const destination = after.shippingInfo.logistics.shippingDestination;
    expect(destination.address).toMatchObject({
      addressLine: '22 Ocean Avenue',
      postalCode: '11225',
      city: before.shippingInfo.logistics.shippingDestination.address.city,
      country: 'US',
    });
    // what was not edited is as it was: the shipping contact, the delivery, the totals
    expect(destination.contactDetails ?? {}).toEqual(
      before.shippingInfo.logistics.shippingDestination.contactDetails ?? {},
    );
    expect(after.shippingInfo.title).toBe(before.shippingInfo.title);
    expect(after.priceSummary).toEqual(before.priceSummary);
  });

  it('prints a packing slip of what is left to ship: the store, the address, SKUs and quantities, no prices', async () => {
    const line = (await stored()).lineItems[0];
    const shipped = await admin(platform).post(`/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, {
      orderId,
      fulfillment: { lineItems: [{ id: line.id, quantity: 1 }] },
    });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(200);
    const storeName = (await storeConfig(platform)).storeName as string;

    await page.getByRole('link', { name: 'Packing slip' }).click();
    await page.waitForURL(`**/admin/orders/${orderId}/packing-slip`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Packing slip · Order #${number}`,
    );
    await eventually(() => page.getByTestId('slip-store').textContent()).toBe(storeName);
    expect(await page.getByTestId('slip-date').textContent()).toMatch(/^Ordered \w+/);
    expect(await page.getByTestId('slip-ship-address').textContent()).toContain('22 Ocean Avenue');
    await eventually(() => page.getByTestId('slip-line').count()).toBe(1);
    const slipLine = page.getByTestId('slip-line');
    expect(await slipLine.textContent()).toContain('Ridge Tent');
    expect(await slipLine.textContent()).toContain('TENT-RIDGE-2');
    // three bought, one shipped: two are left to pack
    await eventually(() => page.getByTestId('slip-quantity').textContent()).toBe('2');
    const slip = (await page.locator('.packing-slip').textContent()) ?? '';
    expect(slip).not.toMatch(/\$|120\.00/);

    // Print hands the page to the browser's print dialog, and the print style shows the slip alone
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await page.getByRole('button', { name: 'Print' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(false);
    expect(await page.getByTestId('slip-line').isVisible()).toBe(true);
    await shot('packing-slip-print');
    await page.emulateMedia({ media: 'screen' });
  });
});
