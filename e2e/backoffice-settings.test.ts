import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call } from '../packages/platform/test/catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The back office's settings (/admin/settings) in Chromium against the built platform: the merchant
 * makes a role without the refund permission, an API key that may only read orders (shown once, then
 * refused what it may not do, then revoked), switches payments to authorize-only, and finds each change
 * in the audit log. Everything goes through `@cartwheel/sdk`'s `storeAdmin` module.
 */
describe.each(SQLITE)('the back office settings in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let productId: string;
  let paidOrderId: string;
  let apiKey: string;
  const shot = (name: string) => screenshot(page, `backoffice-settings-${dialect}-${name}`);
  const status = () => page.getByRole('status').first();
  const asKey = (method: string, path: string, body?: unknown) => call(platform, method, path, body, apiKey);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Settings Teapot', 30, 20)).id;
    paidOrderId = (await placeOrder(platform, productId)).orderId;
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('creates a role from permission checkboxes, without orders.refund, and invites staff to it', async () => {
    await page.goto(`${platform.url}/admin/settings/staff`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // the role's name is checked before anything is sent
    await page.getByRole('button', { name: 'Create role' }).click();
    await eventually(() => page.getByText('Give the role a name.').count()).toBe(1);

    await page.getByLabel('Role name').fill('Packers');
    await page.getByLabel('orders.read').first().check();
    await page.getByLabel('orders.capture').first().check();
    await page.getByLabel('fulfillments.manage').first().check();
    await page.getByRole('button', { name: 'Create role' }).click();
    await eventually(() => status().textContent()).toBe('The role Packers was created.');
    expect(await page.getByLabel('Role name').inputValue()).toBe('');

    const roles = (await admin(platform).get('/api/cartwheel/staff-roles')).body.roles;
    const packers = roles.find((role: { name: string }) => role.name === 'Packers');
    expect(packers.permissions.sort()).toEqual(['fulfillments.manage', 'orders.capture', 'orders.read']);
    expect(packers.permissions).not.toContain('orders.refund');
    await eventually(() => page.getByRole('row', { name: /Packers/ }).textContent()).toContain(
      'orders.capture',
    );

    await page.getByLabel('Email', { exact: true }).fill('packer@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Packers' });
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await eventually(() => status().textContent()).toBe('An invitation was sent to packer@example.com.');
    await eventually(() => page.getByRole('row', { name: /packer@example.com/ }).textContent()).toContain(
      'Invited',
    );

    await page.getByRole('button', { name: 'Suspend packer@example.com' }).click();
    await eventually(() => page.getByRole('row', { name: /packer@example.com/ }).textContent()).toContain(
      'Suspended',
    );
    await page.getByRole('button', { name: 'Reinstate packer@example.com' }).click();
    await eventually(() => status().textContent()).toBe('packer@example.com was reinstated.');
    await shot('staff');
  });

  it("shows the platform's refusal beside the field and keeps what was typed", async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Too late');
    await page.getByLabel('Expires on (optional)').fill('2001-01-01');
    await page.getByRole('button', { name: 'Create key' }).click();
    await eventually(() => page.getByText('must be in the future').count()).toBe(1);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Too late');
    expect((await admin(platform).get('/api/cartwheel/api-keys')).body.apiKeys).toEqual([]);
  });

  it('creates a key that reads orders only: shown once, it reads an order and is refused a capture or refund', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Order reader');
    await page.getByLabel('Expires on (optional)').fill('');
    await page.getByLabel('orders.read').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await eventually(() =>
      page.getByRole('heading', { name: 'The key Order reader was created' }).count(),
    ).toBe(1);
    apiKey = await page.getByLabel('Key', { exact: true }).inputValue();
    expect(apiKey).toMatch(/^cw_key_/);
    await shot('key-created');

    expect((await asKey('GET', `/ecom/v1/orders/${paidOrderId}`)).status).toBe(200);
    const transactions = (await admin(platform).get(`/ecom/v1/payments/orders/${paidOrderId}`)).body;
    const paymentId = transactions.orderTransactions.payments[0].id;
    const refund = await asKey('POST', '/ecom/v1/order-billing/refund-payments', {
      orderId: paidOrderId,
      paymentRefunds: [{ paymentId, amount: '1.00' }],
    });
    expect(refund.status).toBe(403);
    const capture = await asKey('POST', '/ecom/v1/order-billing/capture-authorized-payments', {
      orderId: paidOrderId,
      payments: [{ paymentId }],
    });
    expect(capture.status).toBe(403);
    const after = (await admin(platform).get(`/ecom/v1/orders/${paidOrderId}`)).body.order;
    expect(after.paymentStatus).toBe('PAID');

    // the list never shows the key again, and says when it was last used
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.reload();
    const row = page.getByRole('row', { name: /Order reader/ });
    await eventually(() => row.textContent()).toContain('orders.read');
    expect(await row.textContent()).not.toContain('Never used');
    expect(await page.content()).not.toContain(apiKey);
  });

  it('revokes the key after a confirmation, and the platform refuses it', async () => {
    await page.getByRole('button', { name: 'Revoke Order reader' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await eventually(() => status().textContent()).toBe('The key Order reader was revoked.');
    await eventually(() => page.getByRole('row', { name: /Order reader/ }).textContent()).toContain(
      'Revoked',
    );
    expect((await asKey('GET', `/ecom/v1/orders/${paidOrderId}`)).status).toBe(401);
  });

  it('switches payments to authorize-only: an order placed after is only authorized', async () => {
    await page.getByRole('link', { name: 'Payments' }).click();
    await page.getByLabel('Authorize only (capture it later from the order)').check();
    await page.getByRole('button', { name: 'Save payment settings' }).click();
    await eventually(() => status().textContent()).toContain('only authorized');
    const { orderId } = await placeOrder(platform, productId);
    const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
    expect(order.paymentStatus).toBe('PENDING');
    const payment = (await admin(platform).get(`/ecom/v1/payments/orders/${orderId}`)).body.orderTransactions
      .payments[0];
    expect(payment.status).toBe('AUTHORIZED');
  });

  it('saves the store settings', async () => {
    await page.getByRole('link', { name: 'Store' }).click();
    await eventually(() => page.getByLabel('Currency').inputValue()).toBe('USD');
    await page.getByLabel('Weight unit').selectOption({ label: 'Pounds (lb)' });
    await page.getByLabel('Currency').fill('US');
    await page.getByRole('button', { name: 'Save store settings' }).click();
    await eventually(() => page.getByText('A three-letter code like USD or EUR.').count()).toBe(1);
    await page.getByLabel('Currency').fill('USD');
    await page.getByRole('button', { name: 'Save store settings' }).click();
    await eventually(() => status().textContent()).toBe('The store settings were saved.');
    expect((await admin(platform).get('/api/cartwheel/store-settings')).body.storeSettings.weightUnit).toBe(
      'LB',
    );
  });

  it('adds a shipping region with two delivery options', async () => {
    await page.getByRole('link', { name: 'Shipping' }).click();
    await eventually(() => page.getByRole('row', { name: /United States/ }).textContent()).toContain(
      '5.00 flat',
    );
    await page.getByLabel('Region name').fill('North America');
    await page.getByLabel('Countries').fill('ca, mx');
    await page.getByLabel('Title').fill('Standard');
    await page.getByLabel('Price').fill('9.50');
    await page.getByLabel('Free from (optional)').fill('100');
    await page.getByRole('button', { name: 'Add another option' }).click();
    await page.getByRole('group', { name: 'Delivery option 2' }).getByLabel('Title').fill('Express 2-day');
    await page.getByRole('group', { name: 'Delivery option 2' }).getByLabel('Price').fill('19');
    await page.getByRole('button', { name: 'Add shipping region' }).click();
    await eventually(() => status().textContent()).toBe('Shipping to North America was added.');
    const regions = (await admin(platform).get('/api/cartwheel/shipping-regions')).body.shippingRegions;
    expect(regions.find((region: { name: string }) => region.name === 'North America')).toMatchObject({
      destinations: [{ country: 'CA' }, { country: 'MX' }],
      options: [
        {
          code: 'standard',
          title: 'Standard',
          rate: { kind: 'FLAT_RATE', price: '9.50', freeShippingAbove: '100' },
        },
        { code: 'express-2-day', title: 'Express 2-day', rate: { kind: 'FLAT_RATE', price: '19' } },
      ],
    });
    await eventually(() => page.getByRole('row', { name: /North America/ }).textContent()).toContain(
      'Express 2-day: 19 flat',
    );
  });

  it('adds a tax region by percent, and lists coupons as live, pending or expired', async () => {
    await page.getByRole('link', { name: 'Taxes' }).click();
    await page.getByLabel('Name on receipts').fill('New York');
    await page.getByLabel('Country code').fill('us');
    await page.getByLabel('State or province (optional)').fill('NY');
    await page.getByLabel('Rate (%)').fill('8.875');
    await page.getByRole('button', { name: 'Add tax region' }).click();
    await eventually(() => status().textContent()).toBe('Tax for New York was added.');
    const regions = (await admin(platform).get('/api/cartwheel/tax-regions')).body.taxRegions;
    expect(regions).toEqual([
      expect.objectContaining({ country: 'US', subdivision: 'US-NY', rate: '0.08875' }),
    ]);
    await eventually(() => page.getByRole('row', { name: /New York/ }).textContent()).toContain('8.875%');

    const expired = await admin(platform).post('/api/cartwheel/coupons', {
      coupon: {
        code: 'OLD5',
        discountType: 'FIXED_AMOUNT',
        fixedAmount: '5',
        expirationTime: '2020-01-01T00:00:00Z',
      },
    });
    expect(expired.status, JSON.stringify(expired.body)).toBe(200);
    await page.getByRole('link', { name: 'Coupons' }).click();
    // until the page has changed, "Code" would also find the taxes page's "Country code"
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Coupons');
    await page.getByLabel('Code', { exact: true }).fill('SPRING10');
    await page.getByLabel('Percentage').fill('10');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    await eventually(() => status().textContent()).toBe('The coupon SPRING10 was created.');
    await page.getByLabel('Code', { exact: true }).fill('NEXTYEAR');
    await page.getByLabel('Discount').selectOption({ label: 'Free shipping' });
    await page.getByLabel('Starts (optional)').fill(`${new Date().getFullYear() + 1}-01-01T09:00`);
    await page.getByRole('button', { name: 'Create coupon' }).click();
    await eventually(() => status().textContent()).toBe('The coupon NEXTYEAR was created.');
    const statusOf = (code: string) =>
      page
        .getByRole('row', { name: new RegExp(code) })
        .locator('td')
        .nth(4);
    await eventually(() => statusOf('SPRING10').textContent()).toBe('Live');
    expect(await statusOf('NEXTYEAR').textContent()).toBe('Pending');
    expect(await statusOf('OLD5').textContent()).toBe('Expired');
    await shot('coupons');
  });

  it('lists these changes in the audit log, newest first, a page at a time', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await eventually(() => page.getByRole('row').count()).toBeGreaterThan(5);
    const cells = async (part: 'operation' | 'call') =>
      (await page.locator(`tbody tr td:nth-child(3) .audit__${part}`).allTextContents()).map((text) =>
        text.trim(),
      );
    const changes = await cells('operation');
    // each change by the operation it made; a failed creation (400) may be listed too, so the last match
    const at = (operation: string) => changes.lastIndexOf(operation);
    const order = [
      at('storeSettings.createCoupon'),
      at('storeSettings.createTaxRegion'),
      at('storeSettings.updateStoreSettings'),
      at('payments.updatePaymentSettings'),
      at('staff.revokeApiKey'),
      at('staff.createApiKey'),
      at('staff.inviteStaffMember'),
      at('staff.createRole'),
    ];
    expect(
      order.every((index) => index >= 0),
      changes.join('\n'),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(changes.indexOf('storeSettings.createCoupon')).toBe(0);
    // the call that made it, beneath
    expect((await cells('call'))[0]).toBe('POST /api/cartwheel/coupons');
    await shot('audit-log');

    // fifty changes more fill the first page; the older ones are a page further, the cursor in the address
    for (let i = 0; i < 50; i++) {
      const answer = await admin(platform).patch('/api/cartwheel/store-settings', {
        storeSettings: { weightUnit: i % 2 ? 'LB' : 'KG' },
      });
      expect(answer.status).toBe(200);
    }
    await page.reload();
    await eventually(async () => new Set(await cells('operation'))).toEqual(
      new Set(['storeSettings.updateStoreSettings']),
    );
    expect(await page.locator('tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Older' }).click();
    await eventually(() => cells('operation')).toContain('storeSettings.createCoupon');
    expect(new URL(page.url()).searchParams.get('before')).toBeTruthy();
    await page.getByRole('button', { name: 'Newest' }).click();
    await eventually(() => cells('operation')).not.toContain('storeSettings.createCoupon');
  });

  it('every settings page passes axe with no serious or critical violation', async () => {
    for (const path of [
      'staff',
      'sign-in',
      'api-keys',
      'audit-log',
      'payments',
      'store',
      'shipping',
      'taxes',
      'coupons',
      'discount-rules',
      'pickup-locations',
      'checkout-brand',
    ]) {
      await page.goto(`${platform.url}/admin/settings/${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await eventually(() => page.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(0);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });
});
