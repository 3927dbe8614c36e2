import { STORES_APP_ID } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, signUpFrom } from '../packages/platform/test/cart-calls.ts';
import { admin, visitorToken } from '../packages/platform/test/catalog-http.ts';
import {
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
} from '../packages/platform/test/checkout-support.ts';
import { uniqueEmail } from '../packages/platform/test/identity-client.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

const HOUR = 60 * 60 * 1000;

/**
 * The store services' back office pages in Chromium against the built platform: a checkout template
 * made on its page, whose buy link lands a shopper on the hosted checkout page; and a checkout
 * abandoned, emailed, and restored in the browser through the email's link, the abandoned checkouts
 * page listing it with its value and the period's recovery rate; a shopper asking on a sold-out
 * product's page to be told when it is back, and the back-in-stock page counting that request; a
 * member's subscription paused, resumed and canceled on the subscriptions page.
 */
describe.each(SQLITE)('the back office store services pages, in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let shopper: Page;
  let product: { id: string; name: string };
  const shot = (name: string) => screenshot(page, `backoffice-store-services-${dialect}-${name}`);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['backoffice', 'hosted', 'storefront'],
      seedDemo: false,
    }));
    await shipToUs(platform);
    product = await stockedProduct(platform, 'Services Kettle', 40, 50);
    page = await newTestPage(browser, { width: 1280, height: 900 });
    shopper = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/admin/settings/checkout-templates`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it("makes a checkout template whose buy link opens the hosted checkout with the template's lines", async () => {
    await page.getByRole('heading', { level: 1, name: 'Checkout templates' }).waitFor();
    await page.getByLabel('Product id').fill(product.id);
    await page.getByLabel('Quantity').fill('2');
    await page.getByLabel('Custom line name').fill('Gift wrapping');
    await page.getByLabel('Custom line price').fill('3.50');
    await page.getByRole('button', { name: 'Create template' }).click();
    await eventually(() => page.getByRole('status').first().textContent()).toBe(
      'The checkout template was created.',
    );
    const link = await page.getByRole('link', { name: 'Buy link' }).getAttribute('href');
    await shot('checkout-templates');

    await shopper.goto(link as string);
    await shopper.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await eventually(() => shopper.getByText('Services Kettle').count()).toBeGreaterThan(0);
    await eventually(() => shopper.getByText('Gift wrapping').count()).toBeGreaterThan(0);
  });

  it('restores an abandoned checkout from its email in the browser, and lists it with its value', async () => {
    const left = await shopperCheckout(platform, [{ productId: product.id, quantity: 1 }], {});
    expect(await platform.services.abandonedCheckouts.scan(new Date(Date.now() + HOUR + 60_000))).toBe(1);
    const email = (await platform.services.mailer.recent({ to: 'ada@example.com' })).find(
      (message) => message.kind === 'ABANDONED_CHECKOUT_RECOVERY',
    );
    const link = email?.text.match(/Complete your purchase: (\S+)/)?.[1] as string;
    await shopper.goto(link);
    await shopper.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await eventually(() => shopper.getByText('Services Kettle').count()).toBeGreaterThan(0);
    // the buyer's details as they left them
    await eventually(() => shopper.getByLabel('Email', { exact: true }).inputValue()).toBe('ada@example.com');

    await page.goto(`${platform.url}/admin/settings/abandoned-checkouts`);
    await page.getByRole('heading', { level: 1, name: 'Abandoned checkouts' }).waitFor();
    await eventually(() => page.getByRole('row', { name: /ada@example\.com/ }).count()).toBe(1);
    const summary = page.getByTestId('abandoned-summary');
    expect(await summary.textContent()).toContain('Recovery rate0%');
    expect(left.checkoutId).toBeTruthy();
    await shot('abandoned-checkouts');
  });

  it('takes a shopper\'s "notify me" on a sold-out product, and the back office counts it', async () => {
    const soldOut = await stockedProduct(platform, 'Sold-out Teapot', 25, 0);
    await shopper.goto(`${platform.url}/product-page/${soldOut.slug}`);
    await shopper.getByRole('heading', { name: "Notify me when it's back" }).waitFor();
    await shopper.getByLabel('Email', { exact: true }).fill('waiting@example.com');
    await shopper.getByRole('button', { name: 'Notify me' }).click();
    await eventually(() => shopper.getByTestId('notify-me-done').textContent()).toContain(
      'waiting@example.com',
    );

    await page.goto(`${platform.url}/admin/settings/back-in-stock`);
    await page.getByRole('heading', { level: 1, name: 'Back-in-stock requests' }).waitFor();
    const row = page.getByRole('row', { name: /Sold-out Teapot/ }).first();
    await eventually(() => row.textContent()).toContain('Sold-out Teapot1');
    await eventually(() => page.getByRole('row', { name: /waiting@example\.com/ }).textContent()).toContain(
      'Waiting',
    );
    await shot('back-in-stock');
  });

  it("lists a member's subscription on the Subscriptions page, and pauses, resumes and cancels it there", async () => {
    const made = await admin(platform).post('/stores/v3/products', {
      product: {
        name: 'Services Coffee Club',
        productType: 'PHYSICAL',
        physicalProperties: {},
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '20' } } }] },
        subscriptionDetails: {
          subscriptions: [
            {
              title: 'Weekly beans',
              frequency: 'WEEK',
              interval: 1,
              autoRenewal: true,
              discount: { type: 'PERCENT', percentOff: 10 },
            },
          ],
          allowOneTimePurchases: false,
        },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const subscriptionOptionId = made.body.product.subscriptionDetails.subscriptions[0].id;
    // a member subscribes through the store's own calls, paid on the hosted page
    const email = uniqueEmail('club');
    const auth = await signUpFrom(platform, await visitorToken(platform), email);
    const cart = cartCalls(platform, auth);
    const reference = {
      appId: STORES_APP_ID,
      catalogItemId: made.body.product.id,
      options: { subscriptionOptionId },
    };
    expect((await cart.add({ lineItems: [{ catalogReference: reference, quantity: 1 }] })).status).toBe(200);
    const checkoutId = (await cart.createCheckout({ channelType: 'WEB' })).body.checkoutId as string;
    expect((await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails(email))).status).toBe(200);
    const paid = await pageCalls(platform, await checkoutSession(platform, auth, checkoutId)).pay(
      `club-${checkoutId}`,
      CARDS.approved,
    );
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const statusOf = async () =>
      (
        await platform.services.database.db
          .selectFrom('subscription_contracts')
          .select('status')
          .where('first_order_id', '=', paid.body.orderId)
          .executeTakeFirstOrThrow()
      ).status;

    await page.goto(`${platform.url}/admin/subscriptions`);
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
    const row = page.getByTestId('subscription-row').filter({ hasText: 'Services Coffee Club' });
    await eventually(() => row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain(email);
    // the total each renewal charges, as the contract keeps it (the line's $18.00 by subscription, and shipping)
    const contract = await platform.services.database.db
      .selectFrom('subscription_contracts')
      .select('doc')
      .where('first_order_id', '=', paid.body.orderId)
      .executeTakeFirstOrThrow();
    const total = JSON.parse(contract.doc).priceSummary.total.formattedAmount as string;
    expect(JSON.parse(contract.doc).lineItems[0].price.amount).toBe('18.00');
    expect(await row.textContent()).toContain(total);
    await shot('subscriptions');

    await row.getByRole('button', { name: 'Pause' }).click();
    await eventually(() => row.textContent()).toContain('Paused');
    expect(await statusOf()).toBe('PAUSED');
    await row.getByRole('button', { name: 'Resume' }).click();
    await eventually(() => row.textContent()).toContain('Active');
    expect(await statusOf()).toBe('ACTIVE');
    await row.getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => row.textContent()).toContain('Canceled');
    expect(await statusOf()).toBe('CANCELED');
    // a canceled subscription is over: nothing left to pause or resume
    expect(await row.getByRole('button').count()).toBe(0);
  });
});
