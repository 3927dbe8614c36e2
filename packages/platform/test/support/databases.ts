import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase } from '../../src/db/database.ts';
import type { DialectName } from '../../src/db/dialect.ts';
import { migrateToLatest } from '../../src/db/migrations.ts';

/** The PostgreSQL server on this machine (`.ci/run` starts it); tests make a database each. */
export const POSTGRES_ADMIN_URL =
  process.env.CARTWHEEL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * What the test run's global setup (tools/vitest-built-platform.ts, `prepareTestRun`) hands the
 * processes that run the files, in their environment: the run's id (in the name of every PostgreSQL
 * database it makes), and its migrated templates (a SQLite file, a PostgreSQL database's name).
 */
const RUN_ENV = 'CARTWHEEL_TEST_RUN';
const TEMPLATE_ENV = {
  sqlite: 'CARTWHEEL_TEST_SQLITE_TEMPLATE',
  postgres: 'CARTWHEEL_TEST_POSTGRES_TEMPLATE',
} as const;

/** What a finished test's PostgreSQL database is marked with, for the run's janitor to drop. */
const FINISHED = 'cartwheel test: finished';

/** A store's database made for a test: pass it to a platform, or connect to it; `remove` deletes it. */
export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  remove(): Promise<void>;
}

/**
 * A fresh database of its own: an empty one, or (`migrated`) one whose schema is at the latest
 * migration. Migrating ~70 migrations took a second on SQLite and four on PostgreSQL, at every one of
 * the run's ~300 platform starts; a migrated one is now a copy of the template the run made once (a
 * file copy; `CREATE DATABASE ... TEMPLATE`), and the platform then finds nothing left to migrate.
 * Without a template (a file run outside vitest) it is empty and the platform migrates it, as before.
 *
 * `remove` deletes a SQLite file at once. A PostgreSQL database is dropped by the run's janitor
 * (`prepareTestRun`) once `remove` marks it finished: PostgreSQL 15 checkpoints at every DROP
 * DATABASE, 1-3 s that each file's last step waited for. Outside a run, `remove` drops it itself.
 */
export async function createTestDatabase(
  dialect: DialectName,
  options: { prefix: string; migrated: boolean },
): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${options.prefix.replaceAll('_', '-')}-`));
  const template = options.migrated ? process.env[TEMPLATE_ENV[dialect]] : undefined;
  if (dialect === 'sqlite') {
    if (template) fs.copyFileSync(template, path.join(dataDir, DATABASE_FILE));
    return {
      dataDir,
      databaseUrl: undefined,
      remove: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const run = process.env[RUN_ENV];
  const name = [options.prefix, run, process.pid, Math.random().toString(36).slice(2, 10)]
    .filter(Boolean)
    .join('_');
  await adminQueries(
    `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
    relaxedCommits(name),
  );
  return {
    dataDir,
    databaseUrl: databaseUrlOf(name),
    async remove() {
      await adminQueries(
        run ? `COMMENT ON DATABASE ${name} IS '${FINISHED}'` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
      );
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test's database does not wait for its commits to reach the disk (`synchronous_commit = off`): a
 * commit is seen by every other connection at once, as before, and only a crash of the PostgreSQL
 * server itself (never one of a platform's process) could lose the last few. The fsync of each commit
 * was 6 ms of every write on this machine's disk.
 */
function relaxedCommits(name: string): string {
  return `ALTER DATABASE ${name} SET synchronous_commit = off`;
}

/** SQLite's file in a data directory (db/database.ts). */
const DATABASE_FILE = 'cartwheel.db';

/** How often the janitor looks for finished databases to drop. */
const JANITOR_EVERY_MS = 1000;

/**
 * Prepares a test run, in vitest's main process: names the run, makes its templates (migrated by the
 * same code the platform runs at its start) and starts the janitor that drops the PostgreSQL databases
 * finished files leave, one at a time, beside the files still running. Answers the run's end: every
 * database of the run dropped, finished or not (a file that crashed), and the templates removed.
 */
export async function prepareTestRun(): Promise<() => Promise<void>> {
  const run = `r${Math.random().toString(36).slice(2, 10)}`;
  process.env[RUN_ENV] = run;
  const made: TestDatabase[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    // without one (no PostgreSQL server for a run of the SDK's files, say), each start migrates its own
    const template = await makeTemplate(dialect).catch(() => undefined);
    if (!template) continue;
    made.push(template.database);
    process.env[TEMPLATE_ENV[dialect]] = template.name;
  }
  const postgres = made.some((database) => database.databaseUrl);
  let sweeping = Promise.resolve();
  const sweep = (which: 'finished' | 'all') => {
    sweeping = sweeping.then(() => dropDatabasesOf(run, which)).catch(() => {});
    return sweeping;
  };
  const janitor = postgres ? setInterval(() => void sweep('finished'), JANITOR_EVERY_MS) : undefined;
  janitor?.unref();
  return async () => {
    clearInterval(janitor);
    for (const name of [RUN_ENV, ...Object.values(TEMPLATE_ENV)]) delete process.env[name];
    if (postgres) await sweep('all');
    for (const database of made) if (!database.databaseUrl) await database.remove();
  };
}

async function makeTemplate(dialect: DialectName): Promise<{ database: TestDatabase; name: string }> {
  const database = await createTestDatabase(dialect, { prefix: 'cartwheel_template', migrated: false });
  try {
    const connection = connectDatabase(database);
    try {
      await migrateToLatest(connection.db);
    } finally {
      // on SQLite this also folds the write-ahead log into the file: the file alone is the template
      await connection.close();
    }
  } catch (error) {
    await database.remove();
    throw error;
  }
  const name =
    dialect === 'sqlite'
      ? path.join(database.dataDir, DATABASE_FILE)
      : new URL(database.databaseUrl!).pathname.slice(1);
  return { database, name };
}

/** Drops the run's databases, one after the other: those marked finished, or all of them. */
async function dropDatabasesOf(run: string, which: 'finished' | 'all'): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT d.datname FROM pg_database d
         LEFT JOIN pg_shdescription s ON s.objoid = d.oid AND s.classoid = 'pg_database'::regclass
       WHERE strpos(d.datname, $1) > 0 AND ($2 OR s.description = $3)`,
      [`_${run}_`, which === 'all', FINISHED],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

function databaseUrlOf(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs statements one after the other on the server's admin connection (CREATE DATABASE cannot share one). */
export async function adminQueries(...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
