import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/** `POST /_api/redirects-api/v1/redirect-session` for every flow, and the admin's OAuth client registry. */
const SESSIONS = '/_api/redirects-api/v1/redirect-session';
/** RFC 7636 Appendix B's challenge: the S256 digest of its verifier, 43 characters. */
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe.each(DIALECTS)('redirect sessions and OAuth clients on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  const session = (body: unknown, auth = visitor) => call(platform, 'POST', SESSIONS, { auth, body });

  it('leads an auth session to the authorization endpoint with the whole request in its query', async () => {
    const { status, body } = await session({
      auth: {
        authRequest: {
          redirectUri: `${platform.url}/auth/callback`,
          clientId: TEST_CLIENT_ID,
          codeChallenge: CHALLENGE,
          codeChallengeMethod: 'S256',
          responseMode: 'query',
          responseType: 'code',
          scope: 'offline_access',
          state: 'the-state',
          sessionToken: 'the-session',
        },
        prompt: 'none',
      },
    });
    expect(status).toBe(200);
    const { fullUrl, urlDetails, id } = body.redirectSession;
    expect(id).toEqual(expect.any(String));
    expect(urlDetails.endpoint).toBe(`${platform.url}/oauth2/authorize`);
    expect(Object.fromEntries(new URL(fullUrl).searchParams)).toEqual({
      client_id: TEST_CLIENT_ID,
      redirect_uri: `${platform.url}/auth/callback`,
      response_type: 'code',
      response_mode: 'query',
      scope: 'offline_access',
      state: 'the-state',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      prompt: 'none',
      sessionToken: 'the-session',
    });
    expect(urlDetails.searchParams.state).toBe('the-state');
  });

  it('names each missing or wrong auth field in field violations', async () => {
    const { status, body } = await session({
      auth: { authRequest: { responseMode: 'popup', codeChallengeMethod: 'plain' }, prompt: 'never' },
    });
    expect(status).toBe(400);
    const fields = body.details.validationError.fieldViolations.map((v: { field: string }) => v.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'auth.authRequest.clientId',
        'auth.authRequest.state',
        'auth.authRequest.codeChallenge',
        'auth.authRequest.codeChallengeMethod',
        'auth.authRequest.responseMode',
        'auth.prompt',
      ]),
    );
  });

  const HOSTILE_CHALLENGES: Array<{ name: string; challenge: string; rule: string }> = [
    { name: 'a 1 MB challenge', challenge: 'a'.repeat(1024 * 1024), rule: 'MAX_LENGTH' },
    { name: 'a challenge of 129 characters', challenge: 'a'.repeat(129), rule: 'MAX_LENGTH' },
    { name: 'a challenge of 42 characters', challenge: 'a'.repeat(42), rule: 'MIN_LENGTH' },
    {
      name: 'a challenge with characters PKCE does not use',
      challenge: `${'a'.repeat(42)}/`,
      rule: 'FORMAT',
    },
    { name: 'a challenge with an astral character', challenge: `${'a'.repeat(42)}😀`, rule: 'FORMAT' },
  ];
  for (const { name, challenge, rule } of HOSTILE_CHALLENGES) {
    it(`refuses ${name} (RFC 7636: 43 to 128 unreserved characters), records nothing, and keeps answering`, async () => {
      const before = await platform.services.database.db
        .selectFrom('oauth_authorization_requests')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      const authRequest = {
        clientId: TEST_CLIENT_ID,
        redirectUri: `${platform.url}/auth/callback`,
        state: 'the-state',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      };
      const { status, body } = await session({ auth: { authRequest } });
      expect(status).toBe(400);
      expect(body.details.validationError.fieldViolations).toEqual([
        expect.objectContaining({ field: 'auth.authRequest.codeChallenge', ruleName: rule }),
      ]);
      const direct = await fetch(
        `${platform.url}/oauth2/authorize?${new URLSearchParams({
          client_id: TEST_CLIENT_ID,
          redirect_uri: `${platform.url}/auth/callback`,
          response_type: 'code',
          state: 'the-state',
          code_challenge: challenge.slice(0, 4000),
          code_challenge_method: 'S256',
        })}`,
        { redirect: 'manual' },
      );
      expect(direct.status).toBe(400);
      const after = await platform.services.database.db
        .selectFrom('oauth_authorization_requests')
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(after.count)).toBe(Number(before.count));
      const fine = await session({ auth: { authRequest: { ...authRequest, codeChallenge: CHALLENGE } } });
      expect(fine.status).toBe(200);
    });
  }

  it('leads a logout session to the logout endpoint, which returns only to a registered page', async () => {
    const { body } = await session({
      logout: { clientId: TEST_CLIENT_ID },
      callbacks: { postFlowUrl: `${platform.url}/cart` },
    });
    const fullUrl = new URL(body.redirectSession.fullUrl);
    expect(`${fullUrl.origin}${fullUrl.pathname}`).toBe(`${platform.url}/oauth2/logout`);
    expect(fullUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${platform.url}/cart`);
    const back = await fetch(fullUrl, { redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${platform.url}/cart`);

    const elsewhere = await session({
      logout: { clientId: TEST_CLIENT_ID },
      callbacks: { postFlowUrl: 'https://evil.example/' },
    });
    const refused = await fetch(elsewhere.body.redirectSession.fullUrl, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    const answer = (await refused.json()) as Record<string, string>;
    expect(answer.error).toBe('redirect_uri_not_allowed');
    expect(answer.error_description).toContain('https://evil.example/');
  });

  it('answers the identity logout call as the logout endpoint does', async () => {
    const query = new URLSearchParams({
      clientId: TEST_CLIENT_ID,
      postLogoutRedirectUri: `${platform.url}/`,
    });
    const back = await fetch(`${platform.url}/_api/iam/authentication/v1/logout?${query}`, {
      redirect: 'manual',
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${platform.url}/`);
  });

  it('leads a product session to its storefront page', async () => {
    const { body } = await session({ storesProduct: { productSlug: 'linen-shirt' } });
    expect(body.redirectSession.fullUrl).toBe(`${platform.url}/product-page/linen-shirt`);
    const missing = await session({ storesProduct: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details.validationError.fieldViolations[0].field).toBe('storesProduct.productSlug');
  });

  it.each([
    ['bookingsCheckout', { bookingsCheckout: { timezone: 'UTC' } }],
    ['eventsCheckout', { eventsCheckout: { eventSlug: 'gala' } }],
    ['paidPlansCheckout', { paidPlansCheckout: { planId: 'p1' } }],
    ['bookingsBook', { bookingsBook: { resourceId: 'r1' } }],
    ['callbacks', { callbacks: { postFlowUrl: 'http://x.test/' } }],
    ['preferences', { preferences: { useGenericWixPages: true } }],
  ])('leads a %s session to the page saying the flow is not available here', async (flow, body) => {
    const answer = await session(body);
    expect(answer.status).toBe(200);
    expect(answer.body.redirectSession.fullUrl).toBe(`${platform.url}/auth/unavailable?flow=${flow}`);
  });

  it('leads account sections to the storefront account page, or to the unavailable page', async () => {
    const info = await session({ membersAccount: { section: 'ACCOUNT_INFO' } });
    expect(info.body.redirectSession.fullUrl).toBe(`${platform.url}/account`);
    const orders = await session({ membersAccount: { section: 'ORDERS' } });
    expect(orders.body.redirectSession.fullUrl).toBe(`${platform.url}/account?section=orders`);
    const bookings = await session({ membersAccount: { section: 'BOOKINGS' } });
    expect(bookings.body.redirectSession.fullUrl).toBe(
      `${platform.url}/auth/unavailable?flow=membersAccount.BOOKINGS`,
    );
    const wrong = await session({ membersAccount: { section: 'GARDEN' } });
    expect(wrong.status).toBe(400);
  });

  it('refuses two flows in one request, an empty request, and a caller without a token', async () => {
    const two = await session({ storesProduct: { productSlug: 'a' }, logout: { clientId: TEST_CLIENT_ID } });
    expect(two.status).toBe(400);
    expect((await session({})).status).toBe(400);
    const anonymous = await call(platform, 'POST', SESSIONS, {
      body: { storesProduct: { productSlug: 'a' } },
    });
    expect(anonymous.status).toBe(401);
  });

  describe('the OAuth client registry', () => {
    const clients = '/api/cartwheel/oauth-clients';

    it('registers a client for an admin, and adds redirect URIs and origins to it', async () => {
      const made = await call(platform, 'POST', clients, {
        auth: platform.adminApiKey,
        body: {
          name: 'Shop on Vite',
          redirectUris: ['http://localhost:5173/callback'],
          allowedOrigins: ['http://localhost:5173'],
        },
      });
      expect(made.status).toBe(200);
      const id = made.body.client.id;
      const response = await fetch(`${platform.url}${clients}/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: platform.adminApiKey },
        body: JSON.stringify({
          addRedirectUris: ['http://localhost:5173/account'],
          addAllowedOrigins: ['http://127.0.0.1:5173'],
        }),
      });
      expect(response.status).toBe(200);
      const changed = { body: (await response.json()) as Record<string, any> };
      expect(changed.body.client.redirectUris).toEqual([
        'http://localhost:5173/callback',
        'http://localhost:5173/account',
      ]);
      expect(changed.body.client.allowedOrigins).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
      // the new client gets visitor tokens at once
      const tokens = await call(platform, 'POST', '/oauth2/token', {
        body: { clientId: id, grantType: 'anonymous' },
      });
      expect(tokens.status).toBe(200);
    });

    it('names malformed redirect URIs and origins', async () => {
      const bad = await call(platform, 'POST', clients, {
        auth: platform.adminApiKey,
        body: {
          name: '',
          redirectUris: ['not a url', 'http://x.test/#frag'],
          allowedOrigins: ['http://x.test/path'],
        },
      });
      expect(bad.status).toBe(400);
      const fields = bad.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field);
      expect(fields).toEqual(['name', 'redirectUris[0]', 'redirectUris[1]', 'allowedOrigins[0]']);
    });

    it('is for admins only', async () => {
      const answer = await call(platform, 'POST', clients, {
        auth: visitor,
        body: { name: 'x', redirectUris: [], allowedOrigins: [] },
      });
      expect(answer.status).toBe(403);
    });
  });
});
