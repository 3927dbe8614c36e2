import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, visitorToken } from './catalog-http.ts';
import { POSTGRES_ADMIN_URL, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * PostgreSQL closes connections on its own terms (a restart, a failover, an administrator). A pooled
 * connection closed while idle must cost the platform nothing: no crash, and the next request served.
 */
describe('the platform on PostgreSQL when the server drops its idle connections', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect: 'postgres' });
  });
  afterAll(() => platform?.stop());

  it('keeps running and answers the next request over a new connection', async () => {
    const token = await visitorToken(platform);
    const before = await call(platform, 'GET', '/v2/collections/query', undefined, token);
    expect(before.status).toBe(200);

    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      // only this platform's database: other test files run beside this one
      const database = new URL(platform.services.config.databaseUrl as string).pathname.slice(1);
      const { rows } = await admin.query<{ terminated: boolean }>(
        `select pg_terminate_backend(pid) as terminated from pg_stat_activity
         where datname = $1 and state = 'idle' and pid <> pg_backend_pid()`,
        [database],
      );
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // the pool hears of it

    const after = await call(platform, 'GET', '/v2/collections/query', undefined, token);
    expect(after.status).toBe(200);
  });
});

/**
 * No one call may hold PostgreSQL for long: every pooled connection has a statement_timeout, and a
 * statement that runs past it answers the caller 504 DEADLINE_EXCEEDED in the wire's form, not a 500.
 */
describe('the platform on PostgreSQL when a statement runs past its timeout', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect: 'postgres',
      env: { CARTWHEEL_STATEMENT_TIMEOUT_MS: '300' },
    });
  });
  afterAll(() => platform?.stop());

  it('answers 504 DEADLINE_EXCEEDED, then serves the next call', async () => {
    // another session holds the products table, so the catalog's query waits on it past the timeout
    const holder = new pg.Client({ connectionString: platform.services.config.databaseUrl as string });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table products in access exclusive mode');
      const stuck = await call(
        platform,
        'POST',
        '/stores-reader/v1/products/query',
        {},
        platform.adminApiKey,
      );
      expect(stuck.status).toBe(504);
      expect(stuck.body).toMatchObject({
        details: { applicationError: { code: 'DEADLINE_EXCEEDED' } },
      });
      await holder.query('rollback');
    } finally {
      await holder.end();
    }
    const after = await call(platform, 'POST', '/stores-reader/v1/products/query', {}, platform.adminApiKey);
    expect(after.status).toBe(200);
  });
});

/**
 * A SQLite file is written by one connection at a time: another process holding its write lock (a
 * script, a backup, a second platform mid-write) past `busy_timeout` makes SQLite refuse the write.
 * The call answers 503 DATABASE_BUSY with `Retry-After`, in the wire's form, not a 500 "database is
 * locked"; nothing of it was written, and the same call made again once the lock is free succeeds.
 */
describe('the platform on SQLite when another process holds the write lock', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ env: { CARTWHEEL_SQLITE_BUSY_TIMEOUT_MS: '200' } });
  });
  afterAll(() => platform?.stop());

  it('answers 503 DATABASE_BUSY with Retry-After, writes nothing, and the retried call succeeds', async () => {
    const product = { name: 'Held back', productType: 'physical', priceData: { price: 5 } };
    const create = () =>
      fetch(`${platform.url}/stores/v1/products`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: platform.adminApiKey },
        body: JSON.stringify({ product }),
      });
    // the test's own connection to the file: another process, as far as the platform's is concerned
    const other = new SQLite(path.join(platform.database.dataDir, 'cartwheel.db'));
    const rows = () => ({
      products: (other.prepare('select count(*) as n from products').get() as { n: number }).n,
      variants: (other.prepare('select count(*) as n from product_variants').get() as { n: number }).n,
    });
    try {
      const before = rows();
      other.exec('BEGIN IMMEDIATE');
      const busy = await create();
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await busy.json()).toMatchObject({
        details: { applicationError: { code: 'DATABASE_BUSY', data: { retryAfterSeconds: 1 } } },
      });
      other.exec('ROLLBACK');
      expect(rows()).toEqual(before); // nothing of the refused call was written

      const retried = await create();
      expect(retried.status).toBe(200);
      const after = rows();
      expect(after.products).toBe(before.products + 1);
      expect(after.variants).toBeGreaterThan(before.variants);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
    const found = await admin(platform).post('/stores-reader/v1/products/query', {});
    expect(found.body.products.map((p: { name: string }) => p.name)).toEqual(['Held back']);
  });
});
