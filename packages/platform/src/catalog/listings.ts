import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { notFound } from '../shared/errors.ts';
import type { Page } from './query.ts';
import type { Viewer } from './storage.ts';

/**
 * Collections' listings and counters: which products a collection holds (`product_collections`), how
 * many (`product_count`, `visible_product_count`, so a listing's total is never counted row by row),
 * and the locks that keep two writes from waiting on each other in a circle: products first, in the
 * order of their ids, then collections.
 */

/** Throws not found unless the collection exists. */
export async function requireCollection(trx: Transaction<Tables>, id: string): Promise<void> {
  const row = await trx.selectFrom('collections').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('collection', id);
}

/**
 * Keeps the collection (on PostgreSQL) from being deleted until the transaction ends, once its
 * products are locked: the lock a membership's foreign key takes, which leaves the counters free to
 * move. A collection deleted meanwhile is not found.
 */
export async function holdCollection(
  trx: Transaction<Tables>,
  dialect: DialectName,
  id: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const row = await trx
    .selectFrom('collections')
    .select('id')
    .where('id', '=', id)
    .forKeyShare()
    .executeTakeFirst();
  if (!row) throw notFound('collection', id);
}

/** Locks the products (see lockProducts); throws not found for the first that does not exist. */
export async function requireProducts(
  trx: Transaction<Tables>,
  dialect: DialectName,
  ids: string[],
): Promise<void> {
  const found = await lockProducts(trx, dialect, ids);
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw notFound('product', missing);
}

/**
 * Locks the products' rows (on PostgreSQL) until the transaction ends, in the order of their ids,
 * before any collection row: every catalog write takes products first, each set in the same order,
 * then collections (`listingsChanged`), so two writes never wait on each other in a circle. The lock
 * is the one a write takes (the documents are rendered again after), not a shared one a second
 * write would have to upgrade. Answers the ids that exist.
 */
export async function lockProducts(
  trx: Transaction<Tables>,
  dialect: DialectName,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await trx
    .selectFrom('products')
    .select('id')
    .where('id', 'in', ids)
    .orderBy('id')
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** How many products a collection (All Products included) holds, as the viewer sees it. */
export async function productCount(
  db: Kysely<Tables>,
  collectionId: string,
  viewer: Viewer,
): Promise<number> {
  const row = await db
    .selectFrom('collections')
    .select(viewer.admin ? 'product_count as count' : 'visible_product_count as count')
    .where('id', '=', collectionId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * A change to the listings of these collections (All Products is one of them): moves their
 * counters and their listing version (page-anchors.ts). With `touch`, their memberships changed,
 * so their updated date becomes now; `reordered`: an anchored sort key changed. All in one write.
 */
export async function listingsChanged(
  trx: Transaction<Tables>,
  dialect: DialectName,
  collectionIds: string[],
  change: { products: number; visible: number },
  options: { touch?: boolean; reordered?: boolean } = {},
): Promise<void> {
  const moved = change.products !== 0 || change.visible !== 0;
  if (collectionIds.length === 0 || (!moved && !options.touch && !options.reordered)) return;
  if (dialect === 'postgres' && collectionIds.length > 1) {
    // the rows in the order of their ids (see lockProducts); the lock an update takes, which
    // leaves a concurrent listing's foreign-key check (KEY SHARE) free to go on
    await trx
      .selectFrom('collections')
      .select('id')
      .where('id', 'in', collectionIds)
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
  }
  await trx
    .updateTable('collections')
    .set({
      product_count: sql`product_count + ${change.products}`,
      visible_product_count: sql`visible_product_count + ${change.visible}`,
      listing_version: sql`listing_version + 1`,
      ...(options.touch ? { updated_date: new Date().toISOString() } : {}),
    })
    .where('id', 'in', collectionIds)
    .execute();
}

/** A first page shorter than its limit is the whole answer: no count needed. */
export async function countOrKnown(
  page: Page,
  count: number,
  counter: () => Promise<number>,
): Promise<number> {
  if (page.limit > 0 && count < page.limit && (count > 0 || page.offset === 0)) return page.offset + count;
  return counter();
}

/** What listings added (`sign` 1) or removed (-1) do to a collection's counters. */
export function countOfListings(listings: Array<{ visible: number }>, sign: 1 | -1) {
  const visible = listings.filter((listing) => listing.visible === 1).length;
  return { products: sign * listings.length, visible: sign * visible };
}

/** How many rows a query's conditions match. */
export async function countOf(query: SelectQueryBuilder<Tables, any, object>): Promise<number> {
  const row = await query.clearSelect().select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}
