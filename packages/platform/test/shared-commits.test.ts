import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedCommits } from '../src/carts/shared-commits.ts';
import { type DomainEvent, readEvents } from '../src/events/outbox.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

describe.each(DIALECTS)('shared commits (%s)', (dialect) => {
  let platform: TestPlatform;
  let commits: SharedCommits;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    const { db } = platform.services.database;
    commits = new SharedCommits(db, platform.services.database.dialect);
  });
  afterAll(() => platform?.stop());

  const event = (entityId: string, note: string): DomainEvent => ({
    entity: 'cart',
    slug: 'updated',
    entityId,
    payload: { note },
  });

  it('writes made at the same moment each keep their answer and their events, in order', async () => {
    const id = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        commits.run(async () => ({
          value: index,
          // every third write changed nothing: it has no event
          events: index % 3 === 0 ? [] : [event(id, `write ${index}`), event(id, `then ${index}`)],
        })),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, index) => index));
    const notes = (await readEvents(platform.services.database.db, { entityId: id })).map(
      (e) => e.payload.note as string,
    );
    const written = Array.from({ length: 20 }, (_, index) => index).filter((index) => index % 3 !== 0);
    expect([...notes].sort()).toEqual(written.flatMap((i) => [`write ${i}`, `then ${i}`]).sort());
    // a write's events in its order; on SQLite, where the writes share a commit, the writes' order too
    for (const index of written)
      expect(notes.indexOf(`then ${index}`)).toBe(notes.indexOf(`write ${index}`) + 1);
    if (dialect === 'sqlite')
      expect(notes.filter((note) => note.startsWith('write'))).toEqual(written.map((i) => `write ${i}`));
  });

  it('a write that fails fails alone: the others are committed with their events, its own are not', async () => {
    const id = randomUUID();
    const runs = Array.from({ length: 6 }, (_, index) =>
      commits.run(async () => {
        if (index === 2) throw new Error('refused');
        return { value: index, events: [event(id, `write ${index}`)] };
      }),
    );
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const recorded = await readEvents(platform.services.database.db, { entityId: id });
    expect(recorded.map((e) => e.payload.note).sort()).toEqual([
      'write 0',
      'write 1',
      'write 3',
      'write 4',
      'write 5',
    ]);
  });
});
