import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { DialectName } from '../db/dialect.ts';
import type { ProductRecord } from './model.ts';
import { escapeLike } from './query.ts';

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

/**
 * What the products query's text search (`query.search.expression`, a shopper's "mug") reads besides
 * the name: the description as text (tags dropped) and the SKUs, the product's and its variants',
 * lowercased, kept in `products.search_text` at every write.
 */
export function productSearchText(
  record: Partial<Pick<ProductRecord, 'description' | 'sku' | 'variants'>>,
): string {
  // a record saved by an older Cartwheel may lack any of these
  const description = (record.description ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&');
  const skus = [record.sku, ...(record.variants ?? []).map((variant) => variant?.sku)].filter(Boolean);
  return [description, ...new Set(skus)].join(' ').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The products query's text search: a product matches when its name, description, a SKU or the name
 * of a collection it is in (one the reader may see) holds the expression, case-insensitively; `rank`
 * orders those whose name holds it first (0), then the rest (1), before the query's own sort.
 * Undefined without an expression (blank counts as none).
 */
export function textSearch(
  search: { expression?: string | null } | null | undefined,
  hiddenCollections: ReadonlySet<string>,
): { matches: RawBuilder<SqlBool>; rank: RawBuilder<unknown> } | undefined {
  const needle = search?.expression?.trim().toLowerCase();
  if (!needle) return undefined;
  const pattern = `%${escapeLike(needle)}%`;
  const inName = sql<SqlBool>`p.name_lower like ${pattern} escape '\\'`;
  const hidden = [...hiddenCollections];
  const inCollection = sql<SqlBool>`p.id in (select sc.product_id from product_collections sc
    join collections c on c.id = sc.collection_id
    where lower(c.name) like ${pattern} escape '\\'${
      hidden.length > 0 ? sql` and c.id not in (${sql.join(hidden)})` : sql``
    })`;
  return {
    matches: sql<SqlBool>`(${inName} or p.search_text like ${pattern} escape '\\' or ${inCollection})`,
    rank: sql`case when ${inName} then 0 else 1 end`,
  };
}
