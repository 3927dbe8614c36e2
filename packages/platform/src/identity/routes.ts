import type { LoginRequest, RegisterRequest } from '@cartwheel/sdk';
import type { FastifyRequest } from 'fastify';
import { CALLERS, type HttpApp } from '../http/app.ts';
import { signedInMemberOf } from '../members/routes.ts';
import type { Settings } from '../settings/settings.ts';
import {
  ActivationEmailBody,
  ChangePasswordBody,
  IdentitySettingsBody,
  LoginBody,
  RecoverBody,
  RegisterBody,
  ResendCodeBody,
  SendRecoveryEmailBody,
  SignOnBody,
  StartVerificationBody,
  VerifyByIdBody,
  VerifyDuringAuthenticationBody,
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
  app.post(`${auth}/register`, { schema: { body: RegisterBody }, config: CALLERS.tokenHolders }, (request) =>
    identity.register(request.body as RegisterRequest, callerOf(request)),
  );
  app.post(`${auth}/login`, { schema: { body: LoginBody }, config: CALLERS.tokenHolders }, (request) =>
    identity.login(request.body as LoginRequest, callerOf(request)),
  );
  app.post(
    `${auth}/change-password`,
    { schema: { body: ChangePasswordBody }, config: CALLERS.members },
    (request) => identity.changePassword(signedInMemberOf(request), request.body.newPassword),
  );
  app.post(`${auth}/sign-on`, { schema: { body: SignOnBody }, config: CALLERS.admins }, (request) =>
    identity.signOn({
      loginId: request.body.loginId,
      profile: request.body.profile ?? undefined,
      verifyEmail: request.body.verifyEmail === true,
    }),
  );

  const verification = '/_api/iam/verification/v1';
  app.post(
    `${verification}/auth/verify`,
    { schema: { body: VerifyDuringAuthenticationBody }, config: CALLERS.tokenHolders },
    (request) => identity.verifyDuringAuthentication(request.body),
  );
  app.post(
    `${verification}/auth/resend`,
    { schema: { body: ResendCodeBody }, config: CALLERS.tokenHolders },
    (request) => identity.resendCode(request.body),
  );
  app.post(
    `${verification}/start`,
    { schema: { body: StartVerificationBody }, config: CALLERS.staff('members.manage') },
    (request) => identity.startVerification(request.body),
  );
  app.post(
    `${verification}/verify`,
    { schema: { body: VerifyByIdBody }, config: CALLERS.tokenHolders },
    (request) => identity.verifyById(request.body),
  );

  const recovery = '/_api/iam/recovery/v1';
  app.post(
    `${recovery}/send-email`,
    { schema: { body: SendRecoveryEmailBody }, config: CALLERS.tokenHolders },
    (request) =>
      identity.sendRecoveryEmail(
        { ...request.body, redirect: request.body.redirect ?? undefined },
        callerOf(request),
      ),
  );
  // the link's token is the credential: the reset page may not hold a visitor token yet
  app.post(`${recovery}/recover`, { schema: { body: RecoverBody }, config: CALLERS.anyone }, (request) =>
    identity.recover(request.body, callerOf(request)),
  );
  app.post(
    `${recovery}/activation-email`,
    { schema: { body: ActivationEmailBody }, config: CALLERS.staff('members.manage') },
    (request) =>
      identity.sendActivationEmail({
        identityId: request.body.identityId,
        emailOptions: { redirect: request.body.emailOptions?.redirect ?? undefined },
      }),
  );

  // how new members join: admin only
  app.get('/api/cartwheel/identity-settings', { config: CALLERS.staff('settings.manage') }, async () => ({
    settings: await readIdentitySettings(services.settings),
  }));
  app.patch(
    '/api/cartwheel/identity-settings',
    { schema: { body: IdentitySettingsBody }, config: CALLERS.staff('settings.manage') },
    async (request) => ({
      settings: await updateIdentitySettings(services.settings, request.body.settings),
    }),
  );

  app.get('/api/cartwheel/captcha/challenge', { config: CALLERS.anyone }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return identity.captchaChallenge();
  });
}

function callerOf(request: FastifyRequest): Caller {
  return { principal: request.principal, address: request.ip };
}
