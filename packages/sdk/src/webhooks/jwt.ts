/**
 * Verifies the hosted platform's webhook body: an RS256 JWT (RFC 7519, signed per RFC 7515 with
 * RSASSA-PKCS1-v1_5 over SHA-256, RFC 7518 §3.3) whose claims are `{data, iat, exp}`. WebCrypto only, so
 * it runs unchanged in browsers, Node, and edge runtimes.
 */
import { bytesFromBase64, bytesFromBase64Url, bytesOf, textOf } from './encoding.ts';

const RS256 = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
/** A clock difference between the platform and the receiver this large is still believed (seconds). */
const CLOCK_SKEW_S = 60;

/**
 * The app's public key as the platform hands it out (`GET /api/cartwheel/webhooks/public-key`): a PEM
 * `PUBLIC KEY` (SPKI), or the same base64-encoded once more, as the hosted client also accepts.
 */
export async function importPublicKey(publicKey: string): Promise<CryptoKey> {
  let pem = publicKey.trim();
  if (!pem.startsWith('-----BEGIN')) {
    try {
      pem = textOf(bytesFromBase64(pem)).trim();
    } catch {
      throw new TypeError('the public key is neither a PEM nor a base64-encoded PEM');
    }
  }
  const match = /^-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----$/.exec(pem);
  if (!match) throw new TypeError('the public key must be a PEM "PUBLIC KEY" (SPKI)');
  const der = bytesFromBase64(match[1]!.replace(/\s+/g, ''));
  return crypto.subtle.importKey('spki', der, RS256, false, ['verify']);
}

/** The claims of a JWT whose signature and time window hold, or undefined when either does not. */
export async function verifiedClaims(
  token: string,
  key: CryptoKey,
  nowSeconds: number,
): Promise<Record<string, unknown> | undefined> {
  const parts = token.trim().split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const head = JSON.parse(textOf(bytesFromBase64Url(header))) as { alg?: unknown };
    // the algorithm is the receiver's choice, never the token's (RFC 8725 §2.1)
    if (head.alg !== 'RS256') return undefined;
    const signed = bytesOf(`${header}.${payload}`);
    if (!(await crypto.subtle.verify(RS256, key, bytesFromBase64Url(signature), signed))) return undefined;
    const claims = JSON.parse(textOf(bytesFromBase64Url(payload))) as unknown;
    if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return undefined;
    const { exp, nbf } = claims as { exp?: unknown; nbf?: unknown };
    if (typeof exp === 'number' && nowSeconds > exp + CLOCK_SKEW_S) return undefined;
    if (typeof nbf === 'number' && nowSeconds < nbf - CLOCK_SKEW_S) return undefined;
    return claims as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
