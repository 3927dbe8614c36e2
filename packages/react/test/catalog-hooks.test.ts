import {
  collections,
  createClient,
  HttpError,
  OAuthStrategy,
  type OffsetQuery,
  products,
} from '@cartwheel/sdk';
import { hashKey, type QueryClient } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../platform/test/support/platform.ts';
import {
  CACHE_LIFETIME_MS,
  CartwheelProvider,
  cartwheelKeys,
  catalogQueries,
  createCartwheelQueryClient,
  isNotFoundError,
  QUERY_RETRY_COUNT,
  retryDelay,
  shouldRetry,
  useCartwheel,
  useProducts,
} from '../src/index.ts';

/** A storefront client whose requests are counted (the platform itself is real); `calls` leaves out tokens. */
function countingClient(host: string) {
  const calls: string[] = [];
  const attempts: string[] = [];
  const client = createClient({
    host,
    auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }),
    modules: { products, collections },
    fetch: (input, init) => {
      const url = String(input);
      attempts.push(url);
      if (!url.includes('/oauth2/')) calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
      return fetch(input, init);
    },
  });
  return { client, calls, attempts };
}

function httpError(status: number) {
  return new HttpError(`status ${status}`, {
    status,
    statusText: '',
    serverMessage: '',
    details: undefined,
    requestId: undefined,
  });
}

function Probe() {
  useCartwheel();
  return null;
}

/** Lists the names of one page of products, through the hook. */
function ProductNames({ query }: { query: OffsetQuery }) {
  const { data } = useProducts(query);
  return createElement(
    'ul',
    null,
    data?.items.map((product) => createElement('li', { key: product.id }, product.name)),
  );
}

describe('query defaults of point 9', () => {
  it('waits 1 s before the first retry, doubling each time, never more than 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('retries a 5xx, a network failure, a 408 and a 429 up to 3 times, and a 4xx never', () => {
    for (const error of [
      httpError(500),
      httpError(503),
      new TypeError('fetch failed'),
      httpError(408),
      httpError(429),
    ]) {
      expect([0, 1, 2, 3].map((failures) => shouldRetry(failures, error))).toEqual([true, true, true, false]);
    }
    for (const status of [400, 401, 403, 404, 409, 422]) {
      expect(shouldRetry(0, httpError(status))).toBe(false);
    }
    expect(QUERY_RETRY_COUNT).toBe(3);
  });

  it('keeps answers fresh and cached for 5 minutes and uses the retry rules by default', () => {
    const queries = createCartwheelQueryClient().getDefaultOptions().queries!;
    expect(CACHE_LIFETIME_MS).toBe(300_000);
    expect(queries.staleTime).toBe(300_000);
    expect(queries.gcTime).toBe(300_000);
    expect(queries.retry).toBe(shouldRetry);
    expect(queries.retryDelay).toBe(retryDelay);
  });

  it('names a products query by what it asks, whatever the order of its fields', () => {
    const a = cartwheelKeys.products.query({ filter: { name: 'x' }, sort: [{ fieldName: 'price' }] });
    const b = cartwheelKeys.products.query({ sort: [{ fieldName: 'price' }], filter: { name: 'x' } });
    expect(a.slice(0, 3)).toEqual(['cartwheel', 'products', 'query']);
    expect(hashKey(a)).toBe(hashKey(b));
    expect(hashKey(a)).not.toBe(hashKey(cartwheelKeys.products.query({ filter: { name: 'y' } })));
  });

  it('tries a query 4 times in all when the platform cannot be reached', async () => {
    const { client, attempts } = countingClient('http://127.0.0.1:9'); // the discard port: nothing listens
    // the spec's delays would make this test wait 7 s; the rule under test is the number of tries
    const queryClient = createCartwheelQueryClient({ defaultOptions: { queries: { retryDelay: 1 } } });
    await expect(queryClient.fetchQuery(catalogQueries.collections(client))).rejects.toThrow(TypeError);
    // each try starts with the visitor-token request, which is what fails to connect
    expect(attempts).toHaveLength(QUERY_RETRY_COUNT + 1);
    expect(attempts.every((url) => url.endsWith('/oauth2/token'))).toBe(true);
  });

  it('useCartwheel outside a provider says what is missing', () => {
    expect(() => renderToString(createElement(Probe))).toThrow(/inside a <CartwheelProvider/);
  });
});

describe.each(DIALECTS)('catalog hooks against the platform on %s', (dialect) => {
  let platform: TestPlatform;
  let queryClient: QueryClient;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: true });
  });
  afterAll(() => platform?.stop());
  afterEach(() => queryClient?.clear());

  it('asks once for a product that does not exist: a 404 is not retried', async () => {
    const { client, calls } = countingClient(platform.url);
    queryClient = createCartwheelQueryClient();
    const failure = await queryClient
      .fetchQuery(catalogQueries.product(client, 'no-such-product'))
      .catch((e) => e);
    expect(isNotFoundError(failure)).toBe(true);
    expect(calls).toEqual(['GET /stores-reader/v1/products/no-such-product']);
  });

  it('serves a second read of the same page from the cache', async () => {
    const { client, calls } = countingClient(platform.url);
    queryClient = createCartwheelQueryClient();
    const query = { paging: { limit: 3 } };
    const first = await queryClient.fetchQuery(catalogQueries.products(client, query));
    const second = await queryClient.fetchQuery(catalogQueries.products(client, { paging: { limit: 3 } }));
    expect(first.items.length).toBeGreaterThan(0);
    expect(second).toBe(first);
    expect(calls).toHaveLength(1);
  });

  it('finds a product by its slug, and answers null for a slug no product has', async () => {
    const { client } = countingClient(platform.url);
    queryClient = createCartwheelQueryClient();
    const page = await client.products.queryProducts({ paging: { limit: 1 } });
    const known = page.items[0]!;
    const found = await queryClient.fetchQuery(catalogQueries.productBySlug(client, known.slug!));
    expect(found?.id).toBe(known.id);
    expect(await queryClient.fetchQuery(catalogQueries.productBySlug(client, 'no-such-slug'))).toBeNull();
  });

  it('a component using useProducts renders the page the cache holds under the same key', async () => {
    const { client } = countingClient(platform.url);
    queryClient = createCartwheelQueryClient();
    const query = { sort: [{ fieldName: 'name', order: 'ASC' as const }], paging: { limit: 2 } };
    const page = await queryClient.fetchQuery(catalogQueries.products(client, query));
    expect(page.items).toHaveLength(2);
    const html = renderToString(
      createElement(CartwheelProvider, { client, queryClient }, createElement(ProductNames, { query })),
    );
    expect(html).toBe(`<ul>${page.items.map((p) => `<li>${p.name}</li>`).join('')}</ul>`);
  });
});
