import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { InventoryItemV3, ProductTagsV3, ProductV3, ReadOnlyVariantV3 } from '../../types/catalog-v3.ts';
import type { CursorPagingMetadata, CursorQuery } from '../../types/paging.ts';
import { productsV3Bulk } from './catalog-v3-products-bulk.ts';
import { CATALOG_V3, catalogTrace, segment } from './domains.ts';

/**
 * The v3 catalog (`/stores/v3/...`): products, read-only variants, inventory items and the catalog's
 * version, the calls of the hosted `productsV3`, `readOnlyVariantsV3`, `inventoryItemsV3` and
 * `catalogVersioning` modules. Cartwheel serves them over the same catalog as the v1 modules.
 */

/** What a v3 read adds to the product's core (`URL`, `CURRENCY`, `MERCHANT_DATA`, ...). */
export interface ProductV3Options {
  fields?: string[];
}

/** A page of a v3 query: the items, and the cursors to the pages beside it. */
export interface CursorPage<T> {
  items: T[];
  pagingMetadata: CursorPagingMetadata;
}

/** One item's outcome in a bulk call, with the entity when `returnEntity` asked for it. */
export interface BulkItemResult<T> {
  itemMetadata: {
    id?: string;
    originalIndex: number;
    success: boolean;
    error?: { code: string; description: string; data?: Record<string, unknown> };
  };
  item?: T;
}

export interface BulkResult<T> {
  results: Array<BulkItemResult<T>>;
  bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
}

/** Tags a bulk call assigns and unassigns. */
export interface TagChanges {
  assignTags?: ProductTagsV3;
  unassignTags?: ProductTagsV3;
}

/** The info sections a bulk call adds to or removes from products. */
export interface InfoSectionChanges {
  infoSectionIds: string[];
}

/** A product a bulk call edits, with the revision read (checked when given). */
export interface ProductIdWithRevision {
  productId: string;
  revision?: string;
}

const productTrace = (method: string) => catalogTrace(`v3.CatalogApi.${method}`, 'product');
const inventoryTrace = (method: string) => catalogTrace(`v3.InventoryService.${method}`, 'inventory_item');
const query = (value: CursorQuery | undefined) =>
  value && Object.keys(value).length > 0 ? value : undefined;

