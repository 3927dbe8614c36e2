import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import { tooManyAttempts } from './errors.ts';

/** How long the attempt log keeps a row: the longest window any count looks back over. */
export const ATTEMPT_LOG_KEEP_MS = 60 * 60 * 1000;

/** One attempt written down: how many the window held before it, and how to take it back. */
export interface RecordedAttempt {
  /** The key's other attempts in the window, parallel ones still in flight included. */
  before: number;
  /** When the oldest of them leaves the window (ms since the epoch): the earliest a limit frees. */
  freesAt: number;
  /** Takes this attempt back: it was turned away before it was checked, or it did not fail. */
  withdraw(): Promise<void>;
}

/**
 * Recent attempts per key over a sliding window (failed logins per email and per address, wrong
 * verification codes and codes sent per identity), one row each. The counts live in the database,
 * so every platform process behind a load balancer sees the same ones. An attempt is written before
 * it is counted: of attempts made at the same moment, each counts the others, so they cannot all
 * slip under a limit.
 */
export class AttemptLog {
  constructor(private readonly db: Kysely<Tables>) {}

  async record(key: string, windowMs: number): Promise<RecordedAttempt> {
    if (windowMs > ATTEMPT_LOG_KEEP_MS) throw new Error(`the attempt log keeps ${ATTEMPT_LOG_KEEP_MS} ms`);
    const now = Date.now();
    const since = new Date(now - windowMs).toISOString();
    // every key's old rows, not only this one's: a key sprayed once (an unknown email) is never seen again
    await this.db
      .deleteFrom('identity_login_attempts')
      .where('attempted_at', '<=', new Date(now - ATTEMPT_LOG_KEEP_MS).toISOString())
      .execute();
    const id = newId();
    await this.db
      .insertInto('identity_login_attempts')
      .values({ id, throttle_key: key, attempted_at: new Date(now).toISOString() })
      .execute();
    const { count, oldest } = await this.db
      .selectFrom('identity_login_attempts')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('attempted_at').as('oldest')])
      .where('throttle_key', '=', key)
      .where('attempted_at', '>', since)
      .where('id', '!=', id)
      .executeTakeFirstOrThrow();
    return {
      before: Number(count),
      freesAt: oldest ? Date.parse(String(oldest)) + windowMs : now,
      withdraw: async () => {
        await this.db.deleteFrom('identity_login_attempts').where('id', '=', id).execute();
      },
    };
  }

  /** Forgets every attempt of `key`. */
  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('identity_login_attempts').where('throttle_key', '=', key).execute();
  }
}

/** Seconds until `freesAt`, at least one: what a refusal tells the client to wait. */
export const secondsUntil = (freesAt: number): number =>
  Math.max(1, Math.ceil((freesAt - Date.now()) / 1000));

/**
 * Failed logins are counted per login email and per client address over 15 minutes. Nobody is locked
 * out by someone else's guesses: past 3 failures for an email, or 50 from an address (an office or a
 * mobile carrier shares one), a login must carry a solved captcha, and with one the right password
 * signs in whatever the count. Only far beyond that, 500 failures from one address, are its logins
 * refused until old failures leave the window.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const CAPTCHA_AFTER_EMAIL_FAILURES = 3;
export const CAPTCHA_AFTER_ADDRESS_FAILURES = 50;
export const MAX_FAILURES_PER_ADDRESS = 500;
/** Each failure after an email's first answers later, doubling from 100 ms up to 1 s. */
const SLOWDOWN_BASE_MS = 100;
const SLOWDOWN_MAX_MS = 1000;

/** The attempt log's keys of the login throttle. */
export const emailThrottleKey = (email: string) => `email:${email}`;
export const addressThrottleKey = (address: string) => `address:${address}`;

export interface LoginAttempt {
  /** This attempt goes on only with a solved captcha: its email or its address failed often lately. */
  readonly needsCaptcha: boolean;
  /** The attempt was turned away before its password was checked (no captcha, a bad one): it does not count. */
  withdraw(): Promise<void>;
  /** The password was right: this attempt no longer counts, nor do the email's earlier failures. */
  succeeded(): Promise<void>;
  /** The attempt failed: it keeps counting, and the answer is held back a while. */
  failed(): Promise<void>;
}

export class LoginThrottle {
  private readonly attempts: AttemptLog;

  constructor(db: Kysely<Tables>) {
    this.attempts = new AttemptLog(db);
  }

  /**
   * Opens an attempt for `email` from `address`: refused outright only when the address is far past its
   * failures; otherwise it says whether a captcha must come with it.
   */
  async begin(email: string, address: string): Promise<LoginAttempt> {
    const byEmail = await this.attempts.record(emailThrottleKey(email), LOGIN_WINDOW_MS);
    const byAddress = await this.attempts.record(addressThrottleKey(address), LOGIN_WINDOW_MS);
    const withdraw = async () => {
      await byEmail.withdraw();
      await byAddress.withdraw();
    };
    if (byAddress.before >= MAX_FAILURES_PER_ADDRESS) {
      await withdraw();
      throw tooManyAttempts(secondsUntil(byAddress.freesAt));
    }
    return {
      needsCaptcha:
        byEmail.before >= CAPTCHA_AFTER_EMAIL_FAILURES || byAddress.before >= CAPTCHA_AFTER_ADDRESS_FAILURES,
      withdraw,
      succeeded: async () => {
        await withdraw();
        await this.clear(email);
      },
      failed: async () => {
        const delay =
          byEmail.before === 0 ? 0 : Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_BASE_MS * 2 ** (byEmail.before - 1));
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      },
    };
  }

  /** Forgets an email's failures, as when its owner proves who they are by resetting the password. */
  async clear(email: string): Promise<void> {
    await this.attempts.clear(emailThrottleKey(email));
  }
}
