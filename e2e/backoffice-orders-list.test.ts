import type { Kysely } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The back office's orders table (/admin/orders) in Chromium against the built platform: filters by tag
 * and date kept in the address, three orders selected and tagged at once with a result per order, the
 * filtered orders exported as a CSV that holds exactly them, and a view saved on the server and reopened.
 */
describe.each(SQLITE)('the back office orders table in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  /** Oldest first; the last was made to look placed in January 2025. */
  const placed: Array<{ orderId: string; number: string }> = [];
  const shot = (name: string) => screenshot(page, `backoffice-orders-list-${dialect}-${name}`);
  const numbers = () => page.getByTestId('order-link').allTextContents();
  const sorted = (list: string[]) => [...list].sort();
  const tagsOf = async (orderId: string): Promise<string[]> =>
    (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order.tags?.tags?.tagIds ?? [];

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    const product = await stockedProduct(platform, 'Table Lamp', 25, 50);
    for (let index = 0; index < 5; index++) {
      const { orderId } = await placeOrder(platform, product.id);
      const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
      placed.push({ orderId, number: order.number });
    }
    const tagged = await admin(platform).post('/ecom/v1/bulk/orders/update-tags', {
      orderIds: [placed[0]!.orderId],
      assignTags: { tags: { tagIds: ['vip'] } },
    });
    expect(tagged.status).toBe(200);
    // the platform dates orders itself: one is moved back to January 2025 in its database
    await (platform.services.database.db as unknown as Kysely<any>)
      .updateTable('orders')
      .set({ created_at: '2025-01-15T12:00:00.000Z' })
      .where('id', '=', placed[4]!.orderId)
      .execute();
    page = await newTestPage(browser, { width: 1440, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('narrows the orders by tag and by date, each filter kept in the address', async () => {
    await page.goto(`${platform.url}/admin/orders`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await eventually(() => page.getByTestId('order-row').count()).toBe(5);

    const tag = page.getByLabel('Tag (optional)', { exact: true });
    await tag.fill('vip');
    await tag.press('Enter');
    await eventually(numbers).toEqual([`#${placed[0]!.number}`]);
    expect(new URL(page.url()).searchParams.get('tag')).toBe('vip');
    await page.reload();
    await eventually(numbers).toEqual([`#${placed[0]!.number}`]);

    await page.getByLabel('Tag (optional)', { exact: true }).fill('');
    await page.getByLabel('Tag (optional)', { exact: true }).press('Enter');
    await eventually(() => page.getByTestId('order-row').count()).toBe(5);
    await page.getByLabel('From (optional)').fill('2025-01-01');
    await page.getByLabel('To (optional)').fill('2025-01-31');
    await eventually(numbers).toEqual([`#${placed[4]!.number}`]);
    const address = new URL(page.url()).searchParams;
    expect([address.get('from'), address.get('to')]).toEqual(['2025-01-01', '2025-01-31']);
    await shot('filtered');

    await page.getByLabel('From (optional)').fill('2026-01-01');
    await page.getByLabel('To (optional)').fill('');
    await eventually(numbers).toEqual(
      placed
        .slice(0, 4)
        .reverse()
        .map((order) => `#${order.number}`),
    );
  });

  it('selects three orders and tags them at once, with a result per order', async () => {
    const chosen = placed.slice(1, 4);
    for (const order of chosen) await page.getByLabel(`Select order #${order.number}`).check();
    await eventually(() => page.getByText('3 orders selected').count()).toBe(1);
    await page.getByRole('button', { name: 'Add tag…', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Tag', { exact: true }).fill('batch');
    await dialog.getByRole('button', { name: 'Add tag', exact: true }).click();
    await eventually(() => page.getByRole('status').filter({ hasText: '3 of 3 done' }).count()).toBe(1);
    expect(sorted(await page.getByTestId('bulk-outcome').getByRole('listitem').allTextContents())).toEqual(
      sorted(chosen.map((order) => `#${order.number}: done`)),
    );
    for (const order of chosen) expect(await tagsOf(order.orderId)).toEqual(['batch']);
    expect(await tagsOf(placed[0]!.orderId)).toEqual(['vip']);
    // the table shows the new tags without a reload, and the selection is cleared
    await eventually(() => page.getByTestId('order-tags').filter({ hasText: 'batch' }).count()).toBe(3);
    expect(await page.getByText('orders selected').count()).toBe(0);
    await shot('tagged');
  });

  it('exports the filtered orders as a CSV that holds exactly them', async () => {
    await page.goto(`${platform.url}/admin/orders?tag=batch`);
    await eventually(() => page.getByTestId('order-row').count()).toBe(3);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^orders-.*\.csv$/);
    const file = await download.path();
    const { readFile } = await import('node:fs/promises');
    const lines = (await readFile(file, 'utf8')).trim().split('\r\n');
    expect(lines[0]).toContain('Order number');
    const exported = lines.slice(1).map((line) => line.split(',')[0]);
    expect(sorted(exported as string[])).toEqual(sorted(placed.slice(1, 4).map((order) => order.number)));
    for (const line of lines.slice(1)) expect(line).toMatch(/,batch$/);
    await eventually(() => page.getByTestId('export-progress').textContent()).toBe('Exported 3 orders.');
  });

  it('saves the view on the server and reopens it from the list', async () => {
    await page.getByLabel('Save these filters as').fill('Batch orders');
    await page.getByRole('button', { name: 'Save view' }).click();
    await eventually(() => page.getByRole('status').filter({ hasText: 'Saved the view' }).count()).toBe(1);
    const stored = (await admin(platform).get('/api/cartwheel/order-views')).body.views;
    expect(stored).toEqual([expect.objectContaining({ name: 'Batch orders', params: { tag: 'batch' } })]);

    await page.goto(`${platform.url}/admin/orders`);
    await eventually(() => page.getByTestId('order-row').count()).toBe(5);
    await page.getByRole('link', { name: 'Batch orders' }).click();
    await eventually(() => page.getByTestId('order-row').count()).toBe(3);
    expect(new URL(page.url()).searchParams.get('tag')).toBe('batch');
    expect(await page.getByLabel('Tag (optional)', { exact: true }).inputValue()).toBe('batch');
    await shot('view');
  });

  it('marks orders fulfilled, saying which could not be and why', async () => {
    const [one, two] = placed.slice(1, 3) as [(typeof placed)[0], (typeof placed)[0]];
    const fulfil = async (orders: Array<(typeof placed)[0]>) => {
      for (const order of orders) await page.getByLabel(`Select order #${order.number}`).check();
      await page.getByRole('button', { name: 'Mark as fulfilled', exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Mark as fulfilled', exact: true }).click();
    };
    await fulfil([one]);
    await eventually(() => page.getByRole('status').filter({ hasText: '1 of 1 done' }).count()).toBe(1);
    await fulfil([one, two]);
    await eventually(() => page.getByRole('status').filter({ hasText: '1 of 2 done' }).count()).toBe(1);
    expect(sorted(await page.getByTestId('bulk-outcome').getByRole('listitem').allTextContents())).toEqual(
      sorted([`#${one.number}: failed — Nothing is left to fulfil`, `#${two.number}: done`]),
    );
    for (const order of [one, two]) {
      const stored = (await admin(platform).get(`/ecom/v1/orders/${order.orderId}`)).body.order;
      expect(stored.fulfillmentStatus).toBe('FULFILLED');
    }
  });

  it('archives an order: hidden from the list until archived orders are asked for', async () => {
    const archived = placed[3]!;
    await page.getByLabel(`Select order #${archived.number}`).check();
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive', exact: true }).click();
    await eventually(() => page.getByRole('status').filter({ hasText: '1 of 1 done' }).count()).toBe(1);
    await eventually(() => page.getByTestId('order-row').count()).toBe(2);
    expect((await admin(platform).get(`/ecom/v1/orders/${archived.orderId}`)).body.order.archived).toBe(true);
    await page.getByLabel('Archived').selectOption({ label: 'Only archived' });
    await eventually(numbers).toEqual([`#${archived.number}`]);
    expect(new URL(page.url()).searchParams.get('archived')).toBe('only');
  });

  it('finds orders by the billing name, typed in lower case or in full', async () => {
    // the billing name, changed as the merchant would: every search column follows the order's write
    const renamed = await admin(platform).patch(`/ecom/v1/orders/${placed[0]!.orderId}`, {
      order: {
        id: placed[0]!.orderId,
        billingInfo: { contactDetails: { firstName: 'Grace', lastName: 'Hopper' } },
      },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await page.goto(`${platform.url}/admin/orders`);
    await eventually(() => page.getByTestId('order-row').count()).toBe(4);
    const find = async (text: string) => {
      await page.getByLabel('Find an order').fill(text);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    };
    await find('grace');
    await eventually(numbers).toEqual([`#${placed[0]!.number}`]);
    await find('Grace Hop');
    await eventually(numbers).toEqual([`#${placed[0]!.number}`]);
    await find('hopper');
    await eventually(numbers).toEqual([`#${placed[0]!.number}`]);
    await find('Grace Lovelace');
    await eventually(() => page.getByText('No order matches this search.', { exact: false }).count()).toBe(1);
  });

  it('captures the authorized payments of the selected orders, and says which had none', async () => {
    const capture = (mode: string) =>
      admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture: mode } });
    expect((await capture('AUTHORIZE_ONLY')).status).toBe(200);
    const product = await stockedProduct(platform, 'Desk Lamp', 30, 10);
    const { orderId } = await placeOrder(platform, product.id);
    expect((await capture('IMMEDIATE')).status).toBe(200);
    const authorized = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
    expect(authorized.paymentStatus).toBe('PENDING');
    const paid = placed[0]!;

    await page.goto(`${platform.url}/admin/orders`);
    await eventually(() => page.getByTestId('order-row').count()).toBe(5);
    await page.getByLabel(`Select order #${authorized.number}`).check();
    await page.getByLabel(`Select order #${paid.number}`).check();
    await page.getByRole('button', { name: 'Capture payments', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Capture payments', exact: true }).click();
    await eventually(() => page.getByRole('status').filter({ hasText: '1 of 2 done' }).count()).toBe(1);
    expect(sorted(await page.getByTestId('bulk-outcome').getByRole('listitem').allTextContents())).toEqual(
      sorted([
        `#${authorized.number}: done`,
        `#${paid.number}: failed — No authorized payment waits for capture`,
      ]),
    );
    expect((await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order.paymentStatus).toBe('PAID');
  });
});
