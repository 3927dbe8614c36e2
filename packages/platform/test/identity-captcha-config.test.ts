import type { CaptchaConfig } from '@cartwheel/sdk';
import { captchaTokenFrom } from '@cartwheel/sdk/auth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { login, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The captcha as the bundled apps meet it: `GET /api/cartwheel/config` says whether it is required,
 * gives the two public site keys (point 9) and the challenge URL; the SDK's solver answers a challenge
 * with a token that registration accepts once.
 */

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('captcha through the storefront config on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());
  beforeEach(() => platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'off'));

  async function config(): Promise<{ clientId: string; storeName: string; captcha: CaptchaConfig }> {
    const response = await fetch(`${platform.url}/api/cartwheel/config`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    return (await response.json()) as { clientId: string; storeName: string; captcha: CaptchaConfig };
  }

  it('exposes two distinct public site keys, made once and kept as site settings, beside the old fields', async () => {
    const first = await config();
    expect(first).toMatchObject({ clientId: TEST_CLIENT_ID, storeName: 'Cartwheel Demo Store' });
    expect(first.captcha).toEqual({
      required: false,
      siteKey: expect.stringMatching(/^cwk_[A-Za-z0-9_-]{24}$/),
      invisibleSiteKey: expect.stringMatching(/^cwk_[A-Za-z0-9_-]{24}$/),
      challengeUrl: '/api/cartwheel/captcha/challenge',
    });
    expect(first.captcha.siteKey).not.toBe(first.captcha.invisibleSiteKey);

    const { settings } = platform.services;
    expect(await settings.get(IDENTITY_SETTINGS.captchaSiteKey)).toBe(first.captcha.siteKey);
    expect(await settings.get(IDENTITY_SETTINGS.captchaInvisibleSiteKey)).toBe(
      first.captcha.invisibleSiteKey,
    );
    // nothing secret leaks: the HMAC key is not in the answer
    const secret = await settings.get(IDENTITY_SETTINGS.captchaSecret);
    if (secret) expect(JSON.stringify(first)).not.toContain(secret);

    expect((await config()).captcha).toEqual(first.captcha);
  });

  it('says whether captcha is required as the setting changes while running', async () => {
    expect((await config()).captcha.required).toBe(false);
    await platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'required');
    expect((await config()).captcha.required).toBe(true);
    await platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'off');
    expect((await config()).captcha.required).toBe(false);
  });

  it('accepts a registration with a token from the SDK solver, and refuses the token reused', async () => {
    await platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'required');
    const { captcha } = await config();
    const email = uniqueEmail('pow');

    const without = await register(platform, visitor, email, PASSWORD);
    expect(without.body.details.applicationError.code).toBe('-19971');

    const token = await captchaTokenFrom(`${platform.url}${captcha.challengeUrl}`);
    const registered = await register(platform, visitor, email, PASSWORD, {
      captchaTokens: [{ InvisibleRecaptcha: token }],
    });
    expect(registered.status).toBe(200);
    expect(registered.body.state).toBe('SUCCESS');

    const reused = await login(platform, visitor, email, PASSWORD, {
      captchaTokens: [{ InvisibleRecaptcha: token }],
    });
    expect(reused.body.details.applicationError.code).toBe('-19970');
    const again = await register(platform, visitor, uniqueEmail('pow-again'), PASSWORD, {
      captchaTokens: [{ InvisibleRecaptcha: token }],
    });
    expect(again.body.details.applicationError.code).toBe('-19970');

    const fresh = await login(platform, visitor, email, PASSWORD, {
      captchaTokens: [
        { InvisibleRecaptcha: await captchaTokenFrom(`${platform.url}${captcha.challengeUrl}`) },
      ],
    });
    expect(fresh.body.state).toBe('SUCCESS');
  });
});
