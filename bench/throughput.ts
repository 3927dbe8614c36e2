import fs from 'node:fs';
import path from 'node:path';
import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import autocannon, { type Result as LoadRun } from 'autocannon';
import type { RecordedResponse } from './support/baseline-server.ts';
import {
  BENCH_ADMIN_API_KEY,
  BENCH_CLIENT_ID,
  type RunningServer,
  startBaselineProcess,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { mean, median } from './support/stats.ts';

export interface LoadFigure {
  /** Requests per second, mean over the run. */
  platformRps: number;
  baselineRps: number;
  /** Platform over baseline. */
  ratio: number;
  platformP99Ms: number;
  baselineP99Ms: number;
  /** Non-2xx answers and socket errors the platform gave during the run: a figure with any is void. */
  platformFailures: number;
  status: number;
}

export interface ThroughputResult {
  connections: number;
  durationSeconds: number;
  productsQuery: LoadFigure;
  productRead: LoadFigure;
  notes: string[];
}

const CONNECTIONS = 32;
/** Response headers the baseline repeats: the rest (date, connection, keep-alive) are the server's own. */
const HEADERS_THAT_MATTER = ['content-type', 'x-request-id', 'cache-control', 'etag', 'vary'];

/**
 * A visitor's catalog reads under load (autocannon, 32 connections, loopback), each next to a bare
 * `node:http` server answering the very same bytes from memory in the same run.
 */
export async function measureThroughput(options: { quick: boolean }): Promise<ThroughputResult> {
  const durationSeconds = options.quick ? 2 : 8;
  const rounds = options.quick ? 1 : 4;
  const warmupSeconds = options.quick ? 1 : 3;
  const notes: string[] = [];
  const dataDir = tempDir('cartwheel-bench-load-');
  const servers: RunningServer[] = [];
  try {
    const platform = await startPlatformProcess({ dataDir, seedDemo: true });
    servers.push(platform);
    const token = await visitorToken(platform.url);
    const headers = { authorization: token };

    await ensureProducts(platform.url, 20, notes);
    const queryPath = `/stores-reader/v1/products/query-platformized?.r=${encodeStructuredParam({
      query: { paging: { limit: 20, offset: 0 }, sort: [{ fieldName: 'price', order: 'ASC' }] },
    })}`;
    const query = await record(platform.url, queryPath, headers);
    const firstId = (JSON.parse(Buffer.from(query.body, 'base64').toString()) as any)?.products?.[0]?.id;
    if (!firstId) notes.push(`the products query answered ${query.status} with no product: figures are void`);
    const productPath = `/stores-reader/v1/products/${firstId ?? 'none'}`;
    const product = await record(platform.url, productPath, headers);

    const responsesFile = path.join(dataDir, 'baseline-responses.json');
    fs.writeFileSync(responsesFile, JSON.stringify({ [queryPath]: query, [productPath]: product }));
    const baseline = await startBaselineProcess(responsesFile);
    servers.push(baseline);

    const compare = async (requestPath: string, recorded: RecordedResponse): Promise<LoadFigure> => {
      const run = (url: string, duration: number) =>
        autocannon({ url: url + requestPath, connections: CONNECTIONS, duration, headers });
      await run(platform.url, warmupSeconds);
      await run(baseline.url, warmupSeconds);
      // Turn about, in short rounds: a slow spell of a shared machine then falls on both sides alike,
      // not on whichever happened to run during it.
      const base: LoadRun[] = [];
      const ours: LoadRun[] = [];
      for (let round = 0; round < rounds; round++) {
        base.push(await run(baseline.url, durationSeconds / rounds));
        ours.push(await run(platform.url, durationSeconds / rounds));
      }
      const rps = (results: LoadRun[]) => mean(results.map((result) => result.requests.average));
      const p99 = (results: LoadRun[]) => median(results.map((result) => result.latency.p99));
      return {
        platformRps: rps(ours),
        baselineRps: rps(base),
        ratio: rps(ours) / rps(base),
        platformP99Ms: p99(ours),
        baselineP99Ms: p99(base),
        platformFailures: ours.reduce(
          (sum, result) => sum + result.non2xx + result.errors + result.timeouts,
          0,
        ),
        status: recorded.status,
      };
    };
    const productsQuery = await compare(queryPath, query);
    const productRead = await compare(productPath, product);
    for (const [name, figure] of [
      ['products query', productsQuery],
      ['product read', productRead],
    ] as const) {
      if (figure.status !== 200) notes.push(`${name} answered ${figure.status}, not 200: the ratio is void`);
      if (figure.platformFailures > 0)
        notes.push(`${name}: ${figure.platformFailures} failed requests under load`);
    }
    return { connections: CONNECTIONS, durationSeconds, productsQuery, productRead, notes };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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

/** Tops the catalog up to `count` products through the admin API, for a full page of 20. */
async function ensureProducts(url: string, count: number, notes: string[]): Promise<void> {
  const answer = await fetch(`${url}/stores-reader/v1/products/query-platformized`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: BENCH_ADMIN_API_KEY },
    body: JSON.stringify({ query: { paging: { limit: 1, offset: 0 } } }),
  });
  if (answer.status !== 200) {
    notes.push(`the catalog is not answering yet (POST query-platformized: ${answer.status})`);
    return;
  }
  const total = ((await answer.json()) as any)?.metadata?.total ?? 0;
  for (let index = total; index < count; index++) {
    const created = await fetch(`${url}/stores/v1/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: BENCH_ADMIN_API_KEY },
      body: JSON.stringify({
        product: {
          name: `Bench product ${index}`,
          productType: 'physical',
          priceData: { price: 10 + index },
        },
      }),
    });
    if (created.status !== 200) {
      notes.push(`could not create bench products (POST /stores/v1/products: ${created.status})`);
      return;
    }
  }
}

async function record(
  url: string,
  requestPath: string,
  headers: Record<string, string>,
): Promise<RecordedResponse> {
  const response = await fetch(url + requestPath, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  const kept: Record<string, string> = {};
  for (const name of HEADERS_THAT_MATTER) {
    const value = response.headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return { status: response.status, headers: kept, body: body.toString('base64') };
}