export const productsV3 = {
  /** `GET /v3/products/{productId}`, its variants with it. */
  getProduct:
    (transport: Transport) =>
    async (productId: string, options: ProductV3Options = {}): Promise<ProductV3> => {
      const answer = await transport.request<{ product: ProductV3 }>({
        method: 'GET',
        path: `/v3/products/${segment(productId)}`,
        mapping: CATALOG_V3,
        params: { fields: options.fields },
        trace: productTrace('GetProduct'),
      });
      return answer.product;
    },

  /** `GET /v3/products/slug/{slug}`, its variants with it. */
  getProductBySlug:
    (transport: Transport) =>
    async (slug: string, options: ProductV3Options = {}): Promise<ProductV3> => {
      const answer = await transport.request<{ product: ProductV3 }>({
        method: 'GET',
        path: `/v3/products/slug/${segment(slug)}`,
        mapping: CATALOG_V3,
        params: { fields: options.fields },
        trace: productTrace('GetProductBySlug'),
      });
      return answer.product;
    },

  /** `POST /v3/products`: name, productType and every variant with its `actualPrice`. */
  createProduct:
    (transport: Transport) =>
    async (product: ProductV3, options: ProductV3Options = {}): Promise<ProductV3> => {
      const answer = await transport.request<{ product: ProductV3 }>({
        method: 'POST',
        path: '/v3/products',
        mapping: CATALOG_V3,
        body: { product, fields: options.fields },
        trace: productTrace('CreateProduct'),
      });
      return answer.product;
    },

  /** `PATCH /v3/products/{id}`: `product.revision` must be the one read, or the call fails with 409. */
  updateProduct:
    (transport: Transport) =>
    async (id: string, product: ProductV3, options: ProductV3Options = {}): Promise<ProductV3> => {
      const answer = await transport.request<{ product: ProductV3 }>({
        method: 'PATCH',
        path: `/v3/products/${segment(id)}`,
        mapping: CATALOG_V3,
        body: { product: { ...product, id }, fields: options.fields },
        trace: productTrace('UpdateProduct'),
      });
      return answer.product;
    },

  /** `DELETE /v3/products/{productId}`. */
  deleteProduct:
    (transport: Transport) =>
    async (productId: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v3/products/${segment(productId)}`,
        mapping: CATALOG_V3,
        trace: productTrace('DeleteProduct'),
      });
    },

  /**
   * `GET /v3/products/query` (POST past the URL limit): filter, sort, `cursorPaging`. For the next
   * page send only `{cursorPaging: {cursor}}`: the cursor carries the query.
   */
  queryProducts:
    (transport: Transport) =>
    async (cursorQuery?: CursorQuery, options: ProductV3Options = {}): Promise<CursorPage<ProductV3>> => {
      const answer = await transport.request<{
        products?: ProductV3[];
        pagingMetadata: CursorPagingMetadata;
      }>({
        method: 'GET',
        path: '/v3/products/query',
        mapping: CATALOG_V3,
        params: { query: query(cursorQuery), fields: options.fields },
        postFallback: true,
        trace: productTrace('QueryProducts'),
      });
      return { items: answer.products ?? [], pagingMetadata: answer.pagingMetadata };
    },

  /** `GET /v3/products/search`: a query with a text search of names, descriptions and SKUs. */
  searchProducts:
    (transport: Transport) =>
    async (
      search: CursorQuery & { search?: { expression?: string } },
      options: ProductV3Options = {},
    ): Promise<CursorPage<ProductV3>> => {
      const answer = await transport.request<{
        products?: ProductV3[];
        pagingMetadata: CursorPagingMetadata;
      }>({
        method: 'GET',
        path: '/v3/products/search',
        mapping: CATALOG_V3,
        params: { search, fields: options.fields },
        postFallback: true,
        trace: productTrace('SearchProducts'),
      });
      return { items: answer.products ?? [], pagingMetadata: answer.pagingMetadata };
    },

  /** `POST /v3/bulk/products/create`: a result per product, the others made when one is refused. */
  bulkCreateProducts:
    (transport: Transport) =>
    async (
      products: ProductV3[],
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<BulkResult<ProductV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/create',
        mapping: CATALOG_V3,
        body: { products, returnEntity: options.returnEntity, fields: options.fields },
        trace: productTrace('BulkCreateProducts'),
      }),

  /** `POST /v3/bulk/products/update`: each product with its id and revision, a result per product. */
  bulkUpdateProducts:
    (transport: Transport) =>
    async (
      products: ProductV3[],
      options: ProductV3Options & { returnEntity?: boolean } = {},
    ): Promise<BulkResult<ProductV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/update',
        mapping: CATALOG_V3,
        body: {
          products: products.map((product) => ({ product })),
          returnEntity: options.returnEntity,
          fields: options.fields,
        },
        trace: productTrace('BulkUpdateProducts'),
      }),

  /** `POST /v3/bulk/products/delete`: a result per id. */
  bulkDeleteProducts:
    (transport: Transport) =>
    async (productIds: string[]): Promise<BulkResult<never>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/delete',
        mapping: CATALOG_V3,
        body: { productIds },
        trace: productTrace('BulkDeleteProducts'),
      }),

  // the count, products with inventory, writes by filter and categories (catalog-v3-products-bulk.ts)
  ...productsV3Bulk,
  /** `POST /v3/bulk/products/update-tags`: tags assigned and unassigned, a result per product. */
  bulkUpdateProductTags:
    (transport: Transport) =>
    async (productIds: string[], options: TagChanges = {}): Promise<BulkResult<never>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/update-tags',
        mapping: CATALOG_V3,
        body: { productIds, assignTags: options.assignTags, unassignTags: options.unassignTags },
        trace: productTrace('BulkUpdateProductTags'),
      }),

  /** `POST /v3/bulk/products/update-tags-by-filter`: every product the filter names (`{}`: all). */
  bulkUpdateProductTagsByFilter:
    (transport: Transport) =>
    async (filter: Record<string, unknown>, options: TagChanges = {}): Promise<{ jobId: string }> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/update-tags-by-filter',
        mapping: CATALOG_V3,
        body: { filter, assignTags: options.assignTags, unassignTags: options.unassignTags },
        trace: productTrace('BulkUpdateProductTagsByFilter'),
      }),

  /** `POST /v3/bulk/products/add-info-sections`: each product with the revision read, a result each. */
  bulkAddInfoSectionsToProducts:
    (transport: Transport) =>
    async (
      products: ProductIdWithRevision[],
      options: InfoSectionChanges & { returnEntity?: boolean; fields?: string[] },
    ): Promise<BulkResult<ProductV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/add-info-sections',
        mapping: CATALOG_V3,
        body: { products, ...options },
        trace: productTrace('BulkAddInfoSectionsToProducts'),
      }),

  /** `POST /v3/bulk/products/remove-info-sections`. */
  bulkRemoveInfoSectionsFromProducts:
    (transport: Transport) =>
    async (
      products: ProductIdWithRevision[],
      options: InfoSectionChanges & { returnEntity?: boolean; fields?: string[] },
    ): Promise<BulkResult<ProductV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/remove-info-sections',
        mapping: CATALOG_V3,
        body: { products, ...options },
        trace: productTrace('BulkRemoveInfoSectionsFromProducts'),
      }),

  /** `POST /v3/bulk/products/add-info-sections-by-filter`: every product the filter (and search) names. */
  bulkAddInfoSectionsToProductsByFilter:
    (transport: Transport) =>
    async (
      filter: Record<string, unknown>,
      options: InfoSectionChanges & { search?: { expression?: string } },
    ): Promise<{ jobId: string }> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/add-info-sections-by-filter',
        mapping: CATALOG_V3,
        body: { filter, ...options },
        trace: productTrace('BulkAddInfoSectionsToProductsByFilter'),
      }),

  /** `POST /v3/bulk/products/remove-info-sections-by-filter`. */
  bulkRemoveInfoSectionsFromProductsByFilter:
    (transport: Transport) =>
    async (
      filter: Record<string, unknown>,
      options: InfoSectionChanges & { search?: { expression?: string } },
    ): Promise<{ jobId: string }> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/products/remove-info-sections-by-filter',
        mapping: CATALOG_V3,
        body: { filter, ...options },
        trace: productTrace('BulkRemoveInfoSectionsFromProductsByFilter'),
      }),
} satisfies ModuleDefinition;

export const readOnlyVariantsV3 = {
  /** `POST /v3/products/query-variants`: variants across the catalog (`productData.productId`, `sku`, ...). */
  queryVariants:
    (transport: Transport) =>
    async (
      cursorQuery?: CursorQuery,
      options: ProductV3Options = {},
    ): Promise<CursorPage<ReadOnlyVariantV3>> => {
      const answer = await transport.request<{
        variants?: ReadOnlyVariantV3[];
        pagingMetadata: CursorPagingMetadata;
      }>({
        method: 'POST',
        path: '/v3/products/query-variants',
        mapping: CATALOG_V3,
        body: { query: query(cursorQuery), fields: options.fields },
        trace: catalogTrace('v3.ProductVariantsReader.QueryVariants', 'variant'),
      });
      return { items: answer.variants ?? [], pagingMetadata: answer.pagingMetadata };
    },

  /**
   * `POST /v3/products/search-variants`: the variants query with a text search of the variants'
   * SKUs and their products' names (`search.expression`). On the hosted wire, not in its client.
   */
  searchVariants:
    (transport: Transport) =>
    async (
      search: CursorQuery & { search?: { expression?: string } },
      options: ProductV3Options = {},
    ): Promise<CursorPage<ReadOnlyVariantV3>> => {
      const answer = await transport.request<{
        variants?: ReadOnlyVariantV3[];
        pagingMetadata: CursorPagingMetadata;
      }>({
        method: 'POST',
        path: '/v3/products/search-variants',
        mapping: CATALOG_V3,
        body: { search, fields: options.fields },
        trace: catalogTrace('v3.ProductVariantsReader.SearchVariants', 'variant'),
      });
      return { items: answer.variants ?? [], pagingMetadata: answer.pagingMetadata };
    },
} satisfies ModuleDefinition;

/** An item's stock move: by how many units, and (decrements) whether it is a preorder. */
export interface StockMove {
  inventoryItemId: string;
  units: number;
  preorderRequest?: boolean;
}

/** A stock move of the item a variant has at a location (the store's one, when left out). */
export interface VariantStockMove {
  variantId: string;
  locationId?: string;
  units: number;
  preorderRequest?: boolean;
}

export const inventoryItemsV3 = {
  /** `GET /v3/inventory-items/{inventoryItemId}` (the item id is `{productId}-{variantId}`). */
  getInventoryItem:
    (transport: Transport) =>
    async (inventoryItemId: string): Promise<InventoryItemV3> => {
      const answer = await transport.request<{ inventoryItem: InventoryItemV3 }>({
        method: 'GET',
        path: `/v3/inventory-items/${segment(inventoryItemId)}`,
        mapping: CATALOG_V3,
        trace: inventoryTrace('GetInventoryItem'),
      });
      return answer.inventoryItem;
    },

  /** `PATCH /v3/inventory-items/{id}`: counting, quantity or in-stock, preorder; with the revision read. */
  updateInventoryItem:
    (transport: Transport) =>
    async (id: string, inventoryItem: InventoryItemV3): Promise<InventoryItemV3> => {
      const answer = await transport.request<{ inventoryItem: InventoryItemV3 }>({
        method: 'PATCH',
        path: `/v3/inventory-items/${segment(id)}`,
        mapping: CATALOG_V3,
        body: { inventoryItem: { ...inventoryItem, id } },
        trace: inventoryTrace('UpdateInventoryItem'),
      });
      return answer.inventoryItem;
    },

  /** `GET /v3/inventory-items/query`: by `id`, `productId`, `variantId`, `inStock`. */
  queryInventoryItems:
    (transport: Transport) =>
    (cursorQuery?: CursorQuery): Promise<CursorPage<InventoryItemV3>> =>
      itemsPage(transport, 'query', cursorQuery, 'QueryInventoryItems'),

  /** `GET /v3/inventory-items/count` (POST past the URL limit): how many items the filter finds. */
  countInventoryItems:
    (transport: Transport) =>
    async (filter?: Record<string, unknown>): Promise<number> => {
      const answer = await transport.request<{ count: number }>({
        method: 'GET',
        path: '/v3/inventory-items/count',
        mapping: CATALOG_V3,
        params: { filter: filter && Object.keys(filter).length > 0 ? filter : undefined },
        postFallback: true,
        trace: inventoryTrace('CountInventoryItems'),
      });
      return answer.count;
    },

  /** `GET /v3/inventory-items/search` (POST past the URL limit): the query's filter, sort and cursor. */
  searchInventoryItems:
    (transport: Transport) =>
    (search?: CursorQuery): Promise<CursorPage<InventoryItemV3>> =>
      itemsPage(transport, 'search', search, 'SearchInventoryItems'),

  /**
   * `POST /v3/bulk/inventory-items/decrement`, all or nothing: below zero is refused
   * (`INSUFFICIENT_INVENTORY`) unless `restrictInventory` is false.
   */
  bulkDecrementInventoryItems:
    (transport: Transport) =>
    async (
      moves: StockMove[],
      options: { restrictInventory?: boolean; returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/decrement',
        mapping: CATALOG_V3,
        body: {
          decrementData: moves.map((move) => ({
            inventoryItemId: move.inventoryItemId,
            decrementBy: move.units,
            ...(move.preorderRequest ? { preorderRequest: true } : {}),
          })),
          restrictInventory: options.restrictInventory,
          returnEntity: options.returnEntity,
        },
        trace: inventoryTrace('BulkDecrementInventoryItems'),
      }),

  /** `POST /v3/bulk/inventory-items/increment`, all or nothing. */
  bulkIncrementInventoryItems:
    (transport: Transport) =>
    async (
      moves: StockMove[],
      options: { returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/increment',
        mapping: CATALOG_V3,
        body: {
          incrementData: moves.map((move) => ({
            inventoryItemId: move.inventoryItemId,
            incrementBy: move.units,
          })),
          returnEntity: options.returnEntity,
        },
        trace: inventoryTrace('BulkIncrementInventoryItems'),
      }),

  /**
   * `POST /v3/inventory-items`: the item of a variant left without one (`productId`, `variantId`), with
   * its stock (`quantity` counts it, `inStock` says it) and preorder; one that has its item is refused
   * (`ITEM_ALREADY_EXISTS`).
   */
  createInventoryItem:
    (transport: Transport) =>
    async (inventoryItem: InventoryItemV3): Promise<InventoryItemV3> => {
      const answer = await transport.request<{ inventoryItem: InventoryItemV3 }>({
        method: 'POST',
        path: '/v3/inventory-items',
        mapping: CATALOG_V3,
        body: { inventoryItem },
        trace: inventoryTrace('CreateInventoryItem'),
      });
      return answer.inventoryItem;
    },

  /** `POST /v3/bulk/inventory-items/create`: each item made or refused in its place. */
  bulkCreateInventoryItems:
    (transport: Transport) =>
    async (
      inventoryItems: InventoryItemV3[],
      options: { returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/create',
        mapping: CATALOG_V3,
        body: { inventoryItems, returnEntity: options.returnEntity },
        trace: inventoryTrace('BulkCreateInventoryItems'),
      }),

  /** `DELETE /v3/inventory-items/{inventoryItemId}`: the variant keeps no item (no stock, not sold). */
  deleteInventoryItem:
    (transport: Transport) =>
    async (inventoryItemId: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v3/inventory-items/${segment(inventoryItemId)}`,
        mapping: CATALOG_V3,
        trace: inventoryTrace('DeleteInventoryItem'),
      });
    },

  /** `POST /v3/bulk/inventory-items/delete`: each item deleted or refused in its place. */
  bulkDeleteInventoryItems:
    (transport: Transport) =>
    async (inventoryItemIds: string[]): Promise<BulkResult<never>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/delete',
        mapping: CATALOG_V3,
        body: { inventoryItemIds },
        trace: inventoryTrace('BulkDeleteInventoryItems'),
      }),

  /** `POST /v3/bulk/inventory-items/update`: each item at the revision it names, a stale one refused in its place. */
  bulkUpdateInventoryItems:
    (transport: Transport) =>
    async (
      inventoryItems: Array<{ inventoryItem: InventoryItemV3 }>,
      options: { returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/update',
        mapping: CATALOG_V3,
        body: { inventoryItems, returnEntity: options.returnEntity },
        trace: inventoryTrace('BulkUpdateInventoryItems'),
      }),

  /**
   * `POST /v3/bulk/inventory-items/update-by-filter`: sets `inventoryItem`'s fields on every item the
   * filter finds, all or none; done when it answers (the job id names that finished work).
   */
  bulkUpdateInventoryItemsByFilter:
    (transport: Transport) =>
    async (
      filter: Record<string, unknown>,
      options: { inventoryItem: InventoryItemV3 },
    ): Promise<{ jobId: string }> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/update-by-filter',
        mapping: CATALOG_V3,
        body: { filter, inventoryItem: options.inventoryItem },
        trace: inventoryTrace('BulkUpdateInventoryItemsByFilter'),
      }),

  /**
   * `POST /v3/bulk/inventory-items/decrement-by-variant-and-location`, all or nothing. The one variant
   * of products without options has the same id in all of them: move those by item id instead.
   */
  bulkDecrementInventoryItemsByVariantAndLocation:
    (transport: Transport) =>
    async (
      moves: VariantStockMove[],
      options: { restrictInventory?: boolean; returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/decrement-by-variant-and-location',
        mapping: CATALOG_V3,
        body: {
          decrementData: moves.map((move) => ({
            variantId: move.variantId,
            ...(move.locationId ? { locationId: move.locationId } : {}),
            decrementBy: move.units,
            ...(move.preorderRequest ? { preorderRequest: true } : {}),
          })),
          restrictInventory: options.restrictInventory,
          returnEntity: options.returnEntity,
        },
        trace: inventoryTrace('BulkDecrementInventoryItemsByVariantAndLocation'),
      }),

  /** `POST /v3/bulk/inventory-items/increment-by-variant-and-location`, all or nothing. */
  bulkIncrementInventoryItemsByVariantAndLocation:
    (transport: Transport) =>
    async (
      moves: VariantStockMove[],
      options: { returnEntity?: boolean } = {},
    ): Promise<BulkResult<InventoryItemV3>> =>
      transport.request({
        method: 'POST',
        path: '/v3/bulk/inventory-items/increment-by-variant-and-location',
        mapping: CATALOG_V3,
        body: {
          incrementData: moves.map((move) => ({
            variantId: move.variantId,
            ...(move.locationId ? { locationId: move.locationId } : {}),
            incrementBy: move.units,
          })),
          returnEntity: options.returnEntity,
        },
        trace: inventoryTrace('BulkIncrementInventoryItemsByVariantAndLocation'),
      }),
} satisfies ModuleDefinition;

