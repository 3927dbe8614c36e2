import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, queryProducts, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The queries that once took a database down (a `$hasAll` of 5,000 collections grew one PostgreSQL
 * backend to 11.7 GB) or answered 500, sent by an anonymous visitor: each is refused at once with the
 * field and the limit it went past, and the store keeps answering. Durations are logged, not asserted.
 */

const many = <T>(count: number, item: (index: number) => T) =>
  Array.from({ length: count }, (_, i) => item(i));
const uuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

interface Hostile {
  name: string;
  method: 'POST' | 'GET';
  path: string;
  body?: unknown;
  field: string;
  rule: string;
}

function notNested(depth: number): Record<string, unknown> {
  let filter: Record<string, unknown> = { name: 'deep' };
  for (let i = 0; i < depth; i++) filter = { $not: filter };
  return filter;
}

const HOSTILE: Hostile[] = [
  {
    name: 'collectionIds $hasAll of 5,000 ids',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { filter: { collectionIds: { $hasAll: many(5000, uuid) } } } },
    field: 'query.filter.collectionIds.$hasAll',
    rule: 'MAX_SIZE',
  },
  {
    name: 'store variants collectionIds $hasAll of 5,000 ids',
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { filter: { collectionIds: { $hasAll: many(5000, uuid) } } } },
    field: 'query.filter.collectionIds.$hasAll',
    rule: 'MAX_SIZE',
  },
  {
    name: '$in of 40,000 ids',
    method: 'POST',
    path: '/stores-reader/v1/products/query-platformized',
    body: { query: { filter: { id: { $in: many(40_000, uuid) } } } },
    field: 'query.filter.id.$in',
    rule: 'MAX_SIZE',
  },
  {
    name: '$or of 5,000 conditions',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { filter: { $or: many(5000, (i) => ({ name: `Product ${i}` })) } } },
    field: 'query.filter',
    rule: 'MAX_SIZE',
  },
  {
    name: '$or of 5,000 conditions on collections',
    method: 'POST',
    path: '/v2/collections/query',
    body: { query: { filter: { $or: many(5000, (i) => ({ name: `Collection ${i}` })) } } },
    field: 'query.filter',
    rule: 'MAX_SIZE',
  },
  {
    // a body this deep is refused before it is parsed into objects, whatever route it is sent to
    name: '$not 3,000 deep',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { filter: notNested(3000) } },
    field: 'body',
    rule: 'MAX',
  },
  {
    name: '$not 30 deep: within the body limit, past the filter budget',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { filter: notNested(30) } },
    field: 'query.filter.$not.$not.$not.$not.$not.$not',
    rule: 'MAX_SIZE',
  },
  {
    name: 'a 1 MB $startsWith',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { filter: { name: { $startsWith: 'a'.repeat(1024 * 1024) } } } },
    field: 'query.filter.name.$startsWith',
    rule: 'MAX_LENGTH',
  },
  {
    name: 'paging.offset of 1e300',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { paging: { offset: 1e300 } } },
    field: 'query.paging.offset',
    rule: 'MAX',
  },
  {
    name: 'an object as sort[].fieldName',
    method: 'POST',
    path: '/stores-reader/v1/products/query',
    body: { query: { sort: [{ fieldName: { toString: 'name' } }] } },
    field: 'query.sort[0].fieldName',
    rule: 'FORMAT',
  },
  {
    name: 'an object as paging.limit',
    method: 'POST',
    path: '/stores-reader/v1/variants/query',
    body: { query: { paging: { limit: { valueOf: 10 } } } },
    field: 'query.paging.limit',
    rule: 'FORMAT',
  },
  {
    name: 'an object as options.Size',
    method: 'POST',
    path: '/stores-reader/v1/products/{product}/productOptionsAvailability',
    body: { options: { Size: { toString: 'M' } } },
    field: 'options.Size',
    rule: 'FORMAT',
  },
  {
    name: 'NUL bytes in a path id',
    method: 'GET',
    path: '/stores-reader/v1/products/%00%00%00',
    field: 'id',
    rule: 'FORMAT',
  },
  {
    name: 'NUL bytes in a store variant id',
    method: 'GET',
    path: '/stores-reader/v1/variants/x%00y',
    field: 'id',
    rule: 'FORMAT',
  },
];

describe.each(DIALECTS)('hostile catalog queries on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  let productId: string;
  const collectionIds: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    const product = await createProduct(platform, {
      name: 'Hostile Tee',
      priceData: { price: 10 },
      manageVariants: true,
      productOptions: [{ name: 'Size', choices: [{ description: 'S' }, { description: 'M' }] }],
    });
    productId = product.id;
    const other = await createProduct(platform, { name: 'Hostile Mug', priceData: { price: 5 } });
    for (const name of ['Hostile A', 'Hostile B', 'Hostile C']) {
      const answer = await admin(platform).post('/stores/v1/collections', { collection: { name } });
      collectionIds.push(answer.body.collection.id);
    }
    for (const id of collectionIds) {
      await admin(platform).post(`/stores/v1/collections/${id}/productIds`, { productIds: [productId] });
    }
    await admin(platform).post(`/stores/v1/collections/${collectionIds[0]}/productIds`, {
      productIds: [other.id],
    });
  });
  afterAll(() => platform?.stop());

  for (const hostile of HOSTILE) {
    it(`refuses ${hostile.name} with the field and its limit`, async () => {
      const started = performance.now();
      const answer = await call(
        platform,
        hostile.method,
        hostile.path.replace('{product}', productId),
        hostile.body,
        visitor,
      );
      console.info(
        `${dialect}: ${hostile.name}: ${answer.status} in ${Math.round(performance.now() - started)} ms`,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.details.validationError.fieldViolations[0]).toMatchObject({
        field: hostile.field,
        violatedRule: hostile.rule,
      });
    });
  }

  it('answers a $hasAll of 100 collections from one pass over their memberships', async () => {
    const inAll = async (ids: string[]) => {
      const started = performance.now();
      const answer = await queryProducts(
        platform,
        { query: { filter: { collectionIds: { $hasAll: ids } } } },
        visitor,
      );
      console.info(
        `${dialect}: $hasAll of ${ids.length}: ${answer.status} in ${Math.round(performance.now() - started)} ms`,
      );
      expect(answer.status).toBe(200);
      return answer.body.products.map((product: { name: string }) => product.name);
    };
    expect(await inAll(collectionIds)).toEqual(['Hostile Tee']);
    expect(await inAll(collectionIds.slice(0, 1))).toEqual(['Hostile Tee', 'Hostile Mug']);
    // repeated ids count once
    expect(await inAll([...collectionIds, ...collectionIds])).toEqual(['Hostile Tee']);
    // 97 collections no product is in: nothing is in all of them
    expect(await inAll([...collectionIds, ...many(97, uuid)])).toEqual([]);
    // outside the listing scope too, in $or
    const either = await queryProducts(
      platform,
      { query: { filter: { $or: [{ collectionIds: { $hasAll: collectionIds } }, { name: 'none' }] } } },
      visitor,
    );
    expect(either.body.products.map((product: { id: string }) => product.id)).toEqual([productId]);
  });

  it('keeps answering after all of them', async () => {
    const answer = await queryProducts(
      platform,
      { query: { filter: { name: { $startsWith: 'Hostile' } } } },
      visitor,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.metadata.total).toBe(2);
    const database = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${productId}`,
      undefined,
      visitor,
    );
    expect(database.status).toBe(200);
  });
});
