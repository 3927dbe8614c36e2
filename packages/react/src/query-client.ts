import { HttpError } from '@cartwheel/sdk';
import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';

/** Point 9: a failed query is tried again 3 times... */
export const QUERY_RETRY_COUNT = 3;
/** ...waiting 1 second before the first retry and doubling each time... */
export const QUERY_RETRY_BASE_DELAY_MS = 1_000;
/** ...but never more than 30 seconds. */
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;
/** Point 9: how long an answer may be served from the cache. */
export const CACHE_LIFETIME_MS = 5 * 60 * 1_000;

/** Wait before retry number `attempt + 1` (TanStack counts failures from 0): 1 s, 2 s, 4 s, ... 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(QUERY_RETRY_BASE_DELAY_MS * 2 ** attempt, QUERY_RETRY_MAX_DELAY_MS);
}

/** 4xx answers that say "not now" rather than "never": a timeout and rate limiting. */
const TRANSIENT_CLIENT_STATUSES = new Set([408, 429]);

/**
 * Whether a failed query is worth another try. A 4xx answer (not found, invalid argument, forbidden)
 * will be the same answer next time, so it fails at once; 5xx, network failures and token-endpoint
 * hiccups are retried up to {@link QUERY_RETRY_COUNT} times.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_RETRY_COUNT) return false;
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
    return TRANSIENT_CLIENT_STATUSES.has(error.status);
  }
  return true;
}

/** True when the platform answered that the thing asked for does not exist. */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof HttpError && error.status === 404;
}

/**
 * A QueryClient with the specification's constants. The cache lifetime is `staleTime`: an answer is
 * reused without a request for 5 minutes (with the default `staleTime: 0` every mount would refetch and
 * the lifetime would mean nothing). `gcTime` is the same 5 minutes, so an unused answer is dropped when
 * it would be stale anyway. Writes (cart, checkout) invalidate what they change instead of waiting.
 */
export function createCartwheelQueryClient(config: QueryClientConfig = {}): QueryClient {
  return new QueryClient({
    ...config,
    defaultOptions: {
      ...config.defaultOptions,
      queries: {
        retry: shouldRetry,
        retryDelay,
        staleTime: CACHE_LIFETIME_MS,
        gcTime: CACHE_LIFETIME_MS,
        ...config.defaultOptions?.queries,
      },
      mutations: { retry: false, ...config.defaultOptions?.mutations },
    },
  });
}
