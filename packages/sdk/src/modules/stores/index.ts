/** The stores catalog modules: `createClient({ auth, modules: { products, collections, storeVariants } })`. */
export { collections } from './collections.ts';
export { CATALOG_READS, CATALOG_WRITES, COLLECTIONS_V2 } from './domains.ts';
export {
  type GetProductOptions,
  products,
  type QueryProductsOptions,
  type QueryProductVariantsOptions,
} from './products.ts';
export { storeVariants } from './store-variants.ts';
