import type { Kysely, Transaction } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';

/** The most writes one shared transaction carries. */
const MAX_SHARED = 64;

/** What a shared write did: its answer, and the events of its change (none when it changed nothing). */
export interface SharedWrite<T> {
  value: T;
  events: DomainEvent[];
}

type Write<T> = (trx: Transaction<Tables>) => Promise<SharedWrite<T>>;

interface Pending {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Short cart writes that arrive together share one transaction on SQLite. There the platform's one
 * connection runs one transaction at a time anyway, and the commit (appending its pages to the
 * write-ahead log) costs more than the update and event it seals; writes waiting for the connection
 * are committed together instead, each still answered only once its commit is done. The events of
 * the shared writes go to the outbox in one statement, in the writes' order, just before the commit
 * (an insert per event was a tenth of a shared write). Each write must stand alone (a conditional
 * update that finds nothing changes nothing). When a shared transaction fails, each of its writes
 * runs again alone, so one shopper's failing write never fails another's. PostgreSQL commits on many
 * connections at once: there each write is its own transaction.
 */
export class SharedCommits {
  private readonly pending: Pending[] = [];
  private draining = false;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: DialectName,
  ) {}

  run<T>(write: Write<T>): Promise<T> {
    if (this.dialect !== 'sqlite') return this.alone(write);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // after the requests already under way have reached their writes
        setImmediate(() => void this.drain());
      }
    });
  }

  /** `write` in a transaction of its own, with its events. */
  private alone<T>(write: Write<T>): Promise<T> {
    return inTransaction(this.db, async (trx) => {
      const { value, events } = await write(trx);
      await recordEvents(trx, events);
      return value;
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_SHARED);
      try {
        const results = await inTransaction(this.db, async (trx) => {
          const values: unknown[] = [];
          const events: DomainEvent[] = [];
          for (const { write } of batch) {
            const done = await write(trx);
            values.push(done.value);
            for (const event of done.events) events.push(event);
          }
          await recordEvents(trx, events);
          return values;
        });
        for (const [index, { resolve }] of batch.entries()) resolve(results[index]);
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const { write, resolve, reject } of batch) await this.alone(write).then(resolve, reject);
      }
    }
    this.draining = false;
  }
}
