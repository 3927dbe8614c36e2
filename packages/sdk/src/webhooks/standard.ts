/**
 * Standard Webhooks signatures (standardwebhooks.com): `webhook-signature` holds space-separated
 * `v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{body}`, keyed by the endpoint's secret
 * (`whsec_` and the key in base64). For receivers written to that convention.
 */
import { base64FromBytes, bytesFromBase64, bytesOf } from './encoding.ts';

/** How far a delivery's timestamp may be from the receiver's clock (the reference libraries' 5 minutes). */
export const STANDARD_TOLERANCE_S = 5 * 60;
const SECRET_PREFIX = 'whsec_';

export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers of a Standard Webhooks delivery, read from a `Headers` or a plain object. */
export function standardHeaders(
  headers: Headers | Record<string, string | string[] | undefined>,
): StandardWebhookHeaders | undefined {
  const read = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
    const value = (headers as Record<string, string | string[] | undefined>)[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = read('webhook-id');
  const timestamp = read('webhook-timestamp');
  const signature = read('webhook-signature');
  if (!id || !timestamp || !signature) return undefined;
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature };
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const raw = bytesFromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** The `v1,...` signature of one delivery: what the platform sends and the receiver recomputes. */
export async function standardSignature(secret: string, id: string, timestamp: string, body: string) {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret), bytesOf(`${id}.${timestamp}.${body}`));
  return `v1,${base64FromBytes(new Uint8Array(mac))}`;
}

/** Whether `headers` sign `body` under `secret` within the tolerance; compared in constant time. */
export async function standardSignatureHolds(
  secret: string,
  headers: StandardWebhookHeaders,
  body: string,
  nowSeconds: number,
): Promise<boolean> {
  const timestamp = Number(headers['webhook-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > STANDARD_TOLERANCE_S) return false;
  let expected: string;
  try {
    expected = await standardSignature(secret, headers['webhook-id'], headers['webhook-timestamp'], body);
  } catch {
    return false;
  }
  return headers['webhook-signature']
    .split(' ')
    .some((candidate) => candidate.startsWith('v1,') && sameText(candidate, expected));
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
