import { createClient, OAuthStrategy } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../src/identity/totp.ts';
import { hostedClientDirectLogin } from './hosted-client-browser.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { memberTokens, register, visitorToken } from './identity-client.ts';
import { as } from './staff-support.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * `getAuthUrl` options with a session token: the client passes `sessionToken` on (its own
 * `getMemberTokensForDirectLogin` does) though its typings leave it out.
 */
const silently = (sessionToken: string) =>
  ({ prompt: 'none', responseMode: 'query', sessionToken }) as { prompt: 'none'; responseMode: 'query' };

/**
 * The hosted platform's own client (`@wix/sdk`'s OAuthStrategy), unchanged, signing a member in against
 * Cartwheel's platform. Its `getMemberTokensForDirectLogin` needs a browser (a hidden frame and
 * `postMessage`; in Node it reaches for `document`), so that call runs in Chromium on a page of the
 * platform's origin; the rest runs in Node through the same public calls.
 */
describe.each(DIALECTS)("the hosted platform's own auth client on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  const PASSWORD = 'correct horse battery staple';
  let counter = 0;
  const email = () => `hosted.${dialect}.${Date.now().toString(36)}${counter++}@example.com`;
  const client = () => createClient({ modules: {}, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  async function myMember(accessToken: string) {
    const response = await fetch(`${platform.url}/members/v1/members/my`, {
      headers: { Authorization: accessToken },
    });
    return (await response.json()) as { member: { loginEmail: string; id: string } };
  }

  it('registers, logs in, and trades the session token for member tokens through getAuthUrl with prompt none', async () => {
    const { auth } = client();
    const address = email();
    const registered = await auth.register({ email: address, password: PASSWORD });
    expect(registered.loginState).toBe('SUCCESS');
    const login = await auth.login({ email: address, password: PASSWORD });
    expect(login.loginState).toBe('SUCCESS');
    const sessionToken = (login as { data: { sessionToken: string } }).data.sessionToken;

    const oauthData = auth.generateOAuthData(`${platform.url}/auth/callback`);
    const { authUrl } = await auth.getAuthUrl(oauthData, silently(sessionToken));
    const answer = await fetch(authUrl, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const { code, state } = auth.parseFromUrl(answer.headers.get('location')!, 'query');
    const tokens = await auth.getMemberTokens(code!, state!, oauthData);
    expect(tokens.refreshToken.role).toBe('member');
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);
    expect((await myMember(tokens.accessToken.value)).member.loginEmail).toBe(address);

    const { logoutUrl } = await auth.logout(`${platform.url}/`);
    expect(auth.loggedIn()).toBe(false);
    const back = await fetch(logoutUrl, { redirect: 'manual' });
    expect(back.headers.get('location')).toBe(`${platform.url}/`);
  });

  it('hears the hosted error code of each failed sign-up and sign-in: a taken email, a wrong password, an unknown email', async () => {
    const { auth } = client();
    const address = email();
    expect((await auth.register({ email: address, password: PASSWORD })).loginState).toBe('SUCCESS');

    const again = await auth.register({ email: address, password: PASSWORD });
    expect(again.loginState).toBe('FAILURE');
    expect((again as { errorCode?: string }).errorCode).toBe('emailAlreadyExists');

    const wrongPassword = await auth.login({ email: address, password: `${PASSWORD} but not quite` });
    expect(wrongPassword.loginState).toBe('FAILURE');
    expect((wrongPassword as { errorCode?: string }).errorCode).toBe('invalidPassword');

    const unknown = await auth.login({ email: `nobody.${address}`, password: PASSWORD });
    expect(unknown.loginState).toBe('FAILURE');
    expect((unknown as { errorCode?: string }).errorCode).toBe('invalidEmail');
  });

  it("a sign-in that asks for a second step is point 4's FAILURE 'Unknown _state' to the hosted client", async () => {
    const address = email();
    const visitor = await visitorToken(platform);
    const registered = await register(platform, visitor, address, PASSWORD);
    const member = as(platform, (await memberTokens(platform, registered.body.sessionToken)).access_token);
    const secret = (await member.post('/api/cartwheel/identity/factors/TOTP/enrol')).body.secret as string;
    const activated = await member.post('/api/cartwheel/identity/factors/TOTP/activate', {
      code: totpAt(secret, Date.now()),
    });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);

    const { auth } = client();
    const login = await auth.login({ email: address, password: PASSWORD });
    expect(login.loginState).toBe('FAILURE');
    expect((login as { error?: string }).error).toBe('Unknown _state');
  });

  it('gets member tokens by member id with the admin key (getMemberTokensForExternalLogin)', async () => {
    const { auth } = client();
    const address = email();
    expect((await auth.register({ email: address, password: PASSWORD })).loginState).toBe('SUCCESS');
    const memberId = await memberIdOf(auth, address);
    const server = client().auth;
    await server.generateVisitorTokens().then((tokens) => server.setTokens(tokens));
    const tokens = await server.getMemberTokensForExternalLogin(memberId, platform.adminApiKey);
    expect(tokens.refreshToken.role).toBe('member');
    expect((await myMember(tokens.accessToken.value)).member.loginEmail).toBe(address);
  });

  it('signs a member in with getMemberTokensForDirectLogin in Chromium (web_message in a hidden frame)', async () => {
    const address = email();
    const result = await hostedClientDirectLogin(platform.url, {
      clientId: TEST_CLIENT_ID,
      email: address,
      password: PASSWORD,
    });
    expect(result.loginState).toBe('SUCCESS');
    expect(result.role).toBe('member');
    expect(result.loggedIn).toBe(true);
    expect((await myMember(result.accessToken)).member.loginEmail).toBe(address);
  }, 60_000);

  /** The member id of `address`, by signing in once through the code flow. */
  async function memberIdOf(auth: ReturnType<typeof client>['auth'], address: string): Promise<string> {
    const login = await auth.login({ email: address, password: PASSWORD });
    const sessionToken = (login as { data: { sessionToken: string } }).data.sessionToken;
    const oauthData = auth.generateOAuthData(`${platform.url}/auth/callback`);
    const { authUrl } = await auth.getAuthUrl(oauthData, silently(sessionToken));
    const location = (await fetch(authUrl, { redirect: 'manual' })).headers.get('location')!;
    const { code, state } = auth.parseFromUrl(location, 'query');
    const tokens = await auth.getMemberTokens(code!, state!, oauthData);
    return (await myMember(tokens.accessToken.value)).member.id;
  }
});
