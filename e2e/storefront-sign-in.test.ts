import { createClient, currentCart, OAuthStrategy, type Product } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  adminClient,
  PASSWORD,
  SQLITE,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storedRole,
  storedTokens,
} from './support/store.ts';
import { addToCart, cartLine, claimsOf, demoProducts, openProductPage } from './support/storefront.ts';

/**
 * Signing in from the storefront in a real browser against a real platform with the demo store:
 * through the store's hosted login page (an authorization-code redirect with PKCE), the visitor's cart
 * becomes the member's, as with the storefront's own form; and both forms tell a wrong password from
 * an unknown email.
 */

describe.each(SQLITE)('storefront sign-in in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let mug: Product;
  const email = `lin.${dialect}.${Date.now().toString(36)}@example.com`;
  const accountMenu = (page: Page) => page.getByTestId('account-menu');
  const shot = (page: Page, name: string) => screenshot(page, `sign-in-${dialect}-${name}`);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['storefront', 'hosted'],
      seedDemo: true,
    }));
    mug = (await demoProducts(adminClient(platform), ['Enamel Camp Mug']))['Enamel Camp Mug']!;
    const registered = await OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url }).register({
      email,
      password: PASSWORD,
      profile: { firstName: 'Lin' },
    });
    expect(registered.loginState).toBe('SUCCESS');
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  /** From the cart, the account menu's sign-in, then "Continue with the store's login page". */
  async function openHostedLogin(page: Page): Promise<void> {
    await page.goto(`${platform.url}/cart`);
    await accountMenu(page).getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/sign-in?returnTo=%2Fcart');
    await page.getByRole('button', { name: 'Continue with the store’s login page' }).click();
    await page.waitForURL('**/auth/login?**');
  }

  it('a visitor who signs in through the store’s login page keeps their cart', async () => {
    const page = await newTestPage(browser, { width: 1280, height: 900 });
    await openProductPage(page, platform, mug);
    await addToCart(page, 2);
    await page.goto(`${platform.url}/cart`);
    await eventually(() => cartLine(page, 'Enamel Camp Mug').count()).toBe(1);
    const visitor = (await storedTokens(page))!;
    expect(visitor.refreshToken.role).toBe('visitor');

    await openHostedLogin(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/cart');
    await eventually(() => accountMenu(page).textContent()).toContain('Hi, Lin');
    await eventually(() => storedRole(page)).toBe('member');

    // the member's tokens were issued from the storefront's visitor, not the login page's
    const member = (await storedTokens(page))!;
    expect(claimsOf(member.accessToken.value).sub).toBe(claimsOf(visitor.accessToken.value).sub);
    await eventually(() => cartLine(page, 'Enamel Camp Mug').count()).toBe(1);
    await shot(page, 'cart-kept');

    // the platform holds the same cart for the member
    const client = createClient({
      host: platform.url,
      auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url, tokens: member }),
      modules: { currentCart },
    });
    const cart = await client.currentCart.getCurrentCart();
    expect(cart.lineItems?.map((line) => `${line.productName?.original} × ${line.quantity}`)).toEqual([
      'Enamel Camp Mug × 2',
    ]);
    await page.close();
  });

  it('the storefront’s form tells a wrong password from an unknown email', async () => {
    const page = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/account/sign-in?returnTo=%2Fcart`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "That password isn't right. Try again, or reset your password.",
    );
    await shot(page, 'storefront-wrong-password');

    await page.getByLabel('Email').fill(`nobody.${dialect}@example.com`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "We couldn't find an account with that email. Check it, or create an account.",
    );
    await page.close();
  });

  it('on a phone, the form says a wrong password is wrong and claims no missing account the platform did not name', async () => {
    const page = await newTestPage(browser, { width: 390, height: 844 });
    await page.goto(`${platform.url}/account/sign-in`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "That password isn't right. Try again, or reset your password.",
    );
    await shot(page, 'phone-wrong-password');

    // a refusal the SDK has no class for (it files those as invalidEmail) is not a missing account
    await page.route('**/_api/iam/authentication/v2/login', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          message: 'the store is not taking sign-ins right now',
          details: {
            applicationError: {
              code: 'SIGN_IN_PAUSED',
              description: 'the store is not taking sign-ins right now',
            },
          },
        }),
      }),
    );
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "We couldn't sign you in with that email and password. Check them and try again.",
    );
    await page.close();
  });

  it('the store’s login page tells a wrong password from an unknown email', async () => {
    const page = await newTestPage(browser, { width: 1280, height: 900 });
    await openHostedLogin(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('still not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const alert = page.getByRole('alert');
    await eventually(() => alert.locator('p').textContent()).toBe(
      'That password is not right. Try again, or reset it.',
    );
    expect(await alert.getByRole('link', { name: 'Reset your password' }).count()).toBe(1);
    await shot(page, 'hosted-wrong-password');

    await page.getByLabel('Email').fill(`nobody.${dialect}@example.com`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => alert.locator('p').textContent()).toBe(
      'There is no account with this email. Check it, or create an account.',
    );
    expect(await alert.getByRole('link', { name: 'Create an account' }).count()).toBe(1);
    await page.close();
  });
});
