import { STORES_APP_ID } from '@cartwheel/sdk';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../packages/platform/src/identity/service.ts';
import { cartCalls } from '../packages/platform/test/cart-calls.ts';
import { admin } from '../packages/platform/test/catalog-http.ts';
import {
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
} from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  PASSWORD,
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storedRole,
  storedTokens,
} from './support/store.ts';
import { claimsOf } from './support/storefront.ts';

/**
 * A shopper's account in a real browser against a real platform: signing up with the emailed code,
 * staying signed in across reloads, editing the profile address, signing out and in again. What the
 * page shows is checked against what the platform's API answers.
 */

const NEW_PASSWORD = 'battery staple horse';

describe.each(POSTGRES)('storefront account in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  const email = `ada.${dialect}.${Date.now().toString(36)}@example.com`;
  const shot = (name: string) => screenshot(page, `account-${dialect}-${name}`);
  const accountMenu = () => page.getByTestId('account-menu');

  /** The newest message of `kind` the developer mailbox holds for `to`, read with the admin key. */
  async function latestMail(to: string, kind: string): Promise<string> {
    const response = await fetch(`${platform.url}/api/cartwheel/mailbox?to=${encodeURIComponent(to)}`, {
      headers: { authorization: platform.adminApiKey },
    });
    const { messages } = (await response.json()) as { messages: Array<{ kind: string; text?: string }> };
    const message = messages.find((m) => m.kind === kind);
    if (!message?.text) throw new Error(`no ${kind} mailed to ${to}`);
    return message.text;
  }

  async function latestCode(to: string): Promise<string> {
    const code = /\b(\d{6})\b/.exec(await latestMail(to, 'EMAIL_VERIFICATION_CODE'))?.[1];
    if (!code) throw new Error(`no verification code mailed to ${to}`);
    return code;
  }

  /** The signed-in member as the platform answers it, with the page's own access token. */
  async function memberSeenByPlatform(): Promise<Record<string, any>> {
    const tokens = await storedTokens(page);
    const response = await fetch(`${platform.url}/members/v1/members/my?fieldsets=FULL`, {
      headers: { authorization: tokens?.accessToken.value ?? '' },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { member: Record<string, any> }).member;
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['storefront'], seedDemo: false }));
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('signs up with the emailed code and comes back signed in, as the same visitor, to the page it left', async () => {
    await page.goto(`${platform.url}/products`);
    await accountMenu().getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/account/sign-in?returnTo=%2Fproducts');
    await eventually(() => storedTokens(page)).not.toBeNull();
    const visitor = (await storedTokens(page))!;
    expect(visitor.refreshToken.role).toBe('visitor');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/account/sign-up?returnTo=%2Fproducts');
    // the form says which fields may be left empty, and only those
    await expect(page.getByLabel('First name (optional)').count()).resolves.toBe(1);
    await expect(page.getByLabel('Last name (optional)').count()).resolves.toBe(1);
    expect(await page.locator('form label').filter({ hasText: 'optional' }).count()).toBe(2);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    await eventually(() => page.getByText(`We sent a 6-digit code to ${email}`).count()).toBe(1);
    await shot('verification-step');
    await page.getByLabel('Verification code').fill('000000');
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "That code isn't right. Check the email and try again.",
    );

    await page.getByLabel('Verification code').fill(await latestCode(email));
    await page.getByRole('button', { name: 'Verify and continue' }).click();
    await page.waitForURL('**/products');
    await eventually(() => accountMenu().textContent()).toContain('Hi, Ada');

    await eventually(() => storedRole(page)).toBe('member');
    const member = (await storedTokens(page))!;
    // the visitor was kept until the member's tokens were in hand: the same visitor, now a member
    expect(claimsOf(member.accessToken.value).sub).toBe(claimsOf(visitor.accessToken.value).sub);
    const seen = await memberSeenByPlatform();
    expect(seen).toMatchObject({ loginEmail: email, loginEmailVerified: true });
    expect(claimsOf(member.accessToken.value).mid).toBe(seen.id);
    await shot('signed-in');
  });

  it('a reload keeps the member signed in', async () => {
    await page.reload();
    await eventually(() => accountMenu().textContent()).toContain('Hi, Ada');
    await eventually(() => storedRole(page)).toBe('member');
  });

  it('the account page shows the email and saves a new profile address the platform then answers', async () => {
    await accountMenu().getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL('**/account');
    await eventually(() => page.getByTestId('account-email').textContent()).toBe(email);
    const before = await memberSeenByPlatform();
    await eventually(() => page.getByTestId('account-slug').textContent()).toBe(before.profile.slug);

    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('not a slug!');
    await page.getByRole('button', { name: 'Save address' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain(
      'Use only letters, digits, dots, dashes and underscores',
    );

    const slug = `ada-${dialect}-${Date.now().toString(36)}`;
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill(slug);
    await page.getByRole('button', { name: 'Save address' }).click();
    await eventually(() => page.getByTestId('account-slug').textContent()).toBe(slug);
    expect((await memberSeenByPlatform()).profile.slug).toBe(slug);

    await page.getByLabel('Nickname').fill('Countess');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await eventually(() => accountMenu().textContent()).toContain('Hi, Countess');
    expect((await memberSeenByPlatform()).profile.nickname).toBe('Countess');
    await shot('account');
  });

  it('lists the member’s subscription on the account page, and cancelling it there stops it at the platform', async () => {
    // a product sold by subscription, bought by this member (their page's token) and paid on the hosted page
    const made = await admin(platform).post('/stores/v3/products', {
      product: {
        name: `Tea of the week ${dialect}`,
        productType: 'DIGITAL',
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '12' } } }] },
        subscriptionDetails: {
          subscriptions: [{ title: 'Weekly', frequency: 'WEEK', interval: 1, autoRenewal: true }],
        },
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const subscriptionOptionId = made.body.product.subscriptionDetails.subscriptions[0].id;
    const auth = (await storedTokens(page))!.accessToken.value;
    const cart = cartCalls(platform, auth);
    const added = await cart.add({
      lineItems: [
        {
          catalogReference: {
            appId: STORES_APP_ID,
            catalogItemId: made.body.product.id,
            options: { subscriptionOptionId },
          },
          quantity: 1,
        },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { checkoutId } = (await cart.createCheckout({ channelType: 'WEB' })).body;
    await checkoutCalls(platform, auth).patch(checkoutId, {
      checkout: {
        buyerInfo: { email },
        billingInfo: { address: { country: 'US', city: 'New York', addressLine1: '1 Main Street' } },
      },
    });
    const paid = await pageCalls(platform, await checkoutSession(platform, auth, checkoutId)).pay(
      `tea-${dialect}`,
      CARDS.approved,
    );
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');

    await page.reload();
    const subscription = page.getByRole('listitem', { name: `Tea of the week ${dialect}, every week` });
    await eventually(() => subscription.getByTestId('subscription-status').textContent()).toBe('Active');
    page.once('dialog', (dialog) => void dialog.accept());
    await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
    await eventually(() => subscription.getByTestId('subscription-status').textContent()).toBe('Canceled');
    await expect(subscription.getByRole('button', { name: 'Cancel subscription' }).count()).resolves.toBe(0);
    const answer = await fetch(
      `${platform.url}/ecom/subscription-contracts/v1/subscription-contracts/query`,
      {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: {} }),
      },
    );
    const { subscriptionContracts } = (await answer.json()) as {
      subscriptionContracts: Array<{ status: string }>;
    };
    expect(subscriptionContracts.map((contract) => contract.status)).toEqual(['CANCELED']);
    await shot('subscription-canceled');
  });

  it('signing out forgets the member: the header offers sign-in and the account page asks for it', async () => {
    // the page never asks for the member once signed out (a visitor asking is refused with 403)
    const refused: string[] = [];
    const watch = (response: Response) => {
      if (response.url().includes('/members/v1/members/my') && response.status() >= 400) {
        refused.push(`${response.status()} ${response.url()}`);
      }
    };
    page.on('response', watch);
    await accountMenu().getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${platform.url}/`);
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
    await eventually(() => storedRole(page)).not.toBe('member');
    await page.waitForLoadState('networkidle');
    page.off('response', watch);
    expect(refused).toEqual([]);

    await page.reload();
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${platform.url}/account`);
    await page.waitForURL('**/account/sign-in?returnTo=%2Faccount');
  });

  it('signing in says what is wrong with a wrong password, then signs in with the right one', async () => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await eventually(() => page.getByRole('alert').textContent()).toBe(
      "That password isn't right. Try again, or reset your password.",
    );

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/account');
    await eventually(() => page.getByTestId('account-email').textContent()).toBe(email);
    await eventually(() => accountMenu().textContent()).toContain('Hi, Countess');
    await eventually(() => storedRole(page)).toBe('member');
  });

  it('signing up again with the same email says the account exists', async () => {
    await accountMenu().getByRole('button', { name: 'Sign out' }).click();
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto(`${platform.url}/account/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toContain(
      'An account with this email already exists. Sign in instead.',
    );
  });

  it("a forgotten password: the emailed link opens the store's reset page, which leads back to sign in here", async () => {
    await page.goto(`${platform.url}/account/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/account/forgot-password');
    // the URL moves before the page's code has loaded: until then the sign-in form, and its Email
    // field, is still the one on screen
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await eventually(() => page.getByRole('status').textContent()).toContain(`we’ve emailed it a link`);

    const link = new URL(/https?:\/\/\S+/.exec(await latestMail(email, 'PASSWORD_RESET'))?.[0] ?? '');
    expect(link.origin).toBe(platform.url);
    expect(link.pathname).toBe('/auth/reset-password');
    expect(link.searchParams.get('redirect')).toBe(`${platform.url}/account/sign-in`);

    await page.goto(link.toString());
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('link', { name: /^Continue to / }).click();
    await page.waitForURL('**/account/sign-in');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${platform.url}/`);
    await eventually(() => accountMenu().textContent()).toContain('Hi, Countess');
    await accountMenu().getByRole('button', { name: 'Sign out' }).click();
    await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
  });

  it("continues with the store's login page and comes back signed in to the page it left", async () => {
    await page.goto(`${platform.url}/products`);
    await accountMenu().getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Continue with the store’s login page' }).click();
    await page.waitForURL('**/auth/login?**');
    const request = new URL(page.url()).searchParams;
    expect(request.get('redirect_uri')).toBe(`${platform.url}/account/callback`);
    expect(request.get('response_mode')).toBe('query');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/products');
    await eventually(() => accountMenu().textContent()).toContain('Hi, Countess');
    await eventually(() => storedRole(page)).toBe('member');
    expect((await memberSeenByPlatform()).loginEmail).toBe(email);
  });

  it('a store that approves new members says so after sign-up, and the shopper stays a visitor', async () => {
    const { settings } = platform.services;
    await settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    await settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'true');
    try {
      await accountMenu().getByRole('button', { name: 'Sign out' }).click();
      await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
      await page.goto(`${platform.url}/account/sign-up`);
      await page.getByLabel('Email').fill(`grace.${dialect}.${Date.now().toString(36)}@example.com`);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await eventually(() => page.getByRole('status').textContent()).toContain(
        'The store owner approves new accounts',
      );
      expect(await storedRole(page)).toBe('visitor');
      await accountMenu().getByRole('link', { name: 'Sign in' }).waitFor();
    } finally {
      await settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    }
  });
});
