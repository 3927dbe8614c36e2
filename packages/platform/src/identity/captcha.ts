import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { CaptchaToken } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { invalidCaptchaToken, missingCaptchaToken } from './errors.ts';

/**
 * A self-hosted proof-of-work captcha in ALTCHA's format: the platform issues a signed challenge,
 * the browser finds the number whose SHA-256 with the salt is the challenge, and hands back
 * base64 JSON `{algorithm, challenge, number, salt, signature}`. Only the server half lives here.
 */
export const CAPTCHA_ALGORITHM = 'SHA-256';
/** About 50,000 hashes on average: a fraction of a second for a browser, a cost for a script. */
export const CAPTCHA_MAX_NUMBER = 100_000;
export const CAPTCHA_TTL_MS = 10 * 60 * 1000;

export interface CaptchaChallenge {
  algorithm: typeof CAPTCHA_ALGORITHM;
  challenge: string;
  salt: string;
  signature: string;
  maxnumber: number;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export class Captcha {
  constructor(
    private readonly db: Kysely<Tables>,
    /** Resolves the HMAC key (a site setting made on first use). */
    private readonly secret: () => Promise<string>,
  ) {}

  async challenge(): Promise<CaptchaChallenge> {
    const expires = Math.floor((Date.now() + CAPTCHA_TTL_MS) / 1000);
    const salt = `${randomBytes(12).toString('hex')}?expires=${expires}`;
    const challenge = sha256Hex(`${salt}${randomInt(0, CAPTCHA_MAX_NUMBER + 1)}`);
    return {
      algorithm: CAPTCHA_ALGORITHM,
      challenge,
      salt,
      signature: await this.sign(challenge),
      maxnumber: CAPTCHA_MAX_NUMBER,
    };
  }

  /** Accepts one solved challenge among the tokens, and only once; throws -19971 / -19970 otherwise. */
  async verify(tokens: CaptchaToken[] | undefined): Promise<void> {
    const values = (Array.isArray(tokens) ? tokens : [])
      .flatMap((token) =>
        token && typeof token === 'object' ? [token.InvisibleRecaptcha, token.Recaptcha] : [],
      )
      .filter((value): value is string => typeof value === 'string' && value.length > 0);
    if (values.length === 0) throw missingCaptchaToken();
    for (const value of values) {
      const solution = await this.solved(value);
      if (solution && (await this.firstUse(solution.challenge, solution.expiresAt))) return;
    }
    throw invalidCaptchaToken();
  }

  private async solved(value: string): Promise<{ challenge: string; expiresAt: number } | undefined> {
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    } catch {
      return undefined;
    }
    const { algorithm, challenge, number, salt, signature } = payload ?? {};
    if (algorithm !== CAPTCHA_ALGORITHM || typeof challenge !== 'string' || typeof salt !== 'string')
      return undefined;
    if (typeof signature !== 'string' || !Number.isInteger(number)) return undefined;
    const expected = Buffer.from(await this.sign(challenge), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    if (sha256Hex(`${salt}${number}`) !== challenge) return undefined;
    const expires = Number(new URLSearchParams(salt.split('?')[1] ?? '').get('expires'));
    if (!Number.isFinite(expires) || expires * 1000 <= Date.now()) return undefined;
    return { challenge, expiresAt: expires * 1000 };
  }

  /** Records the challenge as spent; false when someone spent it already. */
  private async firstUse(challenge: string, expiresAt: number): Promise<boolean> {
    const now = new Date().toISOString();
    await this.db.deleteFrom('identity_captcha_uses').where('expires_at', '<', now).execute();
    const inserted = await this.db
      .insertInto('identity_captcha_uses')
      .values({ challenge, expires_at: new Date(expiresAt).toISOString() })
      .onConflict((oc) => oc.column('challenge').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  private async sign(challenge: string): Promise<string> {
    return createHmac('sha256', await this.secret())
      .update(challenge)
      .digest('hex');
  }
}
