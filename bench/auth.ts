import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { createClient, OAuthStrategy, products } from '@cartwheel/sdk';
import autocannon from 'autocannon';
import { routeHostedApiTo } from '../packages/platform/test/hosted-client-route.ts';
import { type LoadFigure, loadTiming } from './support/alternate.ts';
import {
  BENCH_CLIENT_ID,
  type RunningServer,
  startHelloWorldProcess,
  startPlatformProcess,
  tempDir,
} from './support/processes.ts';

/** One client's burst of calls, all started at once with no tokens. */
export interface TokenBurst {
  calls: number;
  /** `POST /oauth2/token` requests the proxy saw during the burst. */
  tokenRequests: number;
  /** Calls that resolved with a page of products. */
  succeeded: number;
  /** Wall time of the whole burst, first call to last answer. */
  ms: number;
  /** Every request the proxy saw during the burst, by `METHOD /path STATUS`. */
  requests: Record<string, number>;
  firstError?: string;
}

export interface AuthResult {
  /** Cartwheel's client (`@cartwheel/sdk`): the target is exactly one token request. */
  cartwheel: TokenBurst;
  /** The hosted platform's own client (`@wix/sdk`): a comparison, not a target. Absent if it could not run. */
  hosted?: TokenBurst;
  /** `POST /oauth2/token` (anonymous grant) under load, next to a bare hello-world server. */
  grants: LoadFigure & { connections: number; durationSeconds: number };
  notes: string[];
}

export const BURST_CALLS = 50;
const CONNECTIONS = 32;
const TOKEN_PATH = '/oauth2/token';

/**
 * Token handling, two ways: how many token requests a client makes when 50 calls start at once with no
 * tokens (ours, then the hosted platform's own client, through a counting proxy in front of the
 * platform), and how many anonymous grants per second the token endpoint answers at 32 connections
 * next to a bare `node:http` hello world in the same run.
 */
