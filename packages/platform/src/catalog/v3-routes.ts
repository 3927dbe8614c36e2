import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import type { CatalogService } from './service.ts';
import { customizationChoiceRoutes } from './v3-customization-choices.ts';
import { catalogEntityRoutes } from './v3-entity-routes.ts';
import { inventoryItemWriteRoutes } from './v3-inventory-routes.ts';
import { productBulkV3Routes } from './v3-product-bulk-routes.ts';
import { productEditRoutes } from './v3-product-edit-routes.ts';
import { json, readRoute, viewer } from './v3-read-route.ts';
import {
  BulkInventoryAnswer,
  BulkProductsV3Answer,
  CatalogVersionAnswer,
  InventoryItemAnswer,
  InventoryItemPageAnswer,
  ProductV3Answer,
  ProductV3PageAnswer,
  VariantV3PageAnswer,
} from './v3-responses.ts';
import {
  BulkCreateProductsV3Body,
  BulkDeleteProductsV3Body,
  BulkUpdateProductsV3Body,
  CreateProductV3Body,
  DecrementInventoryBody,
  IncrementInventoryBody,
  InventoryItemPath,
  ProductV3FieldsQuery,
  ProductV3Path,
  ProductV3SlugPath,
  QueryInventoryItemsRequest,
  QueryProductsV3Request,
  QueryVariantsV3Request,
  SearchProductsV3Request,
  UpdateInventoryItemBody,
  UpdateProductV3Body,
} from './v3-schemas.ts';

/**
 * Which catalog the store runs, as `catalogVersioning` asks: v3, so a client that picks its module by
 * the answer picks the current one. Cartwheel serves the v1 calls over the same catalog as well.
 */
export const CATALOG_VERSION = 'V3_CATALOG';

/**
 * The v3 catalog at the hosted platform's paths (`/stores/v3/...`): products, their bulk writes and
 * read-only variants, over the same catalog the v1 routes serve (routes.ts).
 */
