import { OAuthStrategy } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * Block and disconnect (issue 21, point 4) end every sign-in of the member on every process: the
 * process that acted refuses the access tokens at once, another process over the same database within
 * a second, and no refresh token renews anything. Disconnect keeps the member; approve brings them back.
 */
const PASSWORD = 'correct horse battery staple';
const WITHIN_MS = 1000;

async function send(
  platform: TestPlatform,
  method: 'GET' | 'POST',
  path: string,
  options: { auth?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, any> }> {
  const headers: Record<string, string> = {};
  if (options.auth) headers.authorization = options.auth;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

const myMember = (platform: TestPlatform, token: string) =>
  send(platform, 'GET', '/members/v1/members/my', { auth: token });

/** How long `platform` took to refuse the token, asking every 20 ms; fails past 1.5 s. */
async function refusalDelay(platform: TestPlatform, token: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    const { status } = await myMember(platform, token);
    const elapsed = performance.now() - start;
    if (status === 401) return elapsed;
    expect(status).toBe(200);
    if (elapsed > 1500) throw new Error(`still accepted after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('block and disconnect end sessions on two processes, on %s', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect });
    second = await startTestPlatform({ dialect, sharing: first });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  const strategy = () =>
    OAuthStrategy({ clientId: TEST_CLIENT_ID, host: first.url, redirectUri: `${first.url}/auth/callback` });

  async function signIn(email: string) {
    const auth = strategy();
    const login = await auth.login({ email, password: PASSWORD });
    expect(login.loginState).toBe('SUCCESS');
    const tokens = await auth.getMemberTokensForDirectLogin(
      (login as { data: { sessionToken: string } }).data.sessionToken,
    );
    const access = tokens.accessToken.value;
    // both processes have accepted the token once: the refusal must reach what they remember
    expect((await myMember(first, access)).status).toBe(200);
    expect((await myMember(second, access)).status).toBe(200);
    return { access, refresh: tokens.refreshToken.value };
  }

  async function newMember(label: string) {
    const email = uniqueEmail(label);
    expect((await strategy().register({ email, password: PASSWORD })).loginState).toBe('SUCCESS');
    const session = await signIn(email);
    const id = (await myMember(first, session.access)).body.member.id as string;
    return { email, id, session };
  }

  const refresh = (platform: TestPlatform, refreshToken: string) =>
    send(platform, 'POST', '/oauth2/token', {
      body: { clientId: TEST_CLIENT_ID, grantType: 'refresh_token', refreshToken },
    });

  for (const action of ['block', 'disconnect'] as const) {
    it(`${action} on one process ends every sign-in of the member on both`, async () => {
      const { email, id, session } = await newMember(action);
      const other = await signIn(email);
      const acted = await send(second, 'POST', `/members/v1/members/${id}/${action}`, {
        auth: first.adminApiKey,
        body: { id },
      });
      expect(acted.status).toBe(200);
      expect(acted.body.member.status).toBe(action === 'block' ? 'BLOCKED' : 'OFFLINE');

      // at once where it happened, within a second on the other process
      expect((await myMember(second, session.access)).status).toBe(401);
      expect(await refusalDelay(first, session.access)).toBeLessThan(WITHIN_MS);
      expect(await refusalDelay(first, other.access)).toBeLessThan(WITHIN_MS);
      expect((await refresh(first, session.refresh)).status).toBe(401);
      expect((await refresh(second, other.refresh)).status).toBe(401);
      expect((await strategy().login({ email, password: PASSWORD })).loginState).not.toBe('SUCCESS');

      // the member is kept: staff read them, and approve lets them sign in again
      const kept = await send(first, 'GET', `/members/v1/members/${id}?fieldsets=FULL`, {
        auth: first.adminApiKey,
      });
      expect(kept.body.member.id).toBe(id);
      expect(
        (
          await send(first, 'POST', `/members/v1/members/${id}/approve`, {
            auth: first.adminApiKey,
            body: {},
          })
        ).status,
      ).toBe(200);
      await signIn(email);
    });
  }
});
