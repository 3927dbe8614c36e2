import type { Kysely, Transaction } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';

/** The most writes one shared transaction carries. */
const MAX_SHARED = 64;

interface Pending {
  write: (trx: Transaction<Tables>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Short cart writes that arrive together share one transaction on SQLite. There the platform's one
 * connection runs one transaction at a time anyway, and the commit (appending its pages to the
 * write-ahead log) costs more than the update and event it seals; writes waiting for the connection
 * are committed together instead, each still answered only once its commit is done. Each write must
 * stand alone (a conditional update that finds nothing changes nothing). When a shared transaction
 * fails, each of its writes runs again alone, so one shopper's failing write never fails another's.
 * PostgreSQL commits on many connections at once: there each write is its own transaction.
 */
export class SharedCommits {
  private readonly pending: Pending[] = [];
  private draining = false;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: DialectName,
  ) {}

  run<T>(write: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    if (this.dialect !== 'sqlite') return inTransaction(this.db, write);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // after the requests already under way have reached their writes
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_SHARED);
      try {
        const results = await inTransaction(this.db, async (trx) => {
          const done: unknown[] = [];
          for (const { write } of batch) done.push(await write(trx));
          return done;
        });
        for (const [index, { resolve }] of batch.entries()) resolve(results[index]);
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else
          for (const { write, resolve, reject } of batch)
            await inTransaction(this.db, write).then(resolve, reject);
      }
    }
    this.draining = false;
  }
}