export function catalogV3Routes(app: HttpApp, catalog: CatalogService): void {
  const v3 = catalog.productsV3;

  app.get(
    '/stores/v3/provision/version',
    { config: CATALOG_OPERATIONS.getCatalogVersion, schema: { response: { 200: CatalogVersionAnswer } } },
    async () => ({ catalogVersion: CATALOG_VERSION }) as const,
  );

  // ---- reads ----
  readRoute(
    app,
    '/stores/v3/products/query',
    CATALOG_OPERATIONS.queryProductsV3,
    QueryProductsV3Request,
    ProductV3PageAnswer,
    (input, request) => v3.queryJson(input, viewer(request)),
  );
  readRoute(
    app,
    '/stores/v3/products/search',
    CATALOG_OPERATIONS.searchProductsV3,
    SearchProductsV3Request,
    ProductV3PageAnswer,
    (input, request) => v3.searchJson(input, viewer(request)),
  );
  readRoute(
    app,
    '/stores/v3/products/query-variants',
    CATALOG_OPERATIONS.queryVariantsV3,
    QueryVariantsV3Request,
    VariantV3PageAnswer,
    (input, request) => v3.queryVariantsJson(input, viewer(request)),
    ['POST'],
  );
  app.get(
    '/stores/v3/products/slug/:slug',
    {
      config: CATALOG_OPERATIONS.getProductBySlugV3,
      schema: {
        params: ProductV3SlugPath,
        querystring: ProductV3FieldsQuery,
        response: { 200: ProductV3Answer },
      },
    },
    async (request, reply) =>
      json(reply, await v3.productBySlugJson(request.params.slug, viewer(request), request.query.fields)),
  );
  app.get(
    '/stores/v3/products/:productId',
    {
      config: CATALOG_OPERATIONS.getProductV3,
      schema: {
        params: ProductV3Path,
        querystring: ProductV3FieldsQuery,
        response: { 200: ProductV3Answer },
      },
    },
    async (request, reply) =>
      json(reply, await v3.productJson(request.params.productId, viewer(request), request.query.fields)),
  );

  // ---- writes ----
  app.post(
    '/stores/v3/products',
    {
      config: CATALOG_OPERATIONS.createProductV3,
      schema: { body: CreateProductV3Body, response: { 200: ProductV3Answer } },
    },
    async (request, reply) => json(reply, await v3.create(request.body.product, request.body.fields)),
  );
  app.patch(
    '/stores/v3/products/:productId',
    {
      config: CATALOG_OPERATIONS.updateProductV3,
      schema: { params: ProductV3Path, body: UpdateProductV3Body, response: { 200: ProductV3Answer } },
    },
    async (request, reply) =>
      json(reply, await v3.update(request.params.productId, request.body.product, request.body.fields)),
  );
  app.delete(
    '/stores/v3/products/:productId',
    {
      config: CATALOG_OPERATIONS.deleteProductV3,
      schema: { params: ProductV3Path, response: { 200: Empty } },
    },
    async (request) => {
      await v3.delete(request.params.productId);
      return {};
    },
  );
  app.post(
    '/stores/v3/bulk/products/create',
    {
      config: CATALOG_OPERATIONS.bulkCreateProductsV3,
      schema: { body: BulkCreateProductsV3Body, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => {
      const { products, returnEntity, fields } = request.body;
      return json(reply, JSON.stringify(await v3.bulkCreate(products, returnEntity, fields)));
    },
  );
  app.post(
    '/stores/v3/bulk/products/update',
    {
      config: CATALOG_OPERATIONS.bulkUpdateProductsV3,
      schema: { body: BulkUpdateProductsV3Body, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => {
      const { products, returnEntity, fields } = request.body;
      return json(reply, JSON.stringify(await v3.bulkUpdate(products, returnEntity, fields)));
    },
  );
  app.post(
    '/stores/v3/bulk/products/delete',
    {
      config: CATALOG_OPERATIONS.bulkDeleteProductsV3,
      schema: { body: BulkDeleteProductsV3Body, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => json(reply, JSON.stringify(await v3.bulkDelete(request.body.productIds))),
  );

  productBulkV3Routes(app, catalog);
  productEditRoutes(app, catalog.productEditsV3);

  // ---- inventory items (v3-inventory.ts) ----
  const inventory = catalog.inventoryV3;
  readRoute(
    app,
    '/stores/v3/inventory-items/query',
    CATALOG_OPERATIONS.queryInventoryItemsV3,
    QueryInventoryItemsRequest,
    InventoryItemPageAnswer,
    (input, request) => inventory.queryJson(input, viewer(request)),
  );
  app.get(
    '/stores/v3/inventory-items/:inventoryItemId',
    {
      config: CATALOG_OPERATIONS.getInventoryItemV3,
      schema: { params: InventoryItemPath, response: { 200: InventoryItemAnswer } },
    },
    async (request, reply) =>
      json(reply, await inventory.itemJson(request.params.inventoryItemId, viewer(request))),
  );
  app.patch(
    '/stores/v3/inventory-items/:inventoryItemId',
    {
      config: CATALOG_OPERATIONS.updateInventoryItemV3,
      schema: {
        params: InventoryItemPath,
        body: UpdateInventoryItemBody,
        response: { 200: InventoryItemAnswer },
      },
    },
    async (request, reply) =>
      json(reply, await inventory.update(request.params.inventoryItemId, request.body.inventoryItem)),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/decrement',
    {
      config: CATALOG_OPERATIONS.decrementInventoryItemsV3,
      schema: { body: DecrementInventoryBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => json(reply, await inventory.decrement(request.body)),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/increment',
    {
      config: CATALOG_OPERATIONS.incrementInventoryItemsV3,
      schema: { body: IncrementInventoryBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => json(reply, await inventory.increment(request.body)),
  );
  inventoryItemWriteRoutes(app, catalog);

  // ---- brands, ribbons, info sections, customizations (v3-entities.ts) ----
  for (const entities of catalog.entitiesV3) {
    catalogEntityRoutes(app, entities);
    if (entities.spec.kind === 'customization') customizationChoiceRoutes(app, entities);
  }
}
