import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { collections, products, storeVariants } from '../src/modules/stores/index.ts';
import { decodeStructuredParam, encodeStructuredParam } from '../src/wire/index.ts';
import {
  ADMIN_KEY,
  adminClient,
  expectWireCall,
  moduleCalls,
  startWireServer,
  visitorClient,
  withVisitorTokens,
} from './support/wire-calls.ts';

/**
 * Each catalog call against a loopback server that records what arrives and answers canned,
 * wire-shaped JSON. Expectations are the wire contract's "Calls" list, written out by hand; ids in
 * the path are repeated in the query or body, as the hosted platform's client sends them.
 */

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The decoded `.r` parameter, when there is one. */
  r: unknown;
  body: unknown;
  headers: http.IncomingHttpHeaders;
}

const server = await startWireServer(withVisitorTokens(() => ({ body: {} })));

/** Answers the calls of the test with `body` (a visitor still gets tokens). */
function answerWith(body: unknown) {
  server.respond = withVisitorTokens(() => ({ body }));
}

/** A fresh admin client of the three catalog modules. */
function catalogAdmin() {
  return adminClient(server, { products, collections, storeVariants });
}
type CatalogClient = ReturnType<typeof catalogAdmin>;

/** The one call the test made, with its query as an object and `.r` decoded. */
function only(): Recorded {
  const calls = moduleCalls(server);
  expect(calls).toHaveLength(1);
  const request = calls[0]!;
  const query = Object.fromEntries(request.query);
  return {
    method: request.method,
    path: request.path,
    query,
    r: query['.r'] ? decodeStructuredParam(query['.r']) : undefined,
    body: request.body,
    headers: request.headers,
  };
}

const CREATED = '2024-05-01T10:00:00.000Z';
const UPDATED = '2024-05-02T11:30:00.000Z';
const productOnWire = { id: 'p1', name: 'Linen shirt', createdDate: CREATED, lastUpdated: UPDATED };
const productRevived = {
  id: 'p1',
  name: 'Linen shirt',
  createdDate: new Date(CREATED),
  lastUpdated: new Date(UPDATED),
};
const collectionOnWire = { id: 'c1', name: 'Summer', slug: 'summer', numberOfProducts: 2 };
const collectionV2OnWire = {
  id: 'c1',
  name: 'Summer',
  slug: 'summer',
  createdDate: CREATED,
  updatedDate: UPDATED,
};
const collectionV2Revived = {
  ...collectionV2OnWire,
  createdDate: new Date(CREATED),
  updatedDate: new Date(UPDATED),
};
const metadata = { count: 1, offset: 0, total: 1, tooManyToCount: false };
const page = <T>(items: T[]) => ({ items, metadata, totalCount: 1, tooManyToCount: false, hasNext: false });
const bulkResult = {
  results: [{ itemMetadata: { id: 'p1', originalIndex: 0, success: true } }],
  bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 },
};

interface WireRow {
  name: string;
  call: (client: CatalogClient) => Promise<unknown>;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  r?: unknown;
  body?: unknown;
  fqn: string;
  entity: 'product' | 'collection' | 'variant';
  answer: unknown;
  returns: unknown;
}

