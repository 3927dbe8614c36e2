import type { Product } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine, signUpFrom } from '../packages/platform/test/cart-calls.ts';
import { admin, call, visitorToken } from '../packages/platform/test/catalog-http.ts';
import { placeOrder } from '../packages/platform/test/checkout-support.ts';
import { uniqueEmail } from '../packages/platform/test/identity-client.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT, type Viewport } from './support/browser.ts';
import {
  adminClient,
  PASSWORD,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
} from './support/store.ts';
import { addToCart, demoProducts, openProductPage } from './support/storefront.ts';

/**
 * The three apps checked by axe-core in Chromium: the storefront's main pages (home, a product, the
 * cart, sign-in, sign-up, the account), the hosted pages (login, checkout) and the back office. Each
 * page is checked with every rule axe runs by default, at a laptop's and a phone's width; a serious
 * or critical violation (too little contrast for a text, a control without a name, ...) fails the
 * test with what axe said and where.
 */

const LAPTOP: Viewport = { width: 1280, height: 900 };
const PHONE: Viewport = { width: 390, height: 844 };

describe.each(['sqlite'] as const)(
  'accessibility of the three apps in Chromium on %s',
  E2E_SUITE,
  (dialect) => {
    let platform: TestPlatform;
    let browser: Browser;
    let mug: Product;
    /** A member's order, for the back office's order, packing slip and member pages. */
    let memberOrder: { orderId: string; memberId: string };

    beforeAll(async () => {
      ({ platform, browser } = await startStoreInBrowser(dialect, {
        apps: ['storefront', 'hosted', 'backoffice'],
        seedDemo: true,
      }));
      mug = (await demoProducts(adminClient(platform), ['Enamel Camp Mug']))['Enamel Camp Mug']!;
      const shopper = await signUpFrom(platform, await visitorToken(platform), uniqueEmail('a11y-shopper'));
      const { orderId } = await placeOrder(platform, mug.id!, { auth: shopper });
      const placed = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
      memberOrder = { orderId, memberId: placed.buyerInfo.memberId };
    }, TEST_TIMEOUT);

    afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

    /** Checks the page now, and leaves a screenshot named after it. */
    async function check(page: Page, name: string, width: string): Promise<void> {
      await screenshot(page, `a11y-${dialect}-${width}-${name}`);
      expect(await seriousViolations(page), `${name} at ${width}`).toEqual([]);
    }

    /** A new visitor's hosted checkout page for two mugs. */
    async function checkoutUrl(): Promise<string> {
      const visitor = await visitorToken(platform);
      const cart = cartCalls(platform, visitor);
      expect((await cart.add({ lineItems: [catalogLine(mug.id!, 2)] })).status).toBe(200);
      const created = await cart.createCheckout({ channelType: 'WEB' });
      const session = await call(
        platform,
        'POST',
        '/_api/redirects-api/v1/redirect-session',
        {
          ecomCheckout: { checkoutId: created.body.checkoutId },
          callbacks: { postFlowUrl: `${platform.url}/`, cartPageUrl: `${platform.url}/cart` },
        },
        visitor,
      );
      expect(session.status, JSON.stringify(session.body)).toBe(200);
      return session.body.redirectSession.fullUrl as string;
    }

    for (const [width, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE],
    ] as const) {
      it(`the storefront's pages at a ${width}'s width`, async () => {
        const page = await newTestPage(browser, viewport);
        await page.goto(platform.url);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await eventually(() => page.getByTestId('product-price').count()).toBeGreaterThan(0);
        await check(page, 'home', width);

        await page.goto(`${platform.url}/products`);
        await eventually(() => page.getByTestId('product-price').count()).toBeGreaterThan(0);
        await check(page, 'products', width);

        await openProductPage(page, platform, mug);
        await eventually(() => page.getByTestId('stock-status').textContent()).toBeTruthy();
        await check(page, 'product', width);

        await addToCart(page, 1);
        await check(page, 'mini-cart', width);
        await page.goto(`${platform.url}/cart`);
        await eventually(() => page.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
        await eventually(() => page.getByTestId('cart-line').count()).toBe(1);
        await check(page, 'cart', width);

        await page.goto(`${platform.url}/account/sign-in`);
        await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        await check(page, 'sign-in', width);
        await page.getByLabel('Email').fill(`nobody.${width}@example.com`);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('alert').waitFor();
        await check(page, 'sign-in-refused', width);

        await page.goto(`${platform.url}/account/sign-up`);
        await page.getByRole('button', { name: 'Create account' }).waitFor();
        await check(page, 'sign-up', width);
        await page.getByLabel('First name').fill('Ada');
        await page.getByLabel('Email').fill(`ada.${width}.${Date.now().toString(36)}@example.com`);
        await page.getByLabel('Password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/account/sign-up'));
        await page.goto(`${platform.url}/account`);
        await eventually(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBeTruthy();
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await check(page, 'account', width);
        await page.context().close();
      });

      it(`the hosted login and checkout pages at a ${width}'s width`, async () => {
        const page = await newTestPage(browser, viewport);
        await page.goto(`${platform.url}/account/sign-in`);
        await page.getByRole('button', { name: 'Continue with the store’s login page' }).click();
        await page.waitForURL('**/auth/login?**');
        await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
        await check(page, 'hosted-login', width);
        await page.getByLabel('Email').fill(`nobody.${width}@example.com`);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('alert').waitFor();
        await check(page, 'hosted-login-refused', width);

        await page.goto(await checkoutUrl());
        await page.getByRole('heading', { name: 'Checkout', level: 1 }).waitFor();
        await check(page, 'hosted-checkout', width);
        await page.getByRole('button', { name: 'Place order' }).click();
        await eventually(() => page.locator('[aria-invalid="true"]').count()).toBeGreaterThan(0);
        await check(page, 'hosted-checkout-invalid', width);
        await page.context().close();
      });

      it(`the back office at a ${width}'s width`, async () => {
        const page = await newTestPage(browser, viewport);
        await page.goto(`${platform.url}/admin`);
        await page.getByRole('heading', { level: 1, name: 'Cartwheel back office' }).waitFor();
        await check(page, 'admin-home', width);
        await page.goto(`${platform.url}/admin/orders`);
        await page.getByLabel('Admin API key', { exact: true }).waitFor();
        await check(page, 'admin-key', width);
        await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await eventually(() => page.getByLabel('Admin API key', { exact: true }).count()).toBe(0);
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await check(page, 'admin-orders', width);
        await page.goto(`${platform.url}/admin/orders/${memberOrder.orderId}`);
        await page.getByRole('heading', { level: 1, name: /^Order #/ }).waitFor();
        await eventually(() => page.getByTestId('payment').count()).toBeGreaterThan(0);
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await page.getByRole('button', { name: 'Edit addresses' }).click();
        await page.getByLabel('Buyer email').fill('not an email');
        await page.getByRole('button', { name: 'Save addresses' }).click();
        await page.getByText('Enter an email address, like name@example.com.').waitFor();
        await check(page, 'admin-order', width);
        await page.goto(`${platform.url}/admin/orders/${memberOrder.orderId}/packing-slip`);
        await eventually(() => page.getByTestId('slip-line').count()).toBe(1);
        await check(page, 'admin-packing-slip', width);
        await page.goto(`${platform.url}/admin/members/${memberOrder.memberId}`);
        await eventually(() => page.getByTestId('member-order').count()).toBe(1);
        await check(page, 'admin-member', width);
        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByRole('dialog').getByLabel('Give their content to').waitFor();
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await check(page, 'admin-member-delete', width);
        await page.goto(`${platform.url}/admin/products`);
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await eventually(() => page.getByRole('link', { name: 'Enamel Camp Mug' }).count()).toBeGreaterThan(
          0,
        );
        await check(page, 'admin-products', width);
        await page.getByRole('link', { name: 'Enamel Camp Mug' }).first().click();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await check(page, 'admin-product', width);
        // the settings pages for the checkout brand, discount rules, pickup locations and the store services
        for (const path of [
          'checkout-brand',
          'discount-rules',
          'pickup-locations',
          'checkout-templates',
          'abandoned-checkouts',
        ]) {
          await page.goto(`${platform.url}/admin/settings/${path}`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await eventually(() => page.getByRole('status').filter({ hasText: 'Loading' }).count()).toBe(0);
          await check(page, `admin-settings-${path}`, width);
        }
        await page.goto(`${platform.url}/admin/mailbox`);
        await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
        await check(page, 'admin-mailbox', width);
        await page.context().close();
      });
    }
  },
);
