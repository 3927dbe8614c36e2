import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The authorization endpoint and the code grant over plain HTTP, as any client would speak them, and
 * the attacks they must refuse (RFC 6749 §4.1, §10; RFC 7636; OAuth 2.0 Security BCP).
 */
const PASSWORD = 'correct horse battery staple';
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe.each(DIALECTS)('authorization codes on %s', (dialect) => {
  let platform: TestPlatform;
  let callback: string;

  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      env: {
        CARTWHEEL_DEMO_REDIRECT_URIS: 'http://localhost:5173/callback',
        CARTWHEEL_DEMO_ALLOWED_ORIGINS: 'http://localhost:5173',
      },
    });
    callback = `${platform.url}/auth/callback`;
  });
  afterAll(() => platform?.stop());

  /** A fresh member's session token, from a login on a visitor token of `clientId`. */
  async function sessionToken(clientId = TEST_CLIENT_ID): Promise<string> {
    const email = uniqueEmail('code');
    const visitor = (
      await call(platform, 'POST', '/oauth2/token', { body: { clientId, grantType: 'anonymous' } })
    ).body.access_token;
    await register(platform, visitor, email, PASSWORD);
    const answer = await login(platform, visitor, email, PASSWORD);
    expect(answer.body.state).toBe('SUCCESS');
    return answer.body.sessionToken;
  }

  function authorizeUrl(params: Record<string, string>): string {
    return `${platform.url}/oauth2/authorize?${new URLSearchParams(params)}`;
  }

  /** Runs `prompt=none` with a fresh session token and answers the code from the redirect. */
  async function code(
    options: { clientId?: string; redirectUri?: string; challenge?: string; mode?: string } = {},
  ) {
    const clientId = options.clientId ?? TEST_CLIENT_ID;
    const proof = pkce();
    const redirectUri = options.redirectUri ?? callback;
    const response = await fetch(
      authorizeUrl({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        response_mode: options.mode ?? 'query',
        scope: 'offline_access',
        state: 'state-1',
        code_challenge: options.challenge ?? proof.challenge,
        code_challenge_method: 'S256',
        prompt: 'none',
        sessionToken: await sessionToken(clientId),
      }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!);
    return { code: location.searchParams.get('code')!, verifier: proof.verifier, redirectUri, clientId };
  }

  function exchange(body: Record<string, unknown>) {
    return call(platform, 'POST', '/oauth2/token', { body: { grantType: 'authorization_code', ...body } });
  }

  const exchangeOf = (issued: Awaited<ReturnType<typeof code>>) => ({
    clientId: issued.clientId,
    code: issued.code,
    codeVerifier: issued.verifier,
    redirectUri: issued.redirectUri,
  });

  it('exchanges a code once for member tokens', async () => {
    const issued = await code();
    const first = await exchange(exchangeOf(issued));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await call(platform, 'GET', '/members/v1/members/my', { auth: first.body.access_token });
    expect(me.status).toBe(200);
  });

  it('refuses a reused code with invalid_grant and revokes the tokens it issued', async () => {
    const issued = await code();
    const first = await exchange(exchangeOf(issued));
    expect(first.status).toBe(200);
    const replay = await exchange(exchangeOf(issued));
    expect(replay.status).toBe(401);
    expect(replay.body.details.applicationError.code).toBe('invalid_grant');
    const renewal = await call(platform, 'POST', '/oauth2/token', {
      body: { clientId: TEST_CLIENT_ID, grantType: 'refresh_token', refreshToken: first.body.refresh_token },
    });
    expect(renewal.status).toBe(401);
  });

  it('refuses a wrong code verifier, and the code is burnt after it', async () => {
    const issued = await code();
    const wrong = await exchange({ ...exchangeOf(issued), codeVerifier: pkce().verifier });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details.applicationError.code).toBe('invalid_grant');
    expect((await exchange(exchangeOf(issued))).status).toBe(401);
  });

  it('refuses a code sent with another redirect URI', async () => {
    const issued = await code();
    const wrong = await exchange({ ...exchangeOf(issued), redirectUri: `${platform.url}/` });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details.applicationError.code).toBe('invalid_grant');
  });

  it('refuses a code exchanged by another client', async () => {
    const other = await call(platform, 'POST', '/api/cartwheel/oauth-clients', {
      auth: platform.adminApiKey,
      body: { name: 'Other shop', redirectUris: [callback], allowedOrigins: [] },
    });
    expect(other.status).toBe(200);
    const issued = await code();
    const wrong = await exchange({ ...exchangeOf(issued), clientId: other.body.client.id });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details.applicationError.code).toBe('invalid_grant');
  });

  it('refuses an expired code', async () => {
    const issued = await code();
    const hash = createHash('sha256').update(issued.code).digest('hex');
    await platform.services.database.db
      .updateTable('oauth_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('code_hash', '=', hash)
      .execute();
    const late = await exchange(exchangeOf(issued));
    expect(late.status).toBe(401);
    expect(late.body.details.applicationError.description).toBe('authorization code has expired');
  });

  it('refuses a verifier that is not 43 to 128 unreserved characters, even when its digest matches', async () => {
    const short = 'abc';
    const issued = await code({ challenge: createHash('sha256').update(short).digest('base64url') });
    const wrong = await exchange({ ...exchangeOf(issued), codeVerifier: short });
    expect(wrong.status).toBe(401);
  });

  it('refuses a made-up code', async () => {
    const wrong = await exchange({
      clientId: TEST_CLIENT_ID,
      code: 'made-up',
      codeVerifier: pkce().verifier,
      redirectUri: callback,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.details.applicationError.code).toBe('invalid_grant');
  });

  it('refuses a session token that was already traded, answering login_required to the redirect URI', async () => {
    const token = await sessionToken();
    const params = {
      client_id: TEST_CLIENT_ID,
      redirect_uri: callback,
      response_type: 'code',
      response_mode: 'query',
      state: 's',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      prompt: 'none',
      sessionToken: token,
    };
    expect((await fetch(authorizeUrl(params), { redirect: 'manual' })).status).toBe(302);
    const again = await fetch(authorizeUrl(params), { redirect: 'manual' });
    const location = new URL(again.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('login_required');
    expect(location.searchParams.get('state')).toBe('s');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses a request without PKCE, answering invalid_request to the redirect URI', async () => {
    const response = await fetch(
      authorizeUrl({
        client_id: TEST_CLIENT_ID,
        redirect_uri: callback,
        response_type: 'code',
        state: 's',
        prompt: 'none',
        sessionToken: await sessionToken(),
      }),
      { redirect: 'manual' },
    );
    const location = new URL(response.headers.get('location')!);
    expect(new URLSearchParams(location.hash.slice(1)).get('error')).toBe('invalid_request');
  });

  it('answers an unregistered redirect URI at once with redirect_uri_not_allowed naming it', async () => {
    const response = await fetch(
      authorizeUrl({
        client_id: TEST_CLIENT_ID,
        redirect_uri: 'https://evil.example/steal',
        response_type: 'code',
        state: 's',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        prompt: 'none',
        sessionToken: await sessionToken(),
      }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    const body = (await response.json()) as Record<string, string>;
    expect(body.error).toBe('redirect_uri_not_allowed');
    expect(body.error_description).toContain('https://evil.example/steal');
  });

  it('refuses a repeated redirect_uri at once with invalid_request', async () => {
    const query = new URLSearchParams({ client_id: TEST_CLIENT_ID, redirect_uri: callback });
    query.append('redirect_uri', 'https://evil.example/');
    const response = await fetch(`${platform.url}/oauth2/authorize?${query}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Record<string, string>).error).toBe('invalid_request');
  });

  it('answers an unknown client at once with redirect_uri_not_allowed', async () => {
    const response = await fetch(
      authorizeUrl({ client_id: 'nobody', redirect_uri: callback, response_type: 'code', state: 's' }),
      { redirect: 'manual' },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as Record<string, string>).error).toBe('redirect_uri_not_allowed');
  });

  it('accepts a redirect URI added through CARTWHEEL_DEMO_REDIRECT_URIS', async () => {
    const issued = await code({ redirectUri: 'http://localhost:5173/callback' });
    expect((await exchange(exchangeOf(issued))).status).toBe(200);
  });

  it('answers web_message with a page posting the code only to the redirect URI’s origin', async () => {
    const proof = pkce();
    const response = await fetch(
      authorizeUrl({
        client_id: TEST_CLIENT_ID,
        redirect_uri: 'http://localhost:5173',
        response_type: 'code',
        response_mode: 'web_message',
        state: 'st',
        code_challenge: proof.challenge,
        code_challenge_method: 'S256',
        prompt: 'none',
        sessionToken: await sessionToken(),
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page).toContain('var origins = ["http://localhost:5173"]');
    const message = JSON.parse(/var message = (\{.*\});/.exec(page)![1]!) as Record<string, string>;
    expect(message.state).toBe('st');
    const tokens = await exchange({
      clientId: TEST_CLIENT_ID,
      code: message.code,
      codeVerifier: proof.verifier,
      redirectUri: 'http://localhost:5173',
    });
    expect(tokens.status).toBe(200);
  });

  it('answers web_message without a redirect URI to the embedding page only when its origin is allowed', async () => {
    const params = (token: string) =>
      authorizeUrl({
        client_id: TEST_CLIENT_ID,
        response_type: 'code',
        response_mode: 'web_message',
        state: 'st',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        prompt: 'none',
        sessionToken: token,
      });
    const allowed = await fetch(params(await sessionToken()), {
      headers: { referer: 'http://localhost:5173/shop/cart' },
    });
    expect(await allowed.text()).toContain('var origins = ["http://localhost:5173"]');

    const refused = await fetch(params(await sessionToken()), {
      headers: { referer: 'https://evil.example/page' },
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('redirect_uri_not_allowed');
    expect(page).toContain('origin https://evil.example');
    expect(page).not.toContain('"code"');
  });

  it("refuses a reused member refresh token and revokes the member's whole family", async () => {
    const issued = await code();
    const first = await exchange(exchangeOf(issued));
    const refresh = (refreshToken: string) =>
      call(platform, 'POST', '/oauth2/token', {
        body: { clientId: TEST_CLIENT_ID, grantType: 'refresh_token', refreshToken },
      });
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    const me = await call(platform, 'GET', '/members/v1/members/my', { auth: second.body.access_token });
    expect(me.status).toBe(200);
    expect((await refresh(first.body.refresh_token)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).status).toBe(401);
  });

  it("does not let a visitor token read a member's data", async () => {
    const visitor = await visitorToken(platform);
    const answer = await call(platform, 'GET', '/members/v1/members/my', { auth: visitor });
    expect(answer.status).toBe(403);
  });

  it('refuses the external-login grant with a bad API key, without an access token, or for an unknown member', async () => {
    const visitor = await visitorToken(platform);
    const grant = (authorization: string, memberId = 'nobody') =>
      fetch(`${platform.url}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: authorization },
        body: JSON.stringify({
          grant_type: 'authorized_client',
          scope: 'offline_access',
          member_id: memberId,
        }),
      });
    expect((await grant(`${visitor},cw_admin_wrong`)).status).toBe(401);
    expect((await grant(`not-a-token,${platform.adminApiKey}`)).status).toBe(401);
    expect((await grant(platform.adminApiKey)).status).toBe(401);
    expect((await grant(`${visitor},${platform.adminApiKey}`)).status).toBe(401);
  });
});
