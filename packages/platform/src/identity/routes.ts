import type { IdentityProfile, LoginRequest, RegisterRequest } from '@cartwheel/sdk';
import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import { signedInMemberOf } from '../members/routes.ts';
import type { Settings } from '../settings/settings.ts';
import { REMEMBER_DEVICE_MS } from './factors.ts';
import { IDENTITY_OPERATIONS } from './operations-access.ts';
import {
  CaptchaChallengeAnswer,
  FactorsAnswer,
  IdentitySettingsAnswer,
  RecoveryCodesAnswer,
  SignOnAnswer,
  StateMachineAnswer,
  TotpEnrolmentAnswer,
  VerificationStartedAnswer,
} from './responses.ts';
import {
  ActivateFactorBody,
  ActivationEmailBody,
  ChangePasswordBody,
  FactorTypeParams,
  IdentitySettingsBody,
  LoginBody,
  RecoverBody,
  RegisterBody,
  ResendCodeBody,
  SecondFactorParams,
  SendRecoveryEmailBody,
  SignOnBody,
  StartVerificationBody,
  VerifyByIdBody,
  VerifyDuringAuthenticationBody,
  VerifySecondFactorBody,
} from './schemas.ts';
import type { Caller, IdentityService } from './service.ts';
import { readIdentitySettings, updateIdentitySettings } from './site-settings.ts';

/**
 * The identity calls (`/_api/iam/authentication`, `/recovery`, `/verification`) and the captcha
 * challenge. Logins need a visitor token: the session they open belongs to that visitor's client.
 */
