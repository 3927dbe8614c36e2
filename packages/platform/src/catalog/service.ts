import type {
  BulkUpdateProductsResult,
  Collection,
  CollectionV2,
  Product,
  ProductOptionsAvailability,
  ProductVariant,
} from '@cartwheel/sdk';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { CollectionReads } from './collection-reads.ts';
import { CollectionWrites } from './collection-writes.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import type { ProductFacts } from './model.ts';
import type { PageAnchors } from './page-anchors.ts';
import { ProductReads } from './product-reads.ts';
import { ProductWrites } from './product-writes.ts';
import type {
  BulkAdjustInput,
  BulkSetInput,
  CatalogQueryRequest,
  ChoiceMediaInput,
  CollectionInput,
  FlagInput,
  MediaInput,
  ProductInput,
  ProductVariantsQuery,
  Selection,
  VariantOverride,
} from './schemas.ts';
import { unindexProducts } from './search.ts';
import { type StockItem, StockLedger, type StockShortfall } from './stock.ts';
import { type CatalogOptions, CatalogStorage, type Viewer } from './storage.ts';
import { CatalogEntitiesV3 } from './v3-entities.ts';
import { ENTITY_KINDS } from './v3-entity-kinds.ts';
import { InventoryV3 } from './v3-inventory.ts';
import { InventoryWritesV3 } from './v3-inventory-writes.ts';
import { ProductsByFilterV3 } from './v3-product-bulk.ts';
import { ProductEditsV3 } from './v3-product-edits.ts';
import { ProductsV3 } from './v3-products.ts';
import { ProductsWithInventoryV3 } from './v3-with-inventory.ts';

export type { StockItem, StockShortfall } from './stock.ts';
export type { Viewer } from './storage.ts';

/**
 * The store's catalog: products, their options and variants, media, collections. Business rules
 * only; routes translate HTTP to these calls, whose inputs are the types schemas.ts declares. The one
 * door other domains use; each job is a file of its own, which this class hands the call to:
 *
 * - product-reads.ts, collection-reads.ts: reads, answered as the wire's JSON text rendered at write
 *   time, so the hot paths never parse or stringify a product;
 * - product-writes.ts, collection-writes.ts: writes, each one transaction (storage.ts `write`);
 * - product-rows.ts: a product's rows written from its record; listings.ts: collections' listings,
 *   counters and locks; stock.ts: stock an order takes and gives back;
 * - validation.ts: the rules of a product a schema cannot say;
 * - v3-products.ts: the v3 calls over the same products (v3-input.ts writes the record v1 writes,
 *   v3-model.ts renders v3 from it).
 */
export class CatalogService {
  private readonly storage: CatalogStorage;
  private readonly productReads: ProductReads;
  private readonly collectionReads: CollectionReads;
  private readonly productWrites: ProductWrites;
  private readonly collectionWrites: CollectionWrites;
  private readonly stock: StockLedger;
  /** Where deep pages of whole listings start. */
  readonly anchors: PageAnchors;
  /** The v3 product calls and read-only variants, over the same products (v3-products.ts). */
  readonly productsV3: ProductsV3;
  /** Tags and info sections of many products at once (v3-product-edits.ts). */
  readonly productEditsV3: ProductEditsV3;
  /** v3 inventory items: the variants' stock in the same records (v3-inventory.ts). */
  readonly inventoryV3: InventoryV3;
  /** Their create, delete and bulk updates (v3-inventory-writes.ts). */
  readonly inventoryWritesV3: InventoryWritesV3;
  /** v3 brands, ribbons, info sections and customizations, one of each kind (v3-entities.ts). */
  readonly entitiesV3: readonly CatalogEntitiesV3[];
  /** v3 products written with their variants' inventory items (v3-with-inventory.ts). */
  readonly productsWithInventoryV3: ProductsWithInventoryV3;
  /** v3 products counted and written by filter, and their categories (v3-product-bulk.ts). */
  readonly productsByFilterV3: ProductsByFilterV3;

  constructor(
    readonly db: Kysely<Tables>,
    readonly options: CatalogOptions,
  ) {
    this.storage = new CatalogStorage(db, options);
    this.productReads = new ProductReads(this.storage, options);
    this.collectionReads = new CollectionReads(this.storage);
    this.productWrites = new ProductWrites(this.storage);
    this.collectionWrites = new CollectionWrites(this.storage);
    this.stock = new StockLedger(this.storage);
    this.anchors = this.productReads.anchors;
    this.productsV3 = new ProductsV3(this.storage, this.productWrites);
    this.inventoryV3 = new InventoryV3(this.storage, this.stock);
    this.inventoryWritesV3 = new InventoryWritesV3(this.storage, this.stock, this.inventoryV3);
    this.entitiesV3 = ENTITY_KINDS.map((kind) => new CatalogEntitiesV3(this.storage, kind));
    this.productsWithInventoryV3 = new ProductsWithInventoryV3(this.storage, this.productWrites, this.stock);
    this.productsByFilterV3 = new ProductsByFilterV3(this.storage, this.productWrites, this.collectionWrites);
    this.productEditsV3 = new ProductEditsV3(this.storage, this.productWrites, this.productsByFilterV3);
  }

