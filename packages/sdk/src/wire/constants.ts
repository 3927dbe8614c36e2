/** A GET whose query string passes this many characters switches to its POST fallback (point 9). */
export const GET_QUERY_FALLBACK_THRESHOLD = 4000;
/** Response header carrying the request id (the hosted platform names it x-wix-request-id). */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Request header naming the package, method and entity of each call (point 6). */
export const TRACING_HEADER = 'x-cartwheel-client';
