import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Clock } from '../shared/clock.ts';

/**
 * One process's claim on a job among the processes of a store: a row that one atomic upsert takes when
 * it is free, expired or already this holder's. The holder renews it only once half of it has passed,
 * so a job that runs every second writes its lease a few times a minute, not every run.
 */
export class Lease {
  /** Until when this holder knows it holds the lease (ms); 0 when it does not. */
  private heldUntil = 0;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly name: string,
    private readonly holder: string,
    private readonly clock: Clock,
    private readonly ms: number,
  ) {}

  /** Whether this holder may run the job now: it holds the lease, renewed if half of it has passed. */
  async take(): Promise<boolean> {
    const now = this.clock.now();
    if (this.heldUntil - now > this.ms / 2) return true;
    const until = now + this.ms;
    const expiresAt = new Date(until).toISOString();
    const result = await this.db
      .insertInto('worker_leases')
      .values({ name: this.name, holder: this.holder, expires_at: expiresAt })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ holder: this.holder, expires_at: expiresAt })
          .where((eb) =>
            eb.or([
              eb('worker_leases.expires_at', '<', new Date(now).toISOString()),
              eb('worker_leases.holder', '=', this.holder),
            ]),
          ),
      )
      .executeTakeFirst();
    this.heldUntil = Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? until : 0;
    return this.heldUntil > 0;
  }

  /** Gives the lease up (a clean stop), so another process takes the job at its next tick. */
  async release(): Promise<void> {
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    await this.db
      .updateTable('worker_leases')
      .set({ expires_at: new Date(0).toISOString() })
      .where('name', '=', this.name)
      .where('holder', '=', this.holder)
      .execute();
  }
}
