import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { codeChallengeOf } from '../src/auth/index.ts';
import {
  ClientError,
  createClient,
  emptyTokens,
  type LoginResult,
  OAuthStrategy,
  type OAuthStrategyOptions,
} from '../src/index.ts';
import { type HostedAuthPlatform, playHostedAuthPlatform } from './support/hosted-auth-platform.ts';
import { type LoopbackServer, startLoopbackServer } from './support/loopback-server.ts';

const server: LoopbackServer = await startLoopbackServer();
afterAll(() => server.close());
let platform: HostedAuthPlatform;
beforeEach(() => {
  server.requests.length = 0;
  platform = playHostedAuthPlatform(server);
});

const strategy = (options: Partial<OAuthStrategyOptions> = {}) =>
  OAuthStrategy({ clientId: 'client-1', host: server.url, ...options });
const requestsTo = (path: string) => server.requests.filter((r) => r.path === path);
const LOGIN = '/_api/iam/authentication/v2/login';
const REGISTER = '/_api/iam/authentication/v2/register';
const VERIFY = '/_api/iam/verification/v1/auth/verify';
const REDIRECT_SESSION = '/_api/redirects-api/v1/redirect-session';
const REDIRECT_URI = 'https://shop.example/callback';

describe('the authorization-code flow with PKCE (point 4)', () => {
  it('generates a state and a verifier of 43 characters and the verifier’s S256 challenge', async () => {
    const data = await strategy().generateOAuthData(REDIRECT_URI, 'https://shop.example/cart');
    expect(data.state).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(data.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(data.state).not.toBe(data.codeVerifier);
    expect(data.codeChallenge).toBe(await codeChallengeOf(data.codeVerifier));
    expect(data).toMatchObject({ redirectUri: REDIRECT_URI, originalUri: 'https://shop.example/cart' });
  });

  it('builds the login address from a redirect session with prompt login and response mode fragment by default', async () => {
    const auth = strategy();
    const data = await auth.generateOAuthData(REDIRECT_URI);
    const { authUrl } = await auth.getAuthUrl(data);
    expect(authUrl).toBe(`${server.url}/oauth2/authorize?session=rs-1`);
    const [request] = requestsTo(REDIRECT_SESSION);
    expect(request?.body).toEqual({
      auth: {
        authRequest: {
          redirectUri: REDIRECT_URI,
          clientId: 'client-1',
          codeChallenge: data.codeChallenge,
          codeChallengeMethod: 'S256',
          responseMode: 'fragment',
          responseType: 'code',
          scope: 'offline_access',
          state: data.state,
        },
        prompt: 'login',
      },
    });
    // the redirect session is asked for with the visitor's token, fetched on the way
    expect(request?.headers.authorization).toBe('visitor-access-1');
  });

  it('passes the prompt, the response mode and a session token through to the redirect session', async () => {
    const auth = strategy();
    const data = await auth.generateOAuthData(REDIRECT_URI);
    await auth.getAuthUrl(data, { prompt: 'none', responseMode: 'query', sessionToken: 'session-1' });
    expect(requestsTo(REDIRECT_SESSION)[0]?.body).toMatchObject({
      auth: { authRequest: { responseMode: 'query', sessionToken: 'session-1' }, prompt: 'none' },
    });
  });

  it.each([
    ['the fragment', 'https://shop.example/callback#code=c1&state=s1', 'fragment'],
    ['the query', 'https://shop.example/callback?code=c1&state=s1', 'query'],
  ] as const)('reads code and state from %s', (_where, url, mode) => {
    expect(strategy().parseFromUrl(url, mode)).toEqual({ code: 'c1', state: 's1' });
  });

  it('keeps an error the platform sent beside the code', () => {
    expect(
      strategy().parseFromUrl('https://shop.example/cb#code=c1&state=s1&error=e&error_description=d'),
    ).toEqual({ code: 'c1', state: 's1', error: 'e', errorDescription: 'd' });
  });

  it.each([
    ['no code', 'https://shop.example/callback#state=s1', 'fragment'],
    ['no state', 'https://shop.example/callback#code=c1', 'fragment'],
    [
      'the answer in the query when the fragment is read',
      'https://shop.example/cb?code=c1&state=s1',
      'fragment',
    ],
    ['an error answer', 'https://shop.example/cb?error=access_denied&state=s1', 'query'],
  ] as const)("fails with 'Missing code or _state' given %s", (_case, url, mode) => {
    expect(() => strategy().parseFromUrl(url, mode)).toThrow(new ClientError('Missing code or _state'));
  });

  it("fails with 'Invalid _state' when the state is not the flow's, and asks for no tokens", async () => {
    const auth = strategy();
    const data = await auth.generateOAuthData(REDIRECT_URI);
    await expect(auth.getMemberTokens('c1', 'another-state', data)).rejects.toThrow(
      new ClientError('Invalid _state'),
    );
    expect(requestsTo('/oauth2/token')).toHaveLength(0);
  });

  it('exchanges the code with its verifier and redirect URI for member tokens, and then counts as logged in', async () => {
    const auth = strategy();
    const data = await auth.generateOAuthData(REDIRECT_URI);
    const before = Math.floor(Date.now() / 1000);
    const tokens = await auth.getMemberTokens('c1', data.state, data);
    expect(requestsTo('/oauth2/token').map((r) => r.body)).toEqual([
      {
        clientId: 'client-1',
        grantType: 'authorization_code',
        code: 'c1',
        codeVerifier: data.codeVerifier,
        redirectUri: REDIRECT_URI,
      },
    ]);
    expect(tokens.refreshToken).toEqual({ value: 'member-refresh', role: 'member' });
    expect(tokens.accessToken.value).toBe('member-access');
    expect(tokens.accessToken.expiresAt).toBeGreaterThanOrEqual(before + 3600);
    expect(auth.loggedIn()).toBe(false);
    auth.setTokens(tokens);
    expect(auth.loggedIn()).toBe(true);
  });

  it("fails with 'Failed to get member tokens' when the token endpoint refuses the code", async () => {
    platform.tokenStatus = 400;
    const auth = strategy();
    const data = await auth.generateOAuthData(REDIRECT_URI);
    const failure = await auth.getMemberTokens('c1', data.state, data).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ClientError);
    expect((failure as Error).message).toBe('Failed to get member tokens');
    expect(((failure as Error).cause as Error).message).toBe('something went wrong');
  });

  it('logs out through a logout redirect session and empties the tokens to role none', async () => {
    const auth = strategy();
    auth.setTokens({
      accessToken: { value: 'member-access', expiresAt: 9_999_999_999 },
      refreshToken: { value: 'member-refresh', role: 'member' },
    });
    expect(auth.loggedIn()).toBe(true);
    const { logoutUrl } = await auth.logout('https://shop.example/');
    expect(logoutUrl).toBe(`${server.url}/oauth2/logout?session=rs-1`);
    const [request] = requestsTo(REDIRECT_SESSION);
    expect(request?.body).toEqual({
      logout: { clientId: 'client-1' },
      callbacks: { postFlowUrl: 'https://shop.example/' },
    });
    expect(request?.headers.authorization).toBe('member-access');
    expect(auth.getTokens()).toEqual(emptyTokens());
    expect(auth.loggedIn()).toBe(false);
  });

  it('empties the tokens on logout even when the platform cannot make the logout session', async () => {
    const auth = strategy();
    auth.setTokens({
      accessToken: { value: 'member-access', expiresAt: 9_999_999_999 },
      refreshToken: { value: 'member-refresh', role: 'member' },
    });
    const platformAnswer = server.respond;
    server.respond = (request) =>
      request.path === REDIRECT_SESSION ? { status: 503, body: {} } : platformAnswer(request);
    await expect(auth.logout('https://shop.example/')).rejects.toThrow('System error occurred');
    expect(auth.getTokens()).toEqual(emptyTokens());
  });
});

