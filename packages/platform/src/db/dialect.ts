import { type Kysely, sql } from 'kysely';

/** Which database the store runs on: SQLite (the default) or PostgreSQL (`DATABASE_URL`). */
export type DialectName = 'sqlite' | 'postgres';

/** Whether a migration runs on PostgreSQL: migrations are handed the database, not its dialect. */
export async function isPostgres(db: Kysely<any>): Promise<boolean> {
  try {
    const { rows } = await sql<{ v: string }>`select version() as v`.execute(db);
    return /postgres/i.test(rows[0]?.v ?? '');
  } catch {
    return false;
  }
}
