/**
 * The client half of the platform's self-hosted proof-of-work captcha (ALTCHA's scheme): the platform
 * signs a challenge `sha256(salt + n)` for a secret `n` in `0..maxnumber`; the browser finds `n` and
 * hands back base64 JSON `{algorithm, challenge, number, salt, signature}` as a captcha token
 * (`captchaTokens: [{InvisibleRecaptcha: token}]` on a registration or login). `crypto.subtle` only,
 * so the same code runs in a browser and in Node.
 */

/** A challenge as `GET /api/cartwheel/captcha/challenge` answers it. */
export interface CaptchaChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber: number;
}

/** What `GET /api/cartwheel/config` says about the captcha: whether it is asked for, and where to get one. */
export interface CaptchaConfig {
  required: boolean;
  /** The visible captcha's public site key. */
  siteKey: string;
  /** The invisible captcha's public site key. */
  invisibleSiteKey: string;
  /** Where a challenge is fetched from: `/api/cartwheel/captcha/challenge`. */
  challengeUrl: string;
}

export const CAPTCHA_CHALLENGE_PATH = '/api/cartwheel/captcha/challenge';

export interface SolveCaptchaOptions {
  /** Stops the search (the page was left): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Hashes computed at once: enough to hide each digest's round trip, few enough to stay responsive. */
const BATCH = 256;

/**
 * The token that proves `challenge` solved: the number whose SHA-256 with the salt is the challenge,
 * found by trying 0, 1, 2, ... up to `maxnumber`. Rejects when the challenge has no answer in range or
 * uses an algorithm other than SHA-256.
 */
export async function solveCaptchaChallenge(
  challenge: CaptchaChallenge,
  options: SolveCaptchaOptions = {},
): Promise<string> {
  if (challenge?.algorithm !== 'SHA-256') {
    throw new Error(`unsupported captcha algorithm: ${String(challenge?.algorithm)}`);
  }
  const target = bytesOfHex(challenge.challenge);
  const max = Number(challenge.maxnumber);
  if (target?.length !== 32 || !Number.isInteger(max) || max < 0) {
    throw new Error('malformed captcha challenge');
  }
  const encoder = new TextEncoder();
  for (let start = 0; start <= max; start += BATCH) {
    options.signal?.throwIfAborted();
    const end = Math.min(start + BATCH - 1, max);
    const digests = await Promise.all(
      Array.from({ length: end - start + 1 }, (_, offset) =>
        crypto.subtle.digest('SHA-256', encoder.encode(`${challenge.salt}${start + offset}`)),
      ),
    );
    const found = digests.findIndex((digest) => sameBytes(new Uint8Array(digest), target));
    if (found >= 0) {
      const { algorithm, salt, signature } = challenge;
      const payload = JSON.stringify({
        algorithm,
        challenge: challenge.challenge,
        number: start + found,
        salt,
        signature,
      });
      return base64Of(encoder.encode(payload));
    }
  }
  throw new Error('the captcha challenge has no solution');
}

/**
 * Fetches a fresh challenge from `challengeUrl` and solves it: the token for one registration or login
 * (the platform accepts each solved challenge once).
 */
export async function captchaTokenFrom(
  challengeUrl: string,
  options: SolveCaptchaOptions & { fetch?: typeof fetch } = {},
): Promise<string> {
  const get = options.fetch ?? fetch;
  const response = await get(challengeUrl, {
    headers: { Accept: 'application/json' },
    cache: 'no-store',
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!response.ok) throw new Error(`the captcha challenge could not be fetched (${response.status})`);
  return solveCaptchaChallenge((await response.json()) as CaptchaChallenge, options);
}

function bytesOfHex(hex: unknown): Uint8Array | undefined {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