  // ---- product reads (product-reads.ts) ----

  /** `{"product": ...}` with its variants; a hidden product is not found unless an admin asks. */
  productJson(id: string, viewer: Viewer, includeMerchantSpecificData?: FlagInput): Promise<string> {
    return this.productReads.productJson(id, viewer, includeMerchantSpecificData);
  }

  /** `{"products": [...], "metadata": {...}}`: the wire query translated to one indexed SQL query. */
  /**
   * An answer made only of a visitor's product reads (GraphQL's, by its query and variables), kept
   * with those reads: as long, and emptied by the same writes, so it is never staler than they are.
   */
  keptForVisitors(
    key: string,
    compute: () => Promise<string>,
    keep: (text: string) => boolean,
  ): Promise<string> {
    return this.storage.visitorReads.get(`answer:${key}`, compute, keep);
  }

  queryProductsJson(request: CatalogQueryRequest, viewer: Viewer): Promise<string> {
    return this.productReads.queryProductsJson(request, viewer);
  }

  /** Many products' variants in one query, `{"<product id>": [...]}` (GraphQL's data loader of `Product.variants`). */
  variantsJson(productIds: readonly string[], viewer: Viewer): Promise<string> {
    return this.productReads.variantsJson(productIds, viewer);
  }

  /** The product as an object, for other domains (cart, checkout); merchant data included. */
  findProduct(id: string): Promise<Product | undefined> {
    return this.productReads.findProduct(id);
  }

  /** What pricing needs of the products a cart names, in one query (see ProductReads.pricingFacts). */
  pricingFacts(
    productIds: readonly string[],
    executor?: Kysely<Tables>,
    catalogVersion?: number,
  ): Promise<Map<string, ProductFacts>> {
    return this.productReads.pricingFacts(productIds, executor, catalogVersion);
  }

  /** Each choice's stock and visibility given a shopper's selection, and the variant it names. */
  productOptionsAvailability(
    id: string,
    selection: Selection | null | undefined,
    viewer: Viewer,
  ): Promise<ProductOptionsAvailability> {
    return this.productReads.productOptionsAvailability(id, selection, viewer);
  }

  /** A product's variants, picked by choices (partial) or ids, with offset paging. */
  queryProductVariants(
    id: string,
    request: ProductVariantsQuery,
    viewer: Viewer,
  ): Promise<{ variants: ProductVariant[]; metadata: Record<string, unknown>; totalResults: number }> {
    return this.productReads.queryProductVariants(id, request, viewer);
  }

  /** `{"variants": [...], "metadata"}` across the store (`/v1/variants/query`), in SQL. */
  queryStoreVariantsJson(request: CatalogQueryRequest, viewer: Viewer): Promise<string> {
    return this.productReads.queryStoreVariantsJson(request, viewer);
  }

  /** `{"variant": ...}` by its store id `{productId}-{variantId}`. */
  storeVariantJson(id: string, viewer: Viewer): Promise<string> {
    return this.productReads.storeVariantJson(id, viewer);
  }

  // ---- collection reads (collection-reads.ts) ----

  collection(id: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    return this.collectionReads.collection(id, viewer);
  }

  collectionBySlug(slug: string, viewer: Viewer): Promise<Collection & CollectionV2> {
    return this.collectionReads.collectionBySlug(slug, viewer);
  }

  queryCollections(
    request: Pick<CatalogQueryRequest, 'query'>,
    viewer: Viewer,
  ): Promise<{ collections: Array<Collection & CollectionV2>; metadata: Record<string, unknown> }> {
    return this.collectionReads.queryCollections(request, viewer);
  }

  // ---- product writes (product-writes.ts) ----

  /** Creates a product; `fixed` lets the demo seed keep ids and dates stable. */
  createProduct(input: ProductInput, fixed: { id?: string } = {}): Promise<Product> {
    return this.productWrites.createProduct(input, fixed);
  }

  updateProduct(id: string, input: ProductInput): Promise<Product> {
    return this.productWrites.updateProduct(id, input);
  }

  deleteProduct(id: string): Promise<void> {
    return this.productWrites.deleteProduct(id);
  }

  updateVariants(id: string, overrides: readonly VariantOverride[]): Promise<ProductVariant[]> {
    return this.productWrites.updateVariants(id, overrides);
  }

