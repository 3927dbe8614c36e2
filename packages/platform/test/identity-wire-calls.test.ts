import { createHash, randomBytes } from 'node:crypto';
import { signInCallbackUrl } from '@cartwheel/sdk/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, latestCode, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery staple';

/**
 * Point 7's identity calls as the specification spells them: `POST /v1/Start` (capital S, as the
 * hosted client's packages write it) and `GET /v1/callback` {state, sessionToken}, where a hosted
 * sign-in ends.
 */
describe.each(DIALECTS)('identity calls as point 7 spells them, on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  let redirectUri: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    redirectUri = `${platform.url}/auth/callback`;
  });
  afterAll(() => platform?.stop());

  it('POST /v1/Start sends a code as /v1/start does, and the code verifies the email', async () => {
    const email = uniqueEmail('start');
    const registered = await register(platform, visitor, email, PASSWORD);
    const identityId = registered.body.identity.id;
    const started = await call(platform, 'POST', '/_api/iam/verification/v1/Start', {
      auth: platform.adminApiKey,
      body: { identityId, target: 'EMAIL' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const verified = await call(platform, 'POST', '/_api/iam/verification/v1/verify', {
      auth: visitor,
      body: { verificationId: started.body.verificationId, code: await latestCode(platform, email) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const asVisitor = await call(platform, 'POST', '/_api/iam/verification/v1/Start', {
      auth: visitor,
      body: { identityId, target: 'EMAIL' },
    });
    expect(asVisitor.status).toBe(403);
  });

  /** A fresh member's session token from a direct login, and an authorization request for the test client. */
  async function signedIn() {
    const email = uniqueEmail('callback');
    const answer = await register(platform, visitor, email, PASSWORD);
    expect(answer.body.state).toBe('SUCCESS');
    const verifier = randomBytes(32).toString('base64url');
    const request = new URLSearchParams({
      client_id: TEST_CLIENT_ID,
      redirect_uri: redirectUri,
      response_type: 'code',
      response_mode: 'query',
      scope: 'offline_access',
      state: 'client-state-7',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    return { sessionToken: answer.body.sessionToken as string, verifier, request };
  }

  const callback = (path: string) => fetch(`${platform.url}${path}`, { redirect: 'manual' });

  it('GET /v1/callback answers the authorization request it carries with a code for the signed-in member', async () => {
    const { sessionToken, verifier, request } = await signedIn();
    const answer = await callback(signInCallbackUrl(request, sessionToken));
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('client-state-7');
    const exchanged = await call(platform, 'POST', '/oauth2/token', {
      body: {
        grantType: 'authorization_code',
        clientId: TEST_CLIENT_ID,
        code: location.searchParams.get('code'),
        codeVerifier: verifier,
        redirectUri,
      },
    });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    const me = await call(platform, 'GET', '/members/v1/members/my', { auth: exchanged.body.access_token });
    expect(me.status).toBe(200);

    // the session token is spent: a second callback with it signs no one in
    const again = await callback(signInCallbackUrl(request, sessionToken));
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it('GET /v1/callback refuses a missing session token, and a state that is no authorization request', async () => {
    const { sessionToken, request } = await signedIn();
    const missing = await callback(
      `/_api/iam/authentication/v1/callback?state=${encodeURIComponent(`${request}`)}`,
    );
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('invalid_request');

    const notARequest = await callback(signInCallbackUrl('just-a-random-state', sessionToken));
    expect(notARequest.status).toBe(400);

    const foreignRedirect = new URLSearchParams(request);
    foreignRedirect.set('redirect_uri', 'https://attacker.example/steal');
    const refused = await callback(signInCallbackUrl(foreignRedirect, sessionToken));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe('redirect_uri_not_allowed');
  });
});
