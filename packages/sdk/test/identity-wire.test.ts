import { describe, expect, it } from 'vitest';
import {
  AUTHENTICATION,
  authentication,
  HOSTED_API_HOST,
  RECOVERY,
  REDIRECTS,
  recovery,
  redirects,
  secondFactors,
  toPublicPath,
  VERIFICATION,
  verification,
} from '../src/index.ts';
import { ADMIN_KEY, adminClient, expectWireCall, startWireServer } from './support/wire-calls.ts';

const server = await startWireServer(() => ({ body: {} }));
const client = adminClient(server, { authentication, recovery, verification, redirects, secondFactors });
/** An admin's call to any identity or redirect service. */
const ADMIN = { authorization: ADMIN_KEY, trace: /package-name=@cartwheel\/sdk,method-fqn=cartwheel\./ };

/** Each identity and redirect call with the request the wire contract lists for it. */
const calls: [name: string, path: string, call: () => Promise<unknown>, body: unknown][] = [
  [
    'authentication.register',
    '/_api/iam/authentication/v2/register',
    () =>
      client.authentication.register(
        { email: 'ada@example.com' },
        { password: 'secret1', profile: { nickname: 'ada' }, captchaTokens: [{ Recaptcha: 'r' }] },
      ),
    {
      loginId: { email: 'ada@example.com' },
      password: 'secret1',
      profile: { nickname: 'ada' },
      captchaTokens: [{ Recaptcha: 'r' }],
    },
  ],
  [
    'authentication.login',
    '/_api/iam/authentication/v2/login',
    () =>
      client.authentication.login(
        { email: 'ada@example.com' },
        { password: 'secret1', captchaTokens: [{ InvisibleRecaptcha: 'i' }] },
      ),
    {
      loginId: { email: 'ada@example.com' },
      password: 'secret1',
      captchaTokens: [{ InvisibleRecaptcha: 'i' }],
    },
  ],
  [
    'authentication.login (a state token)',
    '/_api/iam/authentication/v2/login',
    () => client.authentication.login({ email: 'ada@example.com' }, { stateToken: 'state-token' }),
    { loginId: { email: 'ada@example.com' }, stateToken: 'state-token' },
  ],
  [
    'authentication.verify (an authenticator code, remember this device)',
    '/_api/iam/authentication/v2/TOTP/verify',
    () =>
      client.authentication.verify('TOTP', {
        stateToken: 'state-token',
        rememberThisDevice: true,
        totpData: { code: '123456' },
      }),
    { stateToken: 'state-token', rememberThisDevice: true, totpData: { code: '123456' } },
  ],
  [
    'authentication.verify (a recovery code)',
    '/_api/iam/authentication/v2/EMAIL/verify',
    () =>
      client.authentication.verify('EMAIL', {
        stateToken: 'state-token',
        recoveryCodeData: { code: 'abcde-12345' },
      }),
    { stateToken: 'state-token', recoveryCodeData: { code: 'abcde-12345' } },
  ],
  [
    'secondFactors.enrol',
    '/api/cartwheel/identity/factors/TOTP/enrol',
    () => client.secondFactors.enrol('TOTP'),
    {},
  ],
  [
    'secondFactors.activate',
    '/api/cartwheel/identity/factors/EMAIL/activate',
    () => client.secondFactors.activate('EMAIL', '123456'),
    { code: '123456' },
  ],
  [
    'authentication.register (an address)',
    '/_api/iam/authentication/v2/register',
    () =>
      client.authentication.register(
        { email: 'ada@example.com' },
        {
          profile: {
            addresses: [
              {
                address: { country: 'US', addressLine: '350 Fifth Avenue', countryFullname: 'United States' },
                tag: 'HOME',
              },
            ] as never,
          },
        },
      ),
    {
      loginId: { email: 'ada@example.com' },
      profile: { addresses: [{ address: { country: 'US', addressLine: '350 Fifth Avenue' }, tag: 'HOME' }] },
    },
  ],
  [
    'authentication.changePassword',
    '/_api/iam/authentication/v2/change-password',
    () => client.authentication.changePassword('new-secret'),
    { newPassword: 'new-secret' },
  ],
  [
    'authentication.signOn',
    '/_api/iam/authentication/v2/sign-on',
    () => client.authentication.signOn({ email: 'ada@example.com' }, { profile: { nickname: 'ada' } }),
    { loginId: { email: 'ada@example.com' }, profile: { nickname: 'ada' } },
  ],
  [
    'recovery.sendRecoveryEmail',
    '/_api/iam/recovery/v1/send-email',
    () =>
      client.recovery.sendRecoveryEmail('ada@example.com', {
        language: 'en',
        redirect: { url: 'https://shop.example/reset', clientId: 'client-1' },
      }),
    {
      email: 'ada@example.com',
      language: 'en',
      redirect: { url: 'https://shop.example/reset', clientId: 'client-1' },
    },
  ],
  [
    'recovery.sendActivationEmail',
    '/_api/iam/recovery/v1/activation-email',
    () => client.recovery.sendActivationEmail('identity-1'),
    { identityId: 'identity-1' },
  ],
  [
    'recovery.recover',
    '/_api/iam/recovery/v1/recover',
    () => client.recovery.recover('recovery-token', { password: 'new-secret' }),
    { recoveryToken: 'recovery-token', password: 'new-secret' },
  ],
  [
    'verification.start',
    '/_api/iam/verification/v1/start',
    () => client.verification.start({ identityId: 'identity-1', target: 'EMAIL' }),
    { identityId: 'identity-1', target: 'EMAIL' },
  ],
  [
    'verification.verifyDuringAuthentication',
    '/_api/iam/verification/v1/auth/verify',
    () => client.verification.verifyDuringAuthentication('123456', { stateToken: 'state-token' }),
    { code: '123456', stateToken: 'state-token' },
  ],
  [
    'verification.resendDuringAuthentication',
    '/_api/iam/verification/v1/auth/resend',
    () => client.verification.resendDuringAuthentication('state-token'),
    { stateToken: 'state-token' },
  ],
  [
    'redirects.createRedirectSession (logout)',
    '/_api/redirects-api/v1/redirect-session',
    () =>
      client.redirects.createRedirectSession({
        logout: { clientId: 'client-1' },
        callbacks: { postFlowUrl: 'https://shop.example/' },
      }),
    { logout: { clientId: 'client-1' }, callbacks: { postFlowUrl: 'https://shop.example/' } },
  ],
  [
    'redirects.createRedirectSession (checkout)',
    '/_api/redirects-api/v1/redirect-session',
    () =>
      client.redirects.createRedirectSession({
        ecomCheckout: { checkoutId: 'checkout-1' },
        callbacks: { postFlowUrl: 'https://shop.example/', thankYouPageUrl: 'https://shop.example/thanks' },
      }),
    {
      ecomCheckout: { checkoutId: 'checkout-1' },
      callbacks: { postFlowUrl: 'https://shop.example/', thankYouPageUrl: 'https://shop.example/thanks' },
    },
  ],
];

