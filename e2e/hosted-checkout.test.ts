import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from '../packages/platform/test/cart-calls.ts';
import {
  admin,
  call,
  createProduct,
  queryProducts,
  visitorToken,
} from '../packages/platform/test/catalog-http.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestContext, TEST_TIMEOUT, type Viewport } from './support/browser.ts';
import {
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
} from './support/store.ts';

/**
 * The platform's hosted checkout page (/auth/checkout) in a real browser against a real platform with
 * the demo store: a visitor's cart becomes a checkout and a redirect session, and the shopper fills in
 * their details, picks a delivery method, applies a coupon and pays with the test gateway's cards.
 */

const DESKTOP: Viewport = { width: 1200, height: 900 };
const PHONE: Viewport = { width: 375, height: 740 };
/** A demo product without options that ships (docs/buying-path.md; demo/products.ts). */
const PRODUCT_NAME = 'Enamel Camp Mug';
const LABELS = [
  'Email',
  'First name',
  'Last name',
  'Address',
  'City',
  'Postal code',
  'Country',
  'State',
  'Card number',
  'Expiry',
  'CVC',
];
const CARDS = {
  approved: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  secure: '4000 0025 0000 3155',
};

describe.each(POSTGRES)('the hosted checkout page in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let productId: string;
  const shot = (page: Page, name: string) => screenshot(page, `hosted-checkout-${dialect}-${name}`);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['hosted'], seedDemo: true }));
    const found = await queryProducts(platform, { query: { filter: { name: PRODUCT_NAME } } });
    productId = found.body.products?.find((product: { name: string }) => product.name === PRODUCT_NAME)?.id;
    expect(productId, `the demo store sells ${PRODUCT_NAME}`).toBeTruthy();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  afterEach(async () => {
    await context?.close();
  }, TEST_TIMEOUT);

  const redirectTargets = () => ({
    thankYouPageUrl: `${platform.url}/thank-you`,
    cartPageUrl: `${platform.url}/cart`,
  });

  /** A new visitor's cart of `quantity` of a product, its checkout, and the hosted page's address for it. */
  async function newCheckoutSession(product = productId, quantity = 2): Promise<string> {
    const visitor = await visitorToken(platform);
    const cart = cartCalls(platform, visitor);
    expect((await cart.add({ lineItems: [catalogLine(product, quantity)] })).status).toBe(200);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const session = await call(
      platform,
      'POST',
      '/_api/redirects-api/v1/redirect-session',
      {
        ecomCheckout: { checkoutId: created.body.checkoutId },
        callbacks: { postFlowUrl: `${platform.url}/`, ...redirectTargets() },
      },
      visitor,
    );
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return session.body.redirectSession.fullUrl as string;
  }

  /** Two mugs' checkout, open in a fresh browser context. */
  async function newCheckoutPage(
    viewport: Viewport = DESKTOP,
    fullUrl?: string,
  ): Promise<{ page: Page; fullUrl: string }> {
    const url = fullUrl ?? (await newCheckoutSession());
    context = await newTestContext(browser, viewport);
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    return { page, fullUrl: url };
  }

  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
  const price = (page: Page, name: string) => page.getByTestId(`price-${name}`).textContent();

  /** The shopper's contact and a New York delivery address, field by field as a person types them. */
  async function fillDetails(page: Page, { shipsTo = true } = {}): Promise<void> {
    await field(page, 'Email').fill('shopper@example.com');
    await field(page, 'First name').fill('Ada');
    await field(page, 'Last name').fill('Lovelace');
    await field(page, 'Address').fill('350 Fifth Avenue');
    await field(page, 'City').fill('New York');
    await field(page, 'Postal code').fill('10118');
    await field(page, 'State').selectOption('US-NY');
    if (shipsTo) await page.getByRole('radio', { name: /Standard/ }).waitFor();
  }

  async function fillCard(page: Page, number: string): Promise<void> {
    await field(page, 'Card number').fill(number);
    await field(page, 'Expiry').fill('12/34');
    await field(page, 'CVC').fill('123');
  }

  /** The order a checkout session's checkout became, if it was paid. */
  async function completedOrderOf(fullUrl: string): Promise<string | undefined> {
    const token = new URL(fullUrl).searchParams.get('session')!;
    const answer = await fetch(`${platform.url}/_api/checkout-page/v1/session`, {
      headers: { 'X-Checkout-Session': token },
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { completed?: { orderId: string } }).completed?.orderId;
  }

  /** The order the shopper landed with, read by the merchant. */
  async function orderOf(url: string): Promise<any> {
    const orderId = new URL(url).searchParams.get('orderId');
    expect(orderId).toBeTruthy();
    const answer = await admin(platform).get(`/ecom/v1/orders/${orderId}`);
    expect(answer.status).toBe(200);
    return answer.body.order;
  }

  it('a shopper fills in every labelled field, picks Express, applies WELCOME10 and pays by card: the order has the total the page showed', async () => {
    const { page, fullUrl } = await newCheckoutPage();
    for (const label of LABELS) await expect(field(page, label).count(), label).resolves.toBe(1);
    await expect(field(page, 'Country').inputValue()).resolves.toBe('US');
    await expect(page.getByRole('button', { name: 'Apply' }).count()).resolves.toBe(1);
    await expect(page.getByRole('button', { name: 'Place order' }).count()).resolves.toBe(1);
    await expect(
      page.getByRole('listitem').filter({ hasText: PRODUCT_NAME }).textContent(),
    ).resolves.toContain('Qty 2');

    // the State is a list of US states, and free text for any other country
    await expect(page.getByRole('combobox', { name: 'State', exact: true }).count()).resolves.toBe(1);
    await field(page, 'Country').selectOption('CA');
    await expect(page.getByRole('textbox', { name: 'State', exact: true }).count()).resolves.toBe(1);
    await field(page, 'Country').selectOption('US');

    await fillDetails(page);
    await eventually(() => price(page, 'tax')).not.toBe('$0.00');
    await page.getByRole('radio', { name: /Express/ }).check();
    await eventually(() => price(page, 'shipping')).toBe('$14.99');

    await page.getByLabel('Coupon code').fill('NOT-A-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => page.locator('.coupon .field__error').textContent()).toBeTruthy();
    await expect(page.getByLabel('Coupon code').getAttribute('aria-invalid')).resolves.toBe('true');

    // with nothing off, there is no discount line ("Discount $0.00" says nothing)
    await expect(page.getByTestId('price-discount').count()).resolves.toBe(0);
    await expect(page.locator('.totals').textContent()).resolves.not.toContain('Discount');
    const before = await price(page, 'total');
    await page.getByLabel('Coupon code').fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => page.getByRole('button', { name: 'Remove' }).count()).toBe(1);
    await eventually(() => price(page, 'discount')).toMatch(/^−\$\d+\.\d\d$/);
    await eventually(() => price(page, 'total')).not.toBe(before);
    await eventually(() => page.getByText('Updating totals…').count()).toBe(0);

    const shownTotal = await price(page, 'total');
    await fillCard(page, CARDS.approved);
    await shot(page, 'filled');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    const order = await orderOf(page.url());
    expect(order.status).toBe('APPROVED');
    expect(order.paymentStatus).toBe('PAID');
    expect(order.priceSummary.total.formattedAmount).toBe(shownTotal);
    expect(order.buyerInfo?.email).toBe('shopper@example.com');

    // the same link again: the order is placed, and the page says so instead of taking another payment
    await page.goto(fullUrl);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Your order is already placed',
    );
    await expect(page.getByRole('link', { name: 'See your order' }).getAttribute('href')).resolves.toContain(
      `orderId=${order.id}`,
    );
  });

  /** The attempt keys of the page's `/pay` calls, in the order it sent them. */
  function attemptKeysSent(page: Page): string[] {
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/_api/checkout-page/v1/pay')) keys.push(request.postDataJSON().attemptKey);
    });
    return keys;
  }

  it('a declined card says so and keeps everything filled; another card then pays', async () => {
    const { page } = await newCheckoutPage();
    const keys = attemptKeysSent(page);
    await fillDetails(page);
    await fillCard(page, CARDS.declined);
    // a double click is one payment
    await page.getByRole('button', { name: 'Place order' }).dblclick();
    await eventually(() => page.getByRole('alert').first().textContent()).toBe(
      'Your card was declined. Try another card.',
    );
    await shot(page, 'declined');
    await expect(field(page, 'Email').inputValue()).resolves.toBe('shopper@example.com');
    await expect(field(page, 'City').inputValue()).resolves.toBe('New York');
    await expect(field(page, 'State').inputValue()).resolves.toBe('US-NY');
    await expect(field(page, 'Card number').inputValue()).resolves.toBe(CARDS.declined);
    await expect(page.getByRole('button', { name: 'Place order' }).isEnabled()).resolves.toBe(true);

    expect(keys).toHaveLength(1);

    await field(page, 'Card number').fill(CARDS.approved);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    expect((await orderOf(page.url())).paymentStatus).toBe('PAID');
    // the next try was a new attempt
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('a mistyped card number is marked under its field, and a card without funds says so', async () => {
    const { page } = await newCheckoutPage();
    await fillDetails(page);
    await fillCard(page, '4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Place order' }).click();
    const number = field(page, 'Card number');
    await eventually(() => number.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await number.getAttribute('aria-describedby'))!;
    await expect(page.locator(`[id="${describedBy}"]`).textContent()).resolves.toBe(
      'Check the card number: it is not a valid card.',
    );

    await number.fill(CARDS.insufficientFunds);
    await expect(number.getAttribute('aria-invalid')).resolves.toBeNull();
    await page.getByRole('button', { name: 'Place order' }).click();
    await eventually(() => page.getByRole('alert').first().textContent()).toBe(
      'Your card has insufficient funds. Try another card.',
    );
    await expect(completedOrderOf(page.url())).resolves.toBeUndefined();
  });

  it('a billing address of its own, entered after unticking "Same as delivery address", is the order\'s', async () => {
    const { page } = await newCheckoutPage();
    await fillDetails(page);
    await page.getByLabel('Same as delivery address').uncheck();
    const billing = page.getByRole('group', { name: 'Billing' });
    await billing.getByLabel('Address', { exact: true }).fill('1 Infinite Loop');
    await billing.getByLabel('City', { exact: true }).fill('Portland');
    await billing.getByLabel('Postal code', { exact: true }).fill('97201');
    await billing.getByLabel('State', { exact: true }).selectOption('US-OR');
    await fillCard(page, CARDS.approved);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    const order = await orderOf(page.url());
    expect(order.billingInfo.address).toMatchObject({
      city: 'Portland',
      subdivision: 'US-OR',
      postalCode: '97201',
    });
    expect(order.shippingInfo.logistics.shippingDestination.address).toMatchObject({ city: 'New York' });
  });

  it('a payment whose answer is lost on the way back is asked again with the same attempt key, and pays once', async () => {
    const { page, fullUrl } = await newCheckoutPage();
    const keys = attemptKeysSent(page);
    let answersLost = 0;
    await page.route('**/_api/checkout-page/v1/pay', async (route) => {
      if (answersLost > 0) return route.continue();
      // the platform takes the payment; the shopper's connection drops before its answer arrives
      await route.fetch();
      answersLost++;
      return route.abort('connectionreset');
    });
    await fillDetails(page);
    await fillCard(page, CARDS.approved);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    expect(answersLost).toBe(1);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const order = await orderOf(page.url());
    expect(order.paymentStatus).toBe('PAID');
    // the checkout became this one order
    await expect(completedOrderOf(fullUrl)).resolves.toBe(order.id);
  });

  it('the 3-D Secure card goes through the bank step: failing it returns to the checkout with the decline in view, completing it pays', async () => {
    // at a phone's width, where the form is longest and the message furthest from the top
    const { page } = await newCheckoutPage({ width: 390, height: 844 });
    await fillDetails(page);
    await eventually(() => page.getByText('Updating totals…').count()).toBe(0);
    const shownTotal = await price(page, 'total');
    await fillCard(page, CARDS.secure);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/auth\/checkout\/confirm\?/);
    await eventually(() => page.getByTestId('confirm-amount').textContent()).toBe(shownTotal);
    await shot(page, 'confirm');
    await page.getByRole('button', { name: 'Fail authentication' }).click();

    await page.waitForURL((url) => url.pathname === '/auth/checkout');
    const alert = page.getByRole('alert').first();
    await eventually(() => alert.locator('p').first().textContent()).toBe(
      'Your bank could not confirm this payment. Try again or use another card.',
    );
    // the shopper is taken to it: it has the focus and is on the screen, not 2,000 px below
    await eventually(() =>
      page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName),
    ).toBe('alert');
    await eventually(() =>
      alert.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }),
    ).toBe(true);
    // and it says why the card's fields are empty
    expect(await alert.getByTestId('card-again').textContent()).toContain('enter them again');
    expect(await field(page, 'Card number').inputValue()).toBe('');
    await shot(page, 'bank-step-failed-phone');
    // the bank's page was another page: what the shopper typed came back with them
    await expect(field(page, 'Email').inputValue()).resolves.toBe('shopper@example.com');
    await expect(field(page, 'First name').inputValue()).resolves.toBe('Ada');
    await expect(field(page, 'Postal code').inputValue()).resolves.toBe('10118');

    await fillCard(page, CARDS.secure);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/auth\/checkout\/confirm\?/);
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    const order = await orderOf(page.url());
    expect(order.paymentStatus).toBe('PAID');
    expect(order.priceSummary.total.formattedAmount).toBe(shownTotal);
  });

  it('Back after 3-D Secure does not ask again: the confirm page of a settled payment goes on to the order', async () => {
    const { page } = await newCheckoutPage();
    await fillDetails(page);
    await fillCard(page, CARDS.secure);
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/auth\/checkout\/confirm\?/);
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    const thankYou = page.url();

    // Back lands on the confirm page, which goes straight on: navigations are watched rather than
    // awaited, since the page replaces itself while the browser may still be finishing the Back
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });
    // Back is taken after the evaluation has answered: taken within it, the navigation could end the
    // page's context before the answer came back
    await page.evaluate(() => {
      setTimeout(() => history.back(), 0);
    });
    await eventually(() => {
      const confirm = visited.findIndex((url) => url.includes('/auth/checkout/confirm?'));
      return confirm >= 0 && visited.slice(confirm + 1).some((url) => url === thankYou);
    }).toBe(true);
    await page.waitForURL(/\/thank-you\?orderId=/);
    expect(page.url()).toBe(thankYou);
    await expect(page.getByRole('button', { name: 'Complete authentication' }).count()).resolves.toBe(0);
    expect((await orderOf(page.url())).paymentStatus).toBe('PAID');
  });

  it('a second tab sees the order already placed: "Place order" shows it with the way to the order and closes the form', async () => {
    const { page: first, fullUrl } = await newCheckoutPage();
    await fillDetails(first);
    await fillCard(first, CARDS.approved);

    // the same checkout, paid in another tab
    const second = await context.newPage();
    await second.goto(fullUrl);
    await second.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
    await fillDetails(second);
    await fillCard(second, CARDS.approved);
    await second.getByRole('button', { name: 'Place order' }).click();
    await second.waitForURL(/\/thank-you\?orderId=/);
    const order = await orderOf(second.url());

    await first.getByRole('button', { name: 'Place order' }).click();
    await eventually(() => first.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Your order is already placed',
    );
    await expect(first.getByRole('link', { name: 'See your order' }).getAttribute('href')).resolves.toContain(
      `orderId=${order.id}`,
    );
    await expect(first.getByRole('button', { name: 'Place order' }).count()).resolves.toBe(0);
    await expect(first.getByRole('alert').count()).resolves.toBe(0);
    await expect(completedOrderOf(fullUrl)).resolves.toBe(order.id);
  });

  it('a pickup order is placed with no delivery address: the billing address is asked for instead, and the summary says Pickup', async () => {
    const { page } = await newCheckoutPage();
    await field(page, 'Email').fill('picker@example.com');
    await page.getByRole('radio', { name: /Pick up in store/ }).check();
    await eventually(() => page.getByRole('group', { name: 'Billing address' }).count()).toBe(1);
    await expect(page.getByRole('group', { name: 'Delivery', exact: true }).count()).resolves.toBe(0);
    await eventually(() =>
      page
        .locator('.totals__row', { has: page.getByTestId('price-shipping') })
        .locator('dt')
        .textContent(),
    ).toBe('Pickup');

    // nothing filled: the name and billing address are asked for, no delivery address
    await page.getByRole('button', { name: 'Place order' }).click();
    const billing = page.getByRole('group', { name: 'Billing address' });
    await eventually(() => billing.getByLabel('City', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await expect(field(page, 'First name').getAttribute('aria-invalid')).resolves.toBe('true');

    await field(page, 'First name').fill('Grace');
    await field(page, 'Last name').fill('Hopper');
    await billing.getByLabel('Address', { exact: true }).fill('1 Infinite Loop');
    await billing.getByLabel('City', { exact: true }).fill('Portland');
    await billing.getByLabel('Postal code', { exact: true }).fill('97201');
    await billing.getByLabel('State', { exact: true }).selectOption('US-OR');
    await eventually(() => page.getByText('Updating totals…').count()).toBe(0);
    const shownTotal = await price(page, 'total');
    await fillCard(page, CARDS.approved);
    await shot(page, 'pickup');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.waitForURL(/\/thank-you\?orderId=/);
    const order = await orderOf(page.url());
    expect(order.paymentStatus).toBe('PAID');
    expect(order.priceSummary.total.formattedAmount).toBe(shownTotal);
    expect(order.shippingInfo.title).toBe('Pick up in store');
    expect(order.shippingInfo.logistics.pickupDetails).toBeTruthy();
    expect(order.shippingInfo.logistics.shippingDestination).toBeUndefined();
    expect(order.billingInfo.address).toMatchObject({ city: 'Portland', subdivision: 'US-OR' });
    expect(order.billingInfo.contactDetails).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('the test-card hint names every test card', async () => {
    const { page } = await newCheckoutPage();
    const hint = await page.getByRole('group', { name: 'Payment' }).locator('p.muted').first().textContent();
    for (const card of Object.values(CARDS)) expect(hint).toContain(card);
  });

  it('at a phone width of 375px the page is one column without horizontal scrolling, filled or showing errors', async () => {
    const { page } = await newCheckoutPage(PHONE);
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await expect(overflow()).resolves.toBe(0);
    // nothing filled: every missing field says so under itself
    await page.getByRole('button', { name: 'Place order' }).click();
    await eventually(() => field(page, 'Email').getAttribute('aria-invalid')).toBe('true');
    await expect(overflow()).resolves.toBe(0);
    await fillDetails(page);
    await fillCard(page, CARDS.approved);
    // each message went as its field was filled (the delivery method by the platform's default)
    await eventually(() => page.locator('[aria-invalid="true"]').count()).toBe(0);
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await expect(overflow()).resolves.toBe(0);
    const form = await page.getByRole('form', { name: 'Checkout' }).boundingBox();
    const summary = await page.getByRole('region', { name: 'Order summary' }).boundingBox();
    // stacked, not side by side
    expect(summary!.y + summary!.height).toBeLessThanOrEqual(form!.y);
    await shot(page, 'phone');
  });

  it('an item another shopper bought first is named, with the way back to the cart, and nothing is charged', async () => {
    const lantern = await createProduct(platform, {
      name: 'Last Brass Lantern',
      productType: 'physical',
      priceData: { price: 40 },
      stock: { trackInventory: true, quantity: 1 },
    });
    const mine = await newCheckoutSession(lantern.id, 1);
    // another shopper's checkout of the same lantern pays first, through the same page API
    const theirs = new URL(await newCheckoutSession(lantern.id, 1)).searchParams.get('session')!;
    const pageCall = (path: string, body: unknown) =>
      fetch(`${platform.url}/_api/checkout-page/v1${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Checkout-Session': theirs },
        body: JSON.stringify(body),
      });
    const details = await pageCall('/update', {
      email: 'first@example.com',
      shippingAddress: {
        country: 'US',
        subdivision: 'US-NY',
        city: 'New York',
        addressLine: '1 Main Street',
      },
      billingSameAsShipping: true,
      selectedShippingOption: { code: 'standard' },
    });
    expect(details.status).toBe(200);
    const paid = await pageCall('/pay', {
      attemptKey: crypto.randomUUID(),
      card: { number: CARDS.approved, expiry: '12/34', cvc: '123' },
    });
    expect(((await paid.json()) as { status: string }).status).toBe('APPROVED');

    const { page } = await newCheckoutPage(DESKTOP, mine);
    await fillDetails(page, { shipsTo: false });
    // re-priced for the address, the lantern is shown as gone before the shopper pays
    await eventually(() =>
      page.getByRole('listitem').filter({ hasText: 'Last Brass Lantern' }).textContent(),
    ).toContain('No longer available');
    await fillCard(page, CARDS.approved);
    await page.getByRole('button', { name: 'Place order' }).click();
    await eventually(() => page.getByRole('alert').first().textContent()).toContain('Last Brass Lantern');
    await expect(
      page.getByRole('alert').first().getByRole('link', { name: 'Back to your cart' }).getAttribute('href'),
    ).resolves.toBe(redirectTargets().cartPageUrl);
    await expect(page.getByRole('button', { name: 'Place order' }).isEnabled()).resolves.toBe(true);
    await shot(page, 'out-of-stock');
    await expect(completedOrderOf(mine)).resolves.toBeUndefined();
  });

  it("the header carries the store's checkout brand: its logo at the size and alignment the merchant chose, and its name", async () => {
    const brand = (logo: Record<string, unknown>) =>
      admin(platform).patch('/ecom/v1/checkout-settings', {
        checkoutSettings: { checkoutBrand: { header: { logo } } },
      });
    const { storeName } = await storeConfig(platform);
    const logoUrl = `${platform.url}/media/enamel-camp-mug.svg`;
    expect((await brand({ image: { url: logoUrl }, size: 'LARGE', alignment: 'SIDE' })).status).toBe(200);
    try {
      const { page } = await newCheckoutPage();
      const logo = page.getByRole('banner').getByRole('img', { name: `${storeName} logo` });
      await expect(logo.getAttribute('src')).resolves.toBe(logoUrl);
      await expect(page.getByRole('banner').textContent()).resolves.toContain(storeName);
      const large = (await logo.boundingBox())!;
      expect(large.height).toBe(72);
      // SIDE: at the start of the header, not its middle
      expect(large.x).toBeLessThan(DESKTOP.width / 4);

      expect((await brand({ image: { url: logoUrl }, size: 'SMALL', alignment: 'CENTER' })).status).toBe(200);
      await page.reload();
      const small = (await logo.boundingBox())!;
      expect(small.height).toBe(32);
      // CENTER: the logo and the name sit together in the middle
      expect(small.x).toBeGreaterThan(DESKTOP.width / 4);
      await shot(page, 'brand');
    } finally {
      await brand({ size: 'MEDIUM', alignment: 'CENTER' });
    }
  });

  it('a link whose session is unknown shows a plain message with the way back to the store', async () => {
    context = await newTestContext(browser, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${platform.url}/auth/checkout?session=not-a-real-session`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'This checkout is no longer available',
    );
    await expect(page.getByRole('alert').textContent()).resolves.toContain('expired');
    await expect(page.getByRole('link', { name: /Back to/ }).count()).resolves.toBe(1);
  });
});
