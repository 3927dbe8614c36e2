import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedReads } from '../src/carts/shared-reads.ts';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Cart reads that arrive together share one SQLite read transaction (carts/shared-reads.ts): each
 * still gets its own answer or its own error, and none misses a change committed before it was asked.
 */
describe('reads sharing a transaction (sqlite)', () => {
  let platform: TestPlatform;
  let reads: SharedReads;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect: 'sqlite' });
    reads = new SharedReads(platform.services.database.db, 'sqlite');
  });
  afterAll(() => platform?.stop());

  it('answers every read of a batch, and fails only the read that failed', async () => {
    const answers = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        reads.run(async (db) =>
          index === 4
            ? sql`select * from no_such_table`.execute(db)
            : (await sql<{ n: number }>`select ${index} as n`.execute(db)).rows[0]!.n,
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([
      ...Array(4).fill('fulfilled'),
      'rejected',
      ...Array(5).fill('fulfilled'),
    ]);
    expect(answers.flatMap((answer) => (answer.status === 'fulfilled' ? [answer.value] : []))).toEqual([
      0, 1, 2, 3, 5, 6, 7, 8, 9,
    ]);
    expect(String((answers[4] as PromiseRejectedResult).reason)).toMatch(/no such table/);
  });

  it('sees what was committed before it was asked, by this connection or another process', async () => {
    const { db } = platform.services.database;
    const count = () =>
      reads.run(async (executor) =>
        Number((await sql<{ n: number }>`select count(*) as n from settings`.execute(executor)).rows[0]!.n),
      );
    const before = await count();
    await db.insertInto('settings').values({ key: 'shared-reads.here', value: 'x' }).execute();
    expect(await Promise.all([count(), count()])).toEqual([before + 1, before + 1]);

    const other = await startTestPlatform({ dialect: 'sqlite', sharing: platform });
    try {
      await other.services.database.db
        .insertInto('settings')
        .values({ key: 'shared-reads.there', value: 'y' })
        .execute();
    } finally {
      await other.stop();
    }
    expect(await Promise.all([count(), count(), count()])).toEqual([before + 2, before + 2, before + 2]);
  });
});
