import { OAuthStrategy } from '@cartwheel/sdk';
import { generateOAuthData } from '@cartwheel/sdk/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartwheelSdkDirectLogin } from './hosted-client-browser.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * Cartwheel's own SDK, in Node, against the real platform: the whole member sign-in, from registration
 * to member tokens to logout, through the authorization endpoint and the code grant with PKCE.
 */
describe.each(DIALECTS)('member sign-in with the SDK on %s', (dialect) => {
  let platform: TestPlatform;
  let callback: string;
  const strategy = (options: { redirectUri?: string } = {}) =>
    OAuthStrategy({
      clientId: TEST_CLIENT_ID,
      host: platform.url,
      redirectUri: options.redirectUri ?? callback,
    });
  const PASSWORD = 'correct horse battery staple';

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    callback = `${platform.url}/auth/callback`;
  });
  afterAll(() => platform?.stop());

  async function myMember(accessToken: string) {
    const response = await fetch(`${platform.url}/members/v1/members/my`, {
      headers: { Authorization: accessToken },
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function signedUp(email = uniqueEmail('sdk')) {
    const auth = strategy();
    const registered = await auth.register({ email, password: PASSWORD });
    expect(registered.loginState).toBe('SUCCESS');
    return { auth, email };
  }

  it('registers, logs in, turns the session token into member tokens, reads its member, and logs out', async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    expect(login.loginState).toBe('SUCCESS');
    const sessionToken = (login as { data: { sessionToken: string } }).data.sessionToken;

    const tokens = await auth.getMemberTokensForDirectLogin(sessionToken);
    expect(tokens.refreshToken.role).toBe('member');
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);

    const me = await myMember(tokens.accessToken.value);
    expect(me.status).toBe(200);
    expect(me.body.member.loginEmail).toBe(email);

    const { logoutUrl } = await auth.logout(`${platform.url}/`);
    expect(auth.loggedIn()).toBe(false);
    expect(auth.getTokens().refreshToken).toEqual({ value: '', role: 'none' });
    const leaving = await fetch(logoutUrl, { redirect: 'manual' });
    expect(leaving.status).toBe(302);
    expect(leaving.headers.get('location')).toBe(`${platform.url}/`);

    // the sign-in ended on the platform too: its refresh token no longer renews
    const renewal = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        clientId: TEST_CLIENT_ID,
        grantType: 'refresh_token',
        refreshToken: tokens.refreshToken.value,
      }),
    });
    expect(renewal.status).toBe(401);
  });

  it('signs in with getMemberTokensForDirectLogin in Chromium, through a hidden frame answering web_message', async () => {
    const email = uniqueEmail('framed');
    const result = await cartwheelSdkDirectLogin(platform.url, {
      clientId: TEST_CLIENT_ID,
      email,
      password: PASSWORD,
    });
    expect(result).toMatchObject({ loginState: 'SUCCESS', role: 'member', loggedIn: true });
    expect((await myMember(result.accessToken)).body.member.loginEmail).toBe(email);
  }, 60_000);

  it('runs the PKCE code flow: getAuthUrl with prompt none and a session token, parseFromUrl, getMemberTokens', async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    const sessionToken = (login as { data: { sessionToken: string } }).data.sessionToken;

    const oauthData = await auth.generateOAuthData(callback, `${platform.url}/cart`);
    const { authUrl } = await auth.getAuthUrl(oauthData, { prompt: 'none', sessionToken });
    expect(authUrl.startsWith(`${platform.url}/oauth2/authorize?`)).toBe(true);
    const answer = await fetch(authUrl, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location')!;
    expect(location.startsWith(`${callback}#`)).toBe(true); // fragment is the default response mode

    const { code, state } = auth.parseFromUrl(location);
    expect(state).toBe(oauthData.state);
    const tokens = await auth.getMemberTokens(code, state, oauthData);
    expect(tokens.refreshToken.role).toBe('member');
    expect((await myMember(tokens.accessToken.value)).body.member.loginEmail).toBe(email);
  });

  it('answers in the query when asked, keeping the redirect URI’s own query', async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    const sessionToken = (login as { data: { sessionToken: string } }).data.sessionToken;
    const oauthData = await auth.generateOAuthData(`${platform.url}/auth/callback?from=test`);
    const { authUrl } = await auth.getAuthUrl(oauthData, {
      prompt: 'none',
      responseMode: 'query',
      sessionToken,
    });
    const location = new URL((await fetch(authUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(location.searchParams.get('from')).toBe('test');
    const { code, state } = auth.parseFromUrl(location.href, 'query');
    expect((await auth.getMemberTokens(code, state, oauthData)).refreshToken.role).toBe('member');
  });

  it('sends a login without a session token to the hosted login page, carrying the request', async () => {
    const auth = strategy();
    const oauthData = await auth.generateOAuthData(callback);
    const { authUrl } = await auth.getAuthUrl(oauthData);
    const answer = await fetch(authUrl, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const page = new URL(answer.headers.get('location')!);
    expect(`${page.origin}${page.pathname}`).toBe(`${platform.url}/auth/login`);
    expect(page.searchParams.get('client_id')).toBe(TEST_CLIENT_ID);
    expect(page.searchParams.get('redirect_uri')).toBe(callback);
    expect(page.searchParams.get('state')).toBe(oauthData.state);
    expect(page.searchParams.get('code_challenge')).toBe(oauthData.codeChallenge);
    expect(page.searchParams.get('prompt')).toBe('login');
  });

  it('gives a server holding the admin key member tokens by member id (external login)', async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    const memberId = (login as { identity?: { id?: string } }).identity?.id ?? '';
    const server = strategy();
    const member = await myMember(
      (await auth.getMemberTokensForDirectLogin((login as any).data.sessionToken)).accessToken.value,
    );
    const tokens = await server.getMemberTokensForExternalLogin(
      memberId || member.body.member.id,
      platform.adminApiKey,
    );
    expect(tokens.refreshToken.role).toBe('member');
    expect((await myMember(tokens.accessToken.value)).body.member.loginEmail).toBe(email);
  });

  it('refuses the external login grant without the admin key', async () => {
    const { auth } = await signedUp();
    await expect(auth.getMemberTokensForExternalLogin('someone', 'not-the-key')).rejects.toThrow(
      'something went wrong',
    );
  });

  it('fails fast when the redirect URI is not registered, saying what to register', async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    const elsewhere = 'http://localhost:5173/callback';
    await expect(
      auth.getMemberTokensForDirectLogin((login as any).data.sessionToken, { redirectUri: elsewhere }),
    ).rejects.toThrow(
      `Silent login refused: redirect_uri_not_allowed. Register ${elsewhere} as an allowed redirect URI of the OAuth client ${TEST_CLIENT_ID}`,
    );
  });

  it("rejects an answer whose state is not the flow's own with 'Invalid _state'", async () => {
    const { auth, email } = await signedUp();
    const login = await auth.login({ email, password: PASSWORD });
    const oauthData = await auth.generateOAuthData(callback);
    const { authUrl } = await auth.getAuthUrl(oauthData, {
      prompt: 'none',
      sessionToken: (login as any).data.sessionToken,
    });
    const { code } = auth.parseFromUrl(
      (await fetch(authUrl, { redirect: 'manual' })).headers.get('location')!,
    );
    const forged = (await generateOAuthData(callback)).state;
    await expect(auth.getMemberTokens(code, forged, oauthData)).rejects.toThrow('Invalid _state');
  });
});
