import type { TSchema } from 'typebox';
import type { HttpApp } from '../http/app.ts';
import type { Operation } from '../shared/access.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import type { CatalogService } from './service.ts';
import {
  AllProductsCategoryAnswer,
  BulkAdjustVariantsByFilterBody,
  BulkCreateProductsWithInventoryBody,
  BulkDeleteProductsByFilterBody,
  BulkProductsWithInventoryAnswer,
  BulkUpdateProductsByFilterBody,
  BulkUpdateProductsWithInventoryBody,
  BulkUpdateVariantsByFilterBody,
  CategoriesByFilterBody,
  CountAnswer,
  CountProductsV3Request,
  JobAnswer,
  ProductWithInventoryAnswer,
  ProductWithInventoryBody,
  ProductWithInventoryPath,
} from './v3-product-bulk-schemas.ts';
import { json, readRoute, viewer } from './v3-read-route.ts';
import { VariantV3PageAnswer } from './v3-responses.ts';
import { SearchVariantsV3Request } from './v3-schemas.ts';

/**
 * The v3 product calls beyond one product at a time, at the hosted paths: the count, the variants'
 * search (v3-products.ts), products with their inventory (v3-with-inventory.ts), writes by filter and
 * categories (v3-product-bulk.ts).
 */
export function productBulkV3Routes(app: HttpApp, catalog: CatalogService): void {
  const byFilter = catalog.productsByFilterV3;
  const withInventory = catalog.productsWithInventoryV3;

  readRoute(
    app,
    '/stores/v3/products/count',
    CATALOG_OPERATIONS.countProductsV3,
    CountProductsV3Request,
    CountAnswer,
    (input, request) => byFilter.countJson(input, viewer(request)),
  );
  readRoute(
    app,
    '/stores/v3/products/search-variants',
    CATALOG_OPERATIONS.searchVariantsV3,
    SearchVariantsV3Request,
    VariantV3PageAnswer,
    (input, request) => catalog.productsV3.searchVariantsJson(input, viewer(request)),
    ['POST'],
  );
  app.get(
    '/stores/v3/all-products-category',
    {
      config: CATALOG_OPERATIONS.getAllProductsCategoryV3,
      schema: { response: { 200: AllProductsCategoryAnswer } },
    },
    async (_request, reply) => json(reply, byFilter.allProductsCategoryJson()),
  );

  // ---- a product with its variants' inventory ----
  app.post(
    '/stores/v3/products-with-inventory',
    {
      config: CATALOG_OPERATIONS.createProductWithInventoryV3,
      schema: { body: ProductWithInventoryBody, response: { 200: ProductWithInventoryAnswer } },
    },
    async (request, reply) => {
      const { product, returnEntity, fields } = request.body;
      return json(reply, await withInventory.create(product, returnEntity, fields));
    },
  );
  app.patch(
    '/stores/v3/products-with-inventory/:productId',
    {
      config: CATALOG_OPERATIONS.updateProductWithInventoryV3,
      schema: {
        params: ProductWithInventoryPath,
        body: ProductWithInventoryBody,
        response: { 200: ProductWithInventoryAnswer },
      },
    },
    async (request, reply) => {
      const { product, returnEntity, fields } = request.body;
      return json(reply, await withInventory.update(request.params.productId, product, returnEntity, fields));
    },
  );
  app.post(
    '/stores/v3/bulk/products-with-inventory/create',
    {
      config: CATALOG_OPERATIONS.bulkCreateProductsWithInventoryV3,
      schema: {
        body: BulkCreateProductsWithInventoryBody,
        response: { 200: BulkProductsWithInventoryAnswer },
      },
    },
    async (request, reply) => {
      const { products, returnEntity, fields } = request.body;
      return json(reply, await withInventory.bulkCreate(products, returnEntity, fields));
    },
  );
  app.post(
    '/stores/v3/bulk/products-with-inventory/update',
    {
      config: CATALOG_OPERATIONS.bulkUpdateProductsWithInventoryV3,
      schema: {
        body: BulkUpdateProductsWithInventoryBody,
        response: { 200: BulkProductsWithInventoryAnswer },
      },
    },
    async (request, reply) => {
      const { products, returnEntity, fields } = request.body;
      return json(reply, await withInventory.bulkUpdate(products, returnEntity, fields));
    },
  );

  // ---- writes by filter (done within the request: see v3-product-bulk.ts) ----
  const byFilterRoute = <B>(
    path: string,
    operation: Operation,
    body: TSchema,
    run: (input: B) => Promise<string>,
  ) =>
    app.post(
      `/stores/v3/bulk/products/${path}`,
      { config: operation, schema: { body, response: { 200: JobAnswer } } },
      async (request, reply) => json(reply, await run(request.body as B)),
    );
  byFilterRoute(
    'update-by-filter',
    CATALOG_OPERATIONS.bulkUpdateProductsByFilterV3,
    BulkUpdateProductsByFilterBody,
    (input: BulkUpdateProductsByFilterBody) => byFilter.updateByFilter(input),
  );
  byFilterRoute(
    'delete-by-filter',
    CATALOG_OPERATIONS.bulkDeleteProductsByFilterV3,
    BulkDeleteProductsByFilterBody,
    (input: BulkDeleteProductsByFilterBody) => byFilter.deleteByFilter(input),
  );
  byFilterRoute(
    'update-variants-by-filter',
    CATALOG_OPERATIONS.bulkUpdateProductVariantsByFilterV3,
    BulkUpdateVariantsByFilterBody,
    (input: BulkUpdateVariantsByFilterBody) => byFilter.updateVariantsByFilter(input),
  );
  byFilterRoute(
    'adjust-variants-by-filter',
    CATALOG_OPERATIONS.bulkAdjustProductVariantsByFilterV3,
    BulkAdjustVariantsByFilterBody,
    (input: BulkAdjustVariantsByFilterBody) => byFilter.adjustVariantsByFilter(input),
  );
  byFilterRoute(
    'add-to-categories-by-filter',
    CATALOG_OPERATIONS.bulkAddProductsToCategoriesByFilterV3,
    CategoriesByFilterBody,
    (input: CategoriesByFilterBody) => byFilter.addToCategories(input),
  );
  byFilterRoute(
    'remove-from-categories-by-filter',
    CATALOG_OPERATIONS.bulkRemoveProductsFromCategoriesByFilterV3,
    CategoriesByFilterBody,
    (input: CategoriesByFilterBody) => byFilter.removeFromCategories(input),
  );
}
