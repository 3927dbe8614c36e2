import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  BulkAdjust,
  BulkSet,
  BulkUpdateProductsResult,
  Collection,
  MediaAssignmentToChoice,
  MediaDataForWrite,
  Product,
  ProductOptionsAvailability,
  ProductVariant,
  VariantOverride,
} from '../../types/catalog.ts';
import type { OffsetPage, OffsetPaging, ProductQuery } from '../../types/paging.ts';
import { type OffsetListMetadata, pageOfList } from '../offset-list.ts';
import { CATALOG_READS, CATALOG_WRITES, catalogTrace, segment } from './domains.ts';

export interface GetProductOptions {
  includeMerchantSpecificData?: boolean;
}

export interface QueryProductsOptions {
  includeVariants?: boolean;
  includeHiddenProducts?: boolean;
  includeMerchantSpecificData?: boolean;
}

export interface QueryProductVariantsOptions {
  /** Some or all of a variant's choices: `{ Size: 'M' }` matches every medium variant. */
  choices?: Record<string, string>;
  variantIds?: string[];
  paging?: OffsetPaging;
  includeMerchantSpecificData?: boolean;
}

/** A product, collection, or variant object without the id the call already names. */
type Changes<T> = Omit<T, 'id'>;

const readTrace = (method: string) => catalogTrace(`v1.CatalogReadApi.${method}`, 'product');
const writeTrace = (method: string) => catalogTrace(`v1.CatalogWriteApi.${method}`, 'product');
const collectionWriteTrace = (method: string) => catalogTrace(`v1.CatalogWriteApi.${method}`, 'collection');

/**
 * The stores catalog, v1: products, their variants and media, and v1 collections. Each call sends
 * what the hosted platform's client sends (path ids repeated in the query or body included); single
 * entities come back unwrapped, empty answers as `void`.
 */
