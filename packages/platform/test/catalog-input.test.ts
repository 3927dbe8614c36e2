import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, admin, call, createProduct, visitorToken } from './catalog-http.ts';
import { EDGE_DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Every catalog route, sent what a careless or hostile client sends: wrong types, missing fields,
 * oversized lists and strings, NUL bytes, unknown enum values. Each answers 400 with the field
 * violation a client would show, and the catalog is as it was.
 */

interface Row {
  /** What is wrong, as a client would describe its mistake. */
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `{product}`, `{collection}` stand for real ids. */
  path: string;
  body?: unknown;
  /** Sent as the `.r` structured query parameter. */
  query?: unknown;
  as: 'admin' | 'visitor';
  field: string;
  rule: string;
}

const long = (length: number) => 'x'.repeat(length);
const many = <T>(count: number, item: (index: number) => T) =>
  Array.from({ length: count }, (_, i) => item(i));
const nested = (depth: number) => {
  let filter: Record<string, unknown> = { name: 'deep' };
  for (let i = 0; i < depth; i++) filter = { $not: filter };
  return filter;
};
const productsQuery = '/stores-reader/v1/products/query';
const cursorAt = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64url');
const option = (name: string, choices: number) => ({
  name,
  choices: many(choices, (i) => ({ value: `${name}${i}`, description: `${name}${i}` })),
});

const ROWS: Row[] = [
  // ---- one product ----
  {
    name: 'a NUL byte in a product id',
    method: 'GET',
    path: '/stores-reader/v1/products/a%00b',
    as: 'visitor',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a product id of 201 characters',
    method: 'GET',
    path: `/stores-reader/v1/products/${long(201)}`,
    as: 'visitor',
    field: 'id',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'includeMerchantSpecificData that is not a flag',
    method: 'GET',
    path: '/stores-reader/v1/products/{product}?includeMerchantSpecificData=maybe',
    as: 'admin',
    field: 'includeMerchantSpecificData',
    rule: 'FORMAT',
  },

  // ---- product queries (POST body and GET .r alike) ----
  {
    name: 'a filter that is text',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: 'name is x' } },
    as: 'visitor',
    field: 'query.filter',
    rule: 'FORMAT',
  },
  {
    name: 'an object as sort[].fieldName',
    method: 'POST',
    path: productsQuery,
    body: { query: { sort: [{ fieldName: { toString: 1 } }] } },
    as: 'visitor',
    field: 'query.sort[0].fieldName',
    rule: 'FORMAT',
  },
  {
    name: 'a sort item without fieldName',
    method: 'POST',
    path: productsQuery,
    body: { query: { sort: [{ order: 'ASC' }] } },
    as: 'visitor',
    field: 'query.sort[0].fieldName',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'an unknown sort order',
    method: 'POST',
    path: productsQuery,
    body: { query: { sort: [{ fieldName: 'name', order: 'UP' }] } },
    as: 'visitor',
    field: 'query.sort[0].order',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'six sort items',
    method: 'POST',
    path: productsQuery,
    body: { query: { sort: many(6, () => ({ fieldName: 'name' })) } },
    as: 'visitor',
    field: 'query.sort',
    rule: 'MAX_SIZE',
  },
  {
    name: 'an object as paging.limit',
    method: 'POST',
    path: productsQuery,
    body: { query: { paging: { limit: { valueOf: 1 } } } },
    as: 'visitor',
    field: 'query.paging.limit',
    rule: 'FORMAT',
  },
  {
    name: 'paging.limit past 100',
    method: 'POST',
    path: productsQuery,
    body: { query: { paging: { limit: 101 } } },
    as: 'visitor',
    field: 'query.paging.limit',
    rule: 'MAX',
  },
  {
    name: 'paging.offset of 1e300',
    method: 'POST',
    path: productsQuery,
    body: { query: { paging: { offset: 1e300 } } },
    as: 'visitor',
    field: 'query.paging.offset',
    rule: 'MAX',
  },
  {
    name: 'a negative paging.offset',
    method: 'POST',
    path: productsQuery,
    body: { query: { paging: { offset: -1 } } },
    as: 'visitor',
    field: 'query.paging.offset',
    rule: 'MIN',
  },
  {
    name: 'a cursor past offset 100,000',
    method: 'POST',
    path: productsQuery,
    body: { query: { cursorPaging: { cursor: cursorAt(100_001) } } },
    as: 'visitor',
    field: 'query.cursorPaging.cursor',
    rule: 'MAX',
  },
  {
    name: 'an $in of 101 values',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { id: { $in: many(101, String) } } } },
    as: 'visitor',
    field: 'query.filter.id.$in',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a $startsWith of 201 characters',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { name: { $startsWith: long(201) } } } },
    as: 'visitor',
    field: 'query.filter.name.$startsWith',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'a compared string of 201 characters in an $in',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { sku: { $in: ['a', long(201)] } } } },
    as: 'visitor',
    field: 'query.filter.sku.$in[1]',
    rule: 'MAX_LENGTH',
  },
  {
    name: '51 conditions',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { $and: many(51, (i) => ({ price: i })) } } },
    as: 'visitor',
    field: 'query.filter',
    rule: 'MAX_SIZE',
  },
  {
    name: '$not six deep',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: nested(6) } },
    as: 'visitor',
    field: 'query.filter.$not.$not.$not.$not.$not.$not',
    rule: 'MAX_SIZE',
  },
  {
    name: 'an object where an operand belongs',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { price: { $gt: { n: 1 } } } } },
    as: 'visitor',
    field: 'query.filter.price.$gt',
    rule: 'FORMAT',
  },
  {
    name: '$exists that is not a flag',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { sku: { $exists: 'yes' } } } },
    as: 'visitor',
    field: 'query.filter.sku.$exists',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in a filter string',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { name: 'a\u0000b' } } },
    as: 'visitor',
    field: 'query.filter.name',
    rule: 'FORMAT',
  },
  {
    name: 'half a surrogate pair in a filter string',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { name: 'a\ud800' } } },
    as: 'visitor',
    field: 'query.filter.name',
    rule: 'FORMAT',
  },
  {
    name: 'includeVariants that is not a flag',
    method: 'POST',
    path: productsQuery,
    body: { includeVariants: 'yes' },
    as: 'visitor',
    field: 'includeVariants',
    rule: 'FORMAT',
  },
  {
    name: 'an object as paging.limit, by GET',
    method: 'GET',
    path: '/stores-reader/v1/products/query-platformized',
    query: { query: { paging: { limit: {} } } },
    as: 'visitor',
    field: 'query.paging.limit',
    rule: 'FORMAT',
  },
  {
    name: 'an $in of 101 values, by GET',
    method: 'GET',
    path: productsQuery,
    query: { query: { filter: { id: { $in: many(101, String) } } } },
    as: 'visitor',
    field: 'query.filter.id.$in',
    rule: 'MAX_SIZE',
  },

  {
    name: 'a filter on a field every object inherits',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { toString: { $eq: 'x' } } } },
    as: 'visitor',
    field: 'query.filter.toString',
    rule: 'FIELD_NOT_ALLOWED',
  },
  {
    name: 'a sort by constructor',
    method: 'POST',
    path: productsQuery,
    body: { query: { sort: [{ fieldName: 'constructor' }] } },
    as: 'visitor',
    field: 'query.sort[0].fieldName',
    rule: 'FIELD_NOT_ALLOWED',
  },
  {
    name: 'a numericId past a whole number a database holds',
    method: 'POST',
    path: productsQuery,
    body: { query: { filter: { numericId: { $gt: 1e300 } } } },
    as: 'visitor',
    field: 'query.filter.numericId.$gt',
    rule: 'FORMAT',
  },

  // ---- a product's options and variants ----
  {
    name: 'an object as a chosen option',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/productOptionsAvailability',
    body: { options: { Size: { toString: 1 } } },
    as: 'visitor',
    field: 'options.Size',
    rule: 'FORMAT',
  },
  {
    name: 'options as a list',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/productOptionsAvailability',
    body: { options: ['S'] },
    as: 'visitor',
    field: 'options',
    rule: 'FORMAT',
  },
  {
    name: 'seven chosen options',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/productOptionsAvailability',
    body: { options: Object.fromEntries(many(7, (i) => [`O${i}`, 'x'])) },
    as: 'visitor',
    field: 'options',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a NUL byte in the id of an availability call',
    method: 'POST',
    path: '/stores-reader/v1/products/a%00b/productOptionsAvailability',
    body: { options: {} },
    as: 'visitor',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'variantIds that is text',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/variants/query',
    body: { variantIds: 'v1' },
    as: 'visitor',
    field: 'variantIds',
    rule: 'FORMAT',
  },
  {
    name: 'a number as a chosen variant choice',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/variants/query',
    body: { choices: { Size: 5 } },
    as: 'visitor',
    field: 'choices.Size',
    rule: 'FORMAT',
  },
  {
    name: 'text as a variants page limit',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/variants/query',
    body: { paging: { limit: 'ten' } },
    as: 'visitor',
    field: 'paging.limit',
    rule: 'FORMAT',
  },

  // ---- store variants ----
  {
    name: 'an object as a variants filter operand',
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { filter: { price: { $lt: [] } } } },
    as: 'visitor',
    field: 'query.filter.price.$lt',
    rule: 'FORMAT',
  },
  {
    name: 'a $hasAll of 101 collections on variants',
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { filter: { collectionIds: { $hasAll: many(101, String) } } } },
    as: 'visitor',
    field: 'query.filter.collectionIds.$hasAll',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a store variant id of 201 characters',
    method: 'GET',
    path: `/stores-reader/v1/variants/${long(201)}`,
    as: 'visitor',
    field: 'id',
    rule: 'MAX_LENGTH',
  },

  {
    name: 'a variants filter on hasOwnProperty',
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { filter: { hasOwnProperty: { $in: [1] } } } },
    as: 'visitor',
    field: 'query.filter.hasOwnProperty',
    rule: 'FIELD_NOT_ALLOWED',
  },

  // ---- collections ----
  {
    name: 'a slug of 101 characters',
    method: 'GET',
    path: `/stores-reader/v1/collections/slug/${long(101)}`,
    as: 'visitor',
    field: 'slug',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'a NUL byte in a v2 collection id',
    method: 'GET',
    path: '/v2/collections/a%00b',
    as: 'visitor',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in a v1 collection id',
    method: 'GET',
    path: '/stores-reader/v1/collections/a%00b',
    as: 'visitor',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'sort as an object in a collections query',
    method: 'POST',
    path: '/stores-reader/v1/collections/query',
    body: { query: { sort: { fieldName: 'name' } } },
    as: 'visitor',
    field: 'query.sort',
    rule: 'FORMAT',
  },
  {
    name: 'text where an $in list belongs',
    method: 'POST',
    path: '/v2/collections/query',
    body: { query: { filter: { name: { $in: 'Mugs' } } } },
    as: 'visitor',
    field: 'query.filter.name.$in',
    rule: 'FORMAT',
  },
  {
    name: 'a collections page of 1000',
    method: 'GET',
    path: '/v2/collections/query',
    query: { query: { paging: { limit: 1000 } } },
    as: 'visitor',
    field: 'query.paging.limit',
    rule: 'MAX',
  },

  {
    name: 'a collections sort by valueOf',
    method: 'POST',
    path: '/v2/collections/query',
    body: { query: { sort: [{ fieldName: 'valueOf' }] } },
    as: 'visitor',
    field: 'query.sort[0].fieldName',
    rule: 'FIELD_NOT_ALLOWED',
  },

  // ---- product writes ----
  {
    name: 'a create without a product',
    method: 'POST',
    path: '/stores/v1/products',
    body: {},
    as: 'admin',
    field: 'product',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'an object as a product name',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: { toString: 1 }, priceData: { price: 1 } } },
    as: 'admin',
    field: 'product.name',
    rule: 'FORMAT',
  },
  {
    name: 'a product name of 81 characters',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: long(81), priceData: { price: 1 } } },
    as: 'admin',
    field: 'product.name',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'a NUL byte in a product name',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Mug\u0000', priceData: { price: 1 } } },
    as: 'admin',
    field: 'product.name',
    rule: 'FORMAT',
  },
  {
    name: 'an unknown product type',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Bad', priceData: { price: 1 }, productType: 'service' } },
    as: 'admin',
    field: 'product.productType',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'a price that is text',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Bad', priceData: { price: '1' } } },
    as: 'admin',
    field: 'product.priceData.price',
    rule: 'FORMAT',
  },
  {
    name: 'a description of 16,001 characters',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Bad', priceData: { price: 1 }, description: long(16_001) } },
    as: 'admin',
    field: 'product.description',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'seven product options',
    method: 'POST',
    path: '/stores/v1/products',
    body: {
      product: { name: 'Bad', priceData: { price: 1 }, productOptions: many(7, (i) => option(`O${i}`, 1)) },
    },
    as: 'admin',
    field: 'product.productOptions',
    rule: 'MAX_SIZE',
  },
  {
    name: 'an option of 101 choices',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Bad', priceData: { price: 1 }, productOptions: [option('Size', 101)] } },
    as: 'admin',
    field: 'product.productOptions[0].choices',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a stock quantity of 1.5',
    method: 'POST',
    path: '/stores/v1/products',
    body: {
      product: { name: 'Bad', priceData: { price: 1 }, stock: { trackInventory: true, quantity: 1.5 } },
    },
    as: 'admin',
    field: 'product.stock.quantity',
    rule: 'FORMAT',
  },
  {
    name: 'manageVariants that is not a flag',
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Bad', priceData: { price: 1 }, manageVariants: 'yes' } },
    as: 'admin',
    field: 'product.manageVariants',
    rule: 'FORMAT',
  },
  {
    name: 'visible that is not a flag',
    method: 'PATCH',
    path: '/stores/v1/products/{product}',
    body: { product: { visible: 'no' } },
    as: 'admin',
    field: 'product.visible',
    rule: 'FORMAT',
  },
  {
    name: 'an unknown discount type',
    method: 'PATCH',
    path: '/stores/v1/products/{product}',
    body: { product: { discount: { type: 'HALF', value: 1 } } },
    as: 'admin',
    field: 'product.discount.type',
    rule: 'INVALID_ENUM_VALUE',
  },
  {
    name: 'a NUL byte in the id of a delete',
    method: 'DELETE',
    path: '/stores/v1/products/a%00b',
    as: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a variants update without variants',
    method: 'PATCH',
    path: '/stores/v1/products/{product}/variants',
    body: {},
    as: 'admin',
    field: 'variants',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'a variant price that is text',
    method: 'PATCH',
    path: '/stores/v1/products/{product}/variants',
    body: { variants: [{ choices: { Size: 'S' }, price: 'x' }] },
    as: 'admin',
    field: 'variants[0].price',
    rule: 'FORMAT',
  },
  {
    name: '1001 variant overrides',
    method: 'PATCH',
    path: '/stores/v1/products/{product}/variants',
    body: { variants: many(1001, () => ({ choices: { Size: 'S' } })) },
    as: 'admin',
    field: 'variants',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a reset of a 201-character id',
    method: 'POST',
    path: `/stores/v1/products/${long(201)}/variants/resetToDefault`,
    as: 'admin',
    field: 'id',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'media added without media',
    method: 'POST',
    path: '/stores/v1/products/{product}/media',
    body: {},
    as: 'admin',
    field: 'media',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'a number as a media url',
    method: 'POST',
    path: '/stores/v1/products/{product}/media',
    body: { media: [{ url: 5 }] },
    as: 'admin',
    field: 'media[0].url',
    rule: 'FORMAT',
  },
  {
    name: '101 media items at once',
    method: 'POST',
    path: '/stores/v1/products/{product}/media',
    body: { media: many(101, (i) => ({ url: `https://example.com/${i}.png` })) },
    as: 'admin',
    field: 'media',
    rule: 'MAX_SIZE',
  },
  {
    name: 'mediaIds that is text',
    method: 'POST',
    path: '/stores/v1/products/{product}/media/delete',
    body: { mediaIds: 'm1' },
    as: 'admin',
    field: 'mediaIds',
    rule: 'FORMAT',
  },
  {
    name: 'a number as a choice media id',
    method: 'PATCH',
    path: '/stores/v1/products/{product}/choices/media',
    body: { media: [{ option: 'Size', choice: 'S', mediaIds: [1] }] },
    as: 'admin',
    field: 'media[0].mediaIds[0]',
    rule: 'FORMAT',
  },
  {
    name: 'choice media as an object',
    method: 'POST',
    path: '/stores/v1/products/{product}/choices/media/delete',
    body: { media: { option: 'Size' } },
    as: 'admin',
    field: 'media',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in the id of an options delete',
    method: 'DELETE',
    path: '/stores/v1/products/a%00b/options',
    as: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in the id of a brand removal',
    method: 'POST',
    path: '/stores/v1/products/a%00b/remove-brand',
    as: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a NUL byte in the id of a ribbon removal',
    method: 'POST',
    path: '/stores/v1/products/a%00b/remove-ribbon',
    as: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'a bulk update of 101 products',
    method: 'POST',
    path: '/stores/v1/bulk/products/update',
    body: { ids: many(101, String), set: { price: 1 } },
    as: 'admin',
    field: 'ids',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a bulk price that is text',
    method: 'POST',
    path: '/stores/v1/bulk/products/update',
    body: { ids: ['{product}'], set: { price: 'x' } },
    as: 'admin',
    field: 'set.price',
    rule: 'FORMAT',
  },
  {
    name: 'a bulk update without set',
    method: 'POST',
    path: '/stores/v1/bulk/products/update',
    body: { ids: ['{product}'] },
    as: 'admin',
    field: 'set',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'a percentage that is text',
    method: 'POST',
    path: '/stores/v1/bulk/products/adjust-properties',
    body: { ids: ['{product}'], adjust: { price: { percentage: '10%' } } },
    as: 'admin',
    field: 'adjust.price.percentage',
    rule: 'FORMAT',
  },

  // ---- collection writes ----
  {
    name: 'a create without a collection',
    method: 'POST',
    path: '/stores/v1/collections',
    body: {},
    as: 'admin',
    field: 'collection',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'a collection name of 51 characters',
    method: 'POST',
    path: '/stores/v1/collections',
    body: { collection: { name: long(51) } },
    as: 'admin',
    field: 'collection.name',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'collection visible that is not a flag',
    method: 'POST',
    path: '/stores/v1/collections',
    body: { collection: { name: 'Bad', visible: 1 } },
    as: 'admin',
    field: 'collection.visible',
    rule: 'FORMAT',
  },
  {
    name: 'a collection description of 601 characters',
    method: 'PATCH',
    path: '/stores/v1/collections/{collection}',
    body: { collection: { description: long(601) } },
    as: 'admin',
    field: 'collection.description',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'a NUL byte in the id of a collection delete',
    method: 'DELETE',
    path: '/stores/v1/collections/a%00b',
    as: 'admin',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'products added without productIds',
    method: 'POST',
    path: '/stores/v1/collections/{collection}/productIds',
    body: {},
    as: 'admin',
    field: 'productIds',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: 'an object as a product id to add',
    method: 'POST',
    path: '/stores/v1/collections/{collection}/productIds',
    body: { productIds: [{}] },
    as: 'admin',
    field: 'productIds[0]',
    rule: 'FORMAT',
  },
  {
    name: 'an empty product id to add',
    method: 'POST',
    path: '/stores/v1/collections/{collection}/productIds',
    body: { productIds: [''] },
    as: 'admin',
    field: 'productIds[0]',
    rule: 'REQUIRED_FIELD',
  },
  {
    name: '1001 products added at once',
    method: 'POST',
    path: '/stores/v1/collections/{collection}/productIds',
    body: { productIds: many(1001, String) },
    as: 'admin',
    field: 'productIds',
    rule: 'MAX_SIZE',
  },
  {
    name: 'productIds to remove as text',
    method: 'POST',
    path: '/stores/v1/collections/{collection}/productIds/delete',
    body: { productIds: '{product}' },
    as: 'admin',
    field: 'productIds',
    rule: 'FORMAT',
  },

  // ---- images ----
  {
    name: 'an image name of 201 characters',
    method: 'GET',
    path: `/media/${long(201)}`,
    as: 'visitor',
    field: 'file',
    rule: 'MAX_LENGTH',
  },
];

