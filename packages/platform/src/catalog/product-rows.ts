import type { Product } from '@cartwheel/sdk';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { applicationError } from '../shared/errors.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import { listingsChanged } from './listings.ts';
import {
  moveInventoryRevisions,
  type ProductRecord,
  renderProduct,
  revisionOf,
  type VariantRecord,
} from './model.ts';
import { ANCHORED_COLUMNS } from './page-anchors.ts';
import { indexProductName, productSearchText } from './search.ts';
import type { CatalogStorage } from './storage.ts';
import { listingKeys, type ProductRow, type VariantRow } from './tables.ts';
import { inventoryItemV3 } from './v3-model.ts';
import { resolveReferences, writeLinks } from './v3-references.ts';

/**
 * A product's rows, written from its record (model.ts, the one source of truth): the product row with
 * its rendered documents and sort keys, its store variants, its name in the search index, and the
 * counters of the listings it is in. Product and collection writes save through here; stock through
 * `saveStock`, which writes only what a quantity changes.
 */

/** A product's record, locked (on PostgreSQL) until the transaction ends; undefined: no such product. */
export async function lockRecord(
  trx: Transaction<Tables>,
  dialect: DialectName,
  id: string,
): Promise<ProductRecord | undefined> {
  const row = await trx
    .selectFrom('products')
    .select('record')
    .where('id', '=', id)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row ? (JSON.parse(row.record) as ProductRecord) : undefined;
}

/**
 * Renders the record and writes the product row, its variants, the sort keys its collection
 * listings copy, and the counters a change of visibility moves. `previous` is the record as it was
 * (absent: a new product).
 */
export async function saveProduct(
  storage: CatalogStorage,
  trx: Transaction<Tables>,
  record: ProductRecord,
  previous?: ProductRecord,
): Promise<Product> {
  record.revision = previous ? revisionOf(previous) + 1 : 1;
  moveInventoryRevisions(record, previous);
  await resolveReferences(trx, record, previous);
  const clash = await trx
    .selectFrom('products')
    .select('id')
    .where('slug', '=', record.slug)
    .where('id', '<>', record.id)
    .executeTakeFirst();
  if (clash) {
    throw applicationError(
      'ALREADY_EXISTS',
      'ALREADY_EXISTS',
      `a product with slug ${record.slug} already exists`,
      {
        slug: record.slug,
      },
    );
  }
  const memberships = await trx
    .selectFrom('product_collections')
    .select('collection_id')
    .where('product_id', '=', record.id)
    .execute();
  const collectionIds = [ALL_PRODUCTS_COLLECTION_ID, ...memberships.map((row) => row.collection_id).sort()];
  const rendered = renderProduct(record, collectionIds, storage.settings);
  const row: ProductRow = {
    id: record.id,
    numeric_id: record.numericId,
    slug: record.slug,
    name: record.name,
    name_lower: record.name.toLowerCase(),
    search_text: productSearchText(record),
    price: record.price,
    discounted_price: rendered.discountedPrice,
    visible: record.visible ? 1 : 0,
    inventory_status: rendered.inventoryStatus,
    in_stock: rendered.inStock ? 1 : 0,
    product_type: record.productType,
    sku: record.sku,
    brand: record.brand,
    ribbon: record.ribbon,
    created_date: record.createdDate,
    last_updated: record.lastUpdated,
    ...documentColumns(record, rendered),
  };
  const dialect = storage.dialect;
  if (!previous) {
    await trx.insertInto('products').values(row).execute();
    await indexProductName(trx, dialect, row.numeric_id, row.name_lower, false);
    await listingsChanged(trx, dialect, [ALL_PRODUCTS_COLLECTION_ID], { products: 1, visible: row.visible });
  } else {
    if (previous.name !== record.name) {
      await indexProductName(trx, dialect, row.numeric_id, row.name_lower, true);
    }
    // what the product's listings were ordered and filtered by (page-anchors.ts)
    const listed = ['visible', ...ANCHORED_COLUMNS] as const;
    const before = await trx
      .selectFrom('products')
      .select(listed)
      .where('id', '=', record.id)
      .executeTakeFirstOrThrow();
    const { id: _, ...changes } = row;
    await trx.updateTable('products').set(changes).where('id', '=', record.id).execute();
    await trx.deleteFrom('product_variants').where('product_id', '=', record.id).execute();
    if (memberships.length > 0) {
      await trx
        .updateTable('product_collections')
        .set(listingKeys(row))
        .where('product_id', '=', record.id)
        .execute();
    }
    await listingsChanged(
      trx,
      dialect,
      collectionIds,
      { products: 0, visible: row.visible - before.visible },
      // as text: PostgreSQL answers a bigint (numeric_id) as a string
      { reordered: listed.some((key) => String(before[key]) !== String(row[key])) },
    );
  }
  const variantRows = variantRowsOf(record, rendered);
  for (let i = 0; i < variantRows.length; i += 200) {
    await trx
      .insertInto('product_variants')
      .values(variantRows.slice(i, i + 200))
      .execute();
  }
  await writeLinks(trx, record, previous);
  const saved = { ...rendered.productMerchant, variants: rendered.variantsMerchant };
  await recordEvents(trx, productEvents(record, previous, saved));
  return saved;
}

