import { connectDatabase, type Database, openDatabase } from '../src/db/database.ts';
import { createTestDatabase } from './support/databases.ts';
import type { DialectName } from './support/platform.ts';

/**
 * A fresh store database (a SQLite file, or a PostgreSQL database of its own), migrated, that several
 * connections open as several processes of one store would: for the suites that drive the worker
 * runtime and the event bus themselves, on a clock they move.
 */
export async function freshDatabase(dialect: DialectName) {
  // a copy of the run's migrated template, when there is one; opening it migrates what is left
  const { dataDir, databaseUrl, remove } = await createTestDatabase(dialect, {
    prefix: 'cartwheel_bus',
    migrated: true,
  });
  const opened: Database[] = [];
  await (await openDatabase({ dataDir, databaseUrl })).close();
  return {
    /** Another connection to the store, as another process holds it. */
    connect(): Database {
      const database = connectDatabase({ dataDir, databaseUrl });
      opened.push(database);
      return database;
    },
    async drop(): Promise<void> {
      await Promise.all(opened.map((database) => database.close().catch(() => {})));
      await remove();
    },
  };
}

/** A promise and the hand that settles it: a job's run that ends when the test says. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
