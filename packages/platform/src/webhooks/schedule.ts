/**
 * When a failed delivery is tried again: Standard Webhooks' reference schedule (5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h) and then every 12 h, each wait shortened by up to a fifth at random (deliveries
 * that failed together do not all come back together), until three days have passed since the first
 * failure: the last try is at least three days after it. A receiver's `Retry-After` (on a 429 or a 503)
 * is honoured up to a day. Pure: the caller passes the time, so a test needs no clock at all.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];
/** The wait once the table is used up. */
export const LATER_RETRY_MS = 12 * HOUR;
/** How long a delivery is tried from its first failure before it is given up (a dead letter). */
export const RETRY_HORIZON_MS = 3 * 24 * HOUR;
/** The longest wait a receiver's `Retry-After` may ask for. */
export const RETRY_AFTER_MAX_MS = 24 * HOUR;
/** Of each wait, up to this share is taken off at random. */
export const JITTER = 0.2;

export interface FailedAttempt {
  /** Failed attempts so far, this one included (1 after the first failure). */
  failures: number;
  /** When the first of them was (ms since the epoch). */
  firstFailedAt: number;
  now: number;
  /** The answer's `Retry-After` header, if any: seconds, or an HTTP date. */
  retryAfter?: string | undefined;
  /** [0, 1): `Math.random` unless a test fixes it. */
  random?: () => number;
}

/** When to try again (ms since the epoch), or undefined when the delivery is given up. */
export function nextAttemptAt(failed: FailedAttempt): number | undefined {
  if (failed.now - failed.firstFailedAt >= RETRY_HORIZON_MS) return undefined;
  const base = RETRY_DELAYS_MS[failed.failures - 1] ?? LATER_RETRY_MS;
  const wait = base * (1 - JITTER * (failed.random ?? Math.random)());
  const asked = retryAfterMs(failed.retryAfter, failed.now);
  return failed.now + Math.max(wait, Math.min(asked ?? 0, RETRY_AFTER_MAX_MS));
}

/** A `Retry-After` value as a wait in ms (RFC 9110 §10.2.3: delay-seconds or an HTTP date). */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