const rows: WireRow[] = [
  {
    name: 'getProduct',
    call: (c) => c.products.getProduct('p1', { includeMerchantSpecificData: true }),
    method: 'GET',
    path: '/stores-reader/v1/products/p1',
    query: { id: 'p1', includeMerchantSpecificData: 'true' },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.GetProduct',
    entity: 'product',
    answer: { product: productOnWire },
    returns: productRevived,
  },
  {
    name: 'queryProducts',
    call: (c) =>
      c.products.queryProducts(
        { filter: { name: { $startsWith: 'Linen' } }, paging: { limit: 5 } },
        { includeVariants: true },
      ),
    method: 'GET',
    path: '/stores-reader/v1/products/query-platformized',
    r: { query: { filter: { name: { $startsWith: 'Linen' } }, paging: { limit: 5 } }, includeVariants: true },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.QueryProductsPlatformized',
    entity: 'product',
    answer: { products: [productOnWire], metadata },
    returns: page([productRevived]),
  },
  {
    name: 'getProductOptionsAvailability',
    call: (c) => c.products.getProductOptionsAvailability('p1', { Size: 'M', Color: 'Red' }),
    method: 'POST',
    path: '/stores-reader/v1/products/p1/productOptionsAvailability',
    body: { id: 'p1', options: { Size: 'M', Color: 'Red' } },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.ProductOptionsAvailability',
    entity: 'product',
    answer: { selectedVariant: { id: 'v1', inStock: true }, availableForPurchase: true, productOptions: [] },
    returns: { selectedVariant: { id: 'v1', inStock: true }, availableForPurchase: true, productOptions: [] },
  },
  {
    name: 'queryProductVariants',
    call: (c) =>
      c.products.queryProductVariants('p1', {
        choices: { Size: 'M' },
        variantIds: ['v1'],
        paging: { limit: 10, offset: 0 },
        includeMerchantSpecificData: true,
      }),
    method: 'POST',
    path: '/stores-reader/v1/products/p1/variants/query',
    body: {
      id: 'p1',
      choices: { Size: 'M' },
      variantIds: ['v1'],
      paging: { limit: 10, offset: 0 },
      includeMerchantSpecificData: true,
    },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.QueryProductVariants',
    entity: 'product',
    answer: { variants: [{ id: 'v1', choices: { Size: 'M' } }], metadata },
    returns: page([{ id: 'v1', choices: { Size: 'M' } }]),
  },
  {
    name: 'queryStoreVariants',
    call: (c) => c.storeVariants.queryStoreVariants({ filter: { productId: 'p1' }, paging: { limit: 10 } }),
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { filter: { productId: 'p1' }, paging: { limit: 10 } } },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.QueryStoreVariants',
    entity: 'variant',
    answer: { variants: [{ id: 'p1-v1', productId: 'p1' }], metadata },
    returns: page([{ id: 'p1-v1', productId: 'p1' }]),
  },
  {
    name: 'getStoreVariant',
    call: (c) => c.storeVariants.getStoreVariant('p1-v1'),
    method: 'GET',
    path: '/stores-reader/v1/variants/p1-v1',
    query: { id: 'p1-v1' },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.GetStoreVariant',
    entity: 'variant',
    answer: { variant: { id: 'p1-v1', productId: 'p1' } },
    returns: { id: 'p1-v1', productId: 'p1' },
  },
  {
    name: 'products.getCollectionBySlug (v1 reader)',
    call: (c) => c.products.getCollectionBySlug('summer'),
    method: 'GET',
    path: '/stores-reader/v1/collections/slug/summer',
    query: { slug: 'summer' },
    fqn: 'cartwheel.stores.v1.CatalogReadApi.GetCollectionBySlug',
    entity: 'collection',
    answer: { collection: collectionOnWire },
    returns: collectionOnWire,
  },
  {
    name: 'collections.getCollection (v2)',
    call: (c) => c.collections.getCollection('c1'),
    method: 'GET',
    path: '/v2/collections/c1',
    query: { id: 'c1' },
    fqn: 'cartwheel.stores.v2.CollectionReadApi.GetCollection',
    entity: 'collection',
    answer: { collection: collectionV2OnWire },
    returns: collectionV2Revived,
  },
  {
    name: 'collections.getCollectionBySlug (v2)',
    call: (c) => c.collections.getCollectionBySlug('summer'),
    method: 'GET',
    path: '/v2/collections/slug/summer',
    query: { slug: 'summer' },
    fqn: 'cartwheel.stores.v2.CollectionReadApi.GetCollectionBySlug',
    entity: 'collection',
    answer: { collection: collectionV2OnWire },
    returns: collectionV2Revived,
  },
  {
    name: 'collections.queryCollections (v2)',
    call: (c) => c.collections.queryCollections({ sort: [{ fieldName: 'name', order: 'ASC' }] }),
    method: 'GET',
    path: '/v2/collections/query',
    r: { query: { sort: [{ fieldName: 'name', order: 'ASC' }] } },
    fqn: 'cartwheel.stores.v2.CollectionReadApi.QueryCollections',
    entity: 'collection',
    answer: { collections: [collectionV2OnWire], metadata },
    returns: page([collectionV2Revived]),
  },
  {
    name: 'createProduct',
    call: (c) =>
      c.products.createProduct({ name: 'Linen shirt', productType: 'physical', priceData: { price: 30 } }),
    method: 'POST',
    path: '/stores/v1/products',
    body: { product: { name: 'Linen shirt', productType: 'physical', priceData: { price: 30 } } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.CreateProduct',
    entity: 'product',
    answer: { product: productOnWire },
    returns: productRevived,
  },
  {
    name: 'updateProduct',
    call: (c) => c.products.updateProduct('p1', { name: 'Linen shirt' }),
    method: 'PATCH',
    path: '/stores/v1/products/p1',
    body: { product: { id: 'p1', name: 'Linen shirt' } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.UpdateProduct',
    entity: 'product',
    answer: { product: productOnWire },
    returns: productRevived,
  },
  {
    name: 'deleteProduct',
    call: (c) => c.products.deleteProduct('p1'),
    method: 'DELETE',
    path: '/stores/v1/products/p1',
    query: { id: 'p1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.DeleteProduct',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'updateProductVariants',
    call: (c) => c.products.updateProductVariants('p1', [{ choices: { Size: 'M' }, price: 12 }]),
    method: 'PATCH',
    path: '/stores/v1/products/p1/variants',
    body: { id: 'p1', variants: [{ choices: { Size: 'M' }, price: 12 }] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.UpdateVariants',
    entity: 'product',
    answer: { variants: [{ id: 'v1', choices: { Size: 'M' } }] },
    returns: [{ id: 'v1', choices: { Size: 'M' } }],
  },
  {
    name: 'resetAllProductVariantData',
    call: (c) => c.products.resetAllProductVariantData('p1'),
    method: 'POST',
    path: '/stores/v1/products/p1/variants/resetToDefault',
    body: { id: 'p1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.ResetAllVariantData',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'addProductsToCollection',
    call: (c) => c.products.addProductsToCollection('c1', ['p1', 'p2']),
    method: 'POST',
    path: '/stores/v1/collections/c1/productIds',
    body: { id: 'c1', productIds: ['p1', 'p2'] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.AddProductsToCollection',
    entity: 'collection',
    answer: {},
    returns: undefined,
  },
  {
    name: 'removeProductsFromCollection',
    call: (c) => c.products.removeProductsFromCollection('c1', ['p2']),
    method: 'POST',
    path: '/stores/v1/collections/c1/productIds/delete',
    body: { id: 'c1', productIds: ['p2'] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.RemoveProductsFromCollection',
    entity: 'collection',
    answer: {},
    returns: undefined,
  },
  {
    name: 'addProductMedia',
    call: (c) => c.products.addProductMedia('p1', [{ url: 'https://img.test/a.jpg' }]),
    method: 'POST',
    path: '/stores/v1/products/p1/media',
    body: { id: 'p1', media: [{ url: 'https://img.test/a.jpg' }] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.AddProductMedia',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'removeProductMedia',
    call: (c) => c.products.removeProductMedia('p1', ['m1']),
    method: 'POST',
    path: '/stores/v1/products/p1/media/delete',
    body: { id: 'p1', mediaIds: ['m1'] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.RemoveProductMedia',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'addProductMediaToChoices',
    call: (c) =>
      c.products.addProductMediaToChoices('p1', [{ option: 'Color', choice: 'Red', mediaIds: ['m1'] }]),
    method: 'PATCH',
    path: '/stores/v1/products/p1/choices/media',
    body: { id: 'p1', media: [{ option: 'Color', choice: 'Red', mediaIds: ['m1'] }] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.AddProductMediaToChoices',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'removeProductMediaFromChoices',
    call: (c) =>
      c.products.removeProductMediaFromChoices('p1', [{ option: 'Color', choice: 'Red', mediaIds: ['m1'] }]),
    method: 'POST',
    path: '/stores/v1/products/p1/choices/media/delete',
    body: { id: 'p1', media: [{ option: 'Color', choice: 'Red', mediaIds: ['m1'] }] },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.RemoveProductMediaFromChoices',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'deleteProductOptions',
    call: (c) => c.products.deleteProductOptions('p1'),
    method: 'DELETE',
    path: '/stores/v1/products/p1/options',
    query: { id: 'p1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.DeleteProductOptions',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'removeBrand',
    call: (c) => c.products.removeBrand('p1'),
    method: 'POST',
    path: '/stores/v1/products/p1/remove-brand',
    body: { id: 'p1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.RemoveBrand',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'removeRibbon',
    call: (c) => c.products.removeRibbon('p1'),
    method: 'POST',
    path: '/stores/v1/products/p1/remove-ribbon',
    body: { id: 'p1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.RemoveRibbon',
    entity: 'product',
    answer: {},
    returns: undefined,
  },
  {
    name: 'createCollection',
    call: (c) => c.products.createCollection({ name: 'Summer' }),
    method: 'POST',
    path: '/stores/v1/collections',
    body: { collection: { name: 'Summer' } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.CreateCollection',
    entity: 'collection',
    answer: { collection: collectionOnWire },
    returns: collectionOnWire,
  },
  {
    name: 'updateCollection',
    call: (c) => c.products.updateCollection('c1', { name: 'Summer sale' }),
    method: 'PATCH',
    path: '/stores/v1/collections/c1',
    body: { collection: { id: 'c1', name: 'Summer sale' } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.UpdateCollection',
    entity: 'collection',
    answer: { collection: collectionOnWire },
    returns: collectionOnWire,
  },
  {
    name: 'deleteCollection',
    call: (c) => c.products.deleteCollection('c1'),
    method: 'DELETE',
    path: '/stores/v1/collections/c1',
    query: { id: 'c1' },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.DeleteCollection',
    entity: 'collection',
    answer: {},
    returns: undefined,
  },
  {
    name: 'bulkUpdateProductsProperty',
    call: (c) => c.products.bulkUpdateProductsProperty(['p1'], { price: 9.99 }),
    method: 'POST',
    path: '/stores/v1/bulk/products/update',
    body: { ids: ['p1'], set: { price: 9.99 } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.BulkUpdateProducts',
    entity: 'product',
    answer: bulkResult,
    returns: bulkResult,
  },
  {
    name: 'bulkAdjustProductProperty',
    call: (c) => c.products.bulkAdjustProductProperty({ price: { percentage: { rate: -10 } } }, ['p1']),
    method: 'POST',
    path: '/stores/v1/bulk/products/adjust-properties',
    body: { ids: ['p1'], adjust: { price: { percentage: { rate: -10 } } } },
    fqn: 'cartwheel.stores.v1.CatalogWriteApi.BulkAdjustProductProperties',
    entity: 'product',
    answer: bulkResult,
    returns: bulkResult,
  },
];

describe('catalog calls on the wire', () => {
  it('covers every method of the three catalog modules', () => {
    const covered = new Set(rows.map((row) => row.name.split(' ')[0]!.replace(/^\w+\./, '')));
    const methods = [...Object.keys(products), ...Object.keys(collections), ...Object.keys(storeVariants)];
    expect(methods.filter((method) => !covered.has(method))).toEqual([]);
  });

  it.each(rows)(
    '$name sends $method $path with the wire body and returns the unwrapped answer',
    async (row) => {
      answerWith(row.answer);
      const result = await row.call(catalogAdmin());
      expectWireCall(moduleCalls(server), row, {
        authorization: ADMIN_KEY,
        trace: `environment=cartwheel-sdk,package-name=@cartwheel/sdk,method-fqn=${row.fqn},entity=${row.entity}`,
      });
      expect(result).toEqual(row.returns);
    },
  );

  it('sends an admin API key raw in Authorization, with no Bearer prefix', async () => {
    await catalogAdmin().products.deleteProduct('p1');
    expect(only().headers.authorization).toBe('admin-key');
  });

  it("sends a visitor's access token raw in Authorization", async () => {
    const visitor = visitorClient(server, { products });
    answerWith({ product: productOnWire });
    await visitor.products.getProduct('p1');
    expect(only().headers.authorization).toBe('visitor-access');
  });

  it("encodes a product query as one .r parameter that decodes to the wire contract's example", async () => {
    answerWith({ products: [], metadata: { count: 0, offset: 20, total: 0, tooManyToCount: false } });
    const filter = { $and: [{ id: { $in: ['a', 'b'] } }, { name: 'x' }] };
    await catalogAdmin().products.queryProducts({
      filter,
      paging: { limit: 20, offset: 20 },
      sort: [{ fieldName: 'price', order: 'ASC' }],
    });
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.query['.r']).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(request.r).toEqual({
      query: { filter, paging: { limit: 20, offset: 20 }, sort: [{ fieldName: 'price', order: 'ASC' }] },
    });
  });

  it('sends a product query with no query at all as a bare GET: no paging the hosted client would not send', async () => {
    answerWith({ products: [], metadata: { count: 0, offset: 0, total: 0, tooManyToCount: false } });
    await catalogAdmin().products.queryProducts();
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/stores-reader/v1/products/query-platformized');
    expect(request.query).toEqual({});
  });

  it.each([
    [
      'products',
      (c: CatalogClient, query: any) => c.products.queryProducts(query),
      '/stores-reader/v1/products/query-platformized',
    ],
    [
      'collections',
      (c: CatalogClient, query: any) => c.collections.queryCollections(query),
      '/v2/collections/query',
    ],
  ] as const)(
    'switches a %s query past 4000 characters to POST on the same path with the same JSON body',
    async (_name, call, path) => {
      answerWith({ metadata: { count: 0, offset: 0, total: 0, tooManyToCount: false } });
      const ids = Array.from({ length: 300 }, (_, i) => `product-${String(i).padStart(4, '0')}`);
      const query = { filter: { id: { $in: ids } }, paging: { limit: 100 } };
      await call(catalogAdmin(), query);
      const request = only();
      expect(request.method).toBe('POST');
      expect(request.path).toBe(path);
      expect(request.query).toEqual({});
      expect(request.body).toEqual({ query });
    },
  );

  it('keeps a query whose query string is exactly 4000 characters a GET', async () => {
    answerWith({ metadata: { count: 0, offset: 0, total: 0, tooManyToCount: false } });
    const queryString = (query: unknown) => `.r=${encodeStructuredParam({ query })}`;
    let name = '';
    while (queryString({ filter: { name: `${name}x` } }).length <= 4000) name += 'x';
    const query = { filter: { name } };
    expect(queryString(query).length).toBeGreaterThan(3995);
    await catalogAdmin().products.queryProducts(query);
    expect(only().method).toBe('GET');
    expect(only().r).toEqual({ query });
  });

  it("turns the answer's date fields into Dates and leaves other strings alone", async () => {
    answerWith({ product: { ...productOnWire, description: CREATED } });
    const product = await catalogAdmin().products.getProduct('p1');
    expect(product.createdDate).toBeInstanceOf(Date);
    expect(product.createdDate?.toISOString()).toBe(CREATED);
    expect(product.lastUpdated).toBeInstanceOf(Date);
    expect(product.description).toBe(CREATED);
  });

  it('computes hasNext and the total from offset metadata', async () => {
    answerWith({
      products: [productOnWire],
      metadata: { count: 1, offset: 0, total: 3, tooManyToCount: false },
    });
    const result = await catalogAdmin().products.queryProducts({ paging: { limit: 1 } });
    expect(result).toMatchObject({ totalCount: 3, hasNext: true, tooManyToCount: false });
  });

  it("reads the hosted platform's variants metadata ({items, offset} and totalResults) as a page", async () => {
    answerWith({
      variants: [{ id: 'v1' }, { id: 'v2' }],
      metadata: { items: 2, offset: 0 },
      totalResults: 5,
    });
    const result = await catalogAdmin().products.queryProductVariants('p1', { paging: { limit: 2 } });
    expect(result.items).toHaveLength(2);
    expect(result.metadata).toEqual({ count: 2, offset: 0, total: 5, tooManyToCount: false });
    expect(result.hasNext).toBe(true);
  });

  it('escapes an id that would otherwise leave its path segment', async () => {
    answerWith({ product: productOnWire });
    await catalogAdmin().products.getProduct('a/b?c');
    const request = only();
    expect(request.path).toBe('/stores-reader/v1/products/a%2Fb%3Fc');
    expect(request.query).toEqual({ id: 'a/b?c' });
  });
});
