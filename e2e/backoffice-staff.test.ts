import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import {
  as,
  claimsOf,
  createRole,
  OWNER,
  OWNER_ENV,
  ownerToken,
  STAFF_PASSWORD,
  staffMember,
} from '../packages/platform/test/staff-support.ts';
import { startTestPlatform, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import {
  E2E_SUITE,
  eventually,
  newTestContext,
  releaseChromium,
  sharedChromium,
  TEST_TIMEOUT,
} from './support/browser.ts';
import { requireBuilt, SQLITE, screenshot } from './support/store.ts';

/**
 * Staff in the back office (issues 21 and 22), in Chromium against the built platform: the owner signs
 * in through the hosted login page and lands in the back office with every control, and signing out
 * revokes that sign-in (the refresh token taken before is refused); a staff member
 * whose role may ship but not refund sees no refund control, and the API refuses them a refund too.
 */
describe.each(SQLITE)('staff sign in to the back office in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let orderId: string;
  let shipper: { token: string; email: string };

  /** A new tab of its own (nothing in sessionStorage) signed in through the hosted login page. */
  async function signInAs(email: string, password: string): Promise<{ page: Page; context: BrowserContext }> {
    const context = await newTestContext(browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${platform.url}/admin/orders/${orderId}`);
    await page.getByRole('button', { name: 'Use your staff account' }).click();
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/orders/${orderId}`);
    return { page, context };
  }

  beforeAll(async () => {
    requireBuilt('backoffice', 'hosted');
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
    await shipToUs(platform);
    const lamp = await stockedProduct(platform, 'Staff Lamp', 30, 10);
    orderId = (await placeOrder(platform, lamp.id, { quantity: 2 })).orderId;
    const owner = await ownerToken(platform);
    const role = await createRole(platform, owner, 'Fulfilment', ['orders.read', 'fulfillments.manage']);
    shipper = await staffMember(platform, owner, role, 'shipper');
    browser = await sharedChromium();
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await releaseChromium(browser);
    await platform?.stop();
  }, TEST_TIMEOUT);

  it('the owner signs in through the hosted login page, lands in the back office with every control, and signing out ends the sign-in on the platform', async () => {
    const { page, context } = await signInAs(OWNER.email, OWNER.password);
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);
    await eventually(() => page.getByRole('heading', { name: 'Refund' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(1);
    await screenshot(page, `backoffice-staff-${dialect}-owner`);

    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await eventually(() => page.getByTestId('order-row').count()).toBe(1);

    // signing out ends the sign-in on the platform, not only in the tab: the tokens taken before are refused
    const tokens = JSON.parse(
      (await page.evaluate(() => sessionStorage.getItem('cartwheel.backoffice.tokens'))) ?? '{}',
    );
    const clientId = claimsOf(tokens.accessToken.value).cid as string;
    const renew = () =>
      as(platform, undefined).post('/oauth2/token', {
        clientId,
        grantType: 'refresh_token',
        refreshToken: tokens.refreshToken.value,
      });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await eventually(() => page.getByRole('button', { name: 'Use your staff account' }).count()).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('cartwheel.backoffice.tokens'))).toBeNull();
    const renewed = await renew();
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(401);
    expect(renewed.body.details.applicationError.code).toBe('invalid_grant');
    expect((await as(platform, tokens.accessToken.value).get('/api/cartwheel/staff/me')).status).toBe(401);
    await context.close();
  });

  it('a staff member who may ship but not refund sees no refund control, and the API refuses them one', async () => {
    const { page, context } = await signInAs(shipper.email, STAFF_PASSWORD);
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(
      `${shipper.email} · Fulfilment`,
    );
    await eventually(() => page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Refund' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel order' }).count()).toBe(0);
    await screenshot(page, `backoffice-staff-${dialect}-shipper`);

    const order = (await as(platform, shipper.token).get(`/ecom/v1/orders/${orderId}`)).body.order;
    const refused = await as(platform, shipper.token).post('/ecom/v1/order-billing/refund-payments', {
      orderId,
      paymentRefunds: [{ paymentId: 'any', amount: { amount: '1.00' } }],
      refundItems: { lineItems: [{ lineItemId: order.lineItems[0].id, quantity: 1 }] },
    });
    expect(refused.status).toBe(403);
    const after = (await as(platform, platform.adminApiKey).get(`/ecom/v1/orders/${orderId}`)).body.order;
    expect(after.paymentStatus).toBe('PAID');

    // shipping is theirs: they ship one of the two lamps
    await page.getByLabel('Quantity of Staff Lamp to ship').fill('1');
    await page.getByRole('button', { name: 'Mark as shipped' }).click();
    await eventually(() => page.getByTestId('fulfillment').count()).toBe(1);
    await context.close();
  });
});
