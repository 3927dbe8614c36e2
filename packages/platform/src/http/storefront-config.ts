import type { FastifyInstance } from 'fastify';

export interface StorefrontConfig {
  /** The OAuth client the storefront and back office sign visitors in with. */
  clientId: string;
  storeName: string;
}

/** `GET /api/cartwheel/config`: what the bundled apps need to know at start, nothing secret. */
export function storefrontConfigRoutes(app: FastifyInstance, config: StorefrontConfig): void {
  app.get('/api/cartwheel/config', { config: { access: 'public' } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return config;
  });
}
