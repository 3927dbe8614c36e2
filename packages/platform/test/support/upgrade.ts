import type { Kysely } from 'kysely';
import { connectDatabase, type Database } from '../../src/db/database.ts';
import { migrateTo } from '../../src/db/migrations.ts';
import { type DialectName, startTestPlatform, type TestPlatform } from './platform.ts';

/**
 * A store an earlier version wrote, upgraded: a fresh database migrated up to `before` (the last
 * migration that version had), `seed` writing that version's rows into it (`db` typed loosely: the
 * schema as it was), then the platform started over it, which runs the migrations after `before`.
 */
export async function startUpgradedPlatform(
  options: { dialect: DialectName; before: string; env?: Record<string, string> },
  seed: (db: Kysely<any>, database: Database) => Promise<void>,
): Promise<TestPlatform> {
  return startTestPlatform({
    dialect: options.dialect,
    ...(options.env ? { env: options.env } : {}),
    async prepare(location) {
      const database = connectDatabase(location);
      try {
        await migrateTo(database.db, options.before);
        await seed(database.db as unknown as Kysely<any>, database);
      } finally {
        await database.close();
      }
    },
  });
}
