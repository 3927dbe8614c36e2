import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';

interface Pending {
  read: (db: Kysely<Tables>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Short cart reads that arrive together share one read transaction on SQLite. Each read transaction
 * of a WAL database takes and drops a lock on its shared-memory index, two system calls that cost
 * more than the read itself; reads waiting for the platform's one connection take it once instead.
 * They all see the database as it was when the first of them ran, after every one of them arrived,
 * so none misses a change made before it was asked. PostgreSQL reads go straight to the pool.
 */
export class SharedReads {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly dialect: DialectName,
  ) {}

  run<T>(read: (db: Kysely<Tables>) => Promise<T>): Promise<T> {
    if (this.dialect !== 'sqlite') return read(this.db);
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ read, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // after the requests already under way have reached their reads
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    if (batch.length === 1) {
      const [only] = batch as [Pending];
      await only.read(this.db).then(only.resolve, only.reject);
      return;
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        // one read's failure is its own: the others still get their answers
        for (const { read, resolve, reject } of batch) await read(trx).then(resolve, reject);
      });
    } catch (error) {
      // the transaction itself failed (begin or commit): reads not yet answered get the error
      for (const { reject } of batch) reject(error);
    }
  }
}
