import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { CheckoutAttemptRow } from './tables.ts';

/**
 * A checkout's payment attempts as the buying path (buying/placing.ts) reads and moves them: one
 * attempt per payment key, `PROCESSING` while its charge is in flight, then settled. The checkout
 * domain owns the table; the buying path holds the checkout and decides, these only read and write.
 */
export class CheckoutAttempts {
  constructor(private readonly db: Kysely<Tables>) {}

  /** Every attempt of the checkout, oldest first, in the caller's transaction. */
  async ofCheckout(executor: Kysely<Tables>, checkoutId: string): Promise<CheckoutAttemptRow[]> {
    return executor
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('checkout_id', '=', checkoutId)
      .orderBy('created_at')
      .execute();
  }

  /** The attempt of this checkout, if it is one (in `executor`'s transaction when given). */
  async find(
    checkoutId: string,
    attemptId: string,
    executor: Kysely<Tables> = this.db,
  ): Promise<CheckoutAttemptRow | undefined> {
    return executor
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('id', '=', attemptId)
      .where('checkout_id', '=', checkoutId)
      .executeTakeFirst();
  }

  /** The attempt `attemptId`, whichever checkout it pays (a provider's event names only the attempt). */
  async byId(attemptId: string): Promise<CheckoutAttemptRow | undefined> {
    return this.db.selectFrom('checkout_attempts').selectAll().where('id', '=', attemptId).executeTakeFirst();
  }

  async insert(executor: Kysely<Tables>, attempt: CheckoutAttemptRow): Promise<void> {
    await executor.insertInto('checkout_attempts').values(attempt).execute();
  }

  /** Writes `set` on the attempt; with `whileStatus`, only if it still has that status. */
  async move(
    attemptId: string,
    set: Partial<Pick<CheckoutAttemptRow, 'status' | 'action_id' | 'expires_at'>> & { updated_at: string },
    options: { executor?: Kysely<Tables>; whileStatus?: CheckoutAttemptRow['status'] } = {},
  ): Promise<void> {
    await (options.executor ?? this.db)
      .updateTable('checkout_attempts')
      .set(set)
      .where('id', '=', attemptId)
      .$if(options.whileStatus !== undefined, (query) => query.where('status', '=', options.whileStatus!))
      .execute();
  }

  /**
   * Charges still `PROCESSING` through one of `providerIds` that began before `createdBefore` and were
   * last touched before `touchedBefore`.
   */
  async abandoned(
    createdBefore: Date,
    touchedBefore: Date,
    providerIds: readonly string[],
  ): Promise<CheckoutAttemptRow[]> {
    if (providerIds.length === 0) return [];
    return this.db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('status', '=', 'PROCESSING')
      .where('provider_id', 'in', providerIds)
      .where('created_at', '<=', createdBefore.toISOString())
      .where('updated_at', '<=', touchedBefore.toISOString())
      .orderBy('created_at')
      .limit(100)
      .execute();
  }
}
