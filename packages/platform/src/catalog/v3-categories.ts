import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import type { CatalogStorage, Viewer } from './storage.ts';
import type { FieldsInput } from './v3-schemas.ts';

/**
 * v3 categories are Cartwheel's collections, under the same ids: a product's categories are the
 * collections that list it, All Products first (it lists every product). A visitor is not shown a
 * hidden collection.
 */

/** Whether a read's `fields` ask for a product's categories. */
export function asksForCategories(fields: FieldsInput | undefined): boolean {
  const asked = fields === undefined ? [] : Array.isArray(fields) ? fields : [fields];
  return asked.includes('DIRECT_CATEGORIES_INFO') || asked.includes('ALL_CATEGORIES_INFO');
}

/** Each product's category ids, when `fields` ask for them (else none is looked up). */
export async function categoriesOf(
  storage: CatalogStorage,
  productIds: readonly string[],
  viewer: Viewer,
  fields: FieldsInput | undefined,
): Promise<Map<string, string[]>> {
  const categories = new Map<string, string[]>();
  if (!asksForCategories(fields) || productIds.length === 0) return categories;
  for (const id of productIds) categories.set(id, [ALL_PRODUCTS_COLLECTION_ID]);
  const hidden = await storage.hiddenFrom(viewer);
  const rows = await storage.db
    .selectFrom('product_collections')
    .select(['product_id', 'collection_id'])
    .where('product_id', 'in', [...new Set(productIds)])
    .orderBy('collection_id')
    .execute();
  for (const row of rows) {
    if (!hidden.has(row.collection_id)) categories.get(row.product_id)?.push(row.collection_id);
  }
  return categories;
}