/** The product's record and its rendered documents, as the product row keeps them (JSON text). */
function documentColumns(record: ProductRecord, rendered: ReturnType<typeof renderProduct>) {
  return {
    record: JSON.stringify(record),
    doc: JSON.stringify(rendered.product),
    doc_merchant: JSON.stringify(rendered.productMerchant),
    variants_doc: JSON.stringify(rendered.variants),
    variants_doc_merchant: JSON.stringify(rendered.variantsMerchant),
  };
}

/**
 * Writes what a move of stock changes of a product, and nothing else: the product row's stock columns
 * (`in_stock`, `inventory_status`), its record and rendered documents (they show the quantities), its
 * `last_updated` and the copy its collection listings keep of it, and the store variant rows of the
 * variants whose quantity moved. Its slug, name, price, visibility and memberships are as they were, so
 * the search index, the listings' order and the collections' counters are untouched. `collectionIds`
 * are the ones its documents list (they are rendered again with them). The caller holds the product's
 * row (`StockLedger`, stock.ts) from reading `record` until its transaction ends.
 */
export async function saveStock(
  storage: CatalogStorage,
  trx: Transaction<Tables>,
  record: ProductRecord,
  collectionIds: string[],
  movedVariantIds: ReadonlySet<string>,
): Promise<void> {
  const rendered = renderProduct(record, collectionIds, storage.settings);
  await trx
    .updateTable('products')
    .set({
      inventory_status: rendered.inventoryStatus,
      in_stock: rendered.inStock ? 1 : 0,
      last_updated: record.lastUpdated,
      ...documentColumns(record, rendered),
    })
    .where('id', '=', record.id)
    .execute();
  // a collection's page sorted by lastUpdated reads its listing's copy (no page is anchored on it)
  if (collectionIds.some((id) => id !== ALL_PRODUCTS_COLLECTION_ID)) {
    await trx
      .updateTable('product_collections')
      .set({ last_updated: record.lastUpdated })
      .where('product_id', '=', record.id)
      .execute();
  }
  const moved = variantRowsOf(record, rendered).filter((row) => movedVariantIds.has(row.variant_id));
  if (moved.length > 0) {
    await trx
      .insertInto('product_variants')
      .values(moved)
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((eb) => ({
          in_stock: eb.ref('excluded.in_stock'),
          has_item: eb.ref('excluded.has_item'),
          doc: eb.ref('excluded.doc'),
          doc_merchant: eb.ref('excluded.doc_merchant'),
        })),
      )
      .execute();
  }
}

/**
 * Renders the documents of products whose collections changed (they list their `collectionIds`,
 * and so do their store variants). Nothing else about them changed: their sort keys, counters,
 * variants and search entries stay, and only the documents are written, a hundred rows a statement.
 */
export async function relist(
  storage: CatalogStorage,
  trx: Transaction<Tables>,
  ids: string[],
): Promise<void> {
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    const records = await trx
      .selectFrom('products')
      .select('record')
      .where('id', 'in', chunk)
      .orderBy('id')
      .$if(storage.dialect === 'postgres', (qb) => qb.forUpdate())
      .execute();
    const memberships = await trx
      .selectFrom('product_collections')
      .select(['product_id', 'collection_id'])
      .where('product_id', 'in', chunk)
      .execute();
    const collectionsOf = new Map<string, string[]>();
    for (const { product_id, collection_id } of memberships) {
      const ids = collectionsOf.get(product_id);
      if (ids) ids.push(collection_id);
      else collectionsOf.set(product_id, [collection_id]);
    }
    const docs: RawBuilder<unknown>[] = [];
    const variantRows: VariantRow[] = [];
    for (const row of records) {
      const record = JSON.parse(row.record) as ProductRecord;
      const collectionIds = [ALL_PRODUCTS_COLLECTION_ID, ...(collectionsOf.get(record.id) ?? []).sort()];
      const rendered = renderProduct(record, collectionIds, storage.settings);
      docs.push(
        sql`(${record.id}, ${JSON.stringify(rendered.product)}, ${JSON.stringify(rendered.productMerchant)})`,
      );
      variantRows.push(...variantRowsOf(record, rendered));
    }
    for (let i = 0; i < docs.length; i += 100) {
      // a hundred rows a statement (VALUES columns are column1, column2... in both databases)
      await sql`update products set doc = v.doc, doc_merchant = v.doc_merchant
        from (select column1 as id, column2 as doc, column3 as doc_merchant
              from (values ${sql.join(docs.slice(i, i + 100))}) as t) as v
        where products.id = v.id`.execute(trx);
    }
    for (let i = 0; i < variantRows.length; i += 200) {
      await trx
        .insertInto('product_variants')
        .values(variantRows.slice(i, i + 200))
        .onConflict((conflict) =>
          conflict.column('id').doUpdateSet((eb) => ({
            doc: eb.ref('excluded.doc'),
            doc_merchant: eb.ref('excluded.doc_merchant'),
          })),
        )
        .execute();
    }
  }
}