describe.each(EDGE_DIALECTS)('malformed catalog requests on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  const ids = { product: '', collection: '' };
  const fill = <T>(value: T): T =>
    JSON.parse(
      JSON.stringify(value).replaceAll('{product}', ids.product).replaceAll('{collection}', ids.collection),
    );

  /** What an admin sees of the whole catalog: any change a refused request made shows here. */
  async function catalogState(): Promise<unknown> {
    const products = await call(
      platform,
      'POST',
      productsQuery,
      { query: { paging: { limit: 100 } }, includeVariants: true, includeMerchantSpecificData: true },
      platform.adminApiKey,
    );
    const variants = await call(
      platform,
      'POST',
      '/stores-reader/v1/variants/query',
      { query: { paging: { limit: 100 } }, includeMerchantSpecificData: true },
      platform.adminApiKey,
    );
    const collections = await call(platform, 'POST', '/v2/collections/query', {}, platform.adminApiKey);
    return { products: products.body, variants: variants.body, collections: collections.body };
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    const product = await createProduct(platform, {
      name: 'Input Tee',
      priceData: { price: 20 },
      manageVariants: true,
      productOptions: [option('Size', 2)],
    });
    ids.product = product.id;
    const collection = await admin(platform).post('/stores/v1/collections', {
      collection: { name: 'Input Picks' },
    });
    ids.collection = collection.body.collection.id;
    await admin(platform).post(`/stores/v1/collections/${ids.collection}/productIds`, {
      productIds: [ids.product],
    });
  });
  afterAll(() => platform?.stop());

  it('answers each with 400 and the field violation a client would show, and changes nothing', async () => {
    const before = await catalogState();
    for (const row of ROWS) {
      const path = fill(row.path);
      const auth = row.as === 'admin' ? platform.adminApiKey : visitor;
      const answer: Answer =
        row.query === undefined
          ? await call(platform, row.method, path, row.body === undefined ? undefined : fill(row.body), auth)
          : await call(
              platform,
              row.method,
              `${path}?.r=${encodeStructuredParam(fill(row.query))}`,
              undefined,
              auth,
            );
      const violation = answer.body?.details?.validationError?.fieldViolations?.[0];
      expect({
        row: row.name,
        status: answer.status,
        field: violation?.field,
        rule: violation?.violatedRule,
      }).toEqual({ row: row.name, status: 400, field: row.field, rule: row.rule });
      expect(violation.description, row.name).toEqual(expect.any(String));
    }
    expect(await catalogState()).toEqual(before);
  });
});
