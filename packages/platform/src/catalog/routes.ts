import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import type { Operation } from '../shared/access.ts';
import { isGeneratedImageStem, renderSvg } from './media.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import { checkFilterBudget } from './query.ts';
import { readRestQueryForms } from './query-forms.ts';
import {
  BulkUpdateAnswer,
  CollectionAnswer,
  CollectionPageAnswer,
  ImageBytes,
  NoSuchImage,
  OptionsAvailabilityAnswer,
  ProductAnswer,
  ProductPageAnswer,
  ProductVariantsAnswer,
  StoreVariantAnswer,
  StoreVariantPageAnswer,
  UpdatedVariantsAnswer,
  UploadedMediaAnswer,
} from './responses.ts';
import {
  AddMediaBody,
  BulkAdjustBody,
  BulkSetBody,
  CatalogQueryRequest,
  ChoiceMediaBody,
  CollectionPath,
  CreateCollectionBody,
  CreateProductBody,
  GetProductQuery,
  MediaFilePath,
  MembershipBody,
  ProductOptionsAvailabilityBody,
  ProductPath,
  ProductVariantsQueryBody,
  RemoveMediaBody,
  ReorderMediaBody,
  SlugPath,
  StoreVariantPath,
  UpdateCollectionBody,
  UpdateProductBody,
  UpdateVariantsBody,
  UploadMediaBody,
} from './schemas.ts';
import type { CatalogService, Viewer } from './service.ts';
import { MAX_UPLOAD_BYTES, MediaUploads } from './uploads.ts';
import { catalogV3Routes } from './v3-routes.ts';

const viewer = (request: FastifyRequest): Viewer => ({ admin: request.principal.kind === 'admin' });

/** Sends JSON text the service already rendered, without a parse and stringify round trip. */
const json = (reply: FastifyReply, text: string) => reply.type('application/json; charset=utf-8').send(text);

/**
 * Reads a query written in the REST documentation's form (query.ts, `readRestQueryForms`), then counts
 * its filter against the budget before its schema walks it: a filter of thousands of conditions is
 * refused after the first few dozen, not validated to the end.
 */
async function prepareQuery(request: FastifyRequest): Promise<void> {
  const input = (request.method === 'GET' ? request.query : request.body) as
    | { query?: Record<string, unknown> | null }
    | null
    | undefined;
  const query = typeof input === 'object' ? input?.query : undefined;
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return;
  readRestQueryForms(query);
  checkFilterBudget(query.filter);
}

/**
 * A catalog query the hosted client sends as GET with the request in the query (`.r`), and as POST
 * with the same request in the body past its URL threshold: one schema for both. The service answers
 * JSON text (products, variants) or an object (collections).
 */
function queryRoute<S extends TSchema>(
  app: HttpApp,
  path: string,
  operation: Operation,
  schema: S,
  answerSchema: TSchema,
  answer: (input: Static<S>, request: FastifyRequest) => Promise<string | object>,
): void {
  const send = async (reply: FastifyReply, answered: Promise<string | object>) => {
    const result = await answered;
    return typeof result === 'string' ? json(reply, result) : result;
  };
  const options = { config: operation, preValidation: prepareQuery };
  app.get(
    path,
    { ...options, schema: { querystring: schema, response: { 200: answerSchema } } },
    (request, reply) => send(reply, answer(request.query as Static<S>, request)),
  );
  app.post(
    path,
    { ...options, schema: { body: schema, response: { 200: answerSchema } } },
    (request, reply) => send(reply, answer((request.body ?? {}) as Static<S>, request)),
  );
}

/**
 * The catalog at the hosted platform's public paths: reads under /stores-reader/v1 and /v2/collections
 * for anyone, writes under /stores/v1 for admins. Each route declares its inputs in schemas.ts. Path
 * ids win over any copy in the body.
 */
