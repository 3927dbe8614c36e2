import type { Collection, CollectionV2 } from '@cartwheel/sdk';
import { type SqlBool, sql } from 'kysely';
import { notFound } from '../shared/errors.ts';
import { renderCollection } from './collections.ts';
import { COLLECTION_FIELDS, COLLECTION_SORT } from './fields.ts';
import { countOf, countOrKnown } from './listings.ts';
import { checkFilterBudget, compileFilter, compileSort, pagingMetadata, parsePaging } from './query.ts';
import type { CatalogQueryRequest } from './schemas.ts';
import type { CatalogStorage, Viewer } from './storage.ts';

/** Reads of collections: one by id or slug, and the wire's collections query; hidden ones for admins only. */
export class CollectionReads {
  constructor(private readonly storage: CatalogStorage) {}

  async collection(id: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    const row = await this.storage.db
      .selectFrom('collections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('collection', id);
    return renderCollection(row, viewer);
  }

  async collectionBySlug(slug: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    const row = await this.storage.db
      .selectFrom('collections')
      .selectAll()
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row || (row.visible !== 1 && !viewer.admin)) throw notFound('collection', slug);
    return renderCollection(row, viewer);
  }

  async queryCollections(
    request: Pick<CatalogQueryRequest, 'query'>,
    viewer: Viewer,
  ): Promise<{ collections: Array<Collection & CollectionV2>; metadata: Record<string, unknown> }> {
    const query = request.query ?? {};
    const page = parsePaging(query);
    checkFilterBudget(query.filter);
    let where = compileFilter(query.filter, COLLECTION_FIELDS);
    if (!viewer.admin) where = sql<SqlBool>`(${where}) and c.visible = 1`;
    const order = compileSort(query.sort, COLLECTION_SORT, 'c.id', { fieldName: 'name', order: 'ASC' });
    const rows = await this.storage.db
      .selectFrom('collections as c')
      .selectAll('c')
      .where(where)
      .orderBy(order)
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const total = await countOrKnown(page, rows.length, () =>
      countOf(this.storage.db.selectFrom('collections as c').where(where)),
    );
    const collections = rows.map((row) => renderCollection(row, viewer));
    return { collections, metadata: pagingMetadata(page, rows.length, total) };
  }
}
