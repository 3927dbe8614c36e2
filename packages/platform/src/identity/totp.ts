import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238) over HOTP (RFC 4226), as authenticator apps make them:
 * HMAC-SHA1, 30-second steps from the Unix epoch, 6 digits. Secrets travel as base32 (RFC 4648 §6),
 * the form `otpauth://` links carry.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code is still taken: a phone's clock a little off, a code typed late. */
export const TOTP_DRIFT_STEPS = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A new shared secret: 20 random bytes (RFC 4226 §4 recommends 160 bits), in base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 6238 §4.2: the time step of `atMs` (T = floor((now - T0) / X), T0 = 0). */
export function totpStep(atMs: number): number {
  return Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);
}

/** RFC 4226 §5.3: the HOTP value of `counter`, truncated dynamically to `TOTP_DIGITS` digits. */
export function hotp(secret: string, counter: number): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', base32Decode(secret)).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** TOTP_DIGITS).padStart(TOTP_DIGITS, '0');
}

/** The code an authenticator shows at `atMs`. */
export function totpAt(secret: string, atMs: number): string {
  return hotp(secret, totpStep(atMs));
}

/**
 * The step whose code `code` is, among now's and `TOTP_DRIFT_STEPS` either side, later than
 * `usedStep` (RFC 6238 §5.2: a code verified once is not taken again); undefined when none matches.
 */
export function matchingStep(
  secret: string,
  code: string,
  atMs: number,
  usedStep: number | null,
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const now = totpStep(atMs);
  for (let step = now - TOTP_DRIFT_STEPS; step <= now + TOTP_DRIFT_STEPS; step += 1) {
    if (usedStep !== null && step <= usedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code))) return step;
  }
  return undefined;
}

/** The `otpauth://totp/...` link an authenticator app reads (often as a QR code). */
export function otpauthUrl(secret: string, issuer: string, account: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query}`;
}

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').replace(/\s+/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
