import { OAuthStrategy } from '@cartwheel/sdk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../packages/platform/src/identity/service.ts';
import {
  call,
  latestCode,
  login,
  mailbox,
  register,
  uniqueEmail,
  visitorToken,
} from '../packages/platform/test/identity-client.ts';
import { TEST_CLIENT_ID, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestContext, TEST_TIMEOUT } from './support/browser.ts';
import {
  PASSWORD,
  SQLITE,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
  storedTokens,
} from './support/store.ts';

/**
 * The platform's hosted pages (/auth/) and the back office's developer mailbox (/admin/mailbox) in
 * a real browser against a real platform: what a member sees while signing up, verifying their
 * email, resetting a forgotten password and signing in for an app.
 */

describe.each(SQLITE)('hosted pages and the developer mailbox in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let storeName: string;
  const shot = (name: string, target = page) => screenshot(target, `hosted-${dialect}-${name}`);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['hosted', 'backoffice', 'storefront'],
      seedDemo: false,
    }));
    storeName = (await storeConfig(platform)).storeName;
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  // each test is a new visitor: no tokens, no admin key, nothing in session storage
  beforeEach(async () => {
    context = await newTestContext(browser, { width: 1100, height: 900 });
    page = await context.newPage();
  }, TEST_TIMEOUT);

  afterEach(async () => {
    await context?.close();
  }, TEST_TIMEOUT);

  async function newMember(email: string, password = PASSWORD): Promise<void> {
    const answer = await register(platform, await visitorToken(platform), email, password);
    expect(answer.body.state).toBe('SUCCESS');
  }

  /** The back office's mailbox for `to`, in its own tab, signed in with the admin API key. */
  async function openMailbox(to: string): Promise<Page> {
    const admin = await context.newPage();
    await admin.goto(`${platform.url}/admin/mailbox?to=${encodeURIComponent(to)}`);
    await admin.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('list', { name: 'Messages' }).waitFor();
    return admin;
  }

  async function signIn(target: Page, email: string, password: string): Promise<void> {
    await target.getByLabel('Email').fill(email);
    await target.getByLabel('Password').fill(password);
    await target.getByRole('button', { name: 'Sign in' }).click();
  }

  const alertText = (target: Page) => target.getByRole('alert').first().textContent();

  /** The member the storefront's stored tokens belong to, once the page is back in the store. */
  async function storeMemberEmail(target: Page): Promise<string | undefined> {
    await target.waitForURL(`${platform.url}/`);
    const tokens = await storedTokens(target);
    expect(tokens?.refreshToken.role).toBe('member');
    return memberEmail(tokens!.accessToken.value);
  }

  async function memberEmail(accessToken: string): Promise<string | undefined> {
    const { status, body } = await call(platform, 'GET', '/members/v1/members/my', { auth: accessToken });
    expect(status).toBe(200);
    return body.member?.loginEmail;
  }

  it('a forgotten password is reset from the emailed link found in the mailbox; the new one signs in, the old one no longer does', async () => {
    const email = uniqueEmail('forgetful');
    const newPassword = 'a much better password';
    await newMember(email);

    await page.goto(`${platform.url}/auth/forgot-password`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Reset your password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe(
      `If an account exists for ${email}, we sent it a link to reset the password. The link works for an hour.`,
    );
    await shot('forgot-password-sent');

    const admin = await openMailbox(email);
    const message = admin.getByRole('article', { name: `Reset your password for ${storeName}` });
    await eventually(() => message.getByText(email, { exact: true }).count()).toBe(1);
    await eventually(() => message.textContent()).toContain('Password reset');
    await shot('mailbox-reset-link', admin);
    const link = message.getByRole('link', { name: /\/auth\/reset-password\?token=/ });
    const href = (await link.getAttribute('href'))!;
    // the link's landing page is the store itself: the demo client registered its own origin
    expect(new URL(href).searchParams.get('redirect')).toBe(`${platform.url}/`);
    await link.click();

    await admin.waitForURL(/\/auth\/reset-password\?token=/);
    await admin.getByLabel('New password', { exact: true }).fill(newPassword);
    await admin.getByLabel('Repeat the new password').fill('not the same');
    await admin.getByRole('button', { name: 'Set new password' }).click();
    await eventually(() => admin.getByText('The two passwords are not the same.').count()).toBe(1);
    await admin.getByLabel('Repeat the new password').fill(newPassword);
    await admin.getByRole('button', { name: 'Set new password' }).click();
    await eventually(() => admin.getByRole('heading', { level: 1 }).textContent()).toBe('Password changed');
    await shot('reset-password-done', admin);
    await eventually(() =>
      admin.getByRole('link', { name: `Continue to ${storeName}` }).getAttribute('href'),
    ).toBe(`${platform.url}/`);

    // the link works once
    await admin.goto(href);
    await admin.getByLabel('New password', { exact: true }).fill('yet another password');
    await admin.getByLabel('Repeat the new password').fill('yet another password');
    await admin.getByRole('button', { name: 'Set new password' }).click();
    await eventually(() => alertText(admin)).toContain(
      'This reset link has expired or was already used. Ask for a new one.',
    );
    await eventually(() => admin.getByRole('link', { name: 'Send me a new link' }).count()).toBe(1);

    await page.goto(`${platform.url}/auth/login`);
    await signIn(page, email, PASSWORD);
    await eventually(() => alertText(page)).toContain('That password is not right. Try again, or reset it.');
    await eventually(() => page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await shot('login-old-password');

    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // opened without an app's request, the page signs the store itself in and returns to it
    expect(await storeMemberEmail(page)).toBe(email);
  });

  it("the hosted login round trip: the SDK's auth URL leads to /auth/login, and signing in there sends a code to /auth/callback that the SDK trades for member tokens", async () => {
    const email = uniqueEmail('roundtrip');
    const auth = OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url });
    const redirectUri = `${platform.url}/auth/callback`;

    // first visit: no account yet, so the member signs up from the login page, keeping the request
    const signUpFlow = await auth.generateOAuthData(redirectUri);
    const signUpUrl = await auth.getAuthUrl(signUpFlow, { prompt: 'login', responseMode: 'query' });
    await page.goto(signUpUrl.authUrl);
    await page.waitForURL(/\/auth\/login\?/);
    expect(new URL(page.url()).searchParams.get('state')).toBe(signUpFlow.state);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await shot('login-page');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/auth\/signup\?/);
    expect(new URL(page.url()).searchParams.get('code_challenge')).toBe(signUpFlow.codeChallenge);
    await page.getByLabel('First name (optional)').fill('Ada');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/auth\/callback\?/);
    const signedUp = auth.parseFromUrl(page.url(), 'query');
    expect(signedUp.state).toBe(signUpFlow.state);
    const signUpTokens = await auth.getMemberTokens(signedUp.code, signedUp.state, signUpFlow);
    expect(signUpTokens.refreshToken.role).toBe('member');
    expect(await memberEmail(signUpTokens.accessToken.value)).toBe(email);

    // second visit: a new flow, the login page, and the same member
    const loginFlow = await auth.generateOAuthData(redirectUri);
    const loginUrl = await auth.getAuthUrl(loginFlow, { prompt: 'login', responseMode: 'query' });
    await page.goto(loginUrl.authUrl);
    await page.waitForURL(/\/auth\/login\?/);
    await signIn(page, email, PASSWORD);
    await page.waitForURL(/\/auth\/callback\?/);
    // the callback page is not this flow's owner: it says the code arrived and leaves it to the app
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Signed in');
    const answer = auth.parseFromUrl(page.url(), 'query');
    const tokens = await auth.getMemberTokens(answer.code, answer.state, loginFlow);
    expect(tokens.refreshToken.role).toBe('member');
    expect(await memberEmail(tokens.accessToken.value)).toBe(email);
    // the code was for one exchange
    await expect(auth.getMemberTokens(answer.code, answer.state, loginFlow)).rejects.toThrow(
      'Failed to get member tokens',
    );
  });

  it('signing up where email verification is required: the mailbox shows the 6-digit code, a wrong code is refused, the right one signs in', async () => {
    const email = uniqueEmail('verifier');
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    try {
      await page.goto(`${platform.url}/auth/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(/\/auth\/verify/);
      await eventually(() => page.locator('.card__intro').textContent()).toContain(
        `We emailed a 6-digit code to ${email}.`,
      );

      const admin = await openMailbox(email);
      const message = admin.getByRole('article', { name: /is your .* verification code/ });
      const shown = (await message.getByTestId('verification-code').textContent())?.trim();
      expect(shown).toMatch(/^\d{6}$/);
      expect(shown).toBe(await latestCode(platform, email));
      await eventually(() => message.getByRole('button', { name: `Copy code ${shown}` }).count()).toBe(1);
      await shot('mailbox-code', admin);

      const wrong = shown === '000000' ? '111111' : '000000';
      await page.getByLabel('Verification code').fill(wrong);
      await page.getByRole('button', { name: 'Verify' }).click();
      await eventually(() => alertText(page)).toBe('That code is not right. 4 tries left.');
      await shot('verify-wrong-code');

      await page.getByLabel('Verification code').fill(shown!);
      await page.getByRole('button', { name: 'Verify' }).click();
      expect(await storeMemberEmail(page)).toBe(email);
    } finally {
      await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    }
  });

  it('"Send a new code" mails a fresh code; the old one then fails and the new one works', async () => {
    const email = uniqueEmail('resender');
    await newMember(email);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    try {
      await page.goto(`${platform.url}/auth/login`);
      await signIn(page, email, PASSWORD);
      await page.waitForURL(/\/auth\/verify/);
      const first = await latestCode(platform, email);
      await page.getByRole('button', { name: 'Send a new code' }).first().click();
      await eventually(() => page.getByRole('status').textContent()).toBe(
        'We sent a new code. The old one no longer works.',
      );
      const second = await latestCode(platform, email);
      expect(
        (await mailbox(platform, email)).filter((m) => m.kind === 'EMAIL_VERIFICATION_CODE'),
      ).toHaveLength(2);
      if (first !== second) {
        await page.getByLabel('Verification code').fill(first);
        await page.getByRole('button', { name: 'Verify' }).click();
        await eventually(() => alertText(page)).toContain('That code is not right.');
      }
      await page.getByLabel('Verification code').fill(second);
      await page.getByRole('button', { name: 'Verify' }).click();
      expect(await storeMemberEmail(page)).toBe(email);
    } finally {
      await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    }
  });

  it('the sign-in page says plainly when the email has no account, and lets the owner in after someone guessed at it', async () => {
    const stranger = uniqueEmail('stranger');
    await page.goto(`${platform.url}/auth/login`);
    await signIn(page, stranger, PASSWORD);
    await eventually(() => alertText(page)).toContain(
      'There is no account with this email. Check it, or create an account.',
    );
    await page.getByRole('alert').getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL(/\/auth\/signup/);
    await eventually(() => page.getByLabel('Email').inputValue()).toBe(stranger);

    const email = uniqueEmail('guessed');
    await newMember(email);
    const visitor = await visitorToken(platform);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await login(platform, visitor, email, `wrong guess ${attempt}`)).status).toBe(400);
    }
    // the platform now asks for a captcha before it checks a password for this email; the page solves
    // one and sends the login again, so the owner is never locked out
    const logins: Array<{ captcha: boolean }> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/_api/iam/authentication/v2/login')) {
        const body = JSON.parse(request.postData() ?? '{}') as { captchaTokens?: unknown[] };
        logins.push({ captcha: (body.captchaTokens?.length ?? 0) > 0 });
      }
    });
    await page.goto(`${platform.url}/auth/login`);
    await signIn(page, email, PASSWORD);
    expect(await storeMemberEmail(page)).toBe(email);
    expect(logins.at(-1)).toEqual({ captcha: true });
  });

  it('the sign-up page says when the email already has an account, and when the password is too weak', async () => {
    const email = uniqueEmail('taken');
    await newMember(email);
    await page.goto(`${platform.url}/auth/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await eventually(() => alertText(page)).toContain(
      'An account with this email already exists. Sign in instead.',
    );
    await eventually(() => page.getByRole('alert').getByRole('link', { name: 'Go to sign in' }).count()).toBe(
      1,
    );

    await page.getByLabel('Email').fill(uniqueEmail('weak'));
    await page.getByLabel('Password').fill('abc');
    await page.getByRole('button', { name: 'Create account' }).click();
    await eventually(() => alertText(page)).toBe(
      'That password is too weak: it must be at least 6 characters.',
    );
    await eventually(() => page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await shot('signup-weak-password');
  });

  it("where the owner approves new members, sign-up and sign-in say the account waits for the owner's approval", async () => {
    const email = uniqueEmail('applicant');
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'true');
    try {
      await page.goto(`${platform.url}/auth/signup`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Account created');
      await eventually(() => page.getByRole('status').textContent()).toContain(
        'The store owner approves new accounts: you can sign in once they have approved yours.',
      );

      await page.goto(`${platform.url}/auth/login`);
      await signIn(page, email, PASSWORD);
      await eventually(() => page.getByRole('status').textContent()).toBe(
        "Your account is waiting for the store owner's approval. You can sign in once they approve it.",
      );
      expect(page.url()).toBe(`${platform.url}/auth/login`);
      await shot('login-owner-approval');
    } finally {
      await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    }
  });

  it('the mailbox refuses a wrong admin API key and asks again', async () => {
    await page.goto(`${platform.url}/admin/mailbox`);
    await page.getByLabel('Admin API key', { exact: true }).fill('cw_admin_not_the_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await eventually(() => alertText(page)).toBe('The platform did not accept this admin API key.');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('/auth/unavailable names the flow this platform does not run and links back to the store', async () => {
    await page.goto(`${platform.url}/auth/unavailable?flow=bookingsCheckout`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Not available here');
    await eventually(() => page.locator('main').textContent()).toContain(
      'Checkout for bookings is not available on this platform.',
    );
    await page
      .getByRole('link', { name: `Back to ${storeName}` })
      .first()
      .click();
    await page.waitForURL(`${platform.url}/`);
  });
});
