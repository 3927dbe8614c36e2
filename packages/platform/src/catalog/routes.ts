import type { FastifyReply, FastifyRequest } from 'fastify';
import { getWithPostFallback, type HttpApp } from '../http/app.ts';
import { AnyObject } from '../http/input.ts';
import type { Services } from '../platform.ts';
import { isGeneratedImageStem, renderSvg } from './media.ts';
import type { ProductQueryRequest, Viewer } from './service.ts';

type Params = { id: string };
type Body = Record<string, any>;

const PUBLIC = { config: { access: 'public' as const } };
const ADMIN = { config: { access: 'admin' as const } };

const viewer = (request: FastifyRequest): Viewer => ({ admin: request.principal.kind === 'admin' });

/** Sends JSON text the service already rendered, without a parse and stringify round trip. */
const json = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

/** `getWithPostFallback` for reads the service answers as JSON text. */
function jsonReadWithPostFallback(
  app: HttpApp,
  path: string,
  answer: (input: ProductQueryRequest, request: FastifyRequest) => Promise<string>,
): void {
  app.get(path, PUBLIC, async (request, reply) =>
    json(reply, await answer(request.query as ProductQueryRequest, request)),
  );
  app.post(path, PUBLIC, async (request, reply) =>
    json(reply, await answer((request.body ?? {}) as ProductQueryRequest, request)),
  );
}

/**
 * The catalog at the hosted platform's public paths: reads under /stores-reader/v1 and /v2/collections
 * for anyone, writes under /stores/v1 for admins. Path ids win over any copy in the body.
 */