/** Server answers of login and registration, and the login state each becomes (point 4). */
const stateMachine: [server: Record<string, unknown>, client: LoginResult][] = [
  [
    { state: 'SUCCESS', sessionToken: 'session-1' },
    { loginState: 'SUCCESS', data: { sessionToken: 'session-1' } },
  ],
  [{ state: 'REQUIRE_OWNER_APPROVAL' }, { loginState: 'OWNER_APPROVAL_REQUIRED' }],
  [
    { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken: 'state-1' },
    { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'state-1' } },
  ],
  [
    { state: 'REQUIRE_MFA', stateToken: 'state-1' },
    { loginState: 'FAILURE', error: 'Unknown _state' },
  ],
  [{ state: 'STATUS_CHECK' }, { loginState: 'FAILURE', error: 'Unknown _state' }],
  [{ state: 'UNKNOWN_STATE' }, { loginState: 'FAILURE', error: 'Unknown _state' }],
  [{ state: 'SUCCESS' }, { loginState: 'FAILURE', error: 'Unknown _state' }],
];

describe('direct login and registration: the state machine (point 4)', () => {
  it.each(stateMachine)('login answered %j becomes %j', async (answer, expected) => {
    platform.answers.set(LOGIN, () => ({ body: answer }));
    expect(await strategy().login({ email: 'ada@example.com', password: 'secret1' })).toEqual(expected);
  });

  it.each(stateMachine)('registration answered %j becomes %j', async (answer, expected) => {
    platform.answers.set(REGISTER, () => ({ body: answer }));
    expect(await strategy().register({ email: 'ada@example.com', password: 'secret1' })).toEqual(expected);
  });

  it('sends the login with the email as loginId and the captcha tokens in the wire’s list', async () => {
    platform.answers.set(LOGIN, () => ({ body: { state: 'SUCCESS', sessionToken: 's' } }));
    await strategy().login({
      email: 'ada@example.com',
      password: 'secret1',
      captchaTokens: { recaptchaToken: 'visible', invisibleRecaptchaToken: 'invisible' },
    });
    const [request] = requestsTo(LOGIN);
    expect(request?.body).toEqual({
      loginId: { email: 'ada@example.com' },
      password: 'secret1',
      captchaTokens: [{ Recaptcha: 'visible', InvisibleRecaptcha: 'invisible' }],
    });
    expect(request?.headers.authorization).toBe('visitor-access-1');
  });

  it('sends the registration with its profile and passes captcha tokens in the wire form through', async () => {
    platform.answers.set(REGISTER, () => ({ body: { state: 'SUCCESS', sessionToken: 's' } }));
    await strategy().register({
      email: 'ada@example.com',
      password: 'secret1',
      profile: { nickname: 'ada' },
      captchaTokens: [{ Recaptcha: 'visible' }],
    });
    expect(requestsTo(REGISTER)[0]?.body).toEqual({
      loginId: { email: 'ada@example.com' },
      password: 'secret1',
      profile: { nickname: 'ada' },
      captchaTokens: [{ Recaptcha: 'visible' }],
    });
  });

  it.each<[string, LoginResult]>([
    ['INITIAL', { loginState: 'INITIAL' }],
    ['SUCCESS', { loginState: 'SUCCESS', data: { sessionToken: 's' } }],
    ['OWNER_APPROVAL_REQUIRED', { loginState: 'OWNER_APPROVAL_REQUIRED' }],
    ['FAILURE', { loginState: 'FAILURE', error: 'x' }],
  ])(
    "a verification code in the %s state fails with 'Unknown _state' and is not sent",
    async (_name, state) => {
      const result = await strategy().processVerification({ verificationCode: '123456' }, state);
      expect(result).toEqual({ loginState: 'FAILURE', error: 'Unknown _state' });
      expect(requestsTo(VERIFY)).toHaveLength(0);
    },
  );

  it('a verification code while email verification is required is sent with the state token and can succeed', async () => {
    platform.answers.set(VERIFY, () => ({ body: { state: 'SUCCESS', sessionToken: 'session-2' } }));
    const result = await strategy().processVerification(
      { verificationCode: '123456' },
      { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'state-1' } },
    );
    expect(requestsTo(VERIFY)[0]?.body).toEqual({ code: '123456', stateToken: 'state-1' });
    expect(result).toEqual({ loginState: 'SUCCESS', data: { sessionToken: 'session-2' } });
  });

  it('a wrong verification code is a FAILURE carrying the server’s message', async () => {
    platform.answers.set(VERIFY, () => ({
      status: 400,
      body: {
        message: 'wrong code',
        details: { applicationError: { code: 'BAD_CODE', description: 'wrong code' } },
      },
    }));
    const result = await strategy().processVerification(
      { verificationCode: '000000' },
      { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: 'state-1' } },
    );
    expect(result).toEqual({ loginState: 'FAILURE', error: 'wrong code' });
  });
});

