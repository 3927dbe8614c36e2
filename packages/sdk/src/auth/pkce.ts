import { ClientError, ClientMessages } from '../errors/client-error.ts';
import {
  CODE_VERIFIER_DEFAULT_LENGTH,
  CODE_VERIFIER_MAX_LENGTH,
  CODE_VERIFIER_MIN_LENGTH,
  CODE_VERIFIER_ALPHABET as UNRESERVED,
} from '../types/constants.ts';

export { CODE_CHALLENGE_METHOD } from '../types/constants.ts';
/** Point 9's bounds of a random secret, under the names the SDK has exported since the visitor slice. */
export const SECRET_MIN_LENGTH = CODE_VERIFIER_MIN_LENGTH;
export const SECRET_MAX_LENGTH = CODE_VERIFIER_MAX_LENGTH;

/**
 * A random secret of `length` characters (RFC 7636 §4.1), used as the PKCE code verifier and as the
 * OAuth state. Uniform over the alphabet: bytes that would bias the draw are thrown away.
 */
export function generateRandomSecret(length: number = CODE_VERIFIER_DEFAULT_LENGTH): string {
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
