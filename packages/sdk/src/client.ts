import type { AuthStrategy } from './auth/strategy.ts';
import { ClientError } from './errors/client-error.ts';
import { everyHost } from './transport/domains.ts';
import { createTransport, type Transport } from './transport/http.ts';
import type { GraphQLAnswer, GraphQLOptions } from './types/graphql.ts';

/** A module method before it is bound: given the transport, it returns the call. */
export type MethodFactory = (transport: Transport) => (...args: any[]) => Promise<unknown>;
/** A module: a plain object of method factories. Import only the modules you use. */
export type ModuleDefinition = Readonly<Record<string, MethodFactory>>;
export type BoundModule<M extends ModuleDefinition> = { [K in keyof M]: ReturnType<M[K]> };

/** Cartwheel's platform on its default port; pass `www.wixapis.com` for the hosted platform. */
export const DEFAULT_HOST = 'http://localhost:4000';

export interface ClientOptions<A extends AuthStrategy, M extends Record<string, ModuleDefinition>> {
  host?: string;
  auth: A;
  modules: M;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/**
 * A GraphQL query to `POST /graphql/{apiVersion}` with its variables, as the hosted client's
 * `client.graphql(query, variables, { apiVersion })` sends it: answers `{ data, errors }` as the
 * platform wrote them (no date revival: the query chose the fields). A query refused as a whole (a
 * body that is no GraphQL request) throws the transport's errors.
 */
export type GraphQLCall = <Data = Record<string, unknown>, Variables = Record<string, unknown>>(
  query: string,
  variables?: Variables,
  options?: GraphQLOptions,
) => Promise<GraphQLAnswer<Data>>;

export type Client<A extends AuthStrategy, M extends Record<string, ModuleDefinition>> = {
  [K in keyof M]: BoundModule<M[K]>;
} & { auth: A; transport: Transport; graphql: GraphQLCall };

/** The same path on every host. */
const GRAPHQL = everyHost();

/** The client's GraphQL call over its transport (and its auth, renewal and errors). */
export function graphqlCall(transport: Transport): GraphQLCall {
  return async (query, variables, options = {}) => {
    if (!transport.stream) throw new ClientError('this transport cannot send GraphQL calls');
    const response = await transport.stream({
      method: 'POST',
      path: `/graphql/${encodeURIComponent(options.apiVersion ?? 'alpha')}`,
      mapping: GRAPHQL,
      body: variables === undefined ? { query } : { query, variables },
      accept: 'application/json',
      trace: { package: '@cartwheel/sdk', method: 'graphql', entity: 'graphql' },
    });
    const { data, errors } = (await response.json()) as Partial<GraphQLAnswer<any>>;
    return { data: data ?? {}, ...(errors ? { errors } : {}) };
  };
}

/** Binds each module's methods to one transport: `createClient({ auth, modules: { products } })`. */
export function createClient<A extends AuthStrategy, M extends Record<string, ModuleDefinition>>(
  options: ClientOptions<A, M>,
): Client<A, M> {
  const transport = createTransport({
    host: options.host ?? DEFAULT_HOST,
    auth: options.auth,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  options.auth.attach?.({ baseUrl: transport.baseUrl });
  const bound: Record<string, unknown> = { auth: options.auth, transport, graphql: graphqlCall(transport) };
  for (const [name, definition] of Object.entries(options.modules)) {
    bound[name] = Object.fromEntries(
      Object.entries(definition).map(([method, factory]) => [method, factory(transport)]),
    );
  }
  return bound as Client<A, M>;
}
