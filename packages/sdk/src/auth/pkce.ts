import { ClientError, ClientMessages } from '../errors/client-error.ts';

/** RFC 7636 §4.1: the verifier's alphabet (unreserved characters). */
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
export const SECRET_MIN_LENGTH = 43;
export const SECRET_MAX_LENGTH = 128;
export const CODE_CHALLENGE_METHOD = 'S256';

/**
 * A random secret of `length` characters (RFC 7636 §4.1), used as the PKCE code verifier and as the
 * OAuth state. Uniform over the alphabet: bytes that would bias the draw are thrown away.
 */
export function generateRandomSecret(length: number = SECRET_MIN_LENGTH): string {
  if (!Number.isInteger(length) || length < SECRET_MIN_LENGTH || length > SECRET_MAX_LENGTH) {
    throw new ClientError(ClientMessages.secretLength(length));
  }
  const limit = 256 - (256 % UNRESERVED.length);
  let secret = '';
  while (secret.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && secret.length < length) secret += UNRESERVED[byte % UNRESERVED.length];
    }
  }
  return secret;
}

/** RFC 7636 §4.2, S256: BASE64URL(SHA256(ASCII(verifier))), without padding. */
export async function codeChallengeOf(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