export function catalogRoutes(app: HttpApp, services: Services): void {
  const catalog = services.catalog;

  // ---- reads ----
  app.get<{ Params: Params; Querystring: Body }>(
    '/stores-reader/v1/products/:id',
    PUBLIC,
    async (request, reply) =>
      json(
        reply,
        await catalog.productJson(
          request.params.id,
          viewer(request),
          request.query.includeMerchantSpecificData,
        ),
      ),
  );
  for (const path of ['/stores-reader/v1/products/query-platformized', '/stores-reader/v1/products/query']) {
    jsonReadWithPostFallback(app, path, (input, request) =>
      catalog.queryProductsJson(input, viewer(request)),
    );
  }
  app.post<{ Params: Params; Body: Body }>(
    '/stores-reader/v1/products/:id/productOptionsAvailability',
    PUBLIC,
    async (request) =>
      catalog.productOptionsAvailability(request.params.id, request.body?.options, viewer(request)),
  );
  app.post<{ Params: Params; Body: Body }>(
    '/stores-reader/v1/products/:id/variants/query',
    PUBLIC,
    async (request) => catalog.queryProductVariants(request.params.id, request.body ?? {}, viewer(request)),
  );
  jsonReadWithPostFallback(app, '/stores-reader/v1/variants/query', (input, request) =>
    catalog.queryStoreVariantsJson(input, viewer(request)),
  );
  app.get<{ Params: Params }>('/stores-reader/v1/variants/:id', PUBLIC, async (request, reply) =>
    json(reply, await catalog.storeVariantJson(request.params.id, viewer(request))),
  );
  app.get<{ Params: { slug: string } }>(
    '/stores-reader/v1/collections/slug/:slug',
    PUBLIC,
    async (request) => ({
      collection: await catalog.collectionBySlug(request.params.slug, viewer(request)),
    }),
  );
  app.get<{ Params: Params }>('/stores-reader/v1/collections/:id', PUBLIC, async (request) => ({
    collection: await catalog.collection(request.params.id, viewer(request)),
  }));
  getWithPostFallback(
    app,
    '/stores-reader/v1/collections/query',
    { schema: AnyObject, ...PUBLIC },
    (input, request) => catalog.queryCollections(input, viewer(request)),
  );

  getWithPostFallback(app, '/v2/collections/query', { schema: AnyObject, ...PUBLIC }, (input, request) =>
    catalog.queryCollections(input, viewer(request)),
  );
  app.get<{ Params: { slug: string } }>('/v2/collections/slug/:slug', PUBLIC, async (request) => ({
    collection: await catalog.collectionBySlug(request.params.slug, viewer(request)),
  }));
  app.get<{ Params: Params }>('/v2/collections/:id', PUBLIC, async (request) => ({
    collection: await catalog.collection(request.params.id, viewer(request)),
  }));

  // ---- product writes ----
  app.post<{ Body: Body }>('/stores/v1/products', ADMIN, async (request) => ({
    product: await catalog.createProduct(request.body?.product),
  }));
  app.patch<{ Params: Params; Body: Body }>('/stores/v1/products/:id', ADMIN, async (request) => ({
    product: await catalog.updateProduct(request.params.id, request.body?.product ?? {}),
  }));
  app.delete<{ Params: Params }>('/stores/v1/products/:id', ADMIN, async (request) => {
    await catalog.deleteProduct(request.params.id);
    return {};
  });
  app.patch<{ Params: Params; Body: Body }>('/stores/v1/products/:id/variants', ADMIN, async (request) => ({
    variants: await catalog.updateVariants(request.params.id, request.body?.variants),
  }));
  app.post<{ Params: Params }>('/stores/v1/products/:id/variants/resetToDefault', ADMIN, async (request) => {
    await catalog.resetVariants(request.params.id);
    return {};
  });
  app.post<{ Params: Params; Body: Body }>('/stores/v1/products/:id/media', ADMIN, async (request) => {
    await catalog.addMedia(request.params.id, request.body?.media);
    return {};
  });
  app.post<{ Params: Params; Body: Body }>('/stores/v1/products/:id/media/delete', ADMIN, async (request) => {
    await catalog.removeMedia(request.params.id, request.body?.mediaIds);
    return {};
  });
  app.patch<{ Params: Params; Body: Body }>(
    '/stores/v1/products/:id/choices/media',
    ADMIN,
    async (request) => {
      await catalog.assignChoiceMedia(request.params.id, request.body?.media);
      return {};
    },
  );
  app.post<{ Params: Params; Body: Body }>(
    '/stores/v1/products/:id/choices/media/delete',
    ADMIN,
    async (request) => {
      await catalog.assignChoiceMedia(request.params.id, request.body?.media, true);
      return {};
    },
  );
  app.delete<{ Params: Params }>('/stores/v1/products/:id/options', ADMIN, async (request) => {
    await catalog.deleteOptions(request.params.id);
    return {};
  });
  app.post<{ Params: Params }>('/stores/v1/products/:id/remove-brand', ADMIN, async (request) => {
    await catalog.removeBrand(request.params.id);
    return {};
  });
  app.post<{ Params: Params }>('/stores/v1/products/:id/remove-ribbon', ADMIN, async (request) => {
    await catalog.removeRibbon(request.params.id);
    return {};
  });
  app.post<{ Body: Body }>('/stores/v1/bulk/products/update', ADMIN, async (request) =>
    catalog.bulkSet(request.body?.ids, request.body?.set),
  );
  app.post<{ Body: Body }>('/stores/v1/bulk/products/adjust-properties', ADMIN, async (request) =>
    catalog.bulkAdjust(request.body?.ids, request.body?.adjust),
  );

  // ---- collection writes ----
  app.post<{ Body: Body }>('/stores/v1/collections', ADMIN, async (request) => ({
    collection: await catalog.createCollection(request.body?.collection),
  }));
  app.patch<{ Params: Params; Body: Body }>('/stores/v1/collections/:id', ADMIN, async (request) => ({
    collection: await catalog.updateCollection(request.params.id, request.body?.collection ?? {}),
  }));
  app.delete<{ Params: Params }>('/stores/v1/collections/:id', ADMIN, async (request) => {
    await catalog.deleteCollection(request.params.id);
    return {};
  });
  app.post<{ Params: Params; Body: Body }>(
    '/stores/v1/collections/:id/productIds',
    ADMIN,
    async (request) => {
      await catalog.addProductsToCollection(request.params.id, request.body?.productIds);
      return {};
    },
  );
  app.post<{ Params: Params; Body: Body }>(
    '/stores/v1/collections/:id/productIds/delete',
    ADMIN,
    async (request) => {
      await catalog.removeProductsFromCollection(request.params.id, request.body?.productIds);
      return {};
    },
  );

  // ---- images the platform draws ----
  app.get<{ Params: { file: string } }>('/media/:file', PUBLIC, async (request, reply) => {
    const stem = request.params.file.replace(/\.svg$/, '');
    if (!request.params.file.endsWith('.svg') || !isGeneratedImageStem(stem)) {
      return reply.status(404).send({
        message: 'no such image',
        details: { applicationError: { code: 'NOT_FOUND', description: 'no such image' } },
      });
    }
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(renderSvg(stem));
  });
}
