import type { Collection, Media } from '@cartwheel/sdk';
import { sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { applicationError, type DomainError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { ALL_PRODUCTS_COLLECTION_ID, renderCollection } from './collections.ts';
import {
  countOfListings,
  holdCollection,
  listingsChanged,
  lockProducts,
  requireCollection,
  requireProducts,
} from './listings.ts';
import { generatedMediaItem, isGeneratedImageStem, urlMediaItem } from './media.ts';
import { relist } from './product-rows.ts';
import type { CollectionInput, CollectionMediaInput } from './schemas.ts';
import type { CatalogStorage } from './storage.ts';
import { type CollectionRow, LISTING_KEYS } from './tables.ts';
import { distinctIds, slugify, Violations } from './validation.ts';

/**
 * Writes of collections: create, change, delete, and which products they list. A product's documents
 * name its collections, so a change of membership renders them again (product-rows.ts `relist`).
 */
export class CollectionWrites {
  constructor(private readonly storage: CatalogStorage) {}

  async createCollection(c: CollectionInput, fixed: { id?: string } = {}): Promise<Collection> {
    const v = new Violations();
    const name = v.requiredText(c.name, 'collection.name');
    const description = c.description ?? null;
    const visible = c.visible ?? true;
    const slugInput = c.slug === undefined || c.slug === '' ? undefined : v.slug(c.slug, 'collection.slug');
    const media = this.collectionMedia(v, c.media);
    v.throwIfAny();
    return this.storage.write(async (trx) => {
      const id = fixed.id ?? newId();
      const slug = slugInput ?? (await freeCollectionSlug(trx, slugify(name as string)));
      await ensureCollectionSlugFree(trx, slug, id);
      const now = new Date().toISOString();
      const row: CollectionRow = {
        id,
        slug,
        name: (name as string).trim(),
        description: description ?? null,
        visible: visible === false ? 0 : 1,
        media: JSON.stringify(media ?? {}),
        created_date: now,
        updated_date: now,
        product_count: 0,
        visible_product_count: 0,
        listing_version: 0,
      };
      await trx.insertInto('collections').values(row).execute();
      const collection = renderCollection(row, { admin: true });
      await recordEvents(trx, [collectionEvent('created', collection)]);
      return collection;
    });
  }

  async updateCollection(id: string, c: CollectionInput): Promise<Collection> {
    const v = new Violations();
    const changes: Partial<CollectionRow> = {};
    if (c.name !== undefined) changes.name = v.requiredText(c.name, 'collection.name')?.trim();
    if (c.description !== undefined) changes.description = c.description;
    if (c.visible !== undefined) changes.visible = c.visible === false ? 0 : 1;
    if (c.slug !== undefined && c.slug !== '') changes.slug = v.slug(c.slug, 'collection.slug');
    if (c.media !== undefined) changes.media = JSON.stringify(this.collectionMedia(v, c.media) ?? {});
    v.throwIfAny();
    return this.storage.write(async (trx) => {
      const row = await trx.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('collection', id);
      if (id === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      if (changes.slug !== undefined) await ensureCollectionSlugFree(trx, changes.slug, id);
      // only what changed: the counters and listing version are other writes' to move
      const next = await trx
        .updateTable('collections')
        .set({ ...changes, updated_date: new Date().toISOString() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const collection = renderCollection(next, { admin: true });
      await recordEvents(trx, [collectionEvent('updated', collection)]);
      return collection;
    });
  }

  async deleteCollection(id: string): Promise<void> {
    await this.storage.write(async (trx) => {
      const row = await trx.selectFrom('collections').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('collection', id);
      if (id === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      if (this.storage.dialect === 'postgres') {
        // products first, in order (see lockProducts), then the collection: a product listed in it
        // meanwhile is listed by then, and unlisted below with the rest
        await trx
          .selectFrom('products')
          .select('id')
          .where('id', 'in', (eb) =>
            eb.selectFrom('product_collections').select('product_id').where('collection_id', '=', id),
          )
          .orderBy('id')
          .forUpdate()
          .execute();
        await trx.selectFrom('collections').select('id').where('id', '=', id).forUpdate().execute();
      }
      const unlisted = await trx
        .deleteFrom('product_collections')
        .where('collection_id', '=', id)
        .returning('product_id')
        .execute();
      await trx.deleteFrom('collections').where('id', '=', id).execute();
      await recordEvents(trx, [
        { entity: 'collection', slug: 'deleted', entityId: id, payload: { entityId: id } },
      ]);
      await relist(
        this.storage,
        trx,
        unlisted.map((listing) => listing.product_id),
      );
    });
  }

  async addProductsToCollection(collectionId: string, productIds: readonly string[]): Promise<void> {
    const ids = distinctIds(productIds, 'productIds');
    const dialect = this.storage.dialect;
    await this.storage.write(async (trx) => {
      await requireCollection(trx, collectionId);
      await requireProducts(trx, dialect, ids);
      if (collectionId === ALL_PRODUCTS_COLLECTION_ID) return; // every product is in it already
      await holdCollection(trx, dialect, collectionId);
      // already listed (or listed at this moment by another call): nothing to add, nothing to count
      const listed = await trx
        .insertInto('product_collections')
        .columns(['product_id', 'collection_id', ...LISTING_KEYS])
        .expression((eb) =>
          eb
            .selectFrom('products')
            .select(['id', sql<string>`cast(${collectionId} as text)`.as('collection_id'), ...LISTING_KEYS])
            .where('id', 'in', ids),
        )
        .onConflict((conflict) => conflict.doNothing())
        .returning(['product_id', 'visible'])
        .execute();
      if (listed.length === 0) return;
      await listingsChanged(trx, dialect, [collectionId], countOfListings(listed, 1), { touch: true });
      await relist(
        this.storage,
        trx,
        listed.map((listing) => listing.product_id),
      );
    });
  }

  async removeProductsFromCollection(collectionId: string, productIds: readonly string[]): Promise<void> {
    const ids = distinctIds(productIds, 'productIds');
    const dialect = this.storage.dialect;
    await this.storage.write(async (trx) => {
      await requireCollection(trx, collectionId);
      if (collectionId === ALL_PRODUCTS_COLLECTION_ID) throw allProductsFixed();
      await lockProducts(trx, dialect, ids);
      await holdCollection(trx, dialect, collectionId);
      const unlisted = await trx
        .deleteFrom('product_collections')
        .where('collection_id', '=', collectionId)
        .where('product_id', 'in', ids)
        .returning(['product_id', 'visible'])
        .execute();
      await listingsChanged(trx, dialect, [collectionId], countOfListings(unlisted, -1), { touch: true });
      await relist(
        this.storage,
        trx,
        unlisted.map((listing) => listing.product_id),
      );
    });
  }

  /** A collection's image: by URL, or the id of an image the platform draws. */
  private collectionMedia(v: Violations, media: CollectionMediaInput | null | undefined): Media | undefined {
    if (media === undefined || media === null) return undefined;
    const url = media.mainMedia?.image?.url ?? media.url;
    const mediaId = media.mainMedia?.id ?? media.mediaId;
    if (url !== undefined && /^https?:\/\//.test(url)) {
      const item = urlMediaItem(newId(), this.storage.links.stored(url));
      return { mainMedia: item, items: [item] };
    }
    if (mediaId !== undefined && isGeneratedImageStem(mediaId)) {
      const item = generatedMediaItem(mediaId, '');
      return { mainMedia: item, items: [item] };
    }
    v.add('collection.media', 'needs mainMedia.image.url or the mediaId of a platform image', 'VALIDATION');
    return undefined;
  }
}

/** The slug, or the first of slug-2, slug-3... no collection holds. */
async function freeCollectionSlug(trx: Transaction<Tables>, slug: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? slug : `${slug}-${n}`;
    const clash = await trx
      .selectFrom('collections')
      .select('id')
      .where('slug', '=', candidate)
      .executeTakeFirst();
    if (!clash) return candidate;
  }
}

/** Throws ALREADY_EXISTS when another collection holds the slug. */
async function ensureCollectionSlugFree(trx: Transaction<Tables>, slug: string, id: string): Promise<void> {
  const clash = await trx
    .selectFrom('collections')
    .select('id')
    .where('slug', '=', slug)
    .where('id', '<>', id)
    .executeTakeFirst();
  if (clash) {
    throw applicationError(
      'ALREADY_EXISTS',
      'ALREADY_EXISTS',
      `a collection with slug ${slug} already exists`,
      { slug },
    );
  }
}

function allProductsFixed(): DomainError {
  return applicationError(
    'FAILED_PRECONDITION',
    'ALL_PRODUCTS_COLLECTION_IS_FIXED',
    'the All Products collection holds every product and cannot be changed',
  );
}

/** A collection's `created` or `updated` event (`wix.stores.catalog.v1.collection`), the collection after it. */
function collectionEvent(slug: 'created' | 'updated', collection: Collection): DomainEvent {
  return { entity: 'collection', slug, entityId: collection.id as string, payload: { entity: collection } };
}
