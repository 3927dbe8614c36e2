import { OAuthStrategy } from '@cartwheel/sdk';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotp, TOTP_STEP_SECONDS, totpStep } from '../packages/platform/src/identity/totp.ts';
import {
  latestCode,
  memberTokens,
  register,
  uniqueEmail,
  visitorToken,
} from '../packages/platform/test/identity-client.ts';
import { as, OWNER, OWNER_ENV, ownerToken } from '../packages/platform/test/staff-support.ts';
import {
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, launchChromium, newTestContext, TEST_TIMEOUT } from './support/browser.ts';
import { requireBuilt, SHOTS } from './support/store.ts';

const PASSWORD = 'correct horse battery';

/**
 * Two-step sign-in through the hosted login page in Chromium (issue 33): a member with an
 * authenticator is asked for its code after the password (a wrong one refused on the page), and
 * "remember this device" spares that browser the step next time; a store that requires it of staff
 * who move money sends the owner's back office sign-in through a code by email. The platform's
 * rules are proven on both databases in identity-second-factor.test.ts; one is enough here.
 */
describe('two-step sign-in in Chromium', E2E_SUITE, () => {
  let platform: TestPlatform;
  let browser: Browser;

  beforeAll(async () => {
    requireBuilt('backoffice', 'hosted');
    platform = await startTestPlatform({ dialect: 'sqlite', env: OWNER_ENV });
    browser = await launchChromium();
  }, TEST_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  }, TEST_TIMEOUT);

  it('a member with an authenticator: the code after the password, a wrong one refused, and a remembered device', async () => {
    const email = uniqueEmail('authenticator');
    const registered = await register(platform, await visitorToken(platform), email, PASSWORD);
    const member = as(platform, (await memberTokens(platform, registered.body.sessionToken)).access_token);
    const secret = (await member.post('/api/cartwheel/identity/factors/TOTP/enrol')).body.secret as string;
    const step = totpStep(Date.now());
    const activated = await member.post('/api/cartwheel/identity/factors/TOTP/activate', {
      code: hotp(secret, step),
    });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);

    const context = await newTestContext(browser, { width: 1100, height: 900 });
    const page = await context.newPage();
    const signIn = async () => {
      const auth = OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url });
      const flow = await auth.generateOAuthData(`${platform.url}/auth/callback`);
      await page.goto((await auth.getAuthUrl(flow, { prompt: 'login', responseMode: 'query' })).authUrl);
      await page.waitForURL(/\/auth\/login\?/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await signIn();
    const codeField = page.getByLabel('Code from your authenticator app');
    await codeField.waitFor();
    await codeField.fill(step % 2 === 0 ? '111111' : '222222');
    await page.getByRole('button', { name: 'Continue' }).click();
    await eventually(() => page.getByRole('alert').first().isVisible()).toBe(true);
    await page.screenshot({ path: `${SHOTS}/two-step-wrong-code.png`, fullPage: true });

    // the code of the next step: the one that activated the authenticator is not taken twice
    await codeField.fill(hotp(secret, totpStep(Date.now() + TOTP_STEP_SECONDS * 1000)));
    await page.getByLabel('Remember this device').check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/auth\/callback\?/);

    // the same browser signs in again without the second step
    await signIn();
    await page.waitForURL(/\/auth\/callback\?/);
    expect(await codeField.count()).toBe(0);
    await context.close();
  });

  it("the store requires it of staff who move money: the owner's back office sign-in asks for a code by email", async () => {
    const owner = as(platform, await ownerToken(platform));
    const required = await owner.patch('/api/cartwheel/identity-settings', {
      settings: { requireStaffSecondStep: true },
    });
    expect(required.status, JSON.stringify(required.body)).toBe(200);

    const context = await newTestContext(browser, { width: 1280, height: 900 });
    const page = await context.newPage();
    await page.goto(`${platform.url}/admin/orders`);
    await page.getByRole('button', { name: 'Use your staff account' }).click();
    await page.waitForURL(/\/auth\/login\?/);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Code we emailed you');
    await codeField.waitFor();
    await codeField.fill(await latestCode(platform, OWNER.email));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${platform.url}/admin/orders`);
    await eventually(() => page.getByTestId('signed-in-as').textContent()).toBe(`${OWNER.email} · Owner`);
    await page.screenshot({ path: `${SHOTS}/two-step-owner-signed-in.png`, fullPage: true });
    await context.close();
    await owner.patch('/api/cartwheel/identity-settings', { settings: { requireStaffSecondStep: false } });
  });
});
