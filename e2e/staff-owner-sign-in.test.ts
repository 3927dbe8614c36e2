import { OAuthStrategy } from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeOrder, shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import { mailbox, uniqueEmail } from '../packages/platform/test/identity-client.ts';
import {
  as,
  claimsOf,
  createRole,
  OWNER,
  OWNER_ENV,
  ownerToken,
  signIn,
} from '../packages/platform/test/staff-support.ts';
import {
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../packages/platform/test/support/platform.ts';
import {
  E2E_SUITE,
  eventually,
  newTestPage,
  releaseChromium,
  sharedChromium,
  TEST_TIMEOUT,
} from './support/browser.ts';
import { POSTGRES, requireBuilt, screenshot } from './support/store.ts';

/**
 * The store's owner (issue 21), made on the first start from the environment, signs in through the
 * hosted login page in Chromium like any member; the tokens they get carry their staff role, so the
 * admin calls (the orders of every shopper, the store's settings) answer them.
 */
describe.each(POSTGRES)(
  'the owner signs in through the hosted login page in Chromium, on %s',
  E2E_SUITE,
  (dialect) => {
    let platform: TestPlatform;
    let browser: Browser;
    let page: Page;
    let orderId: string;

    beforeAll(async () => {
      requireBuilt('hosted');
      platform = await startTestPlatform({ dialect, env: OWNER_ENV });
      await shipToUs(platform);
      const poster = await stockedProduct(platform, 'Owner Poster', 9, 5);
      orderId = (await placeOrder(platform, poster.id)).orderId;
      browser = await sharedChromium();
      page = await newTestPage(browser, { width: 1100, height: 900 });
    }, TEST_TIMEOUT);
    afterAll(async () => {
      await releaseChromium(browser);
      await platform?.stop();
    }, TEST_TIMEOUT);

    it("the owner's tokens read every shopper's orders and the store's settings; a wrong password is refused", async () => {
      const auth = OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url });
      const redirectUri = `${platform.url}/auth/callback`;

      // a wrong password first: the page says so and stays
      const flow = await auth.generateOAuthData(redirectUri);
      await page.goto((await auth.getAuthUrl(flow, { prompt: 'login', responseMode: 'query' })).authUrl);
      await page.waitForURL(/\/auth\/login\?/);
      await page.getByLabel('Email').fill(OWNER.email);
      await page.getByLabel('Password').fill('not the owner password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await eventually(() => page.getByRole('alert').first().isVisible()).toBe(true);
      expect(page.url()).toMatch(/\/auth\/login\?/);

      await page.getByLabel('Password').fill(OWNER.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/auth\/callback\?/);
      await screenshot(page, `staff-owner-${dialect}-signed-in`);
      const answer = auth.parseFromUrl(page.url(), 'query');
      const tokens = await auth.getMemberTokens(answer.code, answer.state, flow);
      const owner = tokens.accessToken.value;
      expect(claimsOf(owner).staff_role).toBe('OWNER');

      const order = await as(platform, owner).get(`/ecom/v1/orders/${orderId}`);
      expect(order.status).toBe(200);
      expect(order.body.order.id).toBe(orderId);
      const search = await as(platform, owner).post('/ecom/v1/orders/search', {});
      expect(search.body.orders.map((entry: { id: string }) => entry.id)).toEqual([orderId]);
      expect((await as(platform, owner).get('/api/cartwheel/store-settings')).status).toBe(200);
      expect((await as(platform, owner).get('/api/cartwheel/staff/me')).body.staffMember.role).toBe('OWNER');
    });

    it('an invited staff member accepts on the emailed link, chooses a password and signs in with the permissions of their role', async () => {
      const owner = await ownerToken(platform);
      const roleId = await createRole(platform, owner, 'Fulfilment', ['orders.read', 'fulfillments.manage']);
      const email = uniqueEmail('packer');
      expect(
        (await as(platform, owner).post('/api/cartwheel/staff/invitations', { email, roleId })).status,
      ).toBe(200);
      const [mail] = (await mailbox(platform, email)).filter(
        (message) => message.kind === 'STAFF_INVITATION',
      );
      const link = /https?:\/\/\S+\/auth\/staff-invitation\?token=[^\s"<]+/.exec(mail?.text ?? '')?.[0];
      expect(link).toBeDefined();

      await page.goto(link!);
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(
        'Join the staff',
      );
      await page.getByLabel('Password', { exact: true }).fill('a packer password 1');
      await page.getByLabel('Repeat the password').fill('a packer password 1');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'You are on the staff',
      );
      await screenshot(page, `staff-invitation-${dialect}-accepted`);
      // the link works once
      await page.goto(link!);
      await page.getByLabel('Password', { exact: true }).fill('a packer password 1');
      await page.getByLabel('Repeat the password').fill('a packer password 1');
      await page.getByRole('button', { name: 'Accept the invitation' }).click();
      await eventually(() => page.getByText('already used', { exact: false }).isVisible()).toBe(true);

      const packer = await signIn(platform, email, 'a packer password 1');
      expect((await as(platform, packer).get(`/ecom/v1/orders/${orderId}`)).status).toBe(200);
      expect((await as(platform, packer).get('/api/cartwheel/store-settings')).status).toBe(403);
    });
  },
);
