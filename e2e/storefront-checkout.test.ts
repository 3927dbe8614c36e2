import { createClient, currentCart, OAuthStrategy, type Product } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  type AdminClient,
  adminClient,
  PASSWORD,
  SQLITE,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
} from './support/store.ts';
import { addToCart, cartButton, cartLine, demoProducts, openProductPage } from './support/storefront.ts';

/**
 * A shopper buys, in a real browser against a real platform with the demo store: the storefront's
 * cart, the hosted checkout page with the test gateway's cards (approved, declined, 3-D Secure), the
 * thank-you page, the stock taken, and a member's order history. The totals the cart page estimates
 * are the ones the checkout charges and the order records, to the cent.
 */

const ADDRESS = { country: 'US', state: 'US-NY', stateName: 'New York', postalCode: '10001' };

describe.each(SQLITE)('storefront checkout in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let admin: AdminClient;
  let product: Record<string, Product>;
  const shot = (name: string) => screenshot(page, `checkout-${dialect}-${name}`);

  /** Counted stock of a product, or of its variant with these choices, as the platform holds it. */
  async function stockOf(name: string, choices?: Record<string, string>): Promise<number | null | undefined> {
    const id = product[name]?.id as string;
    const found = (await admin.products.queryProducts({ filter: { id } }, { includeVariants: true }))
      .items[0];
    if (!choices) return found?.stock?.quantity;
    const variant = found?.variants?.find((v) =>
      Object.entries(choices).every(([option, choice]) => v.choices?.[option] === choice),
    );
    return variant?.stock?.quantity;
  }

  /** Opens the page of one of `product`, by its name. */
  const openProduct = (name: string) => openProductPage(page, platform, product[name]!);

  /** On the cart page: the estimate for ADDRESS; answers the total the page shows. */
  async function estimateOnCartPage(): Promise<string> {
    await page.getByLabel('Country').selectOption(ADDRESS.country);
    await page.getByLabel('State').selectOption(ADDRESS.state);
    await page.getByLabel('Postal code').fill(ADDRESS.postalCode);
    await page.getByRole('button', { name: 'Estimate' }).click();
    await eventually(() => page.getByTestId('cart-shipping').textContent()).not.toBe(
      'Calculated at checkout',
    );
    await eventually(() => page.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
    return (await page.getByTestId('cart-total').textContent()) ?? '';
  }

  /** From the cart page to the hosted checkout page, with the buyer's details filled in. */
  async function checkOutWithDetails(email: string) {
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL('**/auth/checkout?session=**');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('350 Fifth Avenue');
    await page.getByLabel('City').fill('New York');
    await page.getByLabel('Postal code').fill(ADDRESS.postalCode);
    await page.getByLabel('Country').selectOption(ADDRESS.country);
    await page.getByLabel('State').selectOption(ADDRESS.state);
    await page.getByLabel('Email').focus();
  }

  async function payWith(cardNumber: string) {
    await page.getByLabel('Card number').fill(cardNumber);
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Place order' }).click();
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['storefront', 'hosted'],
      seedDemo: true,
    }));
    admin = adminClient(platform);
    product = await demoProducts(admin, ['Enamel Camp Mug', 'Classic Crew Tee', 'Espresso Cup Set']);
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('a visitor buys two products with WELCOME10 and pays the total the cart page estimated, to the cent', async () => {
    const teeChoices = { Size: 'M', Color: 'Navy' };
    const mugStock = await stockOf('Enamel Camp Mug');
    const teeStock = await stockOf('Classic Crew Tee', teeChoices);

    await openProduct('Classic Crew Tee');
    await page.getByLabel('Size').selectOption('M');
    await page.getByRole('radio', { name: 'Navy' }).check();
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe('In stock');
    await addToCart(page, 1);
    await openProduct('Enamel Camp Mug');
    await addToCart(page, 2);
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 3 items');

    await page.goto(`${platform.url}/cart`);
    await page.getByLabel('Coupon code').fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => page.getByTestId('applied-coupon').textContent()).toContain('WELCOME10');
    await eventually(() => page.getByTestId('cart-subtotal').textContent()).toBe('$52.00');
    await eventually(() => page.getByTestId('cart-discount').count()).toBe(1);
    const cartTotal = await estimateOnCartPage();
    const cartDiscount = await page.getByTestId('cart-discount').textContent();
    await shot('cart');

    await checkOutWithDetails('ada@example.com');
    await eventually(() => page.getByTestId('price-total').textContent()).toBe(cartTotal);
    expect(await page.getByTestId('price-discount').textContent()).toBe(cartDiscount);
    await shot('hosted-checkout');
    await payWith('4242 4242 4242 4242');

    await page.waitForURL('**/thank-you?orderId=**');
    await page.getByRole('heading', { name: 'Thank you for your order' }).waitFor();
    await eventually(() => page.getByTestId('order-total').textContent()).toBe(cartTotal);
    expect(await page.getByTestId('order-number').textContent()).toMatch(/^#\d+$/);
    expect(await page.getByTestId('order-line').count()).toBe(2);
    expect(await page.getByTestId('order-shipping-address').textContent()).toContain('350 Fifth Avenue');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 0 items');
    await shot('thank-you');

    expect(await stockOf('Enamel Camp Mug')).toBe((mugStock as number) - 2);
    expect(await stockOf('Classic Crew Tee', teeChoices)).toBe((teeStock as number) - 1);
  });

  it('a declined card is shown on the checkout page, and the cart is intact back on the cart page', async () => {
    const mugStock = await stockOf('Enamel Camp Mug');
    await openProduct('Enamel Camp Mug');
    await addToCart(page, 1);
    await page.goto(`${platform.url}/cart`);
    await eventually(() => cartLine(page, 'Enamel Camp Mug').count()).toBe(1);
    await estimateOnCartPage();

    await checkOutWithDetails('ada@example.com');
    await payWith('4000 0000 0000 0002');
    await eventually(() => page.getByRole('alert').first().textContent()).toContain('declined');
    await shot('declined');

    await page.getByRole('link', { name: 'Back to your cart' }).first().click();
    await page.waitForURL('**/cart');
    await eventually(() => cartLine(page, 'Enamel Camp Mug').count()).toBe(1);
    expect(await cartLine(page, 'Enamel Camp Mug').getByLabel('Quantity').inputValue()).toBe('1');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 1 item');
    expect(await stockOf('Enamel Camp Mug')).toBe(mugStock);
  });

  it('the 3-D Secure card asks for a second step, and completing it places the order', async () => {
    const cartTotal = await estimateOnCartPage();
    await checkOutWithDetails('ada@example.com');
    await payWith('4000 0025 0000 3155');
    await page.waitForURL('**/auth/checkout/confirm?**');
    await shot('3ds');
    await page.getByRole('button', { name: 'Complete authentication' }).click();

    await page.waitForURL('**/thank-you?orderId=**');
    await eventually(() => page.getByTestId('order-total').textContent()).toBe(cartTotal);
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 0 items');
  });

  it('a guest who signs up from the thank-you page with the order’s email keeps the order, there and on the account page', async () => {
    const email = `guest.${dialect}.${Date.now().toString(36)}@example.com`;
    const shopperPage = page;
    page = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      await openProduct('Enamel Camp Mug');
      await addToCart(page, 1);
      await page.goto(`${platform.url}/cart`);
      await estimateOnCartPage();
      await checkOutWithDetails(email);
      await payWith('4242 4242 4242 4242');
      await page.waitForURL('**/thank-you?orderId=**');
      await eventually(() => page.getByTestId('order-number').textContent()).toMatch(/^#\d+$/);
      const number = (await page.getByTestId('order-number').textContent()) ?? '';
      const thankYou = new URL(page.url());

      // signing up from the thank-you page, with the email the order was placed with
      await page.getByTestId('account-menu').getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('First name').fill('Ada');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL((url) => url.pathname === '/thank-you');
      expect(new URL(page.url()).search).toBe(thankYou.search);
      await eventually(() => page.getByTestId('account-menu').textContent()).toContain('Hi, Ada');
      // the order still shows where the guest was...
      await eventually(() => page.getByTestId('order-number').textContent()).toBe(number);
      await shot('guest-signed-up-thank-you');
      // ...and is the account's
      await page.goto(`${platform.url}/account`);
      await eventually(() => page.getByTestId('order-row').count()).toBe(1);
      expect(await page.getByTestId('order-row').textContent()).toContain(number);
    } finally {
      await page.context().close();
      page = shopperPage;
    }
  });

  it("a member's orders are listed on the account page and open in detail", async () => {
    const email = `buyer.${dialect}.${Date.now().toString(36)}@example.com`;
    const member = createClient({
      host: platform.url,
      auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url }),
      modules: { currentCart },
    });
    const signedUp = await member.auth.register({
      email,
      password: PASSWORD,
      profile: { nickname: 'Grace', firstName: 'Grace', lastName: 'Hopper' },
    });
    expect(signedUp.loginState).toBe('SUCCESS');

    await page.goto(`${platform.url}/account/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByTestId('account-menu').textContent()).toContain('Hi, Grace');

    await page.goto(`${platform.url}/account`);
    await eventually(() => page.getByText("You haven't placed an order yet.").count()).toBe(1);

    await openProduct('Espresso Cup Set');
    await addToCart(page, 1);
    await page.goto(`${platform.url}/cart`);
    const cartTotal = await estimateOnCartPage();
    // a signed-in member's checkout starts with their account's email and name
    await page.getByRole('button', { name: 'Checkout' }).click();
    await page.waitForURL('**/auth/checkout?session=**');
    await eventually(() => page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('First name').inputValue()).toBe('Grace');
    expect(await page.getByLabel('Last name').inputValue()).toBe('Hopper');
    await page.goBack();
    await page.waitForURL('**/cart');
    await checkOutWithDetails(email);
    await payWith('4242 4242 4242 4242');
    await page.waitForURL('**/thank-you?orderId=**');
    await eventually(() => page.getByTestId('order-number').textContent()).toMatch(/^#\d+$/);
    const number = (await page.getByTestId('order-number').textContent()) ?? '';

    await page.goto(`${platform.url}/account`);
    const row = page.getByTestId('order-row');
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(number);
    expect(await row.textContent()).toContain(cartTotal);
    expect(await row.textContent()).toContain('Paid');
    await shot('order-history');

    await row.getByRole('link').click();
    await page.waitForURL('**/account/orders/**');
    await eventually(() => page.getByTestId('order-total').textContent()).toBe(cartTotal);
    expect(await page.getByTestId('order-line').textContent()).toContain('Espresso Cup Set');
  });
});
