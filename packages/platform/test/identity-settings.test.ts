import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

describe.each(DIALECTS)('how new members join, set by the merchant, on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());
  const admin = () => platform.adminApiKey;

  it('starts open: no verification, no approval, no captcha', async () => {
    const { status, body } = await call(platform, 'GET', '/api/cartwheel/identity-settings', {
      auth: admin(),
    });
    expect(status).toBe(200);
    expect(body.settings).toEqual({
      requireEmailVerification: false,
      requireOwnerApproval: false,
      captcha: 'off',
      requireStaffSecondStep: false,
    });
  });

  it('requiring email verification applies to the next registration', async () => {
    const changed = await call(platform, 'PATCH', '/api/cartwheel/identity-settings', {
      auth: admin(),
      body: { settings: { requireEmailVerification: true } },
    });
    expect(changed.body.settings.requireEmailVerification).toBe(true);
    const registered = await register(
      platform,
      await visitorToken(platform),
      uniqueEmail('settings'),
      'long enough pw',
    );
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    await call(platform, 'PATCH', '/api/cartwheel/identity-settings', {
      auth: admin(),
      body: { settings: { requireEmailVerification: false } },
    });
  });

  it('refuses bad values and unknown settings all at once, changing nothing', async () => {
    const { status, body } = await call(platform, 'PATCH', '/api/cartwheel/identity-settings', {
      auth: admin(),
      body: { settings: { requireOwnerApproval: 'yes', captcha: 'sometimes', theme: 'dark' } },
    });
    expect(status).toBe(400);
    expect(
      body.details.validationError.fieldViolations.map((v: { field: string }) => v.field).sort(),
    ).toEqual(['settings.captcha', 'settings.requireOwnerApproval', 'settings.theme']);
    const after = await call(platform, 'GET', '/api/cartwheel/identity-settings', { auth: admin() });
    expect(after.body.settings.requireOwnerApproval).toBe(false);
  });

  it('is for admins only', async () => {
    const visitor = await visitorToken(platform);
    const read = await call(platform, 'GET', '/api/cartwheel/identity-settings', { auth: visitor });
    const write = await call(platform, 'PATCH', '/api/cartwheel/identity-settings', {
      auth: visitor,
      body: { settings: { captcha: 'required' } },
    });
    expect([read.status, write.status]).toEqual([403, 403]);
  });
});
