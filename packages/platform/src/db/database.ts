import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from './migrations.ts';
import type { Tables } from './tables.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; SQLite when absent. */
  databaseUrl?: string | undefined;
  /** Directory of the SQLite file (`cartwheel.db`). */
  dataDir: string;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /**
   * PostgreSQL's `statement_timeout` for every pooled connection, in ms (0: none). Migrations run on a
   * connection of their own without it: building an index over a large table may take longer.
   */
  statementTimeoutMs?: number;
  /**
   * A pooled PostgreSQL connection the server closed while idle (a restart, a failover, an admin):
   * the pool drops it and opens another when needed; this only hears of it. Without a listener the
   * error would end the process.
   */
  onConnectionLost?: (error: Error) => void;
}

// Counts and sums come back from PostgreSQL as strings by default; the store's numbers fit a double.
pg.types.setTypeParser(20, (value) => Number(value)); // int8
pg.types.setTypeParser(1700, (value) => Number(value)); // numeric

/** Opens the database the configuration names and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const migrating = connectDatabase({ ...options, poolSize: 1, statementTimeoutMs: 0 });
  try {
    await migrateToLatest(migrating.db);
  } finally {
    await migrating.close();
  }
  return connectDatabase(options);
}

/** Connects without touching the schema (tools and tests that shape it themselves). */
export function connectDatabase(options: DatabaseOptions): Database {
  return options.databaseUrl ? openPostgres(options) : openSqlite(options.dataDir);
}

function openSqlite(dataDir: string): Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'cartwheel.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

function openPostgres(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  pool.on('error', (error) => options.onConnectionLost?.(error));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** PostgreSQL gave up on a transaction only because another ran at the same moment: run it again. */
const TRANSIENT_CONFLICTS = new Set(['40P01', '40001']); // deadlock detected, serialization failure
const ATTEMPTS = 4;

/**
 * Runs `change` in one transaction; when the database aborted it for a conflict with a concurrent
 * one (two admins writing the same rows in another order), it runs again from the start, so the
 * caller's write is never lost to a race. `change` must touch nothing but the transaction.
 */
export async function inTransaction<T, Schema = Tables>(
  db: Kysely<Schema>,
  change: (trx: Transaction<Schema>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(change);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !TRANSIENT_CONFLICTS.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
