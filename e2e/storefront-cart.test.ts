import { createClient, currentCart, OAuthStrategy, type Product, STORES_APP_ID } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin as adminCalls } from '../packages/platform/test/catalog-http.ts';
import { TEST_CLIENT_ID, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  type AdminClient,
  adminClient,
  PASSWORD,
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storedTokens,
} from './support/store.ts';
import { addToCart, cartButton, cartLine, demoProducts, openProductPage } from './support/storefront.ts';

/**
 * The shopper's cart in a real browser against a real platform with the demo store: adding from the
 * product page, the header's count and mini-cart, the cart page's quantities, coupon and estimate
 * (every amount the platform's), lines that run out of stock, the cart kept through signing in, and
 * the header at a phone's width.
 */

describe.each(POSTGRES)('storefront cart in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let admin: AdminClient;
  let product: Record<string, Product>;
  const shot = (name: string) => screenshot(page, `cart-${dialect}-${name}`);
  /** Opens the page of one of `product`, by its name. */
  const openProduct = (name: string) => openProductPage(page, platform, product[name]!);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['storefront'], seedDemo: true }));
    admin = adminClient(platform);
    const names = ['Enamel Camp Mug', 'Classic Crew Tee', 'Ceramic Latte Bowl', 'Espresso Cup Set'];
    product = await demoProducts(admin, names, { includeVariants: true });
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('a sold-out product cannot be added: the button is disabled and says why', async () => {
    await openProduct('Ceramic Latte Bowl');
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe('Out of stock');
    expect(await page.getByRole('button', { name: 'Add to cart' }).isDisabled()).toBe(true);
    expect(await page.locator('#cart-note').textContent()).toBe('This item is out of stock.');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 0 items');
  });

  /** A product of the test's own, at $`price`, whose stock is counted when `quantity` is given. */
  async function ownProduct(name: string, quantity?: number): Promise<Product> {
    return admin.products.createProduct({
      name: `${name} ${dialect} ${Date.now().toString(36)}`,
      productType: 'physical',
      priceData: { price: 10 },
      ...(quantity === undefined ? {} : { stock: { trackInventory: true, quantity } }),
    } as Product);
  }

  it('the quantity selector refuses more than the stock: it says how many are left and adds nothing above it', async () => {
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      // "Only N left" is for stock that is genuinely low (5 or fewer), not for plenty
      const teapot = await ownProduct('Scarce Teapot', 4);
      await openProductPage(shopper, platform, teapot);
      await eventually(() => shopper.getByTestId('quantity-limit').textContent()).toBe('Only 4 left');

      const kettle = await ownProduct('Counted Kettle', 21);
      await openProductPage(shopper, platform, kettle);
      await eventually(() => shopper.getByLabel('Quantity').getAttribute('max')).toBe('21');
      expect(await shopper.getByTestId('quantity-limit').count()).toBe(0);
      expect(await shopper.locator('main').textContent()).not.toContain('left');

      await shopper.getByLabel('Quantity').fill('99999');
      await eventually(() => shopper.getByTestId('quantity-limit').textContent()).toBe(
        'Only 21 left. Choose 21 or fewer.',
      );
      expect(await shopper.getByLabel('Quantity').getAttribute('aria-invalid')).toBe('true');
      expect(await shopper.getByRole('button', { name: 'Add to cart' }).isDisabled()).toBe(true);
      expect(await shopper.locator('#cart-note').textContent()).not.toContain('Added');
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 0 items');

      // all that is left can be added
      await addToCart(shopper, 21);
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 21 items');
    } finally {
      await shopper.context().close();
    }
  });

  it('on a phone: a new visitor logs no console error, a line links to its product, and arrow keys apply without leaving the field', async () => {
    const shopper = await newTestPage(browser, { width: 390, height: 844 });
    const errors: string[] = [];
    const cartReads: number[] = [];
    shopper.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
    });
    shopper.on('response', (response) => {
      if (
        new URL(response.url()).pathname === '/ecom/v1/carts/current' &&
        response.request().method() === 'GET'
      ) {
        cartReads.push(response.status());
      }
    });
    try {
      const lamp = await ownProduct('Arrow Lamp');
      await shopper.goto(platform.url);
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 0 items');
      await openProductPage(shopper, platform, lamp);
      await shopper.reload();
      await shopper.getByRole('heading', { level: 1, name: lamp.name }).waitFor();
      await eventually(() => storedTokens(shopper)).not.toBeNull();
      // a visitor without a cart is not asked for one: no 404, so no red console line
      expect(cartReads.filter((status) => status === 404)).toEqual([]);
      expect(errors).toEqual([]);

      await addToCart(shopper, 1);
      // the mini-cart's line leads to its product too
      expect(await shopper.getByTestId('mini-cart').getByRole('link', { name: lamp.name! }).count()).toBe(1);
      await shopper.goto(`${platform.url}/cart`);
      const line = cartLine(shopper, lamp.name!);
      await eventually(() => line.getByLabel('Quantity').inputValue()).toBe('1');
      await line.getByLabel('Quantity').focus();
      await shopper.keyboard.press('ArrowUp');
      await shopper.keyboard.press('ArrowUp');
      // applied while the field still has the focus
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 3 items');
      await eventually(() => line.getByTestId('line-total').textContent()).toBe('$30.00');
      expect(await line.getByLabel('Quantity').evaluate((input) => input === document.activeElement)).toBe(
        true,
      );
      await shopper.keyboard.type('5'); // "35"
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 35 items');
      expect(await line.getByLabel('Quantity').inputValue()).toBe('35');

      // the line's name is the way back to its product
      await line.getByRole('link', { name: lamp.name! }).click();
      await shopper.waitForURL(`**/product-page/${lamp.slug}`);
      await shopper.getByRole('heading', { level: 1, name: lamp.name }).waitFor();
      expect(cartReads.filter((status) => status === 404)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await shopper.context().close();
    }
  });

  it("an add the platform refuses is said in the shopper's words, and a count past 99 shows as 99+", async () => {
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      const pencil = await ownProduct('Uncounted Pencil');
      await openProductPage(shopper, platform, pencil);
      await addToCart(shopper, 99_999);
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 99999 items');
      expect(await shopper.getByTestId('cart-count').textContent()).toBe('99+');
      await shopper.keyboard.press('Escape');

      // a line holds at most 100,000: the platform refuses, and the page says so in a sentence
      await shopper.getByLabel('Quantity').fill('2');
      await shopper.getByRole('button', { name: 'Add to cart' }).click();
      await eventually(() => shopper.getByTestId('add-problem').textContent()).toBe(
        'Your cart can hold at most 100,000 of one item. Lower the quantity and try again.',
      );
      expect(await shopper.locator('#cart-note').textContent()).toBe('');
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 99999 items');
    } finally {
      await shopper.context().close();
    }
  });

  it("typing 0 in a line's quantity removes the line, and a negative number is refused", async () => {
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      const [cup, saucer] = [await ownProduct('Zero Cup'), await ownProduct('Zero Saucer')];
      await openProductPage(shopper, platform, cup!);
      await addToCart(shopper, 2);
      await openProductPage(shopper, platform, saucer!);
      await addToCart(shopper, 1);
      await shopper.goto(`${platform.url}/cart`);
      const line = cartLine(shopper, cup!.name!);
      await eventually(() => line.getByLabel('Quantity').inputValue()).toBe('2');

      await line.getByLabel('Quantity').fill('-3');
      await line.getByLabel('Quantity').press('Enter');
      await eventually(() => line.getByRole('alert').textContent()).toBe(
        'Enter a quantity of 0 or more (0 removes the item).',
      );
      expect(await line.getByLabel('Quantity').inputValue()).toBe('2');
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 3 items');

      await line.getByLabel('Quantity').fill('0');
      await line.getByLabel('Quantity').press('Enter');
      await eventually(() => cartLine(shopper, cup!.name!).count()).toBe(0);
      await eventually(() => cartButton(shopper).getAttribute('aria-label')).toBe('Cart, 1 item');
      expect(await cartLine(shopper, saucer!.name!).count()).toBe(1);
    } finally {
      await shopper.context().close();
    }
  });

  it('the coupon row fits its form at a desktop and a phone width, and a line shows a 5-digit quantity whole', async () => {
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      const pencil = await ownProduct('Fitting Pencil');
      await openProductPage(shopper, platform, pencil);
      await addToCart(shopper, 12_345);
      await shopper.goto(`${platform.url}/cart`);
      const quantity = cartLine(shopper, pencil.name!).getByLabel('Quantity');
      await eventually(() => quantity.inputValue()).toBe('12345');
      // the digits' width (as the field's font draws them) fits inside the field beside its arrows
      const fits = await quantity.evaluate((input: HTMLInputElement) => {
        const style = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = context.measureText(input.value).width;
        const inner =
          input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        return inner - text;
      });
      // about 15px is the browser's arrows
      expect(fits).toBeGreaterThan(16);
      for (const width of [1280, 390]) {
        await shopper.setViewportSize({ width, height: 900 });
        const form = await shopper.locator('form.coupon').boundingBox();
        const apply = await shopper.getByRole('button', { name: 'Apply' }).boundingBox();
        expect(apply!.x + apply!.width, `Apply at ${width}px`).toBeLessThanOrEqual(
          form!.x + form!.width + 0.5,
        );
      }
    } finally {
      await shopper.context().close();
    }
  });

  it('a product sold by subscription offers a one-time purchase or each option with its schedule and discounted price, and the line carries the option chosen', async () => {
    const made = await adminCalls(platform).post('/stores/v3/products', {
      product: {
        name: `Subscribed Beans ${dialect}`,
        productType: 'PHYSICAL',
        physicalProperties: {},
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '20' } } }] },
        subscriptionDetails: {
          subscriptions: [
            {
              title: 'Fresh daily',
              frequency: 'DAY',
              interval: 1,
              autoRenewal: true,
              discount: { type: 'PERCENT', percentOff: 10 },
            },
            {
              title: 'Half a year',
              frequency: 'MONTH',
              interval: 2,
              autoRenewal: false,
              billingCycles: 3,
              discount: { type: 'AMOUNT', amountOff: '2.5' },
            },
          ],
          allowOneTimePurchases: true,
        },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const beans = made.body.product;
    const daily = beans.subscriptionDetails.subscriptions[0].id as string;
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    try {
      await openProductPage(shopper, platform, beans);
      const picker = shopper.getByRole('group', { name: 'How would you like to buy it?' });
      await picker.waitFor();
      const once = picker.getByRole('radio', { name: /One-time purchase/ });
      expect(await once.isChecked()).toBe(true);
      expect(await picker.textContent()).toContain('One-time purchase$20.00');
      expect(await picker.textContent()).toContain('Fresh daily: every day$18.00 a delivery');
      expect(await picker.textContent()).toContain('Half a year: every 2 months, 3 times$17.50 a delivery');
      await screenshot(shopper, `cart-${dialect}-subscription-picker`);

      await picker.getByRole('radio', { name: /Fresh daily/ }).check();
      await addToCart(shopper, 2);
      // the platform priced the line by the subscription: the option rode on the line's reference
      const accessToken = (await storedTokens(shopper))?.accessToken?.value ?? '';
      const cart = await fetch(`${platform.url}/ecom/v1/carts/current`, {
        headers: { authorization: accessToken },
      }).then((response) => response.json());
      const [line] = cart.cart.lineItems;
      expect(line.catalogReference.options.subscriptionOptionId).toBe(daily);
      expect([line.quantity, line.price.amount]).toEqual([2, '18.00']);
      expect(line.subscriptionOptionInfo.subscriptionSettings).toMatchObject({
        frequency: 'DAY',
        interval: 1,
      });
      await eventually(() => shopper.getByTestId('mini-cart').textContent()).toContain('$36.00');
    } finally {
      await shopper.close();
    }
  });

  it('adds the chosen variant with its quantity: the mini-cart opens and the header counts the items', async () => {
    await openProduct('Classic Crew Tee');
    expect(await page.getByRole('button', { name: 'Add to cart' }).isDisabled()).toBe(true);
    expect(await page.locator('#cart-note').textContent()).toBe('Choose size and color first.');
    await page.getByLabel('Size').selectOption('M');
    await page.getByRole('radio', { name: 'Navy' }).check();
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe('In stock');
    await addToCart(page, 2);

    const miniCart = page.getByTestId('mini-cart');
    await eventually(() => miniCart.textContent()).toContain('Classic Crew Tee');
    await eventually(() => miniCart.textContent()).toContain('Size: M');
    await eventually(() => miniCart.textContent()).toContain('Color: Navy');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 2 items');
    await eventually(() => page.getByTestId('mini-cart-subtotal').textContent()).toBe('$48.00');
    await shot('mini-cart');

    await openProduct('Enamel Camp Mug');
    await addToCart(page, 1);
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 3 items');
    await eventually(() => page.getByTestId('mini-cart-subtotal').textContent()).toBe('$62.00');
    await page.keyboard.press('Escape');
    await eventually(() => page.getByTestId('mini-cart').count()).toBe(0);
    // a click on the cart opens the mini-cart again; "View cart" leads to the cart page
    await cartButton(page).click();
    await page.getByTestId('mini-cart').getByRole('link', { name: 'View cart' }).click();
    await page.waitForURL('**/cart');
  });

  it('the cart page lists each line with its price and total, as the platform answers the cart', async () => {
    const tee = cartLine(page, 'Classic Crew Tee');
    await eventually(() => tee.getByTestId('line-unit-price').textContent()).toBe('$24.00');
    expect(await tee.getByTestId('line-total').textContent()).toBe('$48.00');
    expect(await tee.getByLabel('Quantity').inputValue()).toBe('2');
    expect(await tee.textContent()).toContain('Size: M, Color: Navy');
    const mug = cartLine(page, 'Enamel Camp Mug');
    expect(await mug.getByTestId('line-total').textContent()).toBe('$14.00');
    await eventually(() => page.getByTestId('cart-subtotal').textContent()).toBe('$62.00');
    expect(await page.getByTestId('cart-shipping').textContent()).toBe('Calculated at checkout');
  });

  it('changing a quantity and removing a line re-price the cart', async () => {
    const mug = cartLine(page, 'Enamel Camp Mug');
    await mug.getByLabel('Quantity').fill('3');
    await mug.getByLabel('Quantity').press('Enter');
    await eventually(() => mug.getByTestId('line-total').textContent()).toBe('$42.00');
    await eventually(() => page.getByTestId('cart-subtotal').textContent()).toBe('$90.00');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 5 items');

    await cartLine(page, 'Classic Crew Tee').getByRole('button', { name: 'Remove' }).click();
    await eventually(() => cartLine(page, 'Classic Crew Tee').count()).toBe(0);
    await eventually(() => page.getByTestId('cart-subtotal').textContent()).toBe('$42.00');
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 3 items');
  });

  it('an unknown coupon is refused with a reason; WELCOME10 applies, shows its discount, and comes off', async () => {
    await page.getByLabel('Coupon code').fill('NOT-A-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => page.locator('.coupon [role="alert"]').count()).toBe(1);

    await page.getByLabel('Coupon code').fill('WELCOME10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await eventually(() => page.getByTestId('applied-coupon').textContent()).toContain('WELCOME10');
    await eventually(() => page.getByTestId('cart-discount').textContent()).toBe('−$4.20');
    await eventually(() => page.getByTestId('cart-total').textContent()).toBe('$37.80');

    await page.getByTestId('applied-coupon').getByRole('button', { name: 'Remove' }).click();
    await eventually(() => page.getByTestId('cart-discount').count()).toBe(0);
    await eventually(() => page.getByTestId('cart-total').textContent()).toBe('$42.00');
  });

  it("estimates shipping and tax for an address with the platform's amounts, naming the shipping option", async () => {
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('State').selectOption('US-NY');
    await page.getByLabel('Postal code').fill('10001');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await eventually(() => page.getByTestId('cart-shipping').textContent()).not.toBe(
      'Calculated at checkout',
    );

    const estimate = await shopperEstimate(page, platform, {
      country: 'US',
      subdivision: 'US-NY',
      postalCode: '10001',
    });
    const summary = estimate.priceSummary;
    await eventually(() => page.getByTestId('cart-total').textContent()).toBe(
      summary?.total?.formattedAmount,
    );
    expect(await page.getByTestId('cart-shipping').textContent()).toBe(summary?.shipping?.formattedAmount);
    expect(await page.getByTestId('cart-tax').textContent()).toBe(summary?.tax?.formattedAmount);
    const option = estimate.shippingInfo?.selectedCarrierServiceOption?.title;
    expect(option).toBeTruthy();
    expect(await page.locator('.summary__row', { hasText: 'Shipping' }).textContent()).toContain(option);
    await shot('cart-estimated');

    // the estimate's address is kept: a reload shows the same totals
    await page.reload();
    await eventually(() => page.getByTestId('cart-total').textContent()).toBe(
      summary?.total?.formattedAmount,
    );
  });

  it('a line that runs short says how many are left and blocks checkout until it fits', async () => {
    const mug = product['Enamel Camp Mug']!;
    await admin.products.updateProduct(mug.id!, { stock: { trackInventory: true, quantity: 2 } });
    await page.reload();
    const line = cartLine(page, 'Enamel Camp Mug');
    await eventually(() => line.getByTestId('line-availability').textContent()).toBe('Only 2 left');
    await eventually(() => page.getByTestId('checkout-blocked').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Checkout' }).isDisabled()).toBe(true);
    await shot('cart-short');

    await admin.products.updateProduct(mug.id!, { stock: { trackInventory: true, quantity: 0 } });
    await page.reload();
    await eventually(() => line.getByTestId('line-availability').textContent()).toBe('Out of stock');

    await admin.products.updateProduct(mug.id!, { stock: { trackInventory: true, quantity: 2 } });
    await page.reload();
    await line.getByLabel('Quantity').fill('2');
    await line.getByLabel('Quantity').press('Enter');
    await eventually(() => page.getByTestId('checkout-blocked').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Checkout' }).isDisabled()).toBe(false);
  });

  it('a visitor with a cart who signs in keeps it, merged with the cart the member had', async () => {
    // a member whose own cart already holds an espresso set
    const email = `cart.${dialect}.${Date.now().toString(36)}@example.com`;
    const member = createClient({
      host: platform.url,
      auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url, redirectUri: `${platform.url}/` }),
      modules: { currentCart },
    });
    const signedUp = await member.auth.register({
      email,
      password: PASSWORD,
      profile: { nickname: 'Grace' },
    });
    expect(signedUp.loginState).toBe('SUCCESS');
    if (signedUp.loginState !== 'SUCCESS') return;
    member.auth.setTokens(await member.auth.getMemberTokensForDirectLogin(signedUp.data.sessionToken));
    const espresso = product['Espresso Cup Set']!;
    await member.currentCart.addToCurrentCart({
      lineItems: [{ quantity: 1, catalogReference: { appId: STORES_APP_ID, catalogItemId: espresso.id } }],
    });

    // the visitor's cart holds two mugs
    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 2 items');
    await page.getByTestId('account-menu').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/sign-in?returnTo=%2Fcart');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/cart');
    await eventually(() => page.getByTestId('account-menu').textContent()).toContain('Hi, Grace');

    await eventually(() => cartButton(page).getAttribute('aria-label')).toBe('Cart, 3 items');
    await eventually(() => cartLine(page, 'Enamel Camp Mug').count()).toBe(1);
    await eventually(() => cartLine(page, 'Espresso Cup Set').count()).toBe(1);
    // the platform holds the same merged cart for the member
    const merged = await member.currentCart.getCurrentCart();
    expect(
      merged.lineItems?.map((line) => `${line.productName?.original} × ${line.quantity}`).sort(),
    ).toEqual(['Enamel Camp Mug × 2', 'Espresso Cup Set × 1']);
    await shot('cart-merged');
  });

  it("at a phone's width the header folds its links behind a menu button, and the cart stays in reach", async () => {
    const phone = await newTestPage(browser, { width: 375, height: 812 });
    await phone.goto(`${platform.url}/products`);
    const menu = phone.getByRole('button', { name: 'Menu' });
    await menu.waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('link', { name: 'Shop all' }).isVisible()).toBe(false);
    expect(await phone.getByTestId('cart-button').isVisible()).toBe(true);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await phone.getByRole('link', { name: 'Shop all' }).waitFor({ state: 'visible' });
    await screenshot(phone, `cart-${dialect}-phone-menu`);
    await phone.getByRole('link', { name: 'Home' }).click();
    await eventually(() => menu.getAttribute('aria-expanded')).toBe('false');
    await phone.close();
  });
});

/** What the platform estimates for the page's own cart (the shopper's tokens, read from the page). */
async function shopperEstimate(
  page: Page,
  platform: TestPlatform,
  shippingAddress: { country: string; subdivision: string; postalCode: string },
) {
  const accessToken = (await storedTokens(page))?.accessToken?.value;
  const response = await fetch(`${platform.url}/ecom/v1/carts/current/estimate-totals`, {
    method: 'POST',
    headers: { authorization: accessToken ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ shippingAddress, calculateTax: true, calculateShipping: true }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    priceSummary?: Record<string, { formattedAmount?: string }>;
    shippingInfo?: { selectedCarrierServiceOption?: { title?: string } };
  };
}
