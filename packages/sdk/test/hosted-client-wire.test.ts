import { currentCart as hostedCurrentCart } from '@wix/ecom';
import {
  authentication as hostedAuthentication,
  recovery as hostedRecovery,
  verification as hostedVerification,
} from '@wix/identity';
import { members as hostedMembers } from '@wix/members';
import {
  createClient as createHostedClient,
  ApiKeyStrategy as HostedApiKeyStrategy,
  OAuthStrategy as HostedOAuthStrategy,
} from '@wix/sdk';
import { products as hostedProducts } from '@wix/stores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiKeyStrategy,
  authentication,
  collections,
  createClient,
  currentCart,
  HOSTED_API_HOST,
  type LoginOptions,
  members,
  type OAuthData,
  OAuthStrategy,
  products,
  type RegisterOptions,
  recovery,
  redirects,
  type SendRecoveryEmailOptions,
  storeVariants,
  verification,
} from '../src/index.ts';
import { TRACING_HEADER } from '../src/wire/index.ts';
import { recordingFetch, type SentRequest } from './support/recording-fetch.ts';

/**
 * Cartwheel's SDK beside the hosted platform's own client packages, both pointed at the hosted API host
 * and both sending into a recording `fetch`: for each call, the two requests must be the same (method,
 * URL with its query string, body bytes, content type, authorization), and Cartwheel's tracing header
 * must have the hosted one's shape, naming the same method.
 */

/** The hosted client's tracing header (`biHeaderGenerator` in `@wix/sdk`). */
const HOSTED_TRACING_HEADER = 'x-wix-bi-gateway';
const API_KEY = 'admin-api-key';

