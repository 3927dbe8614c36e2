import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, visitorToken } from './catalog-http.ts';
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