describe('identity and redirect calls on the wire (wire contract, Calls)', () => {
  it.each(calls)('%s sends POST %s with the wire body', async (_name, path, call, body) => {
    await call();
    expectWireCall(server.requests, { method: 'POST', path, body }, ADMIN);
  });

  it.each([
    [AUTHENTICATION, '/v2/login', '/_api/iam/authentication/v2/login'],
    [RECOVERY, '/v1/send-email', '/_api/iam/recovery/v1/send-email'],
    [VERIFICATION, '/v1/auth/verify', '/_api/iam/verification/v1/auth/verify'],
    [REDIRECTS, '/v1/redirect-session', '/_api/redirects-api/v1/redirect-session'],
  ])(
    'maps the service path %#  to the same public path on the hosted API host',
    (mapping, service, public_) => {
      expect(toPublicPath(mapping, HOSTED_API_HOST, service)).toBe(public_);
      expect(toPublicPath(mapping, 'localhost:4000', service)).toBe(public_);
    },
  );

  it("returns the server's state machine answer with the identity's dates as Dates", async () => {
    server.respond = () => ({
      body: {
        state: 'SUCCESS',
        sessionToken: 'session-1',
        identity: { id: 'identity-1', createdDate: '2024-05-01T10:00:00.000Z' },
      },
    });
    const answer = await client.authentication.login({ email: 'ada@example.com' }, { password: 'secret1' });
    expect(answer.state).toBe('SUCCESS');
    expect(answer.sessionToken).toBe('session-1');
    expect(answer.identity?.createdDate).toEqual(new Date('2024-05-01T10:00:00.000Z'));
  });

  it('returns the redirect session under redirectSession, fullUrl included', async () => {
    server.respond = () => ({
      body: {
        redirectSession: { id: 'rs-1', fullUrl: 'https://shop.example/go', urlDetails: { endpoint: 'x' } },
      },
    });
    const answer = await client.redirects.createRedirectSession({ storesProduct: { productSlug: 'mug' } });
    expect(answer.redirectSession.fullUrl).toBe('https://shop.example/go');
  });
});
