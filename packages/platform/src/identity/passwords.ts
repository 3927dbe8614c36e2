import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { type DomainError, invalidArgument, violation } from '../shared/errors.ts';

export const PASSWORD_MIN_LENGTH = 6;
/** scrypt's cost does not grow with the input, but a megabyte password is no one's. */
export const PASSWORD_MAX_LENGTH = 256;

/** scrypt cost: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds a check). */
const COST_LOG2 = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(
  password: string,
  salt: Buffer,
  options: { log2N: number; r: number; p: number },
): Promise<Buffer> {
  const scryptOptions: ScryptOptions = {
    N: 2 ** options.log2N,
    r: options.r,
    p: options.p,
    maxmem: 256 * 2 ** options.log2N * options.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, scryptOptions, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * A self-describing scrypt hash, `scrypt$15$8$1$<salt>$<key>` (base64url): a per-password salt, and
 * the cost written down so a later, dearer cost can verify old hashes.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, { log2N: COST_LOG2, r: BLOCK_SIZE, p: PARALLELISM });
  return [
    'scrypt',
    COST_LOG2,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Whether `password` is the one `stored` was made from; compared in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    log2N: Number(log2N),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The password rules, as field violations on `field` (`password`, `newPassword`). */
export function passwordViolation(password: unknown, field: string): DomainError | undefined {
  if (typeof password !== 'string' || password.length === 0) {
    return invalidArgument([violation(field, 'is required', 'REQUIRED_FIELD')]);
  }
  if (password.length < PASSWORD_MIN_LENGTH) {
    return invalidArgument([
      violation(field, `must be at least ${PASSWORD_MIN_LENGTH} characters`, 'MIN_LENGTH'),
    ]);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return invalidArgument([
      violation(field, `must be at most ${PASSWORD_MAX_LENGTH} characters`, 'MAX_LENGTH'),
    ]);
  }
  return undefined;
}
