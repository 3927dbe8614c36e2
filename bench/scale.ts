import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Product } from '@cartwheel/sdk';
import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import type { ProductInput } from '../packages/platform/src/catalog/schemas.ts';
import { configFromEnv } from '../packages/platform/src/config.ts';
import { startPlatform } from '../packages/platform/src/platform.ts';
import { BENCH_DIR, REPO_ROOT } from './support/paths.ts';
import { adminQuery, databaseUrl as postgresDatabaseUrl, query } from './support/postgres.ts';
import {
  BENCH_ADMIN_API_KEY,
  BENCH_CLIENT_ID,
  BENCH_PUBLIC_URL,
  type RunningServer,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { percentile } from './support/stats.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface LatencyFigure {
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ScaleResult {
  dialect: Dialect;
  products: number;
  /** Seconds spent building the catalog; 0 when a cached build (SQLite file, PostgreSQL template) was used. */
  buildSeconds: number;
  cached: boolean;
  sequential: LatencyFigure;
  concurrent: LatencyFigure & { concurrency: number };
  /** p50 and p99 of each storefront query, sequentially. */
  byQuery: Record<string, LatencyFigure>;
  /**
   * The deep page right after a write that reorders the catalog (a price change): its anchors are
   * outdated, so it walks from the start while they are read again. Not in the mix above.
   */
  deepPageAfterWrite: LatencyFigure;
  /**
   * The v3 catalog beside v1 (issue 35), apart from the mix above: a v3 search of 20 by price and the
   * v1 query of the same page, taken in alternation; and decrements of one hot inventory item a second,
   * beside v1's own stock write of that product (a quantity set), one client at a time each.
   */
  v3: {
    search: LatencyFigure;
    v1Query: LatencyFigure;
    decrementsPerSecond: number;
    v1StockWritesPerSecond: number;
  };
  failures: number;
  notes: string[];
}

export const TARGET_MS = 20;
const BENCH_DATABASE = 'cartwheel_bench';
const COLLECTIONS = 24;
/** Bump when the generated catalog (productInput, collections) changes: the caches are rebuilt. */
const DATASET_VERSION = 'v1';
const CONCURRENCY = 4;

const ADJECTIVES = [
  'Classic',
  'Organic',
  'Vintage',
  'Urban',
  'Cozy',
  'Bold',
  'Rustic',
  'Modern',
  'Soft',
  'Bright',
];
const NOUNS = ['Tee', 'Mug', 'Lamp', 'Scarf', 'Candle', 'Notebook', 'Backpack', 'Bottle', 'Poster', 'Sock'];

/**
 * `measureScale` in a fresh process: the timing client then carries no other section's heap (after
 * the in-process load generators, this process's garbage collection showed in the p99).
 */
export async function measureScaleApart(dialect: Dialect, options: { quick: boolean }): Promise<ScaleResult> {
  // the same source conditions as `npm run bench`, so it runs the packages' source, built or not
  const args = [
    '--conditions=@cartwheel/source',
    '--import',
    'tsx',
    path.join(BENCH_DIR, 'scale-main.ts'),
    dialect,
  ];
  if (options.quick) args.push('--quick');
  const output = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stderr?.pipe(process.stderr); // the build's progress
  });
  return JSON.parse(output) as ScaleResult;
}

/**
 * Catalog query latency with a large catalog: the catalog is built through the platform's own
 * CatalogService in-process (its validation and rendering included), then the platform runs as in
 * production and answers a mix of storefront queries, one at a time and a few at a time.
 */
