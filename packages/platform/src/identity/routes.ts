import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/app.ts';
import { memberIdOf } from '../members/routes.ts';
import type { Services } from '../platform.ts';
import type { Caller } from './service.ts';
import { readIdentitySettings, updateIdentitySettings } from './site-settings.ts';

const visitor = { config: { access: 'visitor' as const } };
const member = { config: { access: 'member' as const } };
const anyone = { config: { access: 'public' as const } };

/**
 * The identity calls (`/_api/iam/authentication`, `/recovery`, `/verification`) and the captcha
 * challenge. Logins need a visitor token: the session they open belongs to that visitor's client.
 */
export function identityRoutes(app: HttpApp, services: Pick<Services, 'identity' | 'settings'>): void {
  const identity = services.identity;
  const auth = '/_api/iam/authentication/v2';
  app.post(`${auth}/register`, visitor, (request) => identity.register(bodyOf(request), callerOf(request)));
  app.post(`${auth}/login`, visitor, (request) => identity.login(bodyOf(request), callerOf(request)));
  app.post(`${auth}/change-password`, member, (request) =>
    identity.changePassword(memberIdOf(request), bodyOf<{ newPassword?: unknown }>(request).newPassword),
  );
  app.post(`${auth}/sign-on`, (request) => identity.signOn(bodyOf(request)));

  const verification = '/_api/iam/verification/v1';
  app.post(`${verification}/auth/verify`, visitor, (request) =>
    identity.verifyDuringAuthentication(bodyOf(request)),
  );
  app.post(`${verification}/auth/resend`, visitor, (request) => identity.resendCode(bodyOf(request)));
  app.post(`${verification}/start`, (request) => identity.startVerification(bodyOf(request)));
  app.post(`${verification}/verify`, visitor, (request) => identity.verifyById(bodyOf(request)));

  const recovery = '/_api/iam/recovery/v1';
  app.post(`${recovery}/send-email`, visitor, (request) =>
    identity.sendRecoveryEmail(bodyOf(request), callerOf(request)),
  );
  // the link's token is the credential: the reset page may not hold a visitor token yet
  app.post(`${recovery}/recover`, anyone, (request) => identity.recover(bodyOf(request), callerOf(request)));
  app.post(`${recovery}/activation-email`, (request) => identity.sendActivationEmail(bodyOf(request)));

  // how new members join: admin only
  app.get('/api/cartwheel/identity-settings', async () => ({
    settings: await readIdentitySettings(services.settings),
  }));
  app.patch('/api/cartwheel/identity-settings', async (request) => ({
    settings: await updateIdentitySettings(
      services.settings,
      bodyOf<{ settings?: unknown }>(request).settings,
    ),
  }));

  app.get('/api/cartwheel/captcha/challenge', anyone, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return identity.captchaChallenge();
  });
}

function bodyOf<T = Record<string, any>>(request: FastifyRequest): T {
  const body = request.body;
  return (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as T;
}

function callerOf(request: FastifyRequest): Caller {
  return { principal: request.principal, address: request.ip };
}
