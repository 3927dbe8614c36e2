import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { DialectName } from '../db/database.ts';

/**
 * Substring search over product names (`name: {$contains: ...}`, the storefront's search box) at
 * catalog scale, through a trigram index on each database:
 *
 * - SQLite: an FTS5 table with the trigram tokenizer, `product_search`, holding each product's
 *   lowercased name under its numeric id (stable, unlike SQLite's own rowids). A phrase of three or
 *   more characters finds the products whose names contain it.
 * - PostgreSQL: a pg_trgm GIN index on `products.name_lower`, which the planner uses for the LIKE
 *   itself: nothing to keep here.
 */

/**
 * How `compileFilter` answers a `$contains` on the name, on this database. A trigram phrase matches
 * exactly the names holding the needle (its trigrams, one after another), so the index decides alone
 * and the page and its count are read from narrow indexes, never the wide product rows.
 */
export function nameSubstringIndex(
  dialect: DialectName,
): ((needle: string) => RawBuilder<SqlBool> | undefined) | undefined {
  if (dialect !== 'sqlite') return undefined;
  return (needle) => {
    // shorter than a trigram: the index cannot answer it, the scan does
    if ([...needle].length < 3) return undefined;
    const phrase = `"${needle.replaceAll('"', '""')}"`;
    return sql<SqlBool>`p.numeric_id in (select rowid from product_search where product_search match ${phrase})`;
  };
}

type Db = Kysely<any> | Transaction<any>;

/** Keeps the SQLite index in step with a product's name (a new product, or a new name). */
export async function indexProductName(
  db: Db,
  dialect: DialectName,
  numericId: number,
  nameLower: string,
  replacing: boolean,
): Promise<void> {
  if (dialect !== 'sqlite') return;
  if (replacing) await sql`delete from product_search where rowid = ${numericId}`.execute(db);
  await sql`insert into product_search (rowid, name_lower) values (${numericId}, ${nameLower})`.execute(db);
}

/** Drops products from the SQLite index (all of them when `numericIds` is absent). */
export async function unindexProducts(db: Db, dialect: DialectName, numericIds?: number[]): Promise<void> {
  if (dialect !== 'sqlite') return;
  if (!numericIds) await sql`delete from product_search`.execute(db);
  else if (numericIds.length > 0) {
    await sql`delete from product_search where rowid in (${sql.join(numericIds)})`.execute(db);
  }
}