  /** Every variant back to the product's price, cost, weight and sku, and visible; stock stays. */
  resetVariants(id: string): Promise<void> {
    return this.productWrites.resetVariants(id);
  }

  /** Drops the options: the product goes back to its one default variant. */
  deleteOptions(id: string): Promise<void> {
    return this.productWrites.deleteOptions(id);
  }

  removeBrand(id: string): Promise<void> {
    return this.productWrites.removeBrand(id);
  }

  removeRibbon(id: string): Promise<void> {
    return this.productWrites.removeRibbon(id);
  }

  /** Adds images by URL or by the id of an image the platform draws; optionally to a choice too. */
  addMedia(id: string, media: readonly MediaInput[]): Promise<void> {
    return this.productWrites.addMedia(id, media);
  }

  /** Removes media items (all of them when `mediaIds` is empty), from choices too. */
  removeMedia(id: string, mediaIds: readonly string[] | null | undefined): Promise<void> {
    return this.productWrites.removeMedia(id, mediaIds);
  }

  /**
   * Puts the product's images in the order `mediaIds` names; the first is the main image. Each image
   * is named exactly once, so an image added meanwhile refuses the order rather than landing anywhere.
   */
  reorderMedia(id: string, mediaIds: readonly string[]): Promise<void> {
    return this.productWrites.reorderMedia(id, mediaIds);
  }

  /** Links (or with `remove`, unlinks) product media to option choices. */
  assignChoiceMedia(id: string, assignments: readonly ChoiceMediaInput[], remove = false): Promise<void> {
    return this.productWrites.assignChoiceMedia(id, assignments, remove);
  }

  /** Sets price, cost or weight on many products: each succeeds or fails on its own. */
  bulkSet(ids: readonly string[], set: BulkSetInput): Promise<BulkUpdateProductsResult> {
    return this.productWrites.bulkSet(ids, set);
  }

  /** Adjusts price, cost or weight by an amount or a percentage, variants' own values too. */
  bulkAdjust(ids: readonly string[], adjust: BulkAdjustInput): Promise<BulkUpdateProductsResult> {
    return this.productWrites.bulkAdjust(ids, adjust);
  }

  // ---- collection writes (collection-writes.ts) ----

  createCollection(input: CollectionInput, fixed: { id?: string } = {}): Promise<Collection> {
    return this.collectionWrites.createCollection(input, fixed);
  }

  updateCollection(id: string, input: CollectionInput): Promise<Collection> {
    return this.collectionWrites.updateCollection(id, input);
  }

  deleteCollection(id: string): Promise<void> {
    return this.collectionWrites.deleteCollection(id);
  }

  addProductsToCollection(collectionId: string, productIds: readonly string[]): Promise<void> {
    return this.collectionWrites.addProductsToCollection(collectionId, productIds);
  }

  removeProductsFromCollection(collectionId: string, productIds: readonly string[]): Promise<void> {
    return this.collectionWrites.removeProductsFromCollection(collectionId, productIds);
  }

  // ---- stock an order takes and gives back (stock.ts) ----

  /**
   * Takes what an order sells out of counted stock, inside the order's transaction `trx`; nothing is
   * taken when any line falls short (`short` names those lines by their index in `items`).
   */
  takeStock(trx: Transaction<Tables>, items: StockItem[]): Promise<{ short: StockShortfall[] }> {
    return this.stock.takeStock(trx, items);
  }

  /** Gives back what `takeStock` took (a declined payment, an abandoned attempt), inside `trx`. */
  returnStock(trx: Transaction<Tables>, items: StockItem[]): Promise<void> {
    return this.stock.returnStock(trx, items);
  }

  // ---- the whole catalog ----

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('products').select('id').limit(1).executeTakeFirst();
    return !row;
  }

  /** Deletes every product and collection but All Products (`npm run reset-demo`). */
  async clear(): Promise<void> {
    await this.storage.write(async (trx) => {
      await trx.deleteFrom('product_collections').execute();
      await trx.deleteFrom('product_variants').execute();
      await trx.deleteFrom('product_entity_links').execute();
      await trx.deleteFrom('products').execute();
      await trx.deleteFrom('catalog_entities').execute();
      await unindexProducts(trx, this.storage.dialect);
      await trx.deleteFrom('collections').where('id', '<>', ALL_PRODUCTS_COLLECTION_ID).execute();
      await trx
        .updateTable('collections')
        .set({ product_count: 0, visible_product_count: 0, listing_version: sql`listing_version + 1` })
        .where('id', '=', ALL_PRODUCTS_COLLECTION_ID)
        .execute();
    });
    this.productWrites.forgetNumericIds();
  }
}
