import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database, inTransaction } from '../src/db/database.ts';

/**
 * Two connections over one SQLite file (a platform's worker and a request, or two processes): a
 * transaction that read, then writes after the other committed, is refused at once by SQLite (its
 * snapshot is stale). `inTransaction` runs it again from the start, so the write is not lost.
 */
describe('a SQLite transaction whose snapshot went stale', () => {
  let dir: string;
  let first: Database;
  let second: Database;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-snapshot-'));
    first = connectDatabase({ dataDir: dir });
    second = connectDatabase({ dataDir: dir });
    await sql`create table counter (id integer primary key, value integer not null)`.execute(first.db);
    await sql`insert into counter values (1, 0)`.execute(first.db);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs again and keeps both writes, where a plain transaction is refused', async () => {
    const read = (db: Database['db']) =>
      sql<{ value: number }>`select value from counter where id = 1`
        .execute(db)
        .then((r) => r.rows[0]!.value);
    const write = (db: Database['db'], value: number) =>
      sql`update counter set value = ${value} where id = 1`.execute(db);
    let runs = 0;
    const increment = async (trx: Database['db']) => {
      runs++;
      const value = await read(trx);
      // the other connection commits between this transaction's read and its write, the first time
      if (runs === 1) await write(second.db, value + 10);
      await write(trx, (await read(trx)) + 1);
    };

    await expect(first.db.transaction().execute(increment)).rejects.toMatchObject({
      code: 'SQLITE_BUSY_SNAPSHOT',
    });
    expect(await read(first.db)).toBe(10);

    runs = 0;
    await inTransaction(first.db, increment);
    expect(runs).toBe(2);
    expect(await read(first.db)).toBe(21);
  });
});
