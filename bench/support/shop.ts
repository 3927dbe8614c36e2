import fs from 'node:fs';
import path from 'node:path';
import { STORES_APP_ID } from '@cartwheel/sdk';
import autocannon from 'autocannon';
import { adminQuery, databaseUrl } from './postgres.ts';
import {
  BENCH_ADMIN_API_KEY,
  type RunningServer,
  startBaselineProcess,
  startPlatformProcess,
  tempDir,
} from './processes.ts';
import { visitorToken } from './recording.ts';

/**
 * The setup the money benches share (orders placed, refunds): a built platform in its own process over
 * a fresh database, products made through the admin API, checkouts paid on the hosted page, and a bare
 * `node:http` server answering the figure's response bytes at the same concurrency, as its baseline.
 */

export type Dialect = 'sqlite' | 'postgres';

const json = { 'content-type': 'application/json' };

/** A running platform over a database of its own; `close` stops every server and drops the data. */
export interface BenchShop {
  url: string;
  dataDir: string;
  servers: RunningServer[];
  close(): Promise<void>;
}

/** The platform (demo seeded) over a new SQLite file, or a new PostgreSQL database `name`; `env` adds to its environment. */
export async function startBenchShop(
  dialect: Dialect,
  name: string,
  env?: Record<string, string>,
): Promise<BenchShop> {
  let postgresUrl: string | undefined;
  if (dialect === 'postgres') {
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminQuery(`CREATE DATABASE ${name}`);
    postgresUrl = databaseUrl(name);
  }
  const dataDir = tempDir(`${name.replaceAll('_', '-')}-${dialect}-`);
  const servers: RunningServer[] = [];
  const close = async () => {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (postgresUrl) await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  try {
    const platform = await startPlatformProcess({
      dataDir,
      seedDemo: true,
      ...(postgresUrl ? { databaseUrl: postgresUrl } : {}),
      ...(env ? { env } : {}),
    });
    servers.push(platform);
    return { url: platform.url, dataDir, servers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Pays the checkout behind a hosted page `session` with the test gateway's approving card. */
export async function payCheckout(url: string, session: string): Promise<{ status: number; answer: any }> {
  const response = await fetch(`${url}/_api/checkout-page/v1/pay`, {
    method: 'POST',
    headers: { ...json, 'x-checkout-session': session },
    body: JSON.stringify({
      attemptKey: crypto.randomUUID(),
      card: { number: '4242424242424242', expiry: '12/34', cvc: '123' },
    }),
  });
  return { status: response.status, answer: await response.json().catch(() => ({})) };
}

/**
 * The baseline: a bare `node:http` server (started in `shop`, stopped with it) answering `answer` as
 * JSON, loaded by `connections` at once for a few seconds; its requests per second.
 */
export async function fixedAnswerRps(
  shop: BenchShop,
  answer: unknown,
  options: { connections: number; quick: boolean },
): Promise<number> {
  const responses = path.join(shop.dataDir, 'baseline-responses.json');
  fs.writeFileSync(
    responses,
    JSON.stringify({
      '/answer': {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(JSON.stringify(answer)).toString('base64'),
      },
    }),
  );
  const baseline = await startBaselineProcess(responses);
  shop.servers.push(baseline);
  const base = await autocannon({
    url: `${baseline.url}/answer`,
    connections: options.connections,
    duration: options.quick ? 1 : 3,
    method: 'POST',
    body: '{}',
  });
  return base.requests.average;
}

/** A visitor's cart with one item, its checkout with a New York address and a carrier, and the hosted page's session. */
export async function readyCheckout(url: string, productId: string, quantity = 1): Promise<string> {
  const token = await visitorToken(url);
  await call(url, 'POST', '/ecom/v1/carts/current/add-to-cart', token, {
    lineItems: [catalogLine(productId, quantity)],
  });
  const address = {
    country: 'US',
    subdivision: 'US-NY',
    city: 'New York',
    postalCode: '10001',
    addressLine1: '1 Main St',
  };
  const { checkoutId } = (await call(url, 'POST', '/ecom/v1/carts/current/create-checkout', token, {
    channelType: 'WEB',
  })) as { checkoutId: string };
  const session = (await call(url, 'POST', '/_api/redirects-api/v1/redirect-session', token, {
    ecomCheckout: { checkoutId },
    callbacks: { postFlowUrl: 'http://localhost:4000/thank-you' },
  })) as any;
  const sessionToken = new URL(session.redirectSession.fullUrl).searchParams.get('session');
  if (!sessionToken) throw new Error(`no checkout session in ${session.redirectSession.fullUrl}`);
  const page = await fetch(`${url}/_api/checkout-page/v1/update`, {
    method: 'POST',
    headers: { ...json, 'x-checkout-session': sessionToken },
    body: JSON.stringify({
      email: 'buyer@example.com',
      shippingAddress: address,
      contactDetails: { firstName: 'Bench', lastName: 'Buyer' },
      billingSameAsShipping: true,
    }),
  });
  if (page.status !== 200) throw new Error(`checkout update answered ${page.status}: ${await page.text()}`);
  return sessionToken;
}

export function catalogLine(productId: string, quantity: number) {
  return { catalogReference: { appId: STORES_APP_ID, catalogItemId: productId }, quantity };
}

/** `count` products of the bench's own (no options), created through the admin API. */
export async function benchProducts(
  url: string,
  count: number,
  stock: { trackInventory: boolean; quantity?: number },
): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const created = (await call(url, 'POST', '/stores/v1/products', BENCH_ADMIN_API_KEY, {
      product: {
        name: `Bench item ${stock.trackInventory ? 'counted' : 'open'} ${index}`,
        productType: 'physical',
        priceData: { price: 9.99 + index },
        weight: 0.5,
        stock,
      },
    })) as any;
    ids.push(created.product.id);
  }
  return ids;
}

export async function call(
  url: string,
  method: string,
  requestPath: string,
  authorization: string,
  body?: unknown,
) {
  const response = await fetch(url + requestPath, {
    method,
    headers: authorization ? { ...json, authorization } : json,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${method} ${requestPath} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}
