import type { CaptchaConfig } from '@cartwheel/sdk';
import Type from 'typebox';
import type { HttpApp } from './app.ts';
import { PLATFORM_OPERATIONS } from './operations-access.ts';

export interface StorefrontConfig {
  /** The OAuth client the storefront and back office sign visitors in with. */
  clientId: string;
  storeName: string;
}

/** What may change while the platform runs, read on every request (a site setting). */
export interface LiveStorefrontConfig {
  /** Whether registrations and logins need a solved captcha, its public site keys and challenge URL. */
  captcha(): Promise<CaptchaConfig>;
}

/** What the config call answers; `captcha` (SDK `CaptchaConfig`) when the platform reads live settings. */
export const StorefrontConfigAnswer = Type.Object({
  clientId: Type.String(),
  storeName: Type.String(),
  captcha: Type.Optional(
    Type.Object({
      required: Type.Boolean(),
      siteKey: Type.String(),
      invisibleSiteKey: Type.String(),
      challengeUrl: Type.String(),
    }),
  ),
});

/** `GET /api/cartwheel/config`: what the bundled apps need to know at start, nothing secret. */
export function storefrontConfigRoutes(
  app: HttpApp,
  config: StorefrontConfig,
  live?: LiveStorefrontConfig,
): void {
  app.get(
    '/api/cartwheel/config',
    {
      schema: { response: { 200: StorefrontConfigAnswer } },
      config: PLATFORM_OPERATIONS.getStorefrontConfig,
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return live ? { ...config, captcha: await live.captcha() } : config;
    },
  );
}
