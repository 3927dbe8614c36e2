/**
 * The `.r` query parameter: a GET whose parameters are structured (queries, paging, sorting)
 * carries the whole request as base64url-encoded JSON. Shared by the SDK (encode) and the
 * platform (decode) so both sides agree on one codec.
 */
export const STRUCTURED_PARAM = '.r';

export function encodeStructuredParam(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeStructuredParam(encoded: string): unknown {
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  // a plain loop: the platform decodes one of these per catalog read
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return JSON.parse(new TextDecoder().decode(bytes));
}
