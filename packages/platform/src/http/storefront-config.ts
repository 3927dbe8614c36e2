import type { CaptchaConfig } from '@cartwheel/sdk';
import { CALLERS, type HttpApp } from './app.ts';

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

/** `GET /api/cartwheel/config`: what the bundled apps need to know at start, nothing secret. */
export function storefrontConfigRoutes(
  app: HttpApp,
  config: StorefrontConfig,
  live?: LiveStorefrontConfig,
): void {
  app.get('/api/cartwheel/config', { config: CALLERS.anyone }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return live ? { ...config, captcha: await live.captcha() } : config;
  });
}
