import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../src/http/redact.ts';
import { register, uniqueEmail, visitorToken } from './identity-client.ts';
import { EDGE_DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The input contract at the edge, for the HTTP shell, the OAuth calls, the identity calls and the
 * mailbox: a request that does not fit its route's declaration answers 400 with the field violation a
 * client would show, and changes nothing. (The catalog's own table is catalog-input.test.ts.)
 */

type Auth = 'none' | 'visitor' | 'admin';

interface Case {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** A value is sent as JSON; a string as the raw body text. */
  body?: unknown;
  raw?: string;
  auth: Auth;
  field: string;
  rule: string;
}

const long = (length: number) => 'x'.repeat(length);

const CASES: Case[] = [
  // ---- the shell: what any route gets ----
  {
    name: 'a body that is not JSON',
    method: 'POST',
    path: '/oauth2/token',
    raw: '{"grantType":',
    auth: 'none',
    field: 'body',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in a path id',
    method: 'GET',
    path: '/api/cartwheel/oauth-clients/a%00b',
    auth: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in a query parameter',
    method: 'GET',
    path: '/api/cartwheel/mailbox?to=a%00b',
    auth: 'admin',
    field: 'to',
    rule: 'FORMAT',
  },
  {
    name: 'an unpaired surrogate in a body string',
    method: 'POST',
    path: '/_api/iam/authentication/v2/login',
    raw: '{"loginId":{"email":"\\ud800@example.com"},"password":"pw"}',
    auth: 'visitor',
    field: 'loginId.email',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL escaped in a body string',
    method: 'POST',
    path: '/_api/iam/authentication/v2/register',
    raw: '{"loginId":{"email":"nul@example.com"},"password":"a long password","profile":{"firstName":"A\\u0000"}}',
    auth: 'visitor',
    field: 'profile.firstName',
    rule: 'FORMAT',
  },
  {
    name: 'a __proto__ key',
    method: 'POST',
    path: '/_api/redirects-api/v1/redirect-session',
    raw: '{"logout":{"clientId":"c"},"__proto__":{"admin":true}}',
    auth: 'visitor',
    field: '__proto__',
    rule: 'FIELD_NOT_ALLOWED',
  },
  {
    name: 'a body nested 200,000 levels deep',
    method: 'POST',
    path: '/_api/iam/authentication/v2/login',
    raw: `{"clientMetaData":${'{"a":'.repeat(200_000)}"\\u0041"${'}'.repeat(200_000)}}`,
    auth: 'visitor',
    field: 'body',
    rule: 'MAX',
  },
  {
    name: 'an array where the body must be an object',
    method: 'POST',
    path: '/_api/iam/authentication/v2/login',
    body: [1, 2],
    auth: 'visitor',
    field: 'body',
    rule: 'FORMAT',
  },
  {
    name: 'no body at all, as an empty one',
    method: 'POST',
    path: '/_api/iam/verification/v1/auth/resend',
    auth: 'visitor',
    field: 'stateToken',
    rule: 'REQUIRED_FIELD',
  },

  // ---- tokens ----
  {
    name: 'an object as the grant type',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: { toString: 1 } },
    auth: 'none',
    field: 'grantType',
    rule: 'FORMAT',
  },
  {
    name: 'a list as the client id',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'anonymous', clientId: [] },
    auth: 'none',
    field: 'clientId',
    rule: 'FORMAT',
  },
  {
    name: 'a number as the refresh token',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'refresh_token', refreshToken: 12345 },
    auth: 'none',
    field: 'refreshToken',
    rule: 'FORMAT',
  },
  {
    name: 'a number as the code',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'authorization_code', clientId: TEST_CLIENT_ID, code: 5, codeVerifier: long(43) },
    auth: 'none',
    field: 'code',
    rule: 'FORMAT',
  },
  {
    name: 'an unknown grant type',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'password', clientId: TEST_CLIENT_ID },
    auth: 'none',
    field: 'grantType',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'an anonymous grant without a client id',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'anonymous' },
    auth: 'none',
    field: 'clientId',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'a client id of 5,000 characters',
    method: 'POST',
    path: '/oauth2/token',
    body: { grantType: 'anonymous', clientId: long(5000) },
    auth: 'none',
    field: 'clientId',
    rule: 'MAX_LENGTH',
  },

  // ---- redirect sessions ----
  {
    name: 'a string where the auth flow belongs',
    method: 'POST',
    path: '/_api/redirects-api/v1/redirect-session',
    body: { auth: 'login' },
    auth: 'visitor',
    field: 'auth',
    rule: 'FORMAT',
  },
  {
    name: 'a number as the logout client id',
    method: 'POST',
    path: '/_api/redirects-api/v1/redirect-session',
    body: { logout: { clientId: 5 } },
    auth: 'visitor',
    field: 'logout.clientId',
    rule: 'FORMAT',
  },

  // ---- identity ----
  {
    name: 'a number as the login email',
    method: 'POST',
    path: '/_api/iam/authentication/v2/register',
    body: { loginId: { email: 5 }, password: 'a long password' },
    auth: 'visitor',
    field: 'loginId.email',
    rule: 'FORMAT',
  },
  {
    name: 'a password of 1,000 characters',
    method: 'POST',
    path: '/_api/iam/authentication/v2/register',
    body: { loginId: { email: 'long.password@example.com' }, password: long(1000) },
    auth: 'visitor',
    field: 'password',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'ten captcha tokens',
    method: 'POST',
    path: '/_api/iam/authentication/v2/login',
    body: { loginId: { email: 'a@example.com' }, password: 'pw', captchaTokens: Array(10).fill({}) },
    auth: 'visitor',
    field: 'captchaTokens',
    rule: 'MAX_SIZE',
  },
  {
    name: 'an object as the password',
    method: 'POST',
    path: '/_api/iam/authentication/v2/login',
    body: { loginId: { email: 'a@example.com' }, password: {} },
    auth: 'visitor',
    field: 'password',
    rule: 'FORMAT',
  },
  {
    name: 'an unknown privacy status',
    method: 'POST',
    path: '/_api/iam/authentication/v2/register',
    body: {
      loginId: { email: 'privacy@example.com' },
      password: 'a long password',
      profile: { privacyStatus: 'SECRET' },
    },
    auth: 'visitor',
    field: 'profile.privacyStatus',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'an object as the verification code',
    method: 'POST',
    path: '/_api/iam/verification/v1/auth/verify',
    body: { code: { digits: 123456 }, stateToken: 'state' },
    auth: 'visitor',
    field: 'code',
    rule: 'FORMAT',
  },
  {
    name: 'a list as the recovery token',
    method: 'POST',
    path: '/_api/iam/recovery/v1/recover',
    body: { recoveryToken: ['token'], password: 'a long password' },
    auth: 'none',
    field: 'recoveryToken',
    rule: 'FORMAT',
  },
  {
    name: 'a number as the recovery email',
    method: 'POST',
    path: '/_api/iam/recovery/v1/send-email',
    body: { email: 1 },
    auth: 'visitor',
    field: 'email',
    rule: 'FORMAT',
  },
  {
    name: 'a verification target that does not exist',
    method: 'POST',
    path: '/_api/iam/verification/v1/start',
    body: { identityId: 'someone', target: 'PIGEON' },
    auth: 'admin',
    field: 'target',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'an unknown captcha setting',
    method: 'PATCH',
    path: '/api/cartwheel/identity-settings',
    body: { settings: { captcha: 'sometimes' } },
    auth: 'admin',
    field: 'settings.captcha',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'settings that are missing',
    method: 'PATCH',
    path: '/api/cartwheel/identity-settings',
    body: {},
    auth: 'admin',
    field: 'settings',
    rule: 'REQUIRED_FIELD',
  },

  // ---- OAuth clients and the mailbox ----
  {
    name: 'a string where the redirect URIs list belongs',
    method: 'POST',
    path: '/api/cartwheel/oauth-clients',
    body: { name: 'Shop', redirectUris: 'https://shop.example/callback' },
    auth: 'admin',
    field: 'redirectUris',
    rule: 'FORMAT',
  },
  {
    name: 'a redirect URI list of 1,000',
    method: 'POST',
    path: '/api/cartwheel/oauth-clients',
    body: { name: 'Shop', redirectUris: Array.from({ length: 1000 }, (_, i) => `https://s${i}.example/`) },
    auth: 'admin',
    field: 'redirectUris',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a mailbox page of zero',
    method: 'GET',
    path: '/api/cartwheel/mailbox?limit=0',
    auth: 'admin',
    field: 'limit',
    rule: 'MIN',
  },
  {
    name: 'a mailbox page size that is not a number',
    method: 'GET',
    path: '/api/cartwheel/mailbox?limit=many',
    auth: 'admin',
    field: 'limit',
    rule: 'FORMAT',
  },
  {
    name: 'a repeated query parameter',
    method: 'GET',
    path: '/api/cartwheel/mailbox?to=a@example.com&to=b@example.com',
    auth: 'admin',
    field: 'to',
    rule: 'FORMAT',
  },
];

