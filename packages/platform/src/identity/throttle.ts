import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import { tooManyAttempts } from './errors.ts';

/**
 * Failed logins are counted per login email and per client address over a sliding window of 15
 * minutes: 5 for one email, 20 for one address (people share addresses). Past that, logins are
 * refused until old failures leave the window. Counts live in the database, so every platform
 * process behind a load balancer sees the same ones.
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
/** Each failure after the first answers later, doubling from 100 ms up to 2 s. */
const SLOWDOWN_BASE_MS = 100;
const SLOWDOWN_MAX_MS = 2000;

export interface LoginAttempt {
  /** The password was right: this attempt no longer counts, nor do the email's earlier failures. */
  succeeded(): Promise<void>;
  /** The attempt failed: it keeps counting, and the answer is held back a while. */
  failed(): Promise<void>;
}

export class LoginThrottle {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Opens an attempt for `email` from `address`, refusing it when either has used up its failures.
   * The attempt is written before it is counted, so parallel guesses cannot all slip under the limit.
   */
  async begin(email: string, address: string): Promise<LoginAttempt> {
    const now = Date.now();
    const since = new Date(now - LOGIN_WINDOW_MS).toISOString();
    const keys = [
      { key: `email:${email}`, limit: MAX_FAILURES_PER_EMAIL },
      { key: `address:${address}`, limit: MAX_FAILURES_PER_ADDRESS },
    ];
    const ids: string[] = [];
    for (const { key } of keys) {
      await this.db
        .deleteFrom('identity_login_attempts')
        .where('throttle_key', '=', key)
        .where('attempted_at', '<=', since)
        .execute();
      const id = newId();
      ids.push(id);
      await this.db
        .insertInto('identity_login_attempts')
        .values({ id, throttle_key: key, attempted_at: new Date(now).toISOString() })
        .execute();
    }
    let emailCount = 0;
    for (const { key, limit } of keys) {
      const { count, oldest } = await this.db
        .selectFrom('identity_login_attempts')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('attempted_at').as('oldest')])
        .where('throttle_key', '=', key)
        .where('attempted_at', '>', since)
        .where('id', 'not in', ids)
        .executeTakeFirstOrThrow();
      if (key.startsWith('email:')) emailCount = Number(count);
      if (Number(count) >= limit) {
        await this.forget(ids);
        const freeAt = Date.parse(String(oldest)) + LOGIN_WINDOW_MS;
        throw tooManyAttempts(Math.max(1, Math.ceil((freeAt - now) / 1000)));
      }
    }
    return {
      succeeded: async () => {
        await this.forget(ids);
        await this.db
          .deleteFrom('identity_login_attempts')
          .where('throttle_key', '=', `email:${email}`)
          .execute();
      },
      failed: async () => {
        const delay =
          emailCount === 0 ? 0 : Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_BASE_MS * 2 ** (emailCount - 1));
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      },
    };
  }

  /** Forgets an email's failures, as when its owner proves who they are by resetting the password. */
  async clear(email: string): Promise<void> {
    await this.db
      .deleteFrom('identity_login_attempts')
      .where('throttle_key', '=', `email:${email}`)
      .execute();
  }

  private async forget(ids: string[]): Promise<void> {
    await this.db.deleteFrom('identity_login_attempts').where('id', 'in', ids).execute();
  }
}