const applicationError = (code: string) => ({
  status: 400,
  body: {
    message: `refused ${code}`,
    details: { applicationError: { code, description: `refused ${code}` } },
  },
});
const emailViolation = {
  status: 400,
  body: {
    message: 'invalid',
    details: {
      validationError: {
        fieldViolations: [
          { field: 'loginId.email', description: 'must be an email', violatedRule: 'FORMAT' },
        ],
      },
    },
  },
};
const typedEmailViolation = {
  status: 400,
  body: {
    message: 'invalid',
    details: {
      validationError: { fieldViolations: [{ field: 'email', description: 'bad', data: { type: 'EMAIL' } }] },
    },
  },
};
const passwordViolation = {
  status: 400,
  body: {
    message: 'invalid',
    details: { validationError: { fieldViolations: [{ field: 'password', description: 'too short' }] } },
  },
};

/** Server refusals and the errorCode each becomes, for login and for registration (point 5). */
const classification: [
  name: string,
  answer: { status: number; body: unknown },
  login: string | undefined,
  register: string | undefined,
][] = [
  ['a field violation of loginId.email', emailViolation, 'invalidEmail', 'invalidEmail'],
  ['a field violation typed EMAIL', typedEmailViolation, 'invalidEmail', 'invalidEmail'],
  ['-19995', applicationError('-19995'), 'invalidEmail', 'emailAlreadyExists'],
  ['-19971', applicationError('-19971'), 'missingCaptchaToken', 'missingCaptchaToken'],
  ['-19970', applicationError('-19970'), 'invalidCaptchaToken', 'invalidCaptchaToken'],
  ['-19976', applicationError('-19976'), 'invalidPassword', undefined],
  ['-19973', applicationError('-19973'), 'resetPassword', undefined],
  ['-19999 (any other code)', applicationError('-19999'), 'invalidEmail', undefined],
  ['a field violation of the password', passwordViolation, 'invalidEmail', undefined],
  ['a 403 without details', { status: 403, body: { message: 'forbidden' } }, 'invalidEmail', undefined],
  ['a 500', { status: 500, body: {} }, 'invalidEmail', undefined],
];

