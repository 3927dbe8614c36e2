import { afterAll, beforeEach, expect } from 'vitest';
import { ApiKeyStrategy, createClient, type ModuleDefinition, OAuthStrategy } from '../../src/index.ts';
import { decodeStructuredParam, TRACING_HEADER } from '../../src/wire/index.ts';
import {
  type CannedResponse,
  type LoopbackServer,
  type RecordedRequest,
  startLoopbackServer,
} from './loopback-server.ts';

/**
 * The scaffolding of the table-driven wire tests: a loopback server per test file, admin and visitor
 * clients against it, and the check of the one request a call sent against its wire contract row.
 */

/** How a platform answers in these tests: synchronously, one canned response a request. */
export type Platform = (request: RecordedRequest) => CannedResponse;

/** A loopback server for one test file: closed after its tests; before each, emptied and answering as `platform`. */
export async function startWireServer(platform: Platform): Promise<LoopbackServer> {
  const server = await startLoopbackServer();
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.respond = platform;
  });
  return server;
}

/** The API key of `adminClient`, sent raw in Authorization. */
export const ADMIN_KEY = 'admin-key';
/** The access token `withVisitorTokens` hands a visitor, sent raw in Authorization. */
export const VISITOR_ACCESS = 'visitor-access';

/** A client of `modules` that calls `server` as an admin, with the API key `ADMIN_KEY`. */
export function adminClient<M extends Record<string, ModuleDefinition>>(server: LoopbackServer, modules: M) {
  return createClient({ host: server.url, auth: ApiKeyStrategy({ apiKey: ADMIN_KEY }), modules });
}

/** A client of `modules` that calls `server` as a visitor; the server must answer the token endpoint. */
export function visitorClient<M extends Record<string, ModuleDefinition>>(
  server: LoopbackServer,
  modules: M,
) {
  return createClient({ host: server.url, auth: OAuthStrategy({ clientId: 'client-1' }), modules });
}

/** `platform`, with the token endpoint answering a visitor's tokens (access token `VISITOR_ACCESS`). */
export function withVisitorTokens(platform: Platform): Platform {
  return (request) =>
    request.path === '/oauth2/token'
      ? { body: { access_token: VISITOR_ACCESS, expires_in: 3600, refresh_token: 'visitor-refresh' } }
      : platform(request);
}

/** The requests `server` recorded other than the token endpoint's: the calls a module made. */
export function moduleCalls(server: LoopbackServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path !== '/oauth2/token');
}

/** The tracing header's pattern for any method of `service` (a fully qualified name) acting on `entity`. */
export function tracing(service: string, entity: string): RegExp {
  const fqn = service.replaceAll('.', '\\.');
  return new RegExp(
    `^environment=cartwheel-sdk,package-name=@cartwheel/sdk,method-fqn=${fqn}\\.\\w+,entity=${entity}$`,
  );
}

/** One call's request as the wire contract lists it. */
export interface WireCall {
  method: string;
  path: string;
  /** The plain query parameters (all but `.r`); none when left out. */
  query?: Record<string, string | string[]>;
  /** The decoded `.r` parameter; none when left out. */
  r?: unknown;
  body?: unknown;
}

/** A wire call together with what the SDK returns for the canned answer. */
export interface WireCallReturning extends WireCall {
  returns: unknown;
}

/** One row of a wire test table: the method's name, the call, and what it should send. */
export type CallRow<C, E = WireCallReturning> = [
  name: string,
  call: (client: C) => Promise<unknown>,
  expected: E,
];

/** Who sent a call: the Authorization header expected, and the tracing header (exactly, or a pattern). */
export interface Caller {
  authorization: string;
  trace: string | RegExp;
}

/** Checks that `requests` holds exactly one request, and that it is `expected` as sent by `caller`. */
export function expectWireCall(requests: RecordedRequest[], expected: WireCall, caller: Caller): void {
  expect(requests).toHaveLength(1);
  const request = requests[0]!;
  expect(request.method).toBe(expected.method);
  expect(request.path).toBe(expected.path);
  expect(plainQuery(request)).toEqual(expected.query ?? {});
  const r = request.query.get('.r');
  expect(r ? decodeStructuredParam(r) : undefined).toEqual(expected.r);
  expect(request.body).toEqual(expected.body);
  expect(request.headers.authorization).toBe(caller.authorization);
  if (typeof caller.trace === 'string') expect(request.headers[TRACING_HEADER]).toBe(caller.trace);
  else expect(request.headers[TRACING_HEADER]).toMatch(caller.trace);
}

/** A request's query parameters but `.r`: a repeated one as the list of its values. */
function plainQuery(request: RecordedRequest): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(request.query.keys())) {
    if (key === '.r') continue;
    const values = request.query.getAll(key);
    query[key] = values.length === 1 ? values[0]! : values;
  }
  return query;
}

/** Checks that a wire test table has a row for each of `methods` and for nothing else. */
export function expectRowsCover(rows: CallRow<any, unknown>[], methods: string[]): void {
  expect(new Set(rows.map(([name]) => name))).toEqual(new Set(methods));
}
