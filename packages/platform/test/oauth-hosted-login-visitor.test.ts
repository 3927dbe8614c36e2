import { OAuthStrategy, type Tokens } from '@cartwheel/sdk';
import { type OAuthData, parseFromUrl } from '@cartwheel/sdk/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The visitor behind a sign-in on the hosted login page. The storefront's client creates the login
 * redirect session with its visitor token; the hosted page then logs in as a visitor of its own. The
 * code the flow ends with must stand for member tokens of the storefront's visitor (whose cart the
 * member then takes over), and only a client that holds that visitor's token can name it.
 */
describe.each(DIALECTS)('the visitor of a hosted-page sign-in on %s', (dialect) => {
  let platform: TestPlatform;
  let callback: string;
  const PASSWORD = 'correct horse battery staple';
  let email: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    callback = `${platform.url}/auth/callback`;
    email = uniqueEmail('hosted-visitor');
    const registered = await register(platform, await visitorToken(platform), email, PASSWORD);
    expect(registered.status).toBe(200);
  });
  afterAll(() => platform?.stop());

  /** The visitor an access token speaks for (`sub`) and its member (`mid`). */
  function claimsOf(accessToken: string): { sub?: string; mid?: string } {
    const payload = accessToken.split('.')[1] ?? '';
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  }

  /** A storefront's client with visitor tokens of its own, and its visitor's id. */
  async function storefront() {
    const auth = OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url });
    const visitor = await call(platform, 'POST', '/oauth2/token', {
      body: { clientId: TEST_CLIENT_ID, grantType: 'anonymous' },
    });
    const tokens: Tokens = {
      accessToken: { value: visitor.body.access_token, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      refreshToken: { value: visitor.body.refresh_token, role: 'visitor' },
    };
    auth.setTokens(tokens);
    return {
      auth,
      visitorId: claimsOf(tokens.accessToken.value).sub!,
      accessToken: tokens.accessToken.value,
    };
  }

  /** A login redirect session for the storefront's client and `codeChallenge`, asked for by `auth`. */
  function loginRedirectSession(auth: string, codeChallenge: string, state: string) {
    return call(platform, 'POST', '/_api/redirects-api/v1/redirect-session', {
      auth,
      body: {
        auth: {
          authRequest: {
            clientId: TEST_CLIENT_ID,
            redirectUri: callback,
            codeChallenge,
            codeChallengeMethod: 'S256',
            responseMode: 'query',
            responseType: 'code',
            scope: 'offline_access',
            state,
          },
          prompt: 'login',
        },
      },
    });
  }

  /** The login page the authorization endpoint sends the browser to, for `authUrl`. */
  async function loginPageOf(authUrl: string): Promise<URL> {
    const answer = await fetch(authUrl, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const page = new URL(answer.headers.get('location') ?? '');
    expect(page.pathname).toBe('/auth/login');
    return page;
  }

  /**
   * What the hosted login page does: logs in with a visitor token of its own, then goes back to the
   * authorization endpoint with `prompt=none` and the session token; answers the code's address.
   */
  async function hostedPageSignsIn(page: URL, pageVisitor: string): Promise<string> {
    const loggedIn = await login(platform, pageVisitor, email, PASSWORD);
    expect(loggedIn.body.state).toBe('SUCCESS');
    const params = new URLSearchParams(page.search);
    params.set('prompt', 'none');
    params.set('sessionToken', loggedIn.body.sessionToken);
    const answer = await fetch(`${platform.url}/oauth2/authorize?${params}`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    return answer.headers.get('location') ?? '';
  }

  async function startFlow(
    auth: ReturnType<typeof OAuthStrategy>,
  ): Promise<{ oauthData: OAuthData; page: URL }> {
    const oauthData = await auth.generateOAuthData(callback, '/cart');
    const { authUrl } = await auth.getAuthUrl(oauthData, { prompt: 'login', responseMode: 'query' });
    return { oauthData, page: await loginPageOf(authUrl) };
  }

  async function exchange(auth: ReturnType<typeof OAuthStrategy>, location: string, oauthData: OAuthData) {
    const { code, state } = parseFromUrl(location, 'query');
    return auth.getMemberTokens(code, state, oauthData);
  }

  it('the member tokens keep the visitor whose client created the redirect session, not the login page’s', async () => {
    const shopper = await storefront();
    const { oauthData, page } = await startFlow(shopper.auth);
    const pageVisitor = await visitorToken(platform);
    expect(claimsOf(pageVisitor).sub).not.toBe(shopper.visitorId);

    const member = await exchange(shopper.auth, await hostedPageSignsIn(page, pageVisitor), oauthData);
    expect(member.refreshToken.role).toBe('member');
    const claims = claimsOf(member.accessToken.value);
    expect(claims.sub).toBe(shopper.visitorId);
    expect(claims.mid).toBeTruthy();
  });

  it('the direct login keeps its visitor as before', async () => {
    const shopper = await storefront();
    const loggedIn = await shopper.auth.login({ email, password: PASSWORD });
    expect(loggedIn.loginState).toBe('SUCCESS');
    const member = await shopper.auth.getMemberTokensForDirectLogin(
      (loggedIn as { data: { sessionToken: string } }).data.sessionToken,
      { redirectUri: callback },
    );
    expect(claimsOf(member.accessToken.value).sub).toBe(shopper.visitorId);
  });

  it('a challenge another visitor also names belongs to neither: the code keeps the visitor who logged in', async () => {
    const shopper = await storefront();
    const { oauthData, page } = await startFlow(shopper.auth);
    // someone who saw the address claims its challenge with a visitor token of their own
    const intruder = await storefront();
    const claimed = await loginRedirectSession(intruder.accessToken, oauthData.codeChallenge, 'intruder');
    expect(claimed.status).toBe(200);

    const pageVisitor = await visitorToken(platform);
    const member = await exchange(shopper.auth, await hostedPageSignsIn(page, pageVisitor), oauthData);
    const sub = claimsOf(member.accessToken.value).sub;
    expect(sub).toBe(claimsOf(pageVisitor).sub);
    expect(sub).not.toBe(intruder.visitorId);
  });

  it('an authorization request no visitor started (an admin’s redirect session, a bare address) keeps the login’s visitor', async () => {
    const shopper = await storefront();
    const oauthData = await shopper.auth.generateOAuthData(callback);
    const made = await loginRedirectSession(platform.adminApiKey, oauthData.codeChallenge, oauthData.state);
    expect(made.status).toBe(200);
    const page = await loginPageOf(made.body.redirectSession.fullUrl);
    const pageVisitor = await visitorToken(platform);
    const member = await exchange(shopper.auth, await hostedPageSignsIn(page, pageVisitor), oauthData);
    expect(claimsOf(member.accessToken.value).sub).toBe(claimsOf(pageVisitor).sub);
  });

  it('the code is still the verifier holder’s alone: another client cannot exchange it', async () => {
    const shopper = await storefront();
    const { oauthData, page } = await startFlow(shopper.auth);
    const location = await hostedPageSignsIn(page, await visitorToken(platform));
    const { code } = parseFromUrl(location, 'query');
    const other = await storefront();
    const stolen = await other.auth.generateOAuthData(callback);
    const refused = await call(platform, 'POST', '/oauth2/token', {
      body: {
        clientId: TEST_CLIENT_ID,
        grantType: 'authorization_code',
        code,
        codeVerifier: stolen.codeVerifier,
        redirectUri: callback,
      },
    });
    expect(refused.status).toBe(401);
    // and the code, misused once, is burnt for its owner too
    await expect(exchange(shopper.auth, location, oauthData)).rejects.toThrow();
  });
});