export const products = {
  /** `GET /v1/products/{id}` (reader). */
  getProduct:
    (transport: Transport) =>
    async (id: string, options?: GetProductOptions): Promise<Product> => {
      const answer = await transport.request<{ product: Product }>({
        method: 'GET',
        path: `/v1/products/${segment(id)}`,
        mapping: CATALOG_READS,
        params: { id, includeMerchantSpecificData: options?.includeMerchantSpecificData },
        trace: readTrace('GetProduct'),
      });
      return answer.product;
    },

  /**
   * `GET /v1/products/query-platformized` (reader) with the query as `.r`, or `POST` to the same path
   * when the query string grows past 4000 characters. No paging is added: the platform defaults it.
   */
  queryProducts:
    (transport: Transport) =>
    async (query?: ProductQuery, options?: QueryProductsOptions): Promise<OffsetPage<Product>> => {
      const answer = await transport.request<{ products?: Product[]; metadata?: OffsetListMetadata }>({
        method: 'GET',
        path: '/v1/products/query-platformized',
        mapping: CATALOG_READS,
        params: {
          query: query && Object.keys(query).length > 0 ? query : undefined,
          includeVariants: options?.includeVariants,
          includeHiddenProducts: options?.includeHiddenProducts,
          includeMerchantSpecificData: options?.includeMerchantSpecificData,
        },
        postFallback: true,
        trace: readTrace('QueryProductsPlatformized'),
      });
      return pageOfList(answer.products, answer.metadata);
    },

  /** `POST /v1/products/{id}/productOptionsAvailability` (reader): the variant the choices pick. */
  getProductOptionsAvailability:
    (transport: Transport) =>
    (id: string, options: Record<string, string>): Promise<ProductOptionsAvailability> =>
      transport.request<ProductOptionsAvailability>({
        method: 'POST',
        path: `/v1/products/${segment(id)}/productOptionsAvailability`,
        mapping: CATALOG_READS,
        body: { id, options },
        trace: readTrace('ProductOptionsAvailability'),
      }),

  /** `POST /v1/products/{id}/variants/query` (reader): a product's variants, by choices or ids. */
  queryProductVariants:
    (transport: Transport) =>
    async (id: string, options?: QueryProductVariantsOptions): Promise<OffsetPage<ProductVariant>> => {
      const answer = await transport.request<{
        variants?: ProductVariant[];
        metadata?: OffsetListMetadata;
        totalResults?: number;
      }>({
        method: 'POST',
        path: `/v1/products/${segment(id)}/variants/query`,
        mapping: CATALOG_READS,
        body: {
          id,
          choices: options?.choices,
          variantIds: options?.variantIds,
          paging: options?.paging,
          includeMerchantSpecificData: options?.includeMerchantSpecificData,
        },
        trace: readTrace('QueryProductVariants'),
      });
      return pageOfList(answer.variants, answer.metadata, answer.totalResults);
    },

  /** `GET /v1/collections/slug/{slug}` (reader): a v1 collection by its slug. */
  getCollectionBySlug:
    (transport: Transport) =>
    async (slug: string): Promise<Collection> => {
      const answer = await transport.request<{ collection: Collection }>({
        method: 'GET',
        path: `/v1/collections/slug/${segment(slug)}`,
        mapping: CATALOG_READS,
        params: { slug },
        trace: catalogTrace('v1.CatalogReadApi.GetCollectionBySlug', 'collection'),
      });
      return answer.collection;
    },

  /** `POST /v1/products` (writer). */
  createProduct:
    (transport: Transport) =>
    async (product: Product): Promise<Product> => {
      const answer = await transport.request<{ product: Product }>({
        method: 'POST',
        path: '/v1/products',
        mapping: CATALOG_WRITES,
        body: { product },
        trace: writeTrace('CreateProduct'),
      });
      return answer.product;
    },

  /** `PATCH /v1/products/{id}` (writer) with `{product: {id, ...changes}}`. */
  updateProduct:
    (transport: Transport) =>
    async (id: string, product: Changes<Product>): Promise<Product> => {
      const answer = await transport.request<{ product: Product }>({
        method: 'PATCH',
        path: `/v1/products/${segment(id)}`,
        mapping: CATALOG_WRITES,
        body: { product: { ...product, id } },
        trace: writeTrace('UpdateProduct'),
      });
      return answer.product;
    },

  /** `DELETE /v1/products/{id}?id={id}` (writer). */
  deleteProduct:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v1/products/${segment(id)}`,
        mapping: CATALOG_WRITES,
        params: { id },
        trace: writeTrace('DeleteProduct'),
      });
    },

  /** `PATCH /v1/products/{id}/variants` (writer): the product's variants after the change. */
  updateProductVariants:
    (transport: Transport) =>
    async (id: string, variants: VariantOverride[]): Promise<ProductVariant[]> => {
      const answer = await transport.request<{ variants?: ProductVariant[] }>({
        method: 'PATCH',
        path: `/v1/products/${segment(id)}/variants`,
        mapping: CATALOG_WRITES,
        body: { id, variants },
        trace: writeTrace('UpdateVariants'),
      });
      return answer.variants ?? [];
    },

  /** `POST /v1/products/{id}/variants/resetToDefault` (writer): every variant back to the product's data. */
  resetAllProductVariantData:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/variants/resetToDefault`,
        mapping: CATALOG_WRITES,
        body: { id },
        trace: writeTrace('ResetAllVariantData'),
      });
    },

  /** `POST /v1/products/{id}/media` (writer). */
  addProductMedia:
    (transport: Transport) =>
    async (id: string, media: MediaDataForWrite[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/media`,
        mapping: CATALOG_WRITES,
        body: { id, media },
        trace: writeTrace('AddProductMedia'),
      });
    },

  /** `POST /v1/products/{id}/media/delete` (writer). */
  removeProductMedia:
    (transport: Transport) =>
    async (id: string, mediaIds: string[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/media/delete`,
        mapping: CATALOG_WRITES,
        body: { id, mediaIds },
        trace: writeTrace('RemoveProductMedia'),
      });
    },

  /** `PATCH /v1/products/{id}/choices/media` (writer). */
  addProductMediaToChoices:
    (transport: Transport) =>
    async (id: string, media: MediaAssignmentToChoice[]): Promise<void> => {
      await transport.request({
        method: 'PATCH',
        path: `/v1/products/${segment(id)}/choices/media`,
        mapping: CATALOG_WRITES,
        body: { id, media },
        trace: writeTrace('AddProductMediaToChoices'),
      });
    },

  /** `POST /v1/products/{id}/choices/media/delete` (writer). */
  removeProductMediaFromChoices:
    (transport: Transport) =>
    async (id: string, media: MediaAssignmentToChoice[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/choices/media/delete`,
        mapping: CATALOG_WRITES,
        body: { id, media },
        trace: writeTrace('RemoveProductMediaFromChoices'),
      });
    },

  /** `DELETE /v1/products/{id}/options?id={id}` (writer): the product's options, and with them its variants. */
  deleteProductOptions:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v1/products/${segment(id)}/options`,
        mapping: CATALOG_WRITES,
        params: { id },
        trace: writeTrace('DeleteProductOptions'),
      });
    },

  /** `POST /v1/products/{id}/remove-brand` (writer). */
  removeBrand:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/remove-brand`,
        mapping: CATALOG_WRITES,
        body: { id },
        trace: writeTrace('RemoveBrand'),
      });
    },

  /** `POST /v1/products/{id}/remove-ribbon` (writer). */
  removeRibbon:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/products/${segment(id)}/remove-ribbon`,
        mapping: CATALOG_WRITES,
        body: { id },
        trace: writeTrace('RemoveRibbon'),
      });
    },

  /** `POST /v1/bulk/products/update` (writer): sets price, cost or weight of many products. */
  bulkUpdateProductsProperty:
    (transport: Transport) =>
    (ids: string[], set: BulkSet): Promise<BulkUpdateProductsResult> =>
      transport.request<BulkUpdateProductsResult>({
        method: 'POST',
        path: '/v1/bulk/products/update',
        mapping: CATALOG_WRITES,
        body: { ids, set },
        trace: writeTrace('BulkUpdateProducts'),
      }),

  /**
   * `POST /v1/bulk/products/adjust-properties` (writer): moves price, cost or weight of many products
   * by an amount or a percentage. The adjustment comes first, as in the hosted client.
   */
  bulkAdjustProductProperty:
    (transport: Transport) =>
    (adjust: BulkAdjust, ids: string[]): Promise<BulkUpdateProductsResult> =>
      transport.request<BulkUpdateProductsResult>({
        method: 'POST',
        path: '/v1/bulk/products/adjust-properties',
        mapping: CATALOG_WRITES,
        body: { adjust, ids },
        trace: writeTrace('BulkAdjustProductProperties'),
      }),

  /** `POST /v1/collections/{id}/productIds` (writer). */
  addProductsToCollection:
    (transport: Transport) =>
    async (collectionId: string, productIds: string[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/collections/${segment(collectionId)}/productIds`,
        mapping: CATALOG_WRITES,
        body: { id: collectionId, productIds },
        trace: collectionWriteTrace('AddProductsToCollection'),
      });
    },

  /** `POST /v1/collections/{id}/productIds/delete` (writer). */
  removeProductsFromCollection:
    (transport: Transport) =>
    async (collectionId: string, productIds: string[]): Promise<void> => {
      await transport.request({
        method: 'POST',
        path: `/v1/collections/${segment(collectionId)}/productIds/delete`,
        mapping: CATALOG_WRITES,
        body: { id: collectionId, productIds },
        trace: collectionWriteTrace('RemoveProductsFromCollection'),
      });
    },

  /** `POST /v1/collections` (writer). */
  createCollection:
    (transport: Transport) =>
    async (collection: Collection): Promise<Collection> => {
      const answer = await transport.request<{ collection: Collection }>({
        method: 'POST',
        path: '/v1/collections',
        mapping: CATALOG_WRITES,
        body: { collection },
        trace: collectionWriteTrace('CreateCollection'),
      });
      return answer.collection;
    },

  /** `PATCH /v1/collections/{id}` (writer) with `{collection: {id, ...changes}}`. */
  updateCollection:
    (transport: Transport) =>
    async (id: string, collection: Changes<Collection>): Promise<Collection> => {
      const answer = await transport.request<{ collection: Collection }>({
        method: 'PATCH',
        path: `/v1/collections/${segment(id)}`,
        mapping: CATALOG_WRITES,
        body: { collection: { ...collection, id } },
        trace: collectionWriteTrace('UpdateCollection'),
      });
      return answer.collection;
    },

  /** `DELETE /v1/collections/{id}?id={id}` (writer). */
  deleteCollection:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v1/collections/${segment(id)}`,
        mapping: CATALOG_WRITES,
        params: { id },
        trace: collectionWriteTrace('DeleteCollection'),
      });
    },
} satisfies ModuleDefinition;
