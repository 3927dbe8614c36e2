import fs from 'node:fs';
import { configFromEnv } from '../../packages/platform/src/config.ts';
import type { DialectName } from '../../packages/platform/src/db/dialect.ts';
import { openServices } from '../../packages/platform/src/platform.ts';
import { adminQuery, databaseUrl as postgresDatabaseUrl } from './postgres.ts';
import { BENCH_ADMIN_API_KEY, BENCH_CLIENT_ID, BENCH_PUBLIC_URL, tempDir } from './processes.ts';

/** A bench's own store database, made fresh, and the platform's services opened over it (migrated). */
export interface FreshStore {
  dataDir: string;
  /** The PostgreSQL database's address; undefined on SQLite (its file is in `dataDir`). */
  databaseUrl: string | undefined;
  opened: Awaited<ReturnType<typeof openServices>>;
  /** Removes the store's data: its folder, and on PostgreSQL its database (close `opened` first). */
  remove(): Promise<void>;
}

/**
 * A fresh store for a bench that fills its tables in bulk: a new data folder (`prefix`), and on
 * PostgreSQL the database `database` dropped and made again, opened in the bench's own process.
 */
export async function openFreshStore(
  dialect: DialectName,
  options: { database: string; prefix: string },
): Promise<FreshStore> {
  const dataDir = tempDir(options.prefix);
  const remove = async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${options.database} WITH (FORCE)`);
  };
  try {
    let databaseUrl: string | undefined;
    if (dialect === 'postgres') {
      await adminQuery(`DROP DATABASE IF EXISTS ${options.database} WITH (FORCE)`);
      await adminQuery(`CREATE DATABASE ${options.database}`);
      databaseUrl = postgresDatabaseUrl(options.database);
    }
    const opened = await openServices({
      ...configFromEnv({
        PORT: '0',
        HOST: '127.0.0.1',
        PUBLIC_URL: BENCH_PUBLIC_URL,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        CARTWHEEL_ADMIN_API_KEY: BENCH_ADMIN_API_KEY,
        CARTWHEEL_DEMO_CLIENT_ID: BENCH_CLIENT_ID,
        CARTWHEEL_SEED_DEMO: 'false',
      }),
      databaseUrl,
    });
    return { dataDir, databaseUrl, opened, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
