import type { Collection, CollectionV2, Media } from '@cartwheel/sdk';
import type { CollectionRow } from './tables.ts';

/** The hosted platform's "All Products" collection: every product is in it, nothing can change that. */
export const ALL_PRODUCTS_COLLECTION_ID = '00000000-000000-000000-000000000001';

/**
 * A collection row with its product count, as v1 (`numberOfProducts`) and v2 (`assignedProductsCount`)
 * read it: hidden products count for admins only.
 */
export function renderCollection(row: CollectionRow, viewer: { admin: boolean }): Collection & CollectionV2 {
  const media = JSON.parse(row.media) as Media;
  const count = Number(viewer.admin ? row.product_count : row.visible_product_count);
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    visible: row.visible === 1,
    media,
    ...(media.mainMedia?.image ? { image: media.mainMedia.image } : {}),
    numberOfProducts: count,
    assignedProductsCount: count,
    createdDate: row.created_date as unknown as Date,
    updatedDate: row.updated_date as unknown as Date,
  };
}