describe.each(EDGE_DIALECTS)('the input contract on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  async function send(test: Pick<Case, 'method' | 'path' | 'body' | 'raw' | 'auth'>) {
    const headers: Record<string, string> = {};
    if (test.auth === 'visitor') headers.authorization = visitor;
    if (test.auth === 'admin') headers.authorization = platform.adminApiKey;
    let body: string | undefined;
    if (test.raw !== undefined || test.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = test.raw ?? JSON.stringify(test.body);
    }
    const response = await fetch(`${platform.url}${test.path}`, { method: test.method, headers, body });
    const text = await response.text();
    return { status: response.status, text, body: text ? JSON.parse(text) : {} };
  }

  it.each(CASES)('refuses $name with 400 and a $rule violation of "$field"', async (test) => {
    const answer = await send(test);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.message).toBe('INVALID_ARGUMENT');
    expect(answer.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: test.field,
      violatedRule: test.rule,
    });
    expect(answer.text).not.toMatch(/at \w+ \(|TypeError|SQL|syntax error/i);
  });

  it('changes nothing when it refuses: a refused registration leaves the email free', async () => {
    const email = uniqueEmail('refused');
    const refused = await send({
      method: 'POST',
      path: '/_api/iam/authentication/v2/register',
      body: { loginId: { email }, password: 'a long password', captchaTokens: 'solved' },
      auth: 'visitor',
    });
    expect(refused.status).toBe(400);
    const registered = await register(platform, visitor, email, 'a long password');
    expect(registered.body.state).toBe('SUCCESS');
  });

  it('refuses a caller who may not make the call before looking at the input', async () => {
    const anonymous = await send({
      method: 'PATCH',
      path: '/api/cartwheel/identity-settings',
      body: { settings: 'nonsense' },
      auth: 'none',
    });
    expect(anonymous.status).toBe(401);
    const visitorAnswer = await send({
      method: 'PATCH',
      path: '/api/cartwheel/identity-settings',
      body: { settings: 'nonsense' },
      auth: 'visitor',
    });
    expect(visitorAnswer.status).toBe(403);
  });

  it('tells a merchant every wrong setting at once', async () => {
    const answer = await send({
      method: 'PATCH',
      path: '/api/cartwheel/identity-settings',
      body: { settings: { requireOwnerApproval: 'yes', captcha: 'sometimes' } },
      auth: 'admin',
    });
    expect(answer.status).toBe(400);
    const fields = answer.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field);
    expect(fields.sort()).toEqual(['settings.captcha', 'settings.requireOwnerApproval']);
  });

  it('answers the browser-facing OAuth endpoints in their own error form', async () => {
    const logout = await fetch(`${platform.url}/oauth2/logout?client_id=a&client_id=b`, {
      redirect: 'manual',
    });
    expect(logout.status).toBe(400);
    expect(await logout.json()).toMatchObject({ error: 'invalid_request' });
    const authorize = await fetch(
      `${platform.url}/oauth2/authorize?client_id=${TEST_CLIENT_ID}&state=${long(5000)}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('sends a logout back to the registered page it checked, parsed, never the raw text', async () => {
    // the demo client allows every page of the platform's origin; a backslash means "/" to a browser
    // but, to RFC 3986 parsers (curl, Python), starts the host part over at "@"
    const target = `${platform.url}\\@evil.example/`;
    const answer = await fetch(
      `${platform.url}/oauth2/logout?client_id=${TEST_CLIENT_ID}&post_logout_redirect_uri=${encodeURIComponent(target)}`,
      { redirect: 'manual' },
    );
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location') ?? '';
    expect(location).not.toContain('\\');
    expect(location).toBe(`${platform.url}/@evil.example/`);
    expect(new URL(location).host).toBe(new URL(platform.url).host);

    const elsewhere = await fetch(
      `${platform.url}/oauth2/logout?client_id=${TEST_CLIENT_ID}&post_logout_redirect_uri=${encodeURIComponent('https://evil.example\\@127.0.0.1/')}`,
      { redirect: 'manual' },
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('location')).toBeNull();
  });
});

describe('request logs', () => {
  it('keep the names of secret query parameters, never their values', () => {
    expect(
      redactUrl('/oauth2/authorize?client_id=c&sessionToken=s3cr3t&state=st4te&code_challenge=abc'),
    ).toBe('/oauth2/authorize?client_id=c&sessionToken=[redacted]&state=[redacted]&code_challenge=abc');
    expect(redactUrl('/auth/callback?code=c0de&state=x#frag')).not.toMatch(/c0de/);
    expect(redactUrl('/auth/reset-password?token=t0k3n')).toBe('/auth/reset-password?token=[redacted]');
    expect(redactUrl('/stores-reader/v1/products/p1')).toBe('/stores-reader/v1/products/p1');
  });
});
