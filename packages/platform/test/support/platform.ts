import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { configFromEnv } from '../../src/config.ts';
import { type Platform, startPlatform } from '../../src/platform.ts';

export type DialectName = 'sqlite' | 'postgres';
export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

/** The PostgreSQL server on this machine (`.ci/run` starts it); tests make a database each. */
export const POSTGRES_ADMIN_URL =
  process.env.CARTWHEEL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const TEST_ADMIN_API_KEY = 'cw_admin_test_key_for_integration_tests_only';
export const TEST_CLIENT_ID = '9f1d3c59-8d3a-4b3e-9a57-5a4c7c0d1e01';

export interface TestPlatform extends Platform {
  adminApiKey: string;
  /** Where its data lives: another platform process can be started over the same. */
  database: { dataDir: string; databaseUrl: string | undefined };
  /** Stops the platform and removes its database. */
  stop(): Promise<void>;
}

/** A real platform on a loopback port over a fresh database file (or PostgreSQL database). */
export async function startTestPlatform(
  options: {
    dialect?: DialectName;
    seedDemo?: boolean;
    env?: Record<string, string>;
    /** Runs on the fresh, empty database before the platform opens it (an older version's data, say). */
    prepare?: (database: { dataDir: string; databaseUrl: string | undefined }) => Promise<void>;
    /**
     * A second process of a store: this platform opens that one's database (as platforms behind a
     * load balancer do) and leaves it in place when it stops.
     */
    sharing?: TestPlatform;
  } = {},
): Promise<TestPlatform> {
  const dialect = options.dialect ?? 'sqlite';
  const shared = options.sharing?.database;
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-test-'));
  let databaseUrl = shared?.databaseUrl;
  let dropDatabase = async () => {};
  if (dialect === 'postgres' && !shared) {
    const name = `cartwheel_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  // A port known before start, so the links the platform hands out (image urls) point back at it.
  const port = String(await freePort());
  const config = {
    ...configFromEnv({
      PORT: port,
      HOST: '127.0.0.1',
      // processes of one store share its public address (a load balancer's)
      PUBLIC_URL: options.sharing?.services.config.publicUrl ?? `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CARTWHEEL_ADMIN_API_KEY: TEST_ADMIN_API_KEY,
      CARTWHEEL_DEMO_CLIENT_ID: TEST_CLIENT_ID,
      CARTWHEEL_SEED_DEMO: String(options.seedDemo ?? false),
      ...options.env,
    }),
    databaseUrl,
  };
  await options.prepare?.({ dataDir, databaseUrl });
  const platform = await startPlatform(config);
  const url = `http://127.0.0.1:${platform.port}`;
  return {
    ...platform,
    url,
    adminApiKey: TEST_ADMIN_API_KEY,
    database: { dataDir, databaseUrl },
    async stop() {
      await platform.close();
      if (shared) return;
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
