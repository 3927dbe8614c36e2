import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from '../packages/platform/test/cart-calls.ts';
import { admin, call, queryProducts, visitorToken } from '../packages/platform/test/catalog-http.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { type StripeStandIn, startStripeStandIn } from '../packages/platform/test/support/stripe-stand-in.ts';
import { E2E_SUITE, newTestContext, TEST_TIMEOUT } from './support/browser.ts';
import { screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';
import { serveStripeJs } from './support/stripe-js.ts';

const PRODUCT_NAME = 'Enamel Camp Mug';

/**
 * The hosted checkout page of a store that takes money through Stripe (issue 32), in Chromium: the
 * card goes into Stripe's own Payment Element (Stripe.js stood in for at its address, calling a Stripe
 * stand-in), the page pays with the payment method Stripe gives back, and no card number reaches the
 * platform. The page's own card form is not there. Storage is the buying path's, tested on both
 * databases elsewhere: this suite is about the page, on SQLite.
 */
describe('the hosted checkout page with Stripe, in Chromium', E2E_SUITE, () => {
  let stripe: StripeStandIn;
  let platform: TestPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let productId: string;
  /** Every request body the platform was sent from the page, to show no card number was among them. */
  const sentToPlatform: string[] = [];

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    ({ platform, browser } = await startStoreInBrowser('sqlite', {
      apps: ['hosted'],
      seedDemo: true,
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
        STRIPE_API_URL: stripe.url,
      },
    }));
    const found = await queryProducts(platform, { query: { filter: { name: PRODUCT_NAME } } });
    productId = found.body.products?.find((product: { name: string }) => product.name === PRODUCT_NAME)?.id;
    expect(productId).toBeTruthy();
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await stopStoreInBrowser(platform, browser);
    await stripe?.close();
  }, TEST_TIMEOUT);

  afterEach(async () => {
    await context?.close();
  }, TEST_TIMEOUT);

  async function checkoutPage(): Promise<Page> {
    const visitor = await visitorToken(platform);
    const cart = cartCalls(platform, visitor);
    expect((await cart.add({ lineItems: [catalogLine(productId, 1)] })).status).toBe(200);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    const session = await call(
      platform,
      'POST',
      '/_api/redirects-api/v1/redirect-session',
      {
        ecomCheckout: { checkoutId: created.body.checkoutId },
        callbacks: { postFlowUrl: `${platform.url}/`, thankYouPageUrl: `${platform.url}/thank-you` },
      },
      visitor,
    );
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    context = await newTestContext(browser, { width: 1200, height: 900 });
    await serveStripeJs(context, stripe.url);
    const page = await context.newPage();
    page.on('request', (request) => {
      if (request.url().startsWith(platform.url)) sentToPlatform.push(request.postData() ?? '');
    });
    await page.goto(session.body.redirectSession.fullUrl);
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    return page;
  }

  async function fillDetails(page: Page): Promise<void> {
    const field = (label: string) => page.getByLabel(label, { exact: true });
    await field('Email').fill('stripe-shopper@example.com');
    await field('First name').fill('Ada');
    await field('Last name').fill('Lovelace');
    await field('Address').fill('350 Fifth Avenue');
    await field('City').fill('New York');
    await field('Postal code').fill('10118');
    await field('State').selectOption('US-NY');
    await page.getByRole('radio', { name: /Standard/ }).waitFor();
  }

  it("takes the card in Stripe's Payment Element and pays with Stripe's payment method: the order is paid, the number never sent to the platform", async () => {
    const page = await checkoutPage();
    await page.getByTestId('stripe-card-fields').waitFor();
    // the page's own card form is not offered when Stripe takes the card
    await expect(page.getByLabel('CVC', { exact: true }).count()).resolves.toBe(0);
    await fillDetails(page);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiration').fill('12 / 34');
    await page.getByLabel('Security code').fill('123');
    await screenshot(page, `hosted-checkout-stripe-card`);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/, { timeout: 30_000 });

    const orderId = new URL(page.url()).searchParams.get('orderId');
    const order = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
    expect(order.paymentStatus).toBe('PAID');
    // Stripe made the payment method from the typed card, and charged it once
    const methods = stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/payment_methods');
    expect(methods).toHaveLength(1);
    const intents = [...stripe.paymentIntents.values()];
    expect(intents.map((intent) => intent.status)).toEqual(['succeeded']);
    expect(
      sentToPlatform.some((body) => body.includes('4242424242424242') || body.includes('4242 4242')),
    ).toBe(false);
  });

  it("shows Stripe's refusal of a card and lets the shopper pay with another, one order in the end", async () => {
    const page = await checkoutPage();
    await fillDetails(page);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /declined/i })
      .waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/, { timeout: 30_000 });

    // an empty card field is Stripe's to refuse, before any payment is tried
    const empty = await checkoutPage();
    await fillDetails(empty);
    await empty.getByRole('button', { name: 'Place order' }).click();
    await empty.getByRole('alert').filter({ hasText: 'Your card number is incomplete.' }).waitFor();
  });

  it("takes a card asking for 3-D Secure through Stripe's own step: completed, the order is paid; failed, the shopper is back at the checkout", async () => {
    const page = await checkoutPage();
    const before = stripe.paymentIntents.size;
    await fillDetails(page);
    await page.getByLabel('Card number').fill('4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Place order' }).click();
    const step = page.getByRole('dialog', { name: '3D Secure test payment' });
    await step.getByRole('button', { name: 'Fail' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your bank could not confirm this payment.' }).waitFor();
    await expect(page.getByRole('heading', { name: 'Checkout', level: 1 }).count()).resolves.toBe(1);

    await page.getByLabel('Card number').fill('4000 0025 0000 3155');
    await page.getByRole('button', { name: 'Place order' }).click();
    await step.getByRole('button', { name: 'Complete' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/, { timeout: 30_000 });
    const orderId = new URL(page.url()).searchParams.get('orderId');
    expect((await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order.paymentStatus).toBe('PAID');
    // the failed check left its intent wanting another card, the passed one charged: nothing is held
    const statuses = [...stripe.paymentIntents.values()].slice(before).map((intent) => intent.status);
    expect(statuses).toEqual(['requires_payment_method', 'succeeded']);
  });
});
