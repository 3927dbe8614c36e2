/** Base64 and base64url to bytes and back, with the web's own `atob`/`btoa`: no dependency, any runtime. */

export function bytesFromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function base64FromBytes(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** RFC 4648 §5: the URL-safe alphabet, padding left off, as JWTs write their parts. */
export function bytesFromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError('not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return bytesFromBase64(padded);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
export const textOf = (bytes: Uint8Array): string => utf8.decode(bytes);
export const bytesOf = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);