export const catalogVersioning = {
  /** `GET /v3/provision/version`: `V3_CATALOG` on Cartwheel, which serves the v1 calls too. */
  getCatalogVersion:
    (transport: Transport) =>
    async (): Promise<{ catalogVersion: 'V1_CATALOG' | 'V3_CATALOG' | 'STORES_NOT_INSTALLED' }> =>
      transport.request({
        method: 'GET',
        path: '/v3/provision/version',
        mapping: CATALOG_V3,
        trace: catalogTrace('v3.StoresProvisionService.GetCatalogVersion', 'provision'),
      }),
} satisfies ModuleDefinition;

/** A page of inventory items, by query or by search (each names its request after its call). */
async function itemsPage(
  transport: Transport,
  call: 'query' | 'search',
  cursorQuery: CursorQuery | undefined,
  method: string,
): Promise<CursorPage<InventoryItemV3>> {
  const answer = await transport.request<{
    inventoryItems?: InventoryItemV3[];
    pagingMetadata: CursorPagingMetadata;
  }>({
    method: 'GET',
    path: `/v3/inventory-items/${call}`,
    mapping: CATALOG_V3,
    params: { [call]: query(cursorQuery) },
    postFallback: true,
    trace: inventoryTrace(method),
  });
  return { items: answer.inventoryItems ?? [], pagingMetadata: answer.pagingMetadata };
}
