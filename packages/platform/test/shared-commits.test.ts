import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedWrite, SharedCommits } from '../src/carts/shared-commits.ts';
import { type DomainEvent, readEvents } from '../src/events/outbox.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

describe.each(DIALECTS)('shared commits (%s)', (dialect) => {
  let platform: TestPlatform;
  let commits: SharedCommits;
  // a table of the test's own: a write counts one up, only on a row that is there
  let db: Kysely<any>;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    db = platform.services.database.db as unknown as Kysely<any>;
    await db.schema
      .createTable('shared_probe')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('n', 'integer', (col) => col.notNull())
      .execute();
    commits = new SharedCommits(platform.services.database);
  });
  afterAll(() => platform?.stop());

  const event = (entityId: string, note: string): DomainEvent => ({
    entity: 'cart',
    slug: 'updated',
    entityId,
    payload: { note },
  });
  const count = async (id: string) =>
    (await db.selectFrom('shared_probe').select('n').where('id', '=', id).executeTakeFirst())?.n;

  /** Counts `row` up; when it did, announces `notes` as events of `entity`. */
  const countUp = (row: string, entity: string, notes: string[]): GuardedWrite<boolean> => ({
    statement: db.updateTable('shared_probe').set({ n: sql`n + 1` }).where('id', '=', row).compile(),
    outcome: (changed) => ({
      value: changed > 0,
      events: changed > 0 ? notes.map((note) => event(entity, note)) : [],
    }),
  });

  it('writes made at the same moment each keep their answer and their events, in order', async () => {
    const [row, entity] = [randomUUID(), randomUUID()];
    await db.insertInto('shared_probe').values({ id: row, n: 0 }).execute();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        // every third write finds no row: it changes nothing and has no event
        commits.run(
          countUp(index % 3 === 0 ? 'no such row' : row, entity, [`write ${index}`, `then ${index}`]),
        ),
      ),
    );
    const written = Array.from({ length: 20 }, (_, index) => index).filter((index) => index % 3 !== 0);
    expect(answers).toEqual(Array.from({ length: 20 }, (_, index) => index % 3 !== 0));
    expect(await count(row)).toBe(written.length);
    const notes = (await readEvents(platform.services.database.db, { entityId: entity })).map(
      (e) => e.payload.note as string,
    );
    expect([...notes].sort()).toEqual(written.flatMap((i) => [`write ${i}`, `then ${i}`]).sort());
    // a write's events in its order; on SQLite, where the writes share a commit, the writes' order too
    for (const index of written)
      expect(notes.indexOf(`then ${index}`)).toBe(notes.indexOf(`write ${index}`) + 1);
    if (dialect === 'sqlite')
      expect(notes.filter((note) => note.startsWith('write'))).toEqual(written.map((i) => `write ${i}`));
  });

  it('a write that fails fails alone: the others are committed with their events, its own are not', async () => {
    const [row, entity] = [randomUUID(), randomUUID()];
    await db.insertInto('shared_probe').values({ id: row, n: 0 }).execute();
    const failing: GuardedWrite<boolean> = {
      // n is NOT NULL: the database refuses the statement
      statement: db.updateTable('shared_probe').set({ n: null }).where('id', '=', row).compile(),
      outcome: () => ({ value: true, events: [event(entity, 'refused write')] }),
    };
    const settled = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        commits.run(index === 2 ? failing : countUp(row, entity, [`write ${index}`])),
      ),
    );
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(await count(row)).toBe(5);
    const recorded = await readEvents(platform.services.database.db, { entityId: entity });
    expect(recorded.map((e) => e.payload.note).sort()).toEqual([
      'write 0',
      'write 1',
      'write 3',
      'write 4',
      'write 5',
    ]);
  });
});