export async function measureAuth(options: { quick: boolean }): Promise<AuthResult> {
  const { durationSeconds, warmupSeconds } = loadTiming(options.quick);
  const notes: string[] = [];
  const dataDir = tempDir('cartwheel-bench-auth-');
  const servers: RunningServer[] = [];
  try {
    const platform = await startPlatformProcess({ dataDir, seedDemo: true });
    servers.push(platform);

    // 1. 50 calls at once with no tokens, through a proxy that counts token requests
    const proxy = await startCountingProxy(platform.url);
    let cartwheel: TokenBurst;
    let hosted: TokenBurst | undefined;
    try {
      const client = createClient({
        host: proxy.url,
        auth: OAuthStrategy({ clientId: BENCH_CLIENT_ID }),
        modules: { products },
      });
      cartwheel = await burst(proxy, async () => {
        const page = await client.products.queryProducts({ paging: { limit: 1 } });
        return page.items.length;
      });

      try {
        hosted = await hostedBurst(proxy);
      } catch (error) {
        notes.push(
          `the hosted client could not run: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    } finally {
      await proxy.close();
    }
    for (const [name, side] of [
      ['Cartwheel', cartwheel],
      ['hosted client', hosted],
    ] as const) {
      if (!side) continue;
      notes.push(
        `${name}: ${side.succeeded}/${side.calls} calls answered in ${side.ms.toFixed(0)} ms; ` +
          `requests seen: ${Object.entries(side.requests)
            .map(([request, count]) => `${count}× ${request}`)
            .join(', ')}`,
      );
      if (side.firstError) notes.push(`${name}: first failed call: ${side.firstError}`);
    }

    // 2. anonymous grants per second, next to a bare hello world
    const hello = await startHelloWorldProcess();
    servers.push(hello);
    const grants = await compareGrants(platform.url, hello.url, { durationSeconds, warmupSeconds });
    if (grants.status !== 200)
      notes.push(`the token endpoint answered ${grants.status}, not 200: the ratio is void`);
    if (grants.platformFailures > 0)
      notes.push(`token grants: ${grants.platformFailures} failed requests under load: the ratio is void`);
    return { cartwheel, ...(hosted ? { hosted } : {}), grants, notes };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The hosted platform's own client (`@wix/sdk` + `@wix/stores`), unchanged, with its API hosts routed
 * to the proxy at the fetch dispatcher (packages/platform/test/hosted-client-route.ts).
 */
async function hostedBurst(proxy: CountingProxy): Promise<TokenBurst> {
  const [
    { createClient: createHostedClient, OAuthStrategy: HostedOAuthStrategy },
    { products: hostedProducts },
  ] = await Promise.all([import('@wix/sdk'), import('@wix/stores')]);
  const removeRoute = await routeHostedApiTo(proxy.url);
  try {
    const client = createHostedClient({
      auth: HostedOAuthStrategy({ clientId: BENCH_CLIENT_ID }),
      modules: { products: hostedProducts },
    });
    return await burst(proxy, async () => {
      const page = await client.products.queryProducts().limit(1).find();
      return page.items.length;
    });
  } finally {
    await removeRoute();
  }
}

/** Starts BURST_CALLS calls at once and counts what the proxy saw meanwhile. */
async function burst(proxy: CountingProxy, call: () => Promise<number>): Promise<TokenBurst> {
  proxy.reset();
  const started = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: BURST_CALLS }, () => call()));
  const ms = performance.now() - started;
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value > 0).length;
  const empty = outcomes.some((outcome) => outcome.status === 'fulfilled' && outcome.value === 0);
  return {
    calls: BURST_CALLS,
    tokenRequests: proxy.tokenRequests(),
    succeeded,
    ms,
    requests: proxy.requests(),
    ...(failed
      ? { firstError: errorText(failed.reason) }
      : empty
        ? { firstError: 'a call answered a page with no product' }
        : {}),
  };
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { status?: unknown }).status;
  return `${error.message}${status !== undefined ? ` (status ${String(status)})` : ''}`;
}

async function compareGrants(
  platformUrl: string,
  baselineUrl: string,
  options: { durationSeconds: number; warmupSeconds: number },
): Promise<AuthResult['grants']> {
  const body = JSON.stringify({ clientId: BENCH_CLIENT_ID, grantType: 'anonymous' });
  const headers = { 'content-type': 'application/json' };
  const first = await fetch(platformUrl + TOKEN_PATH, { method: 'POST', headers, body });
  await first.arrayBuffer();
  const run = (url: string, duration: number) =>
    autocannon({ url: url + TOKEN_PATH, method: 'POST', headers, body, connections: CONNECTIONS, duration });
  await run(platformUrl, options.warmupSeconds);
  await run(baselineUrl, options.warmupSeconds);
  const base = await run(baselineUrl, options.durationSeconds);
  const ours = await run(platformUrl, options.durationSeconds);
  return {
    connections: CONNECTIONS,
    durationSeconds: options.durationSeconds,
    platformRps: ours.requests.average,
    baselineRps: base.requests.average,
    ratio: ours.requests.average / base.requests.average,
    platformP99Ms: ours.latency.p99,
    baselineP99Ms: base.latency.p99,
    platformFailures: ours.non2xx + ours.errors + ours.timeouts,
    status: first.status,
  };
}

interface CountingProxy {
  url: string;
  /** `POST /oauth2/token` requests since the last reset. */
  tokenRequests(): number;
  /** Requests since the last reset, by `METHOD /path STATUS`. */
  requests(): Record<string, number>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A bare forwarding proxy (node:http, in the bench's process) in front of the platform: every request
 * goes through unchanged, Host header included; it counts token requests and tallies the rest.
 */
async function startCountingProxy(targetUrl: string): Promise<CountingProxy> {
  const target = new URL(targetUrl);
  const agent = new http.Agent({ keepAlive: true });
  let tokenRequests = 0;
  let seen = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://proxy').pathname;
    if (request.method === 'POST' && pathname === TOKEN_PATH) tokenRequests++;
    const tally = (status: number | string) => {
      const key = `${request.method} ${pathname} ${status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    };
    const upstream = http.request(
      {
        host: target.hostname,
        port: Number(target.port),
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (answer) => {
        tally(answer.statusCode ?? 0);
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.once('error', (error) => {
      tally('error');
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`proxy: ${error.message}`);
    });
    request.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokenRequests: () => tokenRequests,
    requests: () => Object.fromEntries([...seen].sort(([a], [b]) => a.localeCompare(b))),
    reset() {
      tokenRequests = 0;
      seen = new Map();
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
      agent.destroy();
    },
  };
}
