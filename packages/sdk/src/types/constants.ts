/** Business constants of point 9 not held elsewhere (paging is in paging.ts, the GET threshold in wire/). */
import type { Prompt, ResponseMode } from './redirects.ts';

/** Query retries: 3, waiting 1 s, doubling, never more than 30 s. */
export const QUERY_RETRY_COUNT = 3;
export const QUERY_RETRY_INITIAL_DELAY_MS = 1000;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;

/** How long a cached read stays fresh. */
export const CACHE_LIFETIME_MS = 5 * 60 * 1000;

/** How long a silent member login (hidden frame, `prompt: none`) may take before 'OAuth flow timed out'. */
export const SILENT_LOGIN_TIMEOUT_MS = 120_000;

/** Length bounds of the PKCE code verifier (RFC 7636 §4.1) and the length the client draws. */
export const CODE_VERIFIER_MIN_LENGTH = 43;
export const CODE_VERIFIER_MAX_LENGTH = 128;
export const CODE_VERIFIER_DEFAULT_LENGTH = 43;
/** The verifier's alphabet: unreserved URL characters (RFC 7636 §4.1). */
export const CODE_VERIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

export const OAUTH_SCOPE = 'offline_access';
export const CODE_CHALLENGE_METHOD = 'S256';
export const OAUTH_RESPONSE_TYPE = 'code';
export const DEFAULT_RESPONSE_MODE = 'fragment' satisfies ResponseMode;
export const DEFAULT_PROMPT = 'login' satisfies Prompt;
