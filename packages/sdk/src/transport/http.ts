import type { AuthContext, AuthStrategy } from '../auth/strategy.ts';
import { errorFromResponse } from '../errors/from-response.ts';
import { GET_QUERY_FALLBACK_THRESHOLD, REQUEST_ID_HEADER } from '../wire/constants.ts';
import { reviveDates } from '../wire/dates.ts';
import { encodeStructuredParam, STRUCTURED_PARAM } from '../wire/structured-param.ts';
import { type Trace, tracingHeaders } from '../wire/tracing.ts';
import { type DomainMapping, toPublicPath } from './domains.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One call of a module, in the specification's own terms. */
export interface RequestSpec {
  method: HttpMethod;
  /** Service path, e.g. `/v1/products/p1`; rewritten through `mapping`. */
  path: string;
  mapping: DomainMapping;
  /** JSON body, for every method but GET. */
  body?: unknown;
  /**
   * Query parameters, of any method (a DELETE's copy of its path id, `?id=p1`): scalars go as plain
   * parameters (null and undefined left out), anything structured as one `.r`.
   */
  params?: Record<string, unknown>;
  /** The call has a POST fallback at the same path for query strings past the threshold. */
  postFallback?: boolean;
  trace: Trace;
}

export interface Transport {
  /** Host name the domain mappings are looked up by (`www.wixapis.com`, `localhost:4000`). */
  readonly host: string;
  /** Scheme and host, no trailing slash. */
  readonly baseUrl: string;
  readonly auth: AuthStrategy;
  request<T>(spec: RequestSpec): Promise<T>;
  /**
   * The call's answer as it streams (a CSV export), for a call whose answer is not JSON: the body is
   * left unread for the caller; a refusal throws the same errors `request` does. `accept` is the
   * answer's media type.
   */
  stream?(spec: RequestSpec & { accept: string }): Promise<Response>;
}

export interface TransportOptions {
  /** `https://www.wixapis.com`, `http://localhost:4000`, or a bare host name (https assumed). */
  host: string;
  auth: AuthStrategy;
  fetch?: typeof fetch;
  /** Extra headers on every call. */
  headers?: Record<string, string>;
}

export function createTransport(options: TransportOptions): Transport {
  const base = normalizeBase(options.host);
  const hostname = new URL(base).host;
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const context: AuthContext = { baseUrl: base, fetch: doFetch };

  async function exchange(spec: RequestSpec, accept: string): Promise<Response> {
    const publicPath = toPublicPath(spec.mapping, hostname, spec.path);
    let method = spec.method;
    let url = base + publicPath;
    // a GET carries its request in the query only
    let body = method === 'GET' || spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const query = buildQueryString(spec.params);
    if (method === 'GET' && query.length > GET_QUERY_FALLBACK_THRESHOLD && spec.postFallback) {
      method = 'POST';
      body = JSON.stringify(spec.params ?? {});
    } else if (query) {
      url += `?${query}`;
    }

    const send = async () => {
      const headers: Record<string, string> = {
        Accept: accept,
        ...tracingHeaders(spec.trace),
        ...options.headers,
        ...(await options.auth.getAuthHeaders(context)),
      };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return doFetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    };

    let response = await send();
    // an access token the platform no longer honours: renew once and try again
    if (response.status === 401 && (await options.auth.onUnauthorized?.(context))) response = await send();
    return response;
  }

  return {
    host: hostname,
    baseUrl: base,
    auth: options.auth,
    async request<T>(spec: RequestSpec): Promise<T> {
      const response = await exchange(spec, 'application/json');
      const text = await response.text();
      const parsed = text ? safeJson(text) : undefined;
      if (!response.ok) {
        throw errorFromResponse(
          response.status,
          response.statusText,
          parsed,
          response.headers.get(REQUEST_ID_HEADER) ?? undefined,
        );
      }
      return reviveDates((parsed ?? {}) as T);
    },
    async stream(spec: RequestSpec & { accept: string }): Promise<Response> {
      const response = await exchange(spec, spec.accept);
      if (!response.ok) {
        const text = await response.text();
        throw errorFromResponse(
          response.status,
          response.statusText,
          text ? safeJson(text) : undefined,
          response.headers.get(REQUEST_ID_HEADER) ?? undefined,
        );
      }
      return response;
    },
  };
}

function normalizeBase(host: string): string {
  const withScheme = /^https?:\/\//.test(host) ? host : `https://${host}`;
  return withScheme.replace(/\/+$/, '');
}

function buildQueryString(params: Record<string, unknown> | undefined): string {
  if (!params) return '';
  const defined = Object.entries(params).filter(([, value]) => value !== undefined);
  if (defined.length === 0) return '';
  const structured = defined.some(
    ([, value]) =>
      value !== null &&
      typeof value === 'object' &&
      !(value instanceof Date) &&
      !(Array.isArray(value) && value.every((item) => typeof item !== 'object')),
  );
  if (structured) {
    return `${encodeURIComponent(STRUCTURED_PARAM)}=${encodeStructuredParam(Object.fromEntries(defined))}`;
  }
  const search = new URLSearchParams();
  for (const [key, value] of defined) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null) search.append(key, item instanceof Date ? item.toISOString() : String(item));
    }
  }
  return search.toString();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
