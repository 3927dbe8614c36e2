import { CALLERS, operationTable } from '../shared/access.ts';

/** Who may write the catalog (issue 21): the admin key, staff and API keys holding products.manage. */
const PRODUCT_MANAGERS = CALLERS.staff('products.manage');

/**
 * The catalog's operations (the hosted SDK's `products` and `collections` methods, and Cartwheel's
 * own media calls): reads for anyone, writes for product managers. A query served at two paths, or
 * as GET and POST, is one operation.
 */
export const CATALOG_OPERATIONS = operationTable('catalog', {
  getProduct: CALLERS.anyone,
  /** `query` and `query-platformized`, each as GET and POST. */
  queryProducts: CALLERS.anyone,
  productOptionsAvailability: CALLERS.anyone,
  queryProductVariants: CALLERS.anyone,
  queryStoreVariants: CALLERS.anyone,
  getStoreVariant: CALLERS.anyone,
  /** Under /stores-reader/v1 and /v2 alike, as the next two. */
  getCollectionBySlug: CALLERS.anyone,
  getCollection: CALLERS.anyone,
  queryCollections: CALLERS.anyone,
  createProduct: PRODUCT_MANAGERS,
  updateProduct: PRODUCT_MANAGERS,
  deleteProduct: PRODUCT_MANAGERS,
  updateVariants: PRODUCT_MANAGERS,
  resetAllVariantData: PRODUCT_MANAGERS,
  addProductMedia: PRODUCT_MANAGERS,
  removeProductMedia: PRODUCT_MANAGERS,
  reorderProductMedia: PRODUCT_MANAGERS,
  addProductMediaToChoices: PRODUCT_MANAGERS,
  removeProductMediaFromChoices: PRODUCT_MANAGERS,
  deleteProductOptions: PRODUCT_MANAGERS,
  removeBrand: PRODUCT_MANAGERS,
  removeRibbon: PRODUCT_MANAGERS,
  bulkUpdateProducts: PRODUCT_MANAGERS,
  bulkAdjustProductProperties: PRODUCT_MANAGERS,
  createCollection: PRODUCT_MANAGERS,
  updateCollection: PRODUCT_MANAGERS,
  deleteCollection: PRODUCT_MANAGERS,
  addProductsToCollection: PRODUCT_MANAGERS,
  removeProductsFromCollection: PRODUCT_MANAGERS,
  uploadMedia: PRODUCT_MANAGERS,
  /** The catalog version a store runs (`catalogVersioning`): Cartwheel serves v1 and v3 alike. */
  getCatalogVersion: CALLERS.anyone,
  // ---- v3 (`productsV3`, `readOnlyVariantsV3`) ----
  getProductV3: CALLERS.anyone,
  getProductBySlugV3: CALLERS.anyone,
  /** `query` and `search`, each as GET and POST. */
  queryProductsV3: CALLERS.anyone,
  searchProductsV3: CALLERS.anyone,
  queryVariantsV3: CALLERS.anyone,
  createProductV3: PRODUCT_MANAGERS,
  updateProductV3: PRODUCT_MANAGERS,
  deleteProductV3: PRODUCT_MANAGERS,
  bulkCreateProductsV3: PRODUCT_MANAGERS,
  bulkUpdateProductsV3: PRODUCT_MANAGERS,
  bulkDeleteProductsV3: PRODUCT_MANAGERS,
  /** An item of a product visitors see: its stock is on the product page already. */
  getInventoryItemV3: CALLERS.anyone,
  queryInventoryItemsV3: CALLERS.anyone,
  updateInventoryItemV3: PRODUCT_MANAGERS,
  decrementInventoryItemsV3: PRODUCT_MANAGERS,
  incrementInventoryItemsV3: PRODUCT_MANAGERS,
  /** An uploaded image's bytes, and a generated one's: the catalog's pictures are public. */
  getUploadedMedia: CALLERS.anyone,
  getMediaImage: CALLERS.anyone,
});