describe('login and registration failures (point 5)', () => {
  it.each(classification)('a login refused with %s is errorCode %s', async (_name, answer, login) => {
    platform.answers.set(LOGIN, () => answer);
    const result = await strategy().login({ email: 'ada@example.com', password: 'secret1' });
    expect(result).toMatchObject({ loginState: 'FAILURE', errorCode: login });
    expect(result.loginState === 'FAILURE' && result.error).toBeTruthy();
  });

  it.each(classification)(
    'a registration refused with %s is errorCode %s',
    async (_name, answer, _login, register) => {
      platform.answers.set(REGISTER, () => answer);
      const result = await strategy().register({ email: 'ada@example.com', password: 'secret1' });
      expect(result.loginState).toBe('FAILURE');
      expect(result.loginState === 'FAILURE' ? result.errorCode : 'not a failure').toBe(register);
    },
  );

  it('carries the server’s message as the error', async () => {
    platform.answers.set(REGISTER, () => applicationError('-19995'));
    expect(await strategy().register({ email: 'ada@example.com', password: 'secret1' })).toEqual({
      loginState: 'FAILURE',
      error: 'refused -19995',
      errorCode: 'emailAlreadyExists',
    });
  });

  it('throws, rather than classifying, when the platform cannot be reached at all', async () => {
    const auth = OAuthStrategy({
      clientId: 'client-1',
      host: server.url,
      tokens: {
        accessToken: { value: 'visitor-access', expiresAt: 9_999_999_999 },
        refreshToken: { value: 'r', role: 'visitor' },
      },
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(auth.login({ email: 'ada@example.com', password: 'secret1' })).rejects.toThrow(
      'fetch failed',
    );
  });
});

describe("the strategy's own calls", () => {
  it('go to the host of the client it was given to when it names none', async () => {
    const auth = OAuthStrategy({ clientId: 'client-1' });
    createClient({ host: server.url, auth, modules: {} });
    await auth.login({ email: 'ada@example.com', password: 'secret1' });
    expect(requestsTo(LOGIN)).toHaveLength(1);
  });

  it('go to the host it names, whatever the client', async () => {
    const auth = OAuthStrategy({ clientId: 'client-1', host: server.url });
    createClient({ host: 'http://127.0.0.1:9', auth, modules: {} });
    await auth.login({ email: 'ada@example.com', password: 'secret1' });
    expect(requestsTo(LOGIN)).toHaveLength(1);
  });
});

describe('password reset, password change and external login', () => {
  it('sends a password-reset email in English that lands on the redirect URI for this client', async () => {
    await strategy().sendPasswordResetEmail('ada@example.com', 'https://shop.example/reset');
    expect(requestsTo('/_api/iam/recovery/v1/send-email')[0]?.body).toEqual({
      email: 'ada@example.com',
      language: 'en',
      redirect: { url: 'https://shop.example/reset', clientId: 'client-1' },
    });
  });

  it('changes the signed-in member’s password with the member’s token', async () => {
    const auth = strategy({
      tokens: {
        accessToken: { value: 'member-access', expiresAt: 9_999_999_999 },
        refreshToken: { value: 'member-refresh', role: 'member' },
      },
    });
    await auth.changePassword('new-secret');
    const [request] = requestsTo('/_api/iam/authentication/v2/change-password');
    expect(request?.body).toEqual({ newPassword: 'new-secret' });
    expect(request?.headers.authorization).toBe('member-access');
  });

  it('gets member tokens for a member id with the visitor token and the API key in one Authorization header', async () => {
    const auth = strategy();
    const tokens = await auth.getMemberTokensForExternalLogin('member-1', 'admin-key');
    const grants = requestsTo('/oauth2/token');
    expect(grants.map((r) => r.body)).toEqual([
      { clientId: 'client-1', grantType: 'anonymous' },
      { grant_type: 'authorized_client', scope: 'offline_access', member_id: 'member-1' },
    ]);
    expect(grants[1]?.headers.authorization).toBe('visitor-access-1,admin-key');
    expect(tokens.refreshToken).toEqual({ value: 'member-refresh', role: 'member' });
  });

  it("fails with 'something went wrong' when the token endpoint refuses the external login", async () => {
    const auth = strategy({
      tokens: {
        accessToken: { value: 'visitor-access', expiresAt: 9_999_999_999 },
        refreshToken: { value: 'r', role: 'visitor' },
      },
    });
    platform.tokenStatus = 403;
    await expect(auth.getMemberTokensForExternalLogin('member-1', 'bad-key')).rejects.toThrow(
      new ClientError('something went wrong'),
    );
  });

  it("fails with 'something went wrong' when the token endpoint answers 200 without an access token", async () => {
    server.respond = () => ({ body: { unexpected: true } });
    const auth = strategy();
    await expect(auth.getMemberTokensForExternalLogin('member-1', 'key')).rejects.toThrow(
      new ClientError('something went wrong'),
    );
  });
});
