/** The stores catalog modules: `createClient({ auth, modules: { products, collections, storeVariants } })`. */
export {
  type BulkItemResult,
  type BulkResult,
  type CursorPage,
  catalogVersioning,
  type InfoSectionChanges,
  inventoryItemsV3,
  type ProductIdWithRevision,
  type ProductV3Options,
  productsV3,
  readOnlyVariantsV3,
  type StockMove,
  type TagChanges,
  type VariantStockMove,
} from './catalog-v3.ts';
export {
  brandsV3,
  type CustomizationsBulkResult,
  customizationsV3,
  type EntityV3Options,
  infoSectionsV3,
  ribbonsV3,
} from './catalog-v3-entities.ts';
export type {
  AdjustValueV3,
  AdjustVariantsV3,
  BulkProductsWithInventoryResult,
  ByFilterV3,
  InventoryItemCompositeV3,
  JobV3,
  ProductWithInventoryResult,
  ProductWithInventoryV3,
  SearchDetailsV3,
} from './catalog-v3-products-bulk.ts';
export { collections } from './collections.ts';
export { CATALOG_READS, CATALOG_V3, CATALOG_WRITES, COLLECTIONS_V2 } from './domains.ts';
export {
  type GetProductOptions,
  products,
  type QueryProductsOptions,
  type QueryProductVariantsOptions,
} from './products.ts';
export { storeVariants } from './store-variants.ts';
