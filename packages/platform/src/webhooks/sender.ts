import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, hostOf, RefusedAddress, resolveChecked } from './addresses.ts';

/** How long one attempt may take, from connecting to the end of the answer read. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Of an answer, no more than this is read (a receiver that answers 10 MB costs the platform 64 KB). */
export const RESPONSE_READ_MAX = 64 * 1024;
/** Of what is read, this much is kept in the delivery log. */
export const RESPONSE_EXCERPT_MAX = 1024;

export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What an attempt met. */
export type AttemptResult =
  | { kind: 'answered'; statusCode: number; excerpt: string; retryAfter: string | undefined }
  | { kind: 'timeout'; detail: string }
  | { kind: 'unreachable'; detail: string }
  | { kind: 'refused-address'; detail: string };

/** Sends one delivery: what every attempt goes through. A seam, so tests may watch or replace it. */
export type Send = (delivery: OutgoingDelivery) => Promise<AttemptResult>;

/**
 * POSTs `delivery` to its URL from Node's own HTTP client: the host resolved and each address checked
 * (`resolveChecked`), then the connection made to that checked address only (the `lookup` handed to the
 * socket answers it, so a second resolution cannot swap in another); redirects are not followed (a 3xx
 * is an answer like any other, not acknowledged); at most `RESPONSE_READ_MAX` of the answer is read;
 * the whole attempt is bounded by `timeoutMs`.
 */
export function httpSender(policy: AddressPolicy, timeoutMs = ATTEMPT_TIMEOUT_MS): Send {
  return async (delivery) => {
    const url = new URL(delivery.url);
    let pinned: { address: string; family: 4 | 6 };
    try {
      pinned = await resolveChecked(url, policy);
    } catch (error) {
      if (error instanceof RefusedAddress) return { kind: 'refused-address', detail: error.message };
      throw error;
    }
    const lookup: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      } else callback(null, pinned.address, pinned.family);
    };
    return new Promise<AttemptResult>((resolve) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(
        url,
        {
          method: 'POST',
          headers: {
            ...delivery.headers,
            'content-length': String(Buffer.byteLength(delivery.body)),
            'user-agent': 'Cartwheel-Webhooks/1',
          },
          lookup,
          // the certificate is checked against the URL's name, not the address connected to
          servername: url.protocol === 'https:' ? hostOf(url) : undefined,
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let read = 0;
          const finish = () => {
            clearTimeout(timer);
            const retryAfter = response.headers['retry-after'];
            resolve({
              kind: 'answered',
              statusCode: response.statusCode ?? 0,
              excerpt: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_MAX),
              retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            });
          };
          response.on('data', (chunk: Buffer) => {
            if (read < RESPONSE_EXCERPT_MAX) chunks.push(chunk);
            read += chunk.length;
            if (read >= RESPONSE_READ_MAX) {
              // enough: the rest is never read
              response.destroy();
              finish();
            }
          });
          response.on('end', finish);
          response.on('error', finish);
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        resolve({ kind: 'timeout', detail: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
      request.on('error', (error) => {
        clearTimeout(timer);
        resolve({ kind: 'unreachable', detail: error.message });
      });
      request.end(delivery.body);
    });
  };
}