/** A product's store variant rows (`/v1/variants/...`), as rendered. */
function variantRowsOf(record: ProductRecord, rendered: ReturnType<typeof renderProduct>): VariantRow[] {
  return rendered.storeVariants.map(({ variantId, position, variant, merchant }) => ({
    id: variant.id as string,
    product_id: record.id,
    variant_id: variantId,
    position,
    sku: variant.sku ?? '',
    price: variant.variant?.priceData?.price ?? record.price,
    visible: variant.variant?.visible === false ? 0 : 1,
    in_stock: variant.stock?.inStock ? 1 : 0,
    product_visible: record.visible ? 1 : 0,
    managed: record.manageVariants ? 1 : 0,
    has_item: record.variants.find((candidate) => candidate.id === variantId)?.noInventoryItem ? 0 : 1,
    doc: JSON.stringify(variant),
    doc_merchant: JSON.stringify(merchant),
  }));
}

/**
 * What a product's save announces: `created` or `updated` (the product as the merchant reads it), its
 * variants `variants_changed` when they changed, and its stock (`wix.stores.v2.inventory`) when a
 * quantity or an in-stock flag moved.
 */
function productEvents(
  record: ProductRecord,
  previous: ProductRecord | undefined,
  saved: Product,
): DomainEvent[] {
  const events: DomainEvent[] = [
    {
      entity: 'product',
      slug: previous ? 'updated' : 'created',
      entityId: record.id,
      payload: { entity: saved },
    },
  ];
  if (previous && JSON.stringify(previous.variants) !== JSON.stringify(record.variants)) {
    events.push({
      entity: 'product',
      slug: 'variants_changed',
      entityId: record.id,
      payload: { productId: record.id, variants: saved.variants ?? [] },
    });
  }
  const stock = (product: ProductRecord | undefined) =>
    JSON.stringify(product?.variants.map((variant) => [variant.id, variant.quantity, variant.inStock]));
  if (stock(previous) !== stock(record)) events.push(inventoryEvent(record));
  if (previous) {
    const moved = record.variants.filter((variant) => {
      const before = previous.variants.find((candidate) => candidate.id === variant.id);
      return before !== undefined && variant.inventoryRevision !== before.inventoryRevision;
    });
    const hadItem = new Set(previous.variants.filter((v) => !v.noInventoryItem).map((v) => v.id));
    events.push(...inventoryItemEvents(record, moved, hadItem));
  }
  return events;
}

/**
 * The v3 inventory items of `variants` after a change of their stock
 * (`wix.stores.catalog.v3.inventory_item`): `updated`; `created` for one made again (not in `hadItem`),
 * `deleted` for one the change removed (model.ts `noInventoryItem`). `hadItem` absent: each had its item.
 */
export function inventoryItemEvents(
  record: ProductRecord,
  variants: VariantRecord[],
  hadItem?: ReadonlySet<string>,
): DomainEvent[] {
  return variants.flatMap((variant): DomainEvent[] => {
    const had = hadItem ? hadItem.has(variant.id) : true;
    if (!had && variant.noInventoryItem) return [];
    const item = inventoryItemV3(record, variant);
    const slug = variant.noInventoryItem ? 'deleted' : had ? 'updated' : 'created';
    // as the v3 entities' events (v3-entity-rows.ts): the item as it was left, under `entity`
    return [{ entity: 'inventoryItem', slug, entityId: item.id as string, payload: { entity: item } }];
  });
}

/** A product's stock after a change, by variant: `wix.stores.v2.inventory` `updated`. */
export function inventoryEvent(record: ProductRecord): DomainEvent {
  return {
    entity: 'inventory',
    slug: 'updated',
    entityId: record.id,
    payload: {
      productId: record.id,
      trackQuantity: record.trackInventory,
      variants: record.variants.map((variant) => ({
        variantId: variant.id,
        quantity: variant.quantity ?? null,
        inStock: variant.inStock,
      })),
    },
  };
}
