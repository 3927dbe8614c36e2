import pg from 'pg';

/** The machine's PostgreSQL server as its administrator: the bench makes and drops its own databases there. */
export const POSTGRES_ADMIN_URL =
  process.env.CARTWHEEL_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement on its own connection to `connectionString`; its rows. */
export async function query(
  connectionString: string,
  statement: string,
  values: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

/** Runs one statement as the administrator (on the `postgres` database); its rows. */
export function adminQuery(
  statement: string,
  values: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  return query(POSTGRES_ADMIN_URL, statement, values);
}

/** The URL of database `name` on the same server, as the administrator. */
export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
