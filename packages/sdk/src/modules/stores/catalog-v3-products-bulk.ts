import type { Transport } from '../../transport/http.ts';
import type { InventoryItemV3, PreorderInfo, ProductV3, VariantV3 } from '../../types/catalog-v3.ts';
import type { Filter } from '../../types/paging.ts';
import type { BulkResult, ProductV3Options } from './catalog-v3.ts';
import { CATALOG_V3, catalogTrace, segment } from './domains.ts';

/**
 * The hosted `productsV3` calls beyond one product at a time: the count, products written with their
 * variants' inventory, writes by filter and categories. `productsV3` (catalog-v3.ts) offers them.
 */

/** A variant's inventory item as a product-with-inventory write sets it: a quantity or an in-stock flag. */
export interface InventoryItemCompositeV3 {
  quantity?: number;
  inStock?: boolean;
  preorderInfo?: Pick<PreorderInfo, 'enabled' | 'message' | 'limit'>;
}

/** A v3 product whose variants may each carry their inventory item. */
export interface ProductWithInventoryV3 extends Omit<ProductV3, 'variantsInfo'> {
  variantsInfo?: { variants?: Array<VariantV3 & { inventoryItem?: InventoryItemCompositeV3 }> };
}

/** The product written, and a result per variant's inventory item (the item when `returnEntity`). */
export interface ProductWithInventoryResult {
  product: ProductV3;
  inventoryResults: BulkResult<InventoryItemV3>;
}

export interface BulkProductsWithInventoryResult {
  productResults: BulkResult<ProductV3>;
  inventoryResults: BulkResult<InventoryItemV3>;
}

/** A text search over names, descriptions and SKUs, as search takes it. */
export interface SearchDetailsV3 {
  expression?: string;
}

/** Which products a write by filter touches: the v3 query filter (`{}`: every product) and a text search. */
export interface ByFilterV3 {
  filter: Filter;
  search?: SearchDetailsV3;
}

/** An amount (a decimal string, maybe negative) or a percentage. */
export type AdjustValueV3 = { amount: string } | { percentage: number };

export interface AdjustVariantsV3 {
  actualPrice?: AdjustValueV3;
  compareAtPrice?: AdjustValueV3;
  cost?: AdjustValueV3;
  /** Sets the actual price to the compare-at price less this. */
  compareAtPriceDiscount?: AdjustValueV3;
  rounding?: 'NO_ROUNDING' | 'CURRENCY_PRECISION' | 'NEAREST_WHOLE_NUMBER';
}

/** What a write by filter answers: its job's id; the work is done when Cartwheel answers. */
export interface JobV3 {
  jobId: string;
}

const productTrace = (method: string) => catalogTrace(`v3.CatalogApi.${method}`, 'product');

const byFilter =
  (path: string, method: string) =>
  (transport: Transport) =>
  async (body: Record<string, unknown>): Promise<JobV3> =>
    transport.request({
      method: 'POST',
      path: `/v3/bulk/products/${path}`,
      mapping: CATALOG_V3,
      body,
      trace: productTrace(method),
    });

