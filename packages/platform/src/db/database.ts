import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  Kysely,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrations.ts';
import type { Tables } from './tables.ts';

const require = createRequire(import.meta.url);

export type { DialectName };

export interface Database {
  db: Kysely<Tables>;
  dialect: DialectName;
  /** The SQLite connection's own calls (SQLite only): see `SqliteConnection`. */
  sqlite?: SqliteConnection;
  close(): Promise<void>;
}

/**
 * The SQLite connection Kysely runs on, called at once and synchronously, for a hot path that runs
 * several statements as one step: no promise between them, nothing of Kysely's executor per
 * statement. Only while holding the connection (`db.connection().execute(...)`), so that no Kysely
 * query or transaction is under way on it at the same time.
 */
export interface SqliteConnection {
  /** Runs a statement (compiled by Kysely); answers the number of rows it changed. */
  run(query: CompiledQuery): number;
  /** Runs a statement that answers rows (a select, or a write with RETURNING); answers them. */
  all(query: CompiledQuery): Record<string, unknown>[];
  /** Runs `work` in a transaction: committed when it returns, rolled back when it throws. */
  transaction<T>(work: () => T): T;
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
   * SQLite's `busy_timeout`, in ms (5000 when absent): how long a write waits for another process's
   * write lock before SQLite refuses it (`SQLITE_BUSY`, answered 503). Migrations wait the default.
   */
  sqliteBusyTimeoutMs?: number | undefined;
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
  const migrating = connectDatabase({
    ...options,
    poolSize: 1,
    statementTimeoutMs: 0,
    sqliteBusyTimeoutMs: undefined,
  });
  try {
    await migrateToLatest(migrating.db);
  } finally {
    await migrating.close();
  }
  return connectDatabase(options);
}

/** Connects without touching the schema (tools and tests that shape it themselves). */
export function connectDatabase(options: DatabaseOptions): Database {
  return options.databaseUrl
    ? openPostgres(options)
    : openSqlite(options.dataDir, options.sqliteBusyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
}

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

function openSqlite(dataDir: string, busyTimeoutMs: number): Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'cartwheel.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  sqlite.pragma('foreign_keys = ON');
  // the checkpointer below does this work; the connection itself checkpoints only if it falls far behind
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const checkpointer = startCheckpointer(sqlite.name);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: statements }) });
  return {
    db,
    dialect: 'sqlite',
    sqlite: {
      run: (query) => Number(statements.prepare(query.sql).run(query.parameters).changes),
      all: (query) => statements.prepare(query.sql).all(query.parameters) as Record<string, unknown>[],
      // synchronous work (no await inside): the write lock is taken at BEGIN and waited for, so a
      // commit by another process between its reads and writes cannot make its snapshot stale
      transaction: (work) => sqlite.transaction(work).immediate(),
    },
    close: async () => {
      await checkpointer.stop();
      await db.destroy();
    },
  };
}

/** How often the checkpointer copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 100;
/** WAL pages after which a commit checkpoints by itself (SQLite's default is 1000). */
const FALLBACK_CHECKPOINT_PAGES = 10_000;

/**
 * Copies the write-ahead log into the database file from a thread of its own. SQLite otherwise does it
 * inside whichever commit passes 1000 WAL pages, on the platform's one thread: copying those pages and
 * syncing the file was half of a short write's commit. A passive checkpoint never blocks a reader or
 * a writer, and one every 100 ms copies a page written many times once.
 */
function startCheckpointer(file: string): { stop(): Promise<void> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.file);
     db.pragma('synchronous = NORMAL');
     const timer = setInterval(() => {
       try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} // busy: the next one catches up
     }, workerData.everyMs);
     parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.close(); });`,
    {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, everyMs: CHECKPOINT_EVERY_MS },
    },
  );
  worker.unref();
  // a checkpointer that cannot run leaves the connection's own checkpoints to do the work
  worker.on('error', () => {});
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 1000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Distinct SQL texts whose prepared statements one SQLite connection keeps. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely asks better-sqlite3 to prepare every query's SQL again (parsing and planning it, ~10% of a
 * short read); the texts of a running platform are few, so each is prepared once and kept. Kysely's
 * one SQLite connection runs one query at a time, so a kept statement is never in use twice; a
 * streamed read gets a statement of its own, since a reader that stops early could leave it busy.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = sqlite.prepare(sql);
        statement = {
          reader: prepared.reader,
          all: (parameters) => prepared.all(parameters),
          run: (parameters) => prepared.run(parameters),
          iterate: (parameters) => sqlite.prepare(sql).iterate(parameters),
        };
        // the oldest text goes first: a query built with a varying number of parameters is not kept forever
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
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

/**
 * The database gave up on a transaction only because another ran at the same moment: run it again.
 * PostgreSQL: a deadlock, a serialization failure. SQLite: a transaction that read, then wrote after
 * another connection (a worker's, another process's) had committed since its read began: its snapshot
 * is stale, and SQLite refuses the write at once (`SQLITE_BUSY_SNAPSHOT`, "database is locked") rather
 * than wait. Run again, it reads the new state. (Taking the write lock at `BEGIN IMMEDIATE` instead
 * would make two connections of one process wait on each other: better-sqlite3 waits synchronously.)
 */
const TRANSIENT_CONFLICTS = new Set(['40P01', '40001', 'SQLITE_BUSY_SNAPSHOT']);
/**
 * Enough for several processes and their workers writing the same rows at once (two restocks, their
 * bus subscribers and webhook fan-out): each try waits a random time up to twice the last, at most
 * `MAX_WAIT_MS`, so those that lost spread out instead of colliding again.
 */
const ATTEMPTS = 8;
const MAX_WAIT_MS = 250;
/**
 * SQLite also answers a plain `SQLITE_BUSY` at once, without its busy wait, to a transaction that read
 * and then asks for the write lock while another connection holds it (waiting could deadlock): that is
 * a conflict to run again too. A `SQLITE_BUSY` after the busy wait is a lock held long (answered 503).
 */
const REFUSED_AT_ONCE_MS = 100;

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
    const started = Date.now();
    try {
      return await db.transaction().execute(change);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const transient =
        typeof code === 'string' &&
        (TRANSIENT_CONFLICTS.has(code) ||
          (code === 'SQLITE_BUSY' && Date.now() - started < REFUSED_AT_ONCE_MS));
      if (attempt >= ATTEMPTS || !transient) throw error;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(MAX_WAIT_MS, 5 * 2 ** attempt)),
      );
    }
  }
}
