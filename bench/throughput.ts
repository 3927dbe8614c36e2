import fs from 'node:fs';
import path from 'node:path';
import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import autocannon from 'autocannon';
import { type LoadFigure, loadTiming, measureInAlternation } from './support/alternate.ts';
import type { RecordedResponse } from './support/baseline-server.ts';
import {
  BENCH_ADMIN_API_KEY,
  type RunningServer,
  startBaselineProcess,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';
import { recordResponse, visitorToken } from './support/recording.ts';

export interface ThroughputResult {
  connections: number;
  durationSeconds: number;
  productsQuery: LoadFigure;
  productRead: LoadFigure;
  notes: string[];
}

const CONNECTIONS = 32;

/**
 * A visitor's catalog reads under load (autocannon, 32 connections, loopback), each next to a bare
 * `node:http` server answering the very same bytes from memory in the same run.
 */
export async function measureThroughput(options: { quick: boolean }): Promise<ThroughputResult> {
  const timing = loadTiming(options.quick);
  const { durationSeconds } = timing;
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
    const query = await recordResponse(platform.url, queryPath, { headers });
    const firstId = (JSON.parse(Buffer.from(query.body, 'base64').toString()) as any)?.products?.[0]?.id;
    if (!firstId) notes.push(`the products query answered ${query.status} with no product: figures are void`);
    const productPath = `/stores-reader/v1/products/${firstId ?? 'none'}`;
    const product = await recordResponse(platform.url, productPath, { headers });

    const responsesFile = path.join(dataDir, 'baseline-responses.json');
    fs.writeFileSync(responsesFile, JSON.stringify({ [queryPath]: query, [productPath]: product }));
    const baseline = await startBaselineProcess(responsesFile);
    servers.push(baseline);

    const compare = (requestPath: string, recorded: RecordedResponse): Promise<LoadFigure> =>
      measureInAlternation(
        (side, duration) =>
          autocannon({
            url: (side === 'platform' ? platform.url : baseline.url) + requestPath,
            connections: CONNECTIONS,
            duration,
            headers,
          }),
        timing,
        recorded.status,
      );
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

/** Tops the catalog up to `count` products through the admin API, for a full page of 20. */
export async function ensureProducts(url: string, count: number, notes: string[]): Promise<void> {
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
