import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

async function token(platform: TestPlatform, body: Record<string, unknown>) {
  const response = await fetch(`${platform.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe.each(DIALECTS)('OAuth tokens on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());

  it('gives anonymous visitor tokens to a registered client', async () => {
    const { status, body } = await token(platform, { clientId: TEST_CLIENT_ID, grantType: 'anonymous' });
    expect(status).toBe(200);
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.expires_in).toBeGreaterThan(0);
  });

  it('refuses visitor tokens to an unknown client', async () => {
    const { status, body } = await token(platform, { clientId: 'nobody', grantType: 'anonymous' });
    expect(status).toBe(401);
    expect(body.details.applicationError.code).toBe('invalid_grant');
  });

  it('rotates a refresh token, and a reused one revokes its whole family', async () => {
    const first = await token(platform, { clientId: TEST_CLIENT_ID, grantType: 'anonymous' });
    const second = await token(platform, {
      clientId: TEST_CLIENT_ID,
      grantType: 'refresh_token',
      refreshToken: first.body.refresh_token,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);

    const replay = await token(platform, {
      clientId: TEST_CLIENT_ID,
      grantType: 'refresh_token',
      refreshToken: first.body.refresh_token,
    });
    expect(replay.status).toBe(401);
    const afterReplay = await token(platform, {
      clientId: TEST_CLIENT_ID,
      grantType: 'refresh_token',
      refreshToken: second.body.refresh_token,
    });
    expect(afterReplay.status).toBe(401);
  });

  it('answers an unknown grant with a field violation and the request id', async () => {
    const response = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ clientId: TEST_CLIENT_ID, grantType: 'password' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await response.json()) as any;
    expect(body.details.validationError.fieldViolations[0].field).toBe('grantType');
  });

  it('refuses a forged access token on every call', async () => {
    const response = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'not-a-token' },
      body: JSON.stringify({ clientId: TEST_CLIENT_ID, grantType: 'anonymous' }),
    });
    expect(response.status).toBe(401);
  });
});

describe('checked access tokens', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  it('are refused once expired, even after an earlier check was remembered', async () => {
    const { body } = await token(platform, { clientId: TEST_CLIENT_ID, grantType: 'anonymous' });
    const tokens = platform.services.tokens;
    expect((await tokens.resolve(body.access_token)).kind).toBe('visitor');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + (body.expires_in + 60) * 1000);
      await expect(tokens.resolve(body.access_token)).rejects.toThrow(/not valid or has expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('are refused when tampered with, whatever was checked before', async () => {
    const { body } = await token(platform, { clientId: TEST_CLIENT_ID, grantType: 'anonymous' });
    const tokens = platform.services.tokens;
    await tokens.resolve(body.access_token);
    const [header, payload, signature] = body.access_token.split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(tokens.resolve(forged)).rejects.toThrow(/not valid/);
  });
});