const ours = recordingFetch();
const theirs = recordingFetch();
beforeEach(() => {
  ours.requests.length = 0;
  theirs.requests.length = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const cartwheelModules = {
  products,
  collections,
  storeVariants,
  currentCart,
  members,
  authentication,
  recovery,
  verification,
  redirects,
};
const cartwheel = createClient({
  host: HOSTED_API_HOST,
  auth: ApiKeyStrategy({ apiKey: API_KEY }),
  fetch: ours.fetch,
  modules: cartwheelModules,
});
const hosted = createHostedClient({
  // the hosted platform wants the site a key acts on (a header Cartwheel's one-site platform has no use for)
  auth: HostedApiKeyStrategy({ apiKey: API_KEY, siteId: 'cartwheel-test-site' }),
  fetch: theirs.fetch,
  modules: {
    products: hostedProducts,
    currentCart: hostedCurrentCart,
    members: hostedMembers,
    authentication: hostedAuthentication,
    recovery: hostedRecovery,
    verification: hostedVerification,
  },
});
type Cartwheel = typeof cartwheel;
type Hosted = typeof hosted;

/** `environment=...,package-name=...,method-fqn=...,entity=...`: its keys, and the method's own name. */
function traceShape(value: string | null) {
  if (value === null) return null;
  const fields = value.split(',').map((field) => field.split('='));
  const fqn = fields.find(([key]) => key === 'method-fqn')?.[1] ?? '';
  return { keys: fields.map(([key]) => key), method: fqn.slice(fqn.lastIndexOf('.') + 1) };
}

function only(requests: SentRequest[]): SentRequest {
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

function expectSameRequest(ourRequest: SentRequest, theirRequest: SentRequest) {
  expect(ourRequest.method).toBe(theirRequest.method);
  expect(ourRequest.url).toBe(theirRequest.url);
  expect(ourRequest.body).toBe(theirRequest.body);
  expect(ourRequest.headers.get('content-type')).toBe(theirRequest.headers.get('content-type'));
  expect(ourRequest.headers.get('authorization')).toBe(theirRequest.headers.get('authorization'));
  const shape = traceShape(theirRequest.headers.get(HOSTED_TRACING_HEADER));
  expect(shape?.keys).toEqual(['environment', 'package-name', 'method-fqn', 'entity']);
  expect(traceShape(ourRequest.headers.get(TRACING_HEADER))).toEqual(shape);
}

type Row = [
  name: string,
  ourCall: (c: Cartwheel) => Promise<unknown>,
  theirCall: (h: Hosted) => Promise<unknown>,
];

const deletes: Row[] = [
  ['products.deleteProduct', (c) => c.products.deleteProduct('p1'), (h) => h.products.deleteProduct('p1')],
  [
    'products.deleteProductOptions',
    (c) => c.products.deleteProductOptions('p1'),
    (h) => h.products.deleteProductOptions('p1'),
  ],
  [
    'products.deleteCollection',
    (c) => c.products.deleteCollection('c1'),
    (h) => h.products.deleteCollection('c1'),
  ],
  [
    'currentCart.deleteCurrentCart',
    (c) => c.currentCart.deleteCurrentCart(),
    (h) => h.currentCart.deleteCurrentCart(),
  ],
  ['members.deleteMember', (c) => c.members.deleteMember('m1'), (h) => h.members.deleteMember('m1')],
  [
    'members.deleteMyMember',
    (c) => c.members.deleteMyMember({ contentAssigneeId: 'm2' }),
    (h) => h.members.deleteMyMember({ contentAssigneeId: 'm2' }),
  ],
  [
    'members.deleteMemberPhones',
    (c) => c.members.deleteMemberPhones('m1'),
    (h) => h.members.deleteMemberPhones('m1'),
  ],
  [
    'members.deleteMemberEmails',
    (c) => c.members.deleteMemberEmails('m1'),
    (h) => h.members.deleteMemberEmails('m1'),
  ],
  [
    'members.deleteMemberAddresses',
    (c) => c.members.deleteMemberAddresses('m1'),
    (h) => h.members.deleteMemberAddresses('m1'),
  ],
];

const EMAIL = { email: 'ada@example.com' };
const REDIRECT = { url: 'https://shop.example/reset', clientId: 'client-1' };
/** Options of a kind the signature does not name: neither client may put them on the wire. */
const STRAY = { sessionId: 'stray', 0: 'x' };

const identityCalls: Row[] = [
  [
    'authentication.register',
    (c) =>
      c.authentication.register(EMAIL, {
        password: 'secret1',
        profile: { nickname: 'ada', firstName: 'Ada' },
        captchaTokens: [{ Recaptcha: 'r' }],
        clientMetaData: { source: 'shop' },
      }),
    (h) =>
      h.authentication.registerV2(EMAIL, {
        password: 'secret1',
        profile: { nickname: 'ada', firstName: 'Ada' },
        captchaTokens: [{ Recaptcha: 'r' }],
        clientMetaData: { source: 'shop' },
      }),
  ],
  [
    'authentication.register (stray options)',
    (c) => c.authentication.register(EMAIL, { ...STRAY, password: 'secret1' } as RegisterOptions),
    (h) => h.authentication.registerV2(EMAIL, { ...STRAY, password: 'secret1' } as never),
  ],
  [
    'authentication.login',
    (c) =>
      c.authentication.login(EMAIL, {
        password: 'secret1',
        captchaTokens: [{ InvisibleRecaptcha: 'i' }],
        clientMetaData: { source: 'shop' },
      }),
    (h) =>
      h.authentication.loginV2(EMAIL, {
        password: 'secret1',
        captchaTokens: [{ InvisibleRecaptcha: 'i' }],
        clientMetaData: { source: 'shop' },
      }),
  ],
  [
    'authentication.login (stray options)',
    (c) => c.authentication.login(EMAIL, { ...STRAY, password: 'secret1' } as LoginOptions),
    (h) => h.authentication.loginV2(EMAIL, { ...STRAY, password: 'secret1' } as never),
  ],
  [
    'authentication.changePassword',
    (c) => c.authentication.changePassword('new-secret'),
    (h) => h.authentication.changePassword('new-secret'),
  ],
  [
    'authentication.signOn',
    (c) =>
      c.authentication.signOn(EMAIL, {
        profile: { nickname: 'ada' },
        verifyEmail: true,
        mergeExistingContact: false,
      }),
    (h) =>
      h.authentication.signOn(EMAIL, {
        profile: { nickname: 'ada' },
        verifyEmail: true,
        mergeExistingContact: false,
      }),
  ],
  [
    'authentication.signOn (stray options)',
    (c) => c.authentication.signOn(EMAIL, STRAY as never),
    (h) => h.authentication.signOn(EMAIL, STRAY as never),
  ],
  [
    'recovery.sendRecoveryEmail',
    (c) => c.recovery.sendRecoveryEmail(EMAIL.email, { language: 'en', redirect: REDIRECT }),
    (h) => h.recovery.sendRecoveryEmail(EMAIL.email, { language: 'en', redirect: REDIRECT }),
  ],
  [
    'recovery.sendRecoveryEmail (stray options)',
    (c) =>
      c.recovery.sendRecoveryEmail(EMAIL.email, { ...STRAY, language: 'en' } as SendRecoveryEmailOptions),
    (h) => h.recovery.sendRecoveryEmail(EMAIL.email, { ...STRAY, language: 'en' } as never),
  ],
  [
    'recovery.sendActivationEmail',
    (c) =>
      c.recovery.sendActivationEmail('identity-1', { emailOptions: { language: 'en', redirect: REDIRECT } }),
    (h) =>
      h.recovery.sendActivationEmail('identity-1', { emailOptions: { language: 'en', redirect: REDIRECT } }),
  ],
  [
    'recovery.sendActivationEmail (stray options)',
    (c) => c.recovery.sendActivationEmail('identity-1', STRAY as never),
    (h) => h.recovery.sendActivationEmail('identity-1', STRAY as never),
  ],
  [
    'recovery.recover',
    (c) => c.recovery.recover('recovery-token', { password: 'new-secret' }),
    (h) => h.recovery.recover('recovery-token', { password: 'new-secret' }),
  ],
  [
    // the issue's own example: a bare string where the options belong is not spread into "0":"p","1":"w"
    'recovery.recover (a string for options)',
    (c) => c.recovery.recover('recovery-token', 'pw' as never),
    (h) => h.recovery.recover('recovery-token', 'pw' as never),
  ],
  [
    'verification.start',
    (c) => c.verification.start({ identityId: 'identity-1', target: 'EMAIL' }),
    (h) => h.verification.start({ identityId: 'identity-1', target: 'EMAIL' }),
  ],
  [
    'verification.start (no target)',
    (c) => c.verification.start({ identityId: 'identity-1' }),
    (h) => h.verification.start({ identityId: 'identity-1' }),
  ],
  [
    'verification.start (stray options)',
    (c) => c.verification.start({ ...STRAY, identityId: 'identity-1' } as never),
    (h) => h.verification.start({ ...STRAY, identityId: 'identity-1' } as never),
  ],
  [
    'verification.verifyDuringAuthentication',
    (c) => c.verification.verifyDuringAuthentication('123456', { stateToken: 'state-token' }),
    (h) => h.verification.verifyDuringAuthentication('123456', { stateToken: 'state-token' }),
  ],
  [
    'verification.verifyDuringAuthentication (stray options)',
    (c) => c.verification.verifyDuringAuthentication('123456', { ...STRAY, stateToken: 'state-token' }),
    (h) =>
      h.verification.verifyDuringAuthentication('123456', { ...STRAY, stateToken: 'state-token' } as never),
  ],
];

/** Every method of Cartwheel's modules that sends a DELETE, found by calling each one. */
async function methodsSendingDelete(): Promise<string[]> {
  const found: string[] = [];
  for (const [moduleName, bound] of Object.entries(cartwheel)) {
    if (!(moduleName in cartwheelModules)) continue;
    for (const [method, call] of Object.entries(bound as Record<string, (...args: unknown[]) => unknown>)) {
      ours.requests.length = 0;
      await Promise.resolve()
        .then(() => call('x1', 'x2', {}))
        .catch(() => undefined);
      if (ours.requests.some((request) => request.method === 'DELETE')) found.push(`${moduleName}.${method}`);
    }
  }
  return found;
}

describe("requests equal to the hosted client's (issue 9, SDK)", () => {
  it('pins every DELETE the SDK has', async () => {
    const rows = new Set(deletes.map(([name]) => name));
    expect(new Set(await methodsSendingDelete())).toEqual(rows);
  });

  it.each(deletes)('%s sends the DELETE the hosted client sends', async (_name, ourCall, theirCall) => {
    await ourCall(cartwheel);
    await theirCall(hosted);
    expectSameRequest(only(ours.requests), only(theirs.requests));
  });

  it('copies the path id into the query string of a DELETE, as ?id=', async () => {
    await cartwheel.products.deleteProduct('p1');
    expect(only(ours.requests).url).toBe('https://www.wixapis.com/stores/v1/products/p1?id=p1');
  });

  it('leaves a DELETE option out of the query when it is not given', async () => {
    await cartwheel.members.deleteMyMember();
    await hosted.members.deleteMyMember();
    expectSameRequest(only(ours.requests), only(theirs.requests));
    expect(only(ours.requests).url).toBe('https://www.wixapis.com/members/v1/members/my');
  });

  it('pins every identity call the hosted client has (it has no resend)', () => {
    const pinned = new Set(identityCalls.map(([name]) => name.split(' ')[0]!));
    const ourMethods = [
      ...Object.keys(authentication).map((method) => `authentication.${method}`),
      ...Object.keys(recovery).map((method) => `recovery.${method}`),
      ...Object.keys(verification).map((method) => `verification.${method}`),
    ];
    expect(ourMethods.filter((method) => !pinned.has(method))).toEqual([
      'verification.resendDuringAuthentication',
    ]);
    expect(Object.keys(hosted.verification)).not.toContain('resendDuringAuthentication');
  });

  it.each(identityCalls)('%s sends what the hosted client sends', async (_name, ourCall, theirCall) => {
    await ourCall(cartwheel);
    await theirCall(hosted);
    expectSameRequest(only(ours.requests), only(theirs.requests));
  });

  it('sends only the named fields of recover, never the characters of a string', async () => {
    await cartwheel.recovery.recover('recovery-token', 'pw' as never);
    expect(only(ours.requests).body).toBe('{"recoveryToken":"recovery-token"}');
  });
});

describe("token requests equal to the hosted client's OAuthStrategy (issue 9, SDK)", () => {
  const CLIENT_ID = 'client-1';
  /** The hosted OAuthStrategy calls the global `fetch` at its own host, whatever the client is given. */
  const hostedAuth = () => {
    vi.stubGlobal('fetch', theirs.fetch);
    return HostedOAuthStrategy({ clientId: CLIENT_ID });
  };
  const ourAuth = () => OAuthStrategy({ clientId: CLIENT_ID, host: HOSTED_API_HOST, fetch: ours.fetch });
  const context = { baseUrl: `https://${HOSTED_API_HOST}`, fetch: ours.fetch };
  const oauthData: OAuthData = {
    state: 'state-1',
    codeVerifier: 'verifier-1',
    codeChallenge: 'challenge-1',
    redirectUri: 'https://shop.example/callback',
    originalUri: 'https://shop.example/',
  };

  const tokenCalls: [
    name: string,
    ourCall: (auth: ReturnType<typeof ourAuth>) => Promise<unknown>,
    theirCall: (auth: ReturnType<typeof hostedAuth>) => Promise<unknown>,
  ][] = [
    [
      'anonymous visitor tokens',
      (auth) => auth.generateVisitorTokens(context),
      (auth) => auth.generateVisitorTokens(),
    ],
    [
      'a refresh',
      (auth) => auth.renewToken(context, 'refresh-0'),
      (auth) => auth.renewToken({ value: 'refresh-0', role: 'visitor' as never }),
    ],
    [
      'an authorization code',
      (auth) => auth.getMemberTokens('code-1', 'state-1', oauthData),
      (auth) => auth.getMemberTokens('code-1', 'state-1', oauthData),
    ],
    [
      'an external login',
      (auth) => {
        auth.setTokens(heldTokens());
        return auth.getMemberTokensForExternalLogin('m1', API_KEY);
      },
      (auth) => {
        auth.setTokens(heldTokens() as never);
        return auth.getMemberTokensForExternalLogin('m1', API_KEY);
      },
    ],
  ];

  function heldTokens() {
    return {
      accessToken: { value: 'visitor-access', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      refreshToken: { value: 'visitor-refresh', role: 'visitor' as const },
    };
  }

  it.each(tokenCalls)(
    'the token request for %s is the hosted one, tracing header included',
    async (_name, ourCall, theirCall) => {
      await ourCall(ourAuth());
      await theirCall(hostedAuth());
      const ourRequest = only(ours.requests);
      expectSameRequest(ourRequest, only(theirs.requests));
      expect(ourRequest.url).toBe('https://www.wixapis.com/oauth2/token');
      expect(ourRequest.headers.get(TRACING_HEADER)).toBe(
        'environment=cartwheel-sdk,package-name=@cartwheel/sdk,method-fqn=cartwheel.identity.oauth2.v1.Oauth2.Token,entity=refreshToken',
      );
    },
  );
});
