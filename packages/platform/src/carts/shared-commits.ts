import type { CompiledQuery, Kysely } from 'kysely';
import { type Database, inTransaction, type SqliteConnection } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents, recordEventsOn } from '../events/outbox.ts';

/** The most writes one shared transaction carries. */
const MAX_SHARED = 64;

/** What a write did: its answer, and the events of its change (none when it changed nothing). */
export interface WriteOutcome<T> {
  value: T;
  events: DomainEvent[];
}

/**
 * A write of one statement that stands alone: `statement` changes its row only while the row is as
 * the writer read it (a conditional update that finds nothing changes nothing), and `outcome` says,
 * from the number of rows it changed, what the write answers and which events it records.
 */
export interface GuardedWrite<T> {
  statement: CompiledQuery;
  outcome(changed: number): WriteOutcome<T>;
}

interface Pending {
  write: GuardedWrite<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Short cart writes that arrive together share one transaction on SQLite. There the platform's one
 * connection runs one transaction at a time anyway, and the commit (appending its pages to the
 * write-ahead log) costs more than the update and event it seals; writes waiting for the connection
 * are committed together instead, each still answered only once its commit is done. The shared
 * transaction runs as one synchronous step on the connection (its statements through Kysely's
 * executor, each behind promises, were a fifth of a shared write), and the events of all its writes
 * go to the outbox in one statement (after one upsert of their entities' counters), in the writes'
 * order, just before the commit. When a shared
 * transaction fails, each of its writes runs again alone, so one shopper's failing write never fails
 * another's. PostgreSQL commits on many connections at once: there each write is its own transaction.
 */
export class SharedCommits {
  private readonly pending: Pending[] = [];
  private draining = false;
  private readonly db: Kysely<Tables>;
  private readonly sqlite: SqliteConnection | undefined;

  constructor(database: Database) {
    this.db = database.db;
    this.sqlite = database.sqlite;
  }

  run<T>(write: GuardedWrite<T>): Promise<T> {
    if (!this.sqlite) return this.alone(write);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // after the requests already under way have reached their writes
        setImmediate(() => void this.drain(this.sqlite as SqliteConnection));
      }
    });
  }

  /** `write` in a transaction of its own, with its events. */
  private alone<T>(write: GuardedWrite<T>): Promise<T> {
    return inTransaction(this.db, async (trx) => {
      const result = await trx.executeQuery(write.statement);
      const { value, events } = write.outcome(Number(result.numAffectedRows ?? 0));
      await recordEvents(trx, events);
      return value;
    });
  }

  private async drain(sqlite: SqliteConnection): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_SHARED);
      try {
        // holding Kysely's connection: no other query or transaction runs on it meanwhile
        const values = await this.db.connection().execute(async () =>
          sqlite.transaction(() => {
            const answers: unknown[] = [];
            const events: DomainEvent[] = [];
            for (const { write } of batch) {
              const outcome = write.outcome(sqlite.run(write.statement));
              answers.push(outcome.value);
              for (const event of outcome.events) events.push(event);
            }
            recordEventsOn(sqlite, this.db, events);
            return answers;
          }),
        );
        for (const [index, { resolve }] of batch.entries()) resolve(values[index]);
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const { write, resolve, reject } of batch) await this.alone(write).then(resolve, reject);
      }
    }
    this.draining = false;
  }
}
