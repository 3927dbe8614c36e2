import type { AuthStrategy } from './auth/strategy.ts';
import { createTransport, type Transport } from './transport/http.ts';

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

export type Client<A extends AuthStrategy, M extends Record<string, ModuleDefinition>> = {
  [K in keyof M]: BoundModule<M[K]>;
} & { auth: A; transport: Transport };

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
  const bound: Record<string, unknown> = { auth: options.auth, transport };
  for (const [name, definition] of Object.entries(options.modules)) {
    bound[name] = Object.fromEntries(
      Object.entries(definition).map(([method, factory]) => [method, factory(transport)]),
    );
  }
  return bound as Client<A, M>;
}
