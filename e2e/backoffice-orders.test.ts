import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { POSTGRES, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The back office's orders (/admin/orders) in Chromium against the built platform: a merchant signed in
 * with the admin API key finds the orders shoppers placed, narrows them by number and payment status,
 * and opens one. Everything it shows comes through `@cartwheel/sdk`'s `searchOrders` and `getOrder`. An
 * order holding an authorization is voided and canceled from its page, never canceled with the money held.
 */
describe.each(POSTGRES)('the back office orders in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  const placed: Array<{ orderId: string; number: string; total: string }> = [];
  const shot = (name: string) => screenshot(page, `backoffice-orders-${dialect}-${name}`);
  const rows = () => page.getByTestId('order-row');

  let kettleId: string;
  /** What the stock of the kettle the orders bought stands at. */
  async function kettleStock(): Promise<number> {
    const answer = await admin(platform).get(
      `/stores-reader/v1/products/${kettleId}?includeMerchantSpecificData=true`,
    );
    return answer.body.product.stock.quantity as number;
  }

  /** The ids of an order's lines, in order. */
  async function orderLines(orderId: string): Promise<string[]> {
    const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
    return order.lineItems.map((line: { id: string }) => line.id);
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    const kettle = await stockedProduct(platform, 'Back Office Kettle', 40, 20);
    kettleId = kettle.id;
    const capture = (mode: string) =>
      admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture: mode } });
    for (const [quantity, mode] of [
      [1, 'IMMEDIATE'],
      [2, 'AUTHORIZE_ONLY'],
      [3, 'IMMEDIATE'],
    ] as const) {
      expect((await capture(mode)).status).toBe(200);
      const { orderId } = await placeOrder(platform, kettle.id, { quantity });
      const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
      placed.push({ orderId, number: order.number, total: order.priceSummary.total.formattedAmount });
    }
    expect((await capture('IMMEDIATE')).status).toBe(200);
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('asks for the admin key, then lists every order newest first with its buyer, total and statuses', async () => {
    await page.goto(`${platform.url}/admin/orders`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await eventually(() => rows().count()).toBe(3);
    const numbers = await page.getByTestId('order-link').allTextContents();
    expect(numbers).toEqual([...placed].reverse().map((order) => `#${order.number}`));
    const newest = await rows().first().textContent();
    expect(newest).toContain(placed[2]!.total);
    expect(newest).toContain('Paid');
    expect(newest).toContain('Not fulfilled');
    expect(await rows().nth(1).textContent()).toContain('Awaiting capture');
    await shot('list');
  });

  it("the home page counts the work waiting and the period's sales, and each queue opens its orders", async () => {
    await page.goto(`${platform.url}/admin`);
    await eventually(() => page.getByTestId('queue-capture').textContent()).toBe(
      '1Payments waiting for capture',
    );
    expect(await page.getByTestId('queue-fulfil').textContent()).toBe('3Orders to ship');
    expect(await page.getByTestId('queue-partly').textContent()).toBe('0Partly shipped');
    const sales = placed.reduce((sum, order) => sum + Number(order.total.replace(/[^0-9.]/g, '')), 0);
    await eventually(() => page.getByTestId('figure-sales').textContent()).toBe(sales.toFixed(2));
    expect(await page.getByTestId('figure-orders').textContent()).toBe('3');
    expect(await page.getByTestId('figure-average').textContent()).toBe((sales / 3).toFixed(2));
    await shot('home');

    await page.getByTestId('queue-capture').click();
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([
      `#${placed[1]!.number}`,
    ]);
    await page.goto(`${platform.url}/admin/orders`);
    await eventually(() => rows().count()).toBe(3);
  });

  it('finds an order by its number and narrows the list by payment status, kept in the address', async () => {
    const middle = placed[1]!;
    await page.getByLabel('Find an order').fill(`#${middle.number}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([`#${middle.number}`]);
    expect(new URL(page.url()).searchParams.get('q')).toBe(`#${middle.number}`);

    await page.getByLabel('Find an order').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => rows().count()).toBe(3);
    await page.getByLabel('Payment').selectOption({ label: 'Awaiting capture' });
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([`#${middle.number}`]);

    // the view survives a reload: it is the page's address
    await page.reload();
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([`#${middle.number}`]);
    expect(await page.getByLabel('Payment').inputValue()).toBe('PENDING');

    await page.getByLabel('Payment').selectOption({ label: 'Any' });
    await page.getByLabel('Sort').selectOption({ label: 'Oldest first' });
    await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual(
      placed.map((order) => `#${order.number}`),
    );
  });

  it('opens an order with its lines, buyer, total and payment status', async () => {
    const middle = placed[1]!;
    await page.getByRole('link', { name: `#${middle.number}` }).click();
    await page.waitForURL(`**/admin/orders/${middle.orderId}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      `Order #${middle.number}`,
    );
    expect(await page.getByTestId('order-total').textContent()).toBe(middle.total);
    expect(await page.getByTestId('order-line').textContent()).toContain('Back Office Kettle');
    expect(await page.getByTestId('payment-status').textContent()).toBe('Awaiting capture');
    expect(await page.getByTestId('buyer-email').textContent()).toMatch(/@/);
    await shot('order');

    await page.getByRole('link', { name: '← All orders' }).click();
    await eventually(() => rows().count()).toBe(3);
  });

  it('finds the orders a buyer placed by their email, part of it, or part of their name', async () => {
    const email = (await admin(platform).get(`/ecom/v1/orders/${placed[0]!.orderId}`)).body.order.buyerInfo
      .email as string;
    await page.getByLabel('Find an order').fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => rows().count()).toBe(3);

    // the oldest order under another buyer: part of an email or a name finds it, whatever its case
    const oldest = placed[0]!;
    const changed = await admin(platform).patch(`/ecom/v1/orders/${oldest.orderId}`, {
      order: {
        id: oldest.orderId,
        buyerInfo: { email: 'margaret.hamilton@apollo.test' },
        billingInfo: { contactDetails: { firstName: 'Margaret', lastName: 'Hamilton' } },
      },
    });
    expect(changed.status).toBe(200);
    for (const typed of ['hamilton@apo', 'APOLLO.TEST', 'amilt']) {
      await page.getByLabel('Find an order').fill(typed);
      await page.getByRole('button', { name: 'Search' }).click();
      await eventually(() => page.getByTestId('order-link').allTextContents()).toEqual([`#${oldest.number}`]);
    }
    expect(await rows().first().textContent()).toContain('margaret.hamilton@apollo.test');
    await page.getByLabel('Find an order').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.getByText('No order matches this search.', { exact: false }).count()).toBe(1);
  });

  it('tags an order and removes the tag, each saved at once and kept after a reload', async () => {
    const first = placed[0]!;
    await page.goto(`${platform.url}/admin/orders/${first.orderId}`);
    await page.getByLabel('New tag').fill('gift');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await eventually(() => page.getByTestId('order-tag').allTextContents()).toEqual(['gift×']);
    await page.reload();
    await eventually(() => page.getByTestId('order-tag').count()).toBe(1);
    const stored = (await admin(platform).get(`/ecom/v1/orders/${first.orderId}`)).body.order;
    expect(stored.tags.tags.tagIds).toEqual(['gift']);

    await page.getByRole('button', { name: 'Remove tag gift' }).click();
    await eventually(() => page.getByTestId('order-tag').count()).toBe(0);
  });

  it('cancels an order after asking, putting its items back in stock', async () => {
    const last = placed[2]!;
    const stockBefore = await kettleStock();
    await page.goto(`${platform.url}/admin/orders/${last.orderId}`);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.count()).toBe(1);
    // keeping it changes nothing
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect((await admin(platform).get(`/ecom/v1/orders/${last.orderId}`)).body.order.status).toBe('APPROVED');

    await page.getByRole('button', { name: 'Cancel order' }).click();
    await dialog.getByLabel('Put the items back in stock').check();
    await dialog.getByRole('button', { name: 'Cancel order' }).click();
    await eventually(() => page.getByRole('status').textContent()).toContain('was canceled');
    await eventually(() => page.getByTestId('order-status').textContent()).toBe('Canceled');
    expect((await admin(platform).get(`/ecom/v1/orders/${last.orderId}`)).body.order.status).toBe('CANCELED');
    expect(await kettleStock()).toBe(stockBefore + 3);
    expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
  });

  it('captures the payment an order only authorized, and the order is paid', async () => {
    const middle = placed[1]!;
    await page.goto(`${platform.url}/admin/orders/${middle.orderId}`);
    const payment = page.getByTestId('payment');
    await eventually(() => payment.textContent()).toContain('Authorized, not captured');
    await payment.getByRole('button', { name: 'Capture' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Capture payment' }).click();
    await eventually(() => page.getByRole('status').first().textContent()).toContain('Captured');
    await eventually(() => page.getByTestId('payment-status').textContent()).toBe('Paid');
    expect((await admin(platform).get(`/ecom/v1/orders/${middle.orderId}`)).body.order.paymentStatus).toBe(
      'PAID',
    );
  });

  it('ships an order in two parts with tracking, and the buyer is emailed each time', async () => {
    const middle = placed[1]!;
    const quantity = page.getByLabel('Quantity of Back Office Kettle to ship');
    await eventually(() => quantity.inputValue()).toBe('2');
    await quantity.fill('1');
    await page.getByLabel('Carrier').selectOption({ label: 'UPS' });
    await page.getByLabel('Tracking number (optional)').fill('1Z999AA10123456784');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(1);
    await eventually(() => page.getByTestId('fulfillment-status').textContent()).toBe('Partially fulfilled');
    const tracking = page.getByTestId('fulfillment').getByRole('link', { name: '1Z999AA10123456784' });
    expect(await tracking.getAttribute('href')).toContain('1Z999AA10123456784');

    await eventually(() => quantity.inputValue()).toBe('1');
    await page.getByLabel('Tracking number (optional)').fill('1Z999AA10123456785');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(2);
    await eventually(() => page.getByTestId('fulfillment-status').textContent()).toBe('Fulfilled');
    expect(await page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(0);

    const mailbox = await admin(platform).get('/api/cartwheel/mailbox?limit=50');
    const shipped = mailbox.body.messages.filter((message: { subject: string }) =>
      message.subject.includes(`#${middle.number} is on its way`),
    );
    expect(shipped).toHaveLength(2);
  });

  it('refunds a line with restock: the preview is what is refunded, and the stock comes back', async () => {
    const first = placed[0]!;
    const stockBefore = await kettleStock();
    await page.goto(`${platform.url}/admin/orders/${first.orderId}`);
    await eventually(() => page.getByTestId('refund-preview').textContent()).toBe(
      'Choose what to refund to see its amount.',
    );
    await page.getByLabel('Quantity of Back Office Kettle to refund').fill('1');
    await page.getByLabel('Put Back Office Kettle back in stock').check();
    await eventually(() => page.getByTestId('refund-preview').textContent()).toMatch(
      /^Refund total \$40\.00/,
    );
    const calculated = await admin(platform).post('/ecom/v1/order-billing/calculate-refund', {
      orderId: first.orderId,
      refundItems: { lineItems: [{ lineItemId: (await orderLines(first.orderId))[0], quantity: 1 }] },
    });
    expect(calculated.body.summary.total.amount).toBe('40.00');

    await page.getByRole('button', { name: 'Refund $40.00' }).click();
    await eventually(() => page.getByTestId('refund').count()).toBe(1);
    await eventually(() => page.getByTestId('payment-status').textContent()).toBe('Partially refunded');
    expect(await page.getByTestId('refund').textContent()).toContain('$40.00');
    expect(await kettleStock()).toBe(stockBefore + 1);
    const order = (await admin(platform).get(`/ecom/v1/orders/${first.orderId}`)).body.order;
    expect(order.paymentStatus).toBe('PARTIALLY_REFUNDED');
    // what was refunded is no longer offered for shipping, and the timeline names the refund
    await eventually(() => page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Timeline' }).textContent()).toContain('Refund issued');
    await shot('refunded');
  });

  it('voids and cancels an order holding an authorization from its page, after asking: its payment shows Voided', async () => {
    const capture = (mode: string) =>
      admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture: mode } });
    expect((await capture('AUTHORIZE_ONLY')).status).toBe(200);
    const { orderId } = await placeOrder(platform, kettleId, { quantity: 1 });
    expect((await capture('IMMEDIATE')).status).toBe(200);
    const stockBefore = await kettleStock();
    await page.goto(`${platform.url}/admin/orders/${orderId}`);
    const payment = page.getByTestId('payment');
    await eventually(() => payment.textContent()).toContain('Authorized, not captured');
    // a plain cancel would leave the buyer's money held: the page offers the void with it instead
    await eventually(() => page.getByRole('button', { name: 'Void and cancel' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Void and cancel' }).click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.textContent()).toContain('voided at the payment provider first');
    await dialog.getByLabel('Put the items back in stock').check();
    await dialog.getByRole('button', { name: 'Void and cancel' }).click();
    await eventually(() => page.getByRole('status').first().textContent()).toContain('was canceled');
    await eventually(() => page.getByTestId('order-status').textContent()).toBe('Canceled');
    await eventually(() => payment.textContent()).toContain('Voided');
    expect(await page.getByRole('button', { name: 'Void and cancel' }).count()).toBe(0);

    const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
    expect([order.status, order.paymentStatus]).toEqual(['CANCELED', 'CANCELED']);
    const transactions = await admin(platform).get(`/ecom/v1/payments/orders/${orderId}?orderId=${orderId}`);
    expect(transactions.body.orderTransactions.payments[0].status).toBe('VOIDED');
    expect(await kettleStock()).toBe(stockBefore + 1);
    await shot('voided-and-canceled');
  });

  it('says so, and offers to sign in again, when the key is no longer accepted', async () => {
    await page.evaluate(() => sessionStorage.setItem('cartwheel.backoffice.adminApiKey', 'not-a-key'));
    await page.goto(`${platform.url}/admin/orders`);
    await eventually(() => page.getByRole('alert').textContent()).toContain('no longer accepts this key');
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await eventually(() => page.getByLabel('Admin API key', { exact: true }).count()).toBe(1);
  });
});
