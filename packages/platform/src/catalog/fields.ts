import { INVENTORY_STATUSES } from '@cartwheel/sdk';
import type { QueryFields, SortSpec } from './query.ts';

/** What product queries filter on: the wire's field names, each on an indexed column of `products p`. */
export const PRODUCT_FIELDS: QueryFields = {
  id: { column: 'p.id', kind: 'string' },
  _id: { column: 'p.id', kind: 'string' },
  name: { column: 'p.name', kind: 'string', lowerColumn: 'p.name_lower', substringIndexed: true },
  slug: { column: 'p.slug', kind: 'string' },
  price: { column: 'p.price', kind: 'number' },
  'priceData.price': { column: 'p.price', kind: 'number' },
  discountedPrice: { column: 'p.discounted_price', kind: 'number' },
  'priceData.discountedPrice': { column: 'p.discounted_price', kind: 'number' },
  collections: { column: 'p.id', kind: 'collections' },
  collectionIds: { column: 'p.id', kind: 'collections' },
  'collections.id': { column: 'p.id', kind: 'collections' },
  inventoryStatus: { column: 'p.inventory_status', kind: 'enum', values: INVENTORY_STATUSES },
  'stock.inventoryStatus': { column: 'p.inventory_status', kind: 'enum', values: INVENTORY_STATUSES },
  inStock: { column: 'p.in_stock', kind: 'boolean' },
  'stock.inStock': { column: 'p.in_stock', kind: 'boolean' },
  productType: { column: 'p.product_type', kind: 'enum', values: ['physical', 'digital'] },
  visible: { column: 'p.visible', kind: 'boolean' },
  sku: { column: 'p.sku', kind: 'string', emptyIsAbsent: true },
  brand: { column: 'p.brand', kind: 'string', emptyIsAbsent: true },
  ribbon: { column: 'p.ribbon', kind: 'string', emptyIsAbsent: true },
  createdDate: { column: 'p.created_date', kind: 'date' },
  lastUpdated: { column: 'p.last_updated', kind: 'date' },
  numericId: { column: 'p.numeric_id', kind: 'number', integer: true },
};

export const PRODUCT_SORT: SortSpec = {
  id: 'p.id',
  name: 'p.name_lower',
  price: 'p.price',
  'priceData.price': 'p.price',
  discountedPrice: 'p.discounted_price',
  'priceData.discountedPrice': 'p.discounted_price',
  createdDate: 'p.created_date',
  lastUpdated: 'p.last_updated',
  numericId: 'p.numeric_id',
};

/** The same sorts over a collection's listing (`product_collections pc`), which copies the sort keys. */
export const LISTING_SORT: SortSpec = Object.fromEntries(
  Object.entries(PRODUCT_SORT).map(([field, column]) => [
    field,
    column === 'p.id' ? 'pc.product_id' : column.replace(/^p\./, 'pc.'),
  ]),
);

/** Store variants (`/v1/variants/query`), on `product_variants v`. */
export const VARIANT_FIELDS: QueryFields = {
  id: { column: 'v.id', kind: 'string' },
  _id: { column: 'v.id', kind: 'string' },
  variantId: { column: 'v.variant_id', kind: 'string' },
  productId: { column: 'v.product_id', kind: 'string' },
  sku: { column: 'v.sku', kind: 'string', emptyIsAbsent: true },
  visible: { column: 'v.visible', kind: 'boolean' },
  'variant.visible': { column: 'v.visible', kind: 'boolean' },
  inStock: { column: 'v.in_stock', kind: 'boolean' },
  'stock.inStock': { column: 'v.in_stock', kind: 'boolean' },
  price: { column: 'v.price', kind: 'number' },
  'variant.priceData.price': { column: 'v.price', kind: 'number' },
  managedVariant: { column: 'v.managed', kind: 'boolean' },
  collectionIds: { column: 'v.product_id', kind: 'collections' },
  'collections.id': { column: 'v.product_id', kind: 'collections' },
};

export const VARIANT_SORT: SortSpec = {
  id: 'v.id',
  productId: 'v.product_id',
  variantId: 'v.variant_id',
  sku: 'v.sku',
  price: 'v.price',
  'variant.priceData.price': 'v.price',
};

/** Collections (`/v2/collections/query`), on `collections c`. */
export const COLLECTION_FIELDS: QueryFields = {
  id: { column: 'c.id', kind: 'string' },
  _id: { column: 'c.id', kind: 'string' },
  name: { column: 'c.name', kind: 'string' },
  slug: { column: 'c.slug', kind: 'string' },
  visible: { column: 'c.visible', kind: 'boolean' },
  createdDate: { column: 'c.created_date', kind: 'date' },
  updatedDate: { column: 'c.updated_date', kind: 'date' },
};

export const COLLECTION_SORT: SortSpec = {
  id: 'c.id',
  name: 'c.name',
  slug: 'c.slug',
  createdDate: 'c.created_date',
  updatedDate: 'c.updated_date',
};