export function catalogRoutes(app: HttpApp, services: { catalog: CatalogService }): void {
  const catalog = services.catalog;

  // ---- reads ----
  app.get(
    '/stores-reader/v1/products/:id',
    {
      schema: { params: ProductPath, querystring: GetProductQuery, response: { 200: ProductAnswer } },
      config: CATALOG_OPERATIONS.getProduct,
    },
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
    queryRoute(
      app,
      path,
      CATALOG_OPERATIONS.queryProducts,
      CatalogQueryRequest,
      ProductPageAnswer,
      (input, request) => catalog.queryProductsJson(input, viewer(request)),
    );
  }
  app.post(
    '/stores-reader/v1/products/:id/productOptionsAvailability',
    {
      schema: {
        params: ProductPath,
        body: ProductOptionsAvailabilityBody,
        response: { 200: OptionsAvailabilityAnswer },
      },
      config: CATALOG_OPERATIONS.productOptionsAvailability,
    },
    (request) => catalog.productOptionsAvailability(request.params.id, request.body.options, viewer(request)),
  );
  app.post(
    '/stores-reader/v1/products/:id/variants/query',
    {
      schema: {
        params: ProductPath,
        body: ProductVariantsQueryBody,
        response: { 200: ProductVariantsAnswer },
      },
      config: CATALOG_OPERATIONS.queryProductVariants,
    },
    async (request) =>
      // the service types its paging metadata loosely; it is query.ts `pagingMetadata`, as declared
      (await catalog.queryProductVariants(request.params.id, request.body, viewer(request))) as Static<
        typeof ProductVariantsAnswer
      >,
  );
  queryRoute(
    app,
    '/stores-reader/v1/variants/query',
    CATALOG_OPERATIONS.queryStoreVariants,
    CatalogQueryRequest,
    StoreVariantPageAnswer,
    (input, request) => catalog.queryStoreVariantsJson(input, viewer(request)),
  );
  app.get(
    '/stores-reader/v1/variants/:id',
    {
      schema: { params: StoreVariantPath, response: { 200: StoreVariantAnswer } },
      config: CATALOG_OPERATIONS.getStoreVariant,
    },
    async (request, reply) => json(reply, await catalog.storeVariantJson(request.params.id, viewer(request))),
  );
  for (const prefix of ['/stores-reader/v1/collections', '/v2/collections']) {
    app.get(
      `${prefix}/slug/:slug`,
      {
        schema: { params: SlugPath, response: { 200: CollectionAnswer } },
        config: CATALOG_OPERATIONS.getCollectionBySlug,
      },
      async (request) => ({
        collection: await catalog.collectionBySlug(request.params.slug, viewer(request)),
      }),
    );
    app.get(
      `${prefix}/:id`,
      {
        schema: { params: CollectionPath, response: { 200: CollectionAnswer } },
        config: CATALOG_OPERATIONS.getCollection,
      },
      async (request) => ({
        collection: await catalog.collection(request.params.id, viewer(request)),
      }),
    );
    queryRoute(
      app,
      `${prefix}/query`,
      CATALOG_OPERATIONS.queryCollections,
      CatalogQueryRequest,
      CollectionPageAnswer,
      (input, request) => catalog.queryCollections(input, viewer(request)),
    );
  }

  // ---- product writes ----
  app.post(
    '/stores/v1/products',
    {
      schema: { body: CreateProductBody, response: { 200: ProductAnswer } },
      config: CATALOG_OPERATIONS.createProduct,
    },
    async (request) => ({
      product: await catalog.createProduct(request.body.product),
    }),
  );
  app.patch(
    '/stores/v1/products/:id',
    {
      schema: { params: ProductPath, body: UpdateProductBody, response: { 200: ProductAnswer } },
      config: CATALOG_OPERATIONS.updateProduct,
    },
    async (request) => ({
      product: await catalog.updateProduct(request.params.id, request.body.product ?? {}),
    }),
  );
  app.delete(
    '/stores/v1/products/:id',
    { schema: { params: ProductPath, response: { 200: Empty } }, config: CATALOG_OPERATIONS.deleteProduct },
    async (request) => {
      await catalog.deleteProduct(request.params.id);
      return {};
    },
  );
  app.patch(
    '/stores/v1/products/:id/variants',
    {
      schema: { params: ProductPath, body: UpdateVariantsBody, response: { 200: UpdatedVariantsAnswer } },
      config: CATALOG_OPERATIONS.updateVariants,
    },
    async (request) => ({
      variants: await catalog.updateVariants(request.params.id, request.body.variants),
    }),
  );
  app.post(
    '/stores/v1/products/:id/variants/resetToDefault',
    {
      schema: { params: ProductPath, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.resetAllVariantData,
    },
    async (request) => {
      await catalog.resetVariants(request.params.id);
      return {};
    },
  );
  app.post(
    '/stores/v1/products/:id/media',
    {
      schema: { params: ProductPath, body: AddMediaBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.addProductMedia,
    },
    async (request) => {
      await catalog.addMedia(request.params.id, request.body.media);
      return {};
    },
  );
  app.post(
    '/stores/v1/products/:id/media/delete',
    {
      schema: { params: ProductPath, body: RemoveMediaBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.removeProductMedia,
    },
    async (request) => {
      await catalog.removeMedia(request.params.id, request.body.mediaIds);
      return {};
    },
  );
  app.post(
    '/api/cartwheel/products/:id/media/order',
    {
      schema: { params: ProductPath, body: ReorderMediaBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.reorderProductMedia,
    },
    async (request) => {
      await catalog.reorderMedia(request.params.id, request.body.mediaIds);
      return {};
    },
  );
  app.patch(
    '/stores/v1/products/:id/choices/media',
    {
      schema: { params: ProductPath, body: ChoiceMediaBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.addProductMediaToChoices,
    },
    async (request) => {
      await catalog.assignChoiceMedia(request.params.id, request.body.media);
      return {};
    },
  );
  app.post(
    '/stores/v1/products/:id/choices/media/delete',
    {
      schema: { params: ProductPath, body: ChoiceMediaBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.removeProductMediaFromChoices,
    },
    async (request) => {
      await catalog.assignChoiceMedia(request.params.id, request.body.media, true);
      return {};
    },
  );
  app.delete(
    '/stores/v1/products/:id/options',
    {
      schema: { params: ProductPath, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.deleteProductOptions,
    },
    async (request) => {
      await catalog.deleteOptions(request.params.id);
      return {};
    },
  );
  app.post(
    '/stores/v1/products/:id/remove-brand',
    { schema: { params: ProductPath, response: { 200: Empty } }, config: CATALOG_OPERATIONS.removeBrand },
    async (request) => {
      await catalog.removeBrand(request.params.id);
      return {};
    },
  );
  app.post(
    '/stores/v1/products/:id/remove-ribbon',
    { schema: { params: ProductPath, response: { 200: Empty } }, config: CATALOG_OPERATIONS.removeRibbon },
    async (request) => {
      await catalog.removeRibbon(request.params.id);
      return {};
    },
  );
  app.post(
    '/stores/v1/bulk/products/update',
    {
      schema: { body: BulkSetBody, response: { 200: BulkUpdateAnswer } },
      config: CATALOG_OPERATIONS.bulkUpdateProducts,
    },
    (request) => catalog.bulkSet(request.body.ids, request.body.set),
  );
  app.post(
    '/stores/v1/bulk/products/adjust-properties',
    {
      schema: { body: BulkAdjustBody, response: { 200: BulkUpdateAnswer } },
      config: CATALOG_OPERATIONS.bulkAdjustProductProperties,
    },
    (request) => catalog.bulkAdjust(request.body.ids, request.body.adjust),
  );

  // ---- collection writes ----
  app.post(
    '/stores/v1/collections',
    {
      schema: { body: CreateCollectionBody, response: { 200: CollectionAnswer } },
      config: CATALOG_OPERATIONS.createCollection,
    },
    async (request) => ({ collection: await catalog.createCollection(request.body.collection) }),
  );
  app.patch(
    '/stores/v1/collections/:id',
    {
      schema: { params: CollectionPath, body: UpdateCollectionBody, response: { 200: CollectionAnswer } },
      config: CATALOG_OPERATIONS.updateCollection,
    },
    async (request) => ({
      collection: await catalog.updateCollection(request.params.id, request.body.collection ?? {}),
    }),
  );
  app.delete(
    '/stores/v1/collections/:id',
    {
      schema: { params: CollectionPath, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.deleteCollection,
    },
    async (request) => {
      await catalog.deleteCollection(request.params.id);
      return {};
    },
  );
  app.post(
    '/stores/v1/collections/:id/productIds',
    {
      schema: { params: CollectionPath, body: MembershipBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.addProductsToCollection,
    },
    async (request) => {
      await catalog.addProductsToCollection(request.params.id, request.body.productIds);
      return {};
    },
  );
  app.post(
    '/stores/v1/collections/:id/productIds/delete',
    {
      schema: { params: CollectionPath, body: MembershipBody, response: { 200: Empty } },
      config: CATALOG_OPERATIONS.removeProductsFromCollection,
    },
    async (request) => {
      await catalog.removeProductsFromCollection(request.params.id, request.body.productIds);
      return {};
    },
  );

  // ---- the v3 calls over the same catalog (v3-routes.ts) ----
  catalogV3Routes(app, catalog);

  // ---- images a merchant uploads (uploads.ts) ----
  const uploads = new MediaUploads(catalog.db, catalog.options.publicUrl);
  app.post(
    '/api/cartwheel/media',
    {
      schema: { body: UploadMediaBody, response: { 200: UploadedMediaAnswer } },
      config: CATALOG_OPERATIONS.uploadMedia,
      // base64 of the largest image, and room for the JSON around it
      bodyLimit: Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 1024,
    },
    async (request) => ({ media: await uploads.store(request.body.contentType, request.body.data) }),
  );
  app.get(
    '/media/uploads/:file',
    {
      schema: { params: MediaFilePath, response: { 200: ImageBytes } },
      config: CATALOG_OPERATIONS.getUploadedMedia,
    },
    async (request, reply) => {
      const image = await uploads.read(request.params.file);
      return reply
        .type(image.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(image.bytes);
    },
  );

  // ---- images the platform draws ----
  app.get(
    '/media/:file',
    {
      schema: { params: MediaFilePath, response: { 200: ImageBytes, 404: NoSuchImage } },
      config: CATALOG_OPERATIONS.getMediaImage,
    },
    async (request, reply) => {
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
    },
  );
}
