import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { connectDatabase, type Database, openDatabase } from '../src/db/database.ts';
import { type DialectName, POSTGRES_ADMIN_URL } from './support/platform.ts';

/**
 * A fresh store database (a SQLite file, or a PostgreSQL database of its own), migrated, that several
 * connections open as several processes of one store would: for the suites that drive the worker
 * runtime and the event bus themselves, on a clock they move.
 */
export async function freshDatabase(dialect: DialectName) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-bus-'));
  let databaseUrl: string | undefined;
  const name = `cartwheel_bus_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  if (dialect === 'postgres') {
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
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
      if (dialect === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A promise and the hand that settles it: a job's run that ends when the test says. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