export function identityRoutes(
  app: HttpApp,
  services: { identity: IdentityService; settings: Settings },
): void {
  const identity = services.identity;
  const auth = '/_api/iam/authentication/v2';
  app.post(
    `${auth}/register`,
    {
      schema: { body: RegisterBody, response: { 200: StateMachineAnswer } },
      config: IDENTITY_OPERATIONS.registerV2,
    },
    (request) => identity.register(request.body as RegisterRequest, callerOf(request)),
  );
  app.post(
    `${auth}/login`,
    {
      schema: { body: LoginBody, response: { 200: StateMachineAnswer } },
      config: IDENTITY_OPERATIONS.loginV2,
    },
    (request) =>
      identity.login(request.body as LoginRequest, {
        ...callerOf(request),
        device: cookieOf(request, DEVICE_COOKIE),
      }),
  );
  app.post(
    `${auth}/:factorType/verify`,
    {
      schema: {
        params: SecondFactorParams,
        body: VerifySecondFactorBody,
        response: { 200: StateMachineAnswer },
      },
      config: IDENTITY_OPERATIONS.verifySecondFactor,
    },
    async (request, reply) => {
      const { answer, deviceToken } = await identity.verifySecondFactor(
        request.params.factorType,
        request.body,
      );
      if (deviceToken) {
        // the browser shows it only to the login call: the device skips the second step next time
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header(
          'set-cookie',
          `${DEVICE_COOKIE}=${deviceToken}; Path=${auth}; Max-Age=${REMEMBER_DEVICE_MS / 1000}; HttpOnly; SameSite=Strict${secure}`,
        );
      }
      return answer;
    },
  );

  // a member's own second factors (Cartwheel's calls): enrol, activate with a code, remove
  const factors = '/api/cartwheel/identity/factors';
  app.get(
    factors,
    { schema: { response: { 200: FactorsAnswer } }, config: IDENTITY_OPERATIONS.listFactors },
    (request) => identity.factorsOf(signedInMemberOf(request)),
  );
  app.post(
    `${factors}/:type/enrol`,
    {
      schema: {
        params: FactorTypeParams,
        response: { 200: Type.Union([TotpEnrolmentAnswer, Empty]) },
      },
      config: IDENTITY_OPERATIONS.enrolFactor,
    },
    (request) => identity.enrolFactor(signedInMemberOf(request), request.params.type),
  );
  app.post(
    `${factors}/:type/activate`,
    {
      schema: { params: FactorTypeParams, body: ActivateFactorBody, response: { 200: RecoveryCodesAnswer } },
      config: IDENTITY_OPERATIONS.activateFactor,
    },
    (request) => identity.activateFactor(signedInMemberOf(request), request.params.type, request.body.code),
  );
  app.delete(
    `${factors}/:type`,
    {
      schema: { params: FactorTypeParams, response: { 200: Empty } },
      config: IDENTITY_OPERATIONS.removeFactor,
    },
    (request) => identity.removeFactor(signedInMemberOf(request), request.params.type),
  );
  app.post(
    '/api/cartwheel/identity/recovery-codes',
    { schema: { response: { 200: RecoveryCodesAnswer } }, config: IDENTITY_OPERATIONS.newRecoveryCodes },
    (request) => identity.newRecoveryCodes(signedInMemberOf(request)),
  );
  app.post(
    `${auth}/change-password`,
    {
      schema: { body: ChangePasswordBody, response: { 200: Empty } },
      config: IDENTITY_OPERATIONS.changePassword,
    },
    (request) => identity.changePassword(signedInMemberOf(request), request.body.newPassword),
  );
  app.post(
    `${auth}/sign-on`,
    { schema: { body: SignOnBody, response: { 200: SignOnAnswer } }, config: IDENTITY_OPERATIONS.signOn },
    (request) =>
      identity.signOn({
        loginId: request.body.loginId,
        profile: (request.body.profile ?? undefined) as IdentityProfile | undefined,
        verifyEmail: request.body.verifyEmail === true,
        mergeExistingContact: request.body.mergeExistingContact === true,
      }),
  );

  const verification = '/_api/iam/verification/v1';
  app.post(
    `${verification}/auth/verify`,
    {
      schema: { body: VerifyDuringAuthenticationBody, response: { 200: StateMachineAnswer } },
      config: IDENTITY_OPERATIONS.verifyDuringAuthentication,
    },
    (request) => identity.verifyDuringAuthentication(request.body),
  );
  app.post(
    `${verification}/auth/resend`,
    {
      schema: { body: ResendCodeBody, response: { 200: Empty } },
      config: IDENTITY_OPERATIONS.resendDuringAuthentication,
    },
    (request) => identity.resendCode(request.body),
  );
  // the specification and the hosted client's packages spell it `/v1/Start`; the observed wire has
  // it in lower case: both answer, as one call (the router tells paths apart by case)
  for (const start of ['start', 'Start']) {
    app.post(
      `${verification}/${start}`,
      {
        schema: { body: StartVerificationBody, response: { 200: VerificationStartedAnswer } },
        config: IDENTITY_OPERATIONS.startVerification,
      },
      (request) => identity.startVerification(request.body),
    );
  }
  app.post(
    `${verification}/verify`,
    { schema: { body: VerifyByIdBody, response: { 200: Empty } }, config: IDENTITY_OPERATIONS.verifyById },
    (request) => identity.verifyById(request.body),
  );

  const recovery = '/_api/iam/recovery/v1';
  app.post(
    `${recovery}/send-email`,
    {
      schema: { body: SendRecoveryEmailBody, response: { 200: Empty } },
      config: IDENTITY_OPERATIONS.sendRecoveryEmail,
    },
    (request) =>
      identity.sendRecoveryEmail(
        { ...request.body, redirect: request.body.redirect ?? undefined },
        callerOf(request),
      ),
  );
  // the link's token is the credential: the reset page may not hold a visitor token yet
  app.post(
    `${recovery}/recover`,
    {
      schema: { body: RecoverBody, response: { 200: StateMachineAnswer } },
      config: IDENTITY_OPERATIONS.recover,
    },
    (request) => identity.recover(request.body, callerOf(request)),
  );
  app.post(
    `${recovery}/activation-email`,
    {
      schema: { body: ActivationEmailBody, response: { 200: Empty } },
      config: IDENTITY_OPERATIONS.sendActivationEmail,
    },
    (request) =>
      identity.sendActivationEmail({
        identityId: request.body.identityId,
        emailOptions: { redirect: request.body.emailOptions?.redirect ?? undefined },
      }),
  );

  // how new members join: admin only
  app.get(
    '/api/cartwheel/identity-settings',
    {
      schema: { response: { 200: IdentitySettingsAnswer } },
      config: IDENTITY_OPERATIONS.getIdentitySettings,
    },
    async () => ({
      settings: await readIdentitySettings(services.settings),
    }),
  );
  app.patch(
    '/api/cartwheel/identity-settings',
    {
      schema: { body: IdentitySettingsBody, response: { 200: IdentitySettingsAnswer } },
      config: IDENTITY_OPERATIONS.updateIdentitySettings,
    },
    async (request) => ({
      settings: await updateIdentitySettings(services.settings, request.body.settings),
    }),
  );

  app.get(
    '/api/cartwheel/captcha/challenge',
    {
      schema: { response: { 200: CaptchaChallengeAnswer } },
      config: IDENTITY_OPERATIONS.getCaptchaChallenge,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return identity.captchaChallenge();
    },
  );
}

/** The cookie of a device that passed the second step with "remember this device". */
const DEVICE_COOKIE = 'cartwheel_device';

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

function callerOf(request: FastifyRequest): Caller {
  return { principal: request.principal, address: request.ip };
}