export async function measureScale(dialect: Dialect, options: { quick: boolean }): Promise<ScaleResult> {
  const products = options.quick ? 2_000 : 100_000;
  const notes: string[] = [];
  let databaseUrl: string | undefined;
  let dataDir: string;
  let cached = false;
  let removeDataDir = false;

  const hash = schemaHash();
  if (dialect === 'postgres') {
    // the built database is kept as a template, keyed like the SQLite file: a copy of it is fast
    const template = `cartwheel_bench_cache_${products}_${hash}`;
    await dropStaleTemplates(template);
    cached = await databaseExists(template);
    await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${BENCH_DATABASE}${cached ? ` TEMPLATE ${template}` : ''}`);
    databaseUrl = postgresDatabaseUrl(BENCH_DATABASE);
    dataDir = tempDir('cartwheel-bench-pg-');
    removeDataDir = true;
  } else {
    // building 100k products takes a while: keep the file, keyed by the code that shapes its rows
    const cacheRoot = path.join(os.tmpdir(), 'cartwheel-bench-cache');
    dataDir = path.join(cacheRoot, `sqlite-${products}-${hash}`);
    cached = fs.existsSync(path.join(dataDir, 'ready'));
    if (!cached && fs.existsSync(cacheRoot)) {
      for (const stale of fs
        .readdirSync(cacheRoot)
        .filter((name) => name.startsWith(`sqlite-${products}-`))) {
        fs.rmSync(path.join(cacheRoot, stale), { recursive: true, force: true });
      }
    }
  }

  let buildSeconds = 0;
  if (!cached) {
    const started = performance.now();
    await buildCatalog({ dataDir, databaseUrl, products });
    buildSeconds = (performance.now() - started) / 1000;
    if (dialect === 'sqlite') fs.writeFileSync(path.join(dataDir, 'ready'), new Date().toISOString());
    else
      await adminQuery(
        `CREATE DATABASE cartwheel_bench_cache_${products}_${hash} TEMPLATE ${BENCH_DATABASE}`,
      );
  }

  if (databaseUrl) {
    // A running store's database has been vacuumed and analysed by autovacuum long since; a freshly
    // built or copied one has not, and PostgreSQL would plan and scan it as if it were empty.
    const started = performance.now();
    await query(databaseUrl, 'VACUUM ANALYZE');
    notes.push(
      `VACUUM ANALYZE before measuring, as autovacuum would have: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  let platform: RunningServer | undefined;
  try {
    // the read cache off: this figure is the database's, not memory's
    platform = await startPlatformProcess({
      dataDir,
      databaseUrl,
      seedDemo: false,
      env: { CARTWHEEL_CATALOG_CACHE_MS: '0' },
    });
    const url = platform.url;
    const token = await visitorToken(url);
    const collectionIds = await listCollectionIds(url, token);
    if (collectionIds.length === 0) notes.push('no collections found: the collection query filters nothing');
    const queries = storefrontQueries(products, collectionIds);

    // warm up: the first reads pay for cold pages and the JIT
    await runSequential(url, token, queries, options.quick ? 20 : 100);
    const perKind = options.quick ? 25 : 150;
    const sequential = await runSequential(url, token, queries, perKind * queries.length);
    const concurrent = await runConcurrent(url, token, queries, perKind * queries.length, CONCURRENCY);

    const byQuery: Record<string, LatencyFigure> = {};
    for (const query of queries) {
      const samples = sequential.samples
        .filter((sample) => sample.kind === query.kind)
        .map((sample) => sample.ms);
      byQuery[query.kind] = figure(samples);
    }
    const deepPageAfterWrite = await measureDeepPageAfterWrite(
      url,
      token,
      queries.find((query) => query.kind === 'deep page') as StorefrontQuery,
      options.quick ? 5 : 30,
    );
    const v3 = await measureV3(url, token, options.quick ? 25 : 300, notes);
    const failures = sequential.failures + concurrent.failures;
    if (failures > 0)
      notes.push(`${failures} queries failed (${sequential.firstFailure ?? concurrent.firstFailure})`);
    return {
      dialect,
      products,
      buildSeconds,
      cached,
      sequential: figure(sequential.samples.map((sample) => sample.ms)),
      concurrent: { ...figure(concurrent.samples.map((sample) => sample.ms)), concurrency: CONCURRENCY },
      byQuery,
      deepPageAfterWrite,
      v3,
      failures,
      notes,
    };
  } finally {
    await platform?.stop();
    if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    if (removeDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

interface StorefrontQuery {
  kind: string;
  /** A fresh request each time (random collection, random word). */
  path(): string;
}

function storefrontQueries(products: number, collectionIds: string[]): StorefrontQuery[] {
  const random = seeded(7);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const queryPath = (query: unknown) =>
    `/stores-reader/v1/products/query-platformized?.r=${encodeStructuredParam({ query })}`;
  return [
    {
      kind: 'first page by price',
      path: () =>
        queryPath({ sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 20, offset: 0 } }),
    },
    {
      kind: 'collection filter',
      path: () =>
        queryPath({
          filter: collectionIds.length > 0 ? { collectionIds: { $hasSome: [pick(collectionIds)] } } : {},
          sort: [{ fieldName: 'price', order: 'DESC' }],
          paging: { limit: 20, offset: 0 },
        }),
    },
    {
      kind: 'name search',
      path: () =>
        queryPath({
          filter: { name: { $startsWith: `${pick(ADJECTIVES)} ${pick(NOUNS)}` } },
          paging: { limit: 20, offset: 0 },
        }),
    },
    {
      // the storefront's search box: a word and the start of a number, anywhere in the name
      kind: 'name contains',
      path: () =>
        queryPath({
          filter: { name: { $contains: `${pick(NOUNS).toLowerCase()} ${1 + Math.floor(random() * 999)}` } },
          paging: { limit: 20, offset: 0 },
        }),
    },
    {
      kind: 'deep page',
      path: () =>
        queryPath({
          sort: [{ fieldName: 'name', order: 'ASC' }],
          paging: { limit: 20, offset: Math.floor(products / 2) },
        }),
    },
  ];
}

/** Rounds of: change one product's price as an admin, then time the deep page. */
async function measureDeepPageAfterWrite(
  url: string,
  token: string,
  deepPage: StorefrontQuery,
  rounds: number,
): Promise<LatencyFigure> {
  const first = await fetch(url + deepPage.path(), { headers: { authorization: token } });
  const product = ((await first.json()) as { products: Array<{ id: string; price?: { price: number } }> })
    .products[0];
  if (!product) throw new Error('the deep page is empty');
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const change = await fetch(`${url}/stores/v1/products/${product.id}`, {
      method: 'PATCH',
      headers: { authorization: BENCH_ADMIN_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ product: { priceData: { price: 10 + round } } }),
    });
    if (change.status !== 200) throw new Error(`price change: ${change.status} ${await change.text()}`);
    const started = performance.now();
    const response = await fetch(url + deepPage.path(), { headers: { authorization: token } });
    await response.arrayBuffer();
    samples.push(performance.now() - started);
    // let the platform read the anchors again before the next write, as it would between writes
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return figure(samples);
}

/** The v3 figures (`ScaleResult.v3`): searches and v1 queries in alternation, then stock writes. */
async function measureV3(
  url: string,
  token: string,
  rounds: number,
  notes: string[],
): Promise<ScaleResult['v3']> {
  const timed = async (path: string, init: RequestInit = {}) => {
    const started = performance.now();
    const response = await fetch(url + path, { ...init, headers: { authorization: token, ...init.headers } });
    const body = await response.arrayBuffer();
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${Buffer.from(body).toString().slice(0, 200)}`);
    return performance.now() - started;
  };
  const v3Path = `/stores/v3/products/search?.r=${encodeStructuredParam({
    search: {
      sort: [{ fieldName: 'actualPriceRange.minValue.amount', order: 'ASC' }],
      cursorPaging: { limit: 20 },
    },
  })}`;
  const v1Path = `/stores-reader/v1/products/query-platformized?.r=${encodeStructuredParam({
    query: { sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 20, offset: 0 } },
  })}`;
  const search: number[] = [];
  const v1Query: number[] = [];
  for (let round = 0; round < rounds + 20; round++) {
    const v3ms = await timed(v3Path);
    const v1ms = await timed(v1Path);
    if (round < 20) continue; // warm-up
    search.push(v3ms);
    v1Query.push(v1ms);
  }

  // one hot item: counted, then taken from one unit at a time; v1 sets the same product's quantity
  const admin = { authorization: BENCH_ADMIN_API_KEY, 'content-type': 'application/json' };
  const created = await fetch(`${url}/stores/v3/products`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({
      product: {
        name: 'Bench hot item',
        productType: 'PHYSICAL',
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] },
      },
    }),
  });
  const product = ((await created.json()) as { product: { id: string } }).product;
  const itemId = `${product.id}-00000000-0000-0000-0000-000000000000`;
  const item = (await (
    await fetch(`${url}/stores/v3/inventory-items/${itemId}`, { headers: admin })
  ).json()) as {
    inventoryItem: { revision: string };
  };
  const counted = await fetch(`${url}/stores/v3/inventory-items/${itemId}`, {
    method: 'PATCH',
    headers: admin,
    body: JSON.stringify({
      inventoryItem: { revision: item.inventoryItem.revision, trackQuantity: true, quantity: 99_999 },
    }),
  });
  if (counted.status !== 200)
    throw new Error(`counting the hot item: ${counted.status} ${await counted.text()}`);
  const perSecond = async (call: (index: number) => Promise<Response>) => {
    const started = performance.now();
    for (let index = 0; index < rounds; index++) {
      const response = await call(index);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`stock write: ${response.status}`);
    }
    return rounds / ((performance.now() - started) / 1000);
  };
  const decrementsPerSecond = await perSecond(() =>
    fetch(`${url}/stores/v3/bulk/inventory-items/decrement`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ decrementData: [{ inventoryItemId: itemId, decrementBy: 1 }] }),
    }),
  );
  const v1StockWritesPerSecond = await perSecond((index) =>
    fetch(`${url}/stores/v1/products/${product.id}`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ product: { stock: { quantity: 50_000 - index } } }),
    }),
  );
  notes.push(
    `v3: ${rounds} searches and v1 queries in alternation; ${rounds} stock writes each, one at a time`,
  );
  return { search: figure(search), v1Query: figure(v1Query), decrementsPerSecond, v1StockWritesPerSecond };
}

interface Sample {
  kind: string;
  ms: number;
}
interface Run {
  samples: Sample[];
  failures: number;
  firstFailure?: string;
}

async function runSequential(
  url: string,
  token: string,
  queries: StorefrontQuery[],
  total: number,
): Promise<Run> {
  return runConcurrent(url, token, queries, total, 1);
}

async function runConcurrent(
  url: string,
  token: string,
  queries: StorefrontQuery[],
  total: number,
  concurrency: number,
): Promise<Run> {
  const run: Run = { samples: [], failures: 0 };
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const query = queries[next++ % queries.length]!;
      const started = performance.now();
      const response = await fetch(url + query.path(), { headers: { authorization: token } });
      const body = await response.arrayBuffer();
      const ms = performance.now() - started;
      if (response.status !== 200) {
        run.failures++;
        run.firstFailure ??= `${query.kind}: ${response.status} ${Buffer.from(body).toString().slice(0, 200)}`;
      }
      run.samples.push({ kind: query.kind, ms });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return run;
}

function figure(samples: number[]): LatencyFigure {
  return { requests: samples.length, p50Ms: percentile(samples, 50), p99Ms: percentile(samples, 99) };
}

/**
 * Fills a fresh database with `products` products through the platform's CatalogService, in-process:
 * the same validation, variant generation and document rendering as the admin API.
 */
async function buildCatalog(options: {
  dataDir: string;
  databaseUrl?: string;
  products: number;
}): Promise<void> {
  const platform = await startPlatform({
    ...configFromEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: BENCH_PUBLIC_URL,
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'silent',
      CARTWHEEL_ADMIN_API_KEY: BENCH_ADMIN_API_KEY,
      CARTWHEEL_DEMO_CLIENT_ID: BENCH_CLIENT_ID,
      CARTWHEEL_SEED_DEMO: 'false',
    }),
    databaseUrl: options.databaseUrl,
    appsDir: path.join(BENCH_DIR, 'no-apps'),
  });
  try {
    const catalog = platform.services.catalog;
    const collectionIds: string[] = [];
    for (let index = 0; index < COLLECTIONS; index++) {
      const collection = await catalog.createCollection({ name: `Bench collection ${index + 1}` });
      collectionIds.push(collection.id!);
    }
    const members = new Map<string, string[]>(collectionIds.map((id) => [id, []]));
    const random = seeded(42);
    const batch = 500;
    for (let start = 0; start < options.products; start += batch) {
      const inputs = Array.from({ length: Math.min(batch, options.products - start) }, (_, offset) =>
        productInput(start + offset, random),
      );
      // a few at a time: PostgreSQL overlaps round trips; SQLite runs them one after another anyway
      const created: Product[] = [];
      for (let index = 0; index < inputs.length; index += CONCURRENCY) {
        created.push(
          ...(await Promise.all(
            inputs.slice(index, index + CONCURRENCY).map((input) => catalog.createProduct(input)),
          )),
        );
      }
      for (const product of created) {
        members.get(collectionIds[Math.floor(random() * COLLECTIONS)]!)!.push(product.id!);
        if (random() < 0.3)
          members.get(collectionIds[Math.floor(random() * COLLECTIONS)]!)!.push(product.id!);
      }
      if (start % 20_000 === 0)
        process.stderr.write(`  built ${start + created.length} of ${options.products}\n`);
    }
    for (const [collectionId, productIds] of members) {
      const unique = [...new Set(productIds)];
      for (let index = 0; index < unique.length; index += 1000) {
        await catalog.addProductsToCollection(collectionId, unique.slice(index, index + 1000));
      }
    }
  } finally {
    await platform.close();
  }
}

function productInput(index: number, random: () => number): ProductInput {
  const adjective = ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]!;
  const noun = NOUNS[Math.floor(random() * NOUNS.length)]!;
  const product: ProductInput = {
    name: `${adjective} ${noun} ${index + 1}`,
    productType: 'physical',
    description: `A ${adjective.toLowerCase()} ${noun.toLowerCase()}, number ${index + 1} of the bench catalog.`,
    sku: `BENCH-${index + 1}`,
    priceData: { price: Math.round((1 + random() * 499) * 100) / 100 },
    weight: Math.round(random() * 2000) / 1000,
  };
  // one product in ten has options, as a clothing store's catalog would
  if (index % 10 === 0) {
    product.manageVariants = true;
    product.productOptions = [
      {
        optionType: 'drop_down',
        name: 'Size',
        choices: ['S', 'M', 'L'].map((value) => ({ value, description: value })),
      },
    ];
  }
  return product;
}

async function visitorToken(url: string): Promise<string> {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: BENCH_CLIENT_ID, grantType: 'anonymous' }),
  });
  if (response.status !== 200)
    throw new Error(`no visitor token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

async function listCollectionIds(url: string, token: string): Promise<string[]> {
  const query = encodeStructuredParam({ query: { paging: { limit: 100, offset: 0 } } });
  const response = await fetch(`${url}/v2/collections/query?.r=${query}`, {
    headers: { authorization: token },
  });
  if (response.status !== 200) return [];
  const body = (await response.json()) as { collections?: Array<{ id: string; name?: string }> };
  return (body.collections ?? []).filter((c) => c.name?.startsWith('Bench collection')).map((c) => c.id);
}

/** Catalog files that decide how rows are read and answered, never what they hold. */
const READ_SIDE_FILES = new Set([
  'fields.ts',
  'query.ts',
  'scope.ts',
  'read-cache.ts',
  'routes.ts',
  'page-anchors.ts',
]);

/** Hash of the code that decides what the catalog's rows hold: a change to it rebuilds the cache. */
function schemaHash(): string {
  const hash = createHash('sha256');
  for (const dir of ['packages/platform/src/catalog', 'packages/platform/src/db']) {
    const absolute = path.join(REPO_ROOT, dir);
    for (const file of fs.readdirSync(absolute).sort()) {
      if (READ_SIDE_FILES.has(file)) continue;
      hash.update(file).update(fs.readFileSync(path.join(absolute, file)));
    }
  }
  hash.update(DATASET_VERSION);
  return hash.digest('hex').slice(0, 16);
}

/** A small deterministic generator (mulberry32): the same catalog on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function databaseExists(name: string): Promise<boolean> {
  return (await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
}

/** Templates of earlier schema hashes: each holds a whole catalog, so they do not pile up. */
async function dropStaleTemplates(keep: string): Promise<void> {
  const prefix = keep.slice(0, keep.lastIndexOf('_') + 1);
  const rows = await adminQuery('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
  for (const { datname } of rows) {
    if (datname !== keep) await adminQuery(`DROP DATABASE IF EXISTS ${String(datname)} WITH (FORCE)`);
  }
}