export const productsV3Bulk = {
  /** `GET /v3/products/count` (POST past the URL limit): what a filter and search find. */
  countProducts:
    (transport: Transport) =>
    async (
      options: Partial<ByFilterV3> & { returnNonVisibleProducts?: boolean } = {},
    ): Promise<{ count: number }> =>
      transport.request({
        method: 'GET',
        path: '/v3/products/count',
        mapping: CATALOG_V3,
        params: options,
        postFallback: true,
        trace: productTrace('CountProducts'),
      }),

  /** `POST /v3/products-with-inventory`: the product and its variants' stock, in one transaction. */
  createProductWithInventory:
    (transport: Transport) =>
    async (
      product: ProductWithInventoryV3,
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<ProductWithInventoryResult> =>
      transport.request({
        method: 'POST',
        path: '/v3/products-with-inventory',
        mapping: CATALOG_V3,
        body: { product, returnEntity: options.returnEntity, fields: options.fields },
        trace: productTrace('CreateProductWithInventory'),
      }),

  /** `PATCH /v3/products-with-inventory/{id}`: with the product's revision read, or 409. */
  updateProductWithInventory:
    (transport: Transport) =>
    async (
      id: string,
      product: ProductWithInventoryV3,
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<ProductWithInventoryResult> =>
      transport.request({
        method: 'PATCH',
        path: `/v3/products-with-inventory/${segment(id)}`,
        mapping: CATALOG_V3,
        body: { product: { ...product, id }, returnEntity: options.returnEntity, fields: options.fields },
        trace: productTrace('UpdateProductWithInventory'),
      }),

  /** `POST /v3/bulk/products-with-inventory/create`: a result per product, each in its own transaction. */
  bulkCreateProductsWithInventory:
    (transport: Transport) =>
    async (
      products: ProductWithInventoryV3[],
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<BulkProductsWithInventoryResult> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products-with-inventory/create',
        mapping: CATALOG_V3,
        body: { products, returnEntity: options.returnEntity, fields: options.fields },
        trace: productTrace('BulkCreateProductsWithInventory'),
      }),

  /** `POST /v3/bulk/products-with-inventory/update`: each product with its id and revision. */
  bulkUpdateProductsWithInventory:
    (transport: Transport) =>
    async (
      products: ProductWithInventoryV3[],
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<BulkProductsWithInventoryResult> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products-with-inventory/update',
        mapping: CATALOG_V3,
        body: {
          products: products.map((product) => ({ product })),
          returnEntity: options.returnEntity,
          fields: options.fields,
        },
        trace: productTrace('BulkUpdateProductsWithInventory'),
      }),

  /** `POST /v3/bulk/products/update-by-filter`: not slug, options, modifiers nor variants. */
  bulkUpdateProductsByFilter: (transport: Transport) => {
    const send = byFilter('update-by-filter', 'BulkUpdateProductsByFilter')(transport);
    return (options: ByFilterV3 & { product: ProductV3 }): Promise<JobV3> => send({ ...options });
  },

  /** `POST /v3/bulk/products/delete-by-filter`. */
  bulkDeleteProductsByFilter: (transport: Transport) => {
    const send = byFilter('delete-by-filter', 'BulkDeleteProductsByFilter')(transport);
    return (filter: Filter, options: { search?: SearchDetailsV3 } = {}): Promise<JobV3> =>
      send({ filter, search: options.search });
  },

  /** `POST /v3/bulk/products/update-variants-by-filter`: visible, prices, cost, weight of every variant. */
  bulkUpdateProductVariantsByFilter: (transport: Transport) => {
    const send = byFilter('update-variants-by-filter', 'BulkUpdateProductVariantsByFilter')(transport);
    return (
      filter: Filter,
      options: {
        variant: Pick<VariantV3, 'visible' | 'price' | 'revenueDetails' | 'physicalProperties'>;
        search?: SearchDetailsV3;
      },
    ): Promise<JobV3> => send({ filter, ...options });
  },

  /** `POST /v3/bulk/products/adjust-variants-by-filter`: prices and costs by an amount or a percentage. */
  bulkAdjustProductVariantsByFilter: (transport: Transport) => {
    const send = byFilter('adjust-variants-by-filter', 'BulkAdjustProductVariantsByFilter')(transport);
    return (filter: Filter, options: AdjustVariantsV3 & { search?: SearchDetailsV3 }): Promise<JobV3> =>
      send({ filter, ...options });
  },

  /** `POST /v3/bulk/products/add-to-categories-by-filter`: a category is a collection (same id). */
  bulkAddProductsToCategoriesByFilter: (transport: Transport) => {
    const send = byFilter('add-to-categories-by-filter', 'BulkAddProductsToCategoriesByFilter')(transport);
    return (options: ByFilterV3 & { categoryIds: string[] }): Promise<JobV3> => send({ ...options });
  },

  /** `POST /v3/bulk/products/remove-from-categories-by-filter`: none leave All Products. */
  bulkRemoveProductsFromCategoriesByFilter: (transport: Transport) => {
    const send = byFilter(
      'remove-from-categories-by-filter',
      'BulkRemoveProductsFromCategoriesByFilter',
    )(transport);
    return (options: ByFilterV3 & { categoryIds: string[] }): Promise<JobV3> => send({ ...options });
  },

  /** `GET /v3/all-products-category`: the All Products collection's id. */
  getAllProductsCategory:
    (transport: Transport) =>
    async (): Promise<{
      categoryId: string;
      treeReference: { appNamespace: string; treeKey: string | null };
    }> =>
      transport.request({
        method: 'GET',
        path: '/v3/all-products-category',
        mapping: CATALOG_V3,
        trace: productTrace('GetAllProductsCategory'),
      }),
};
