/**
 * The catalog's rows. Every column a query filters or sorts on is its own indexed column; the wire
 * documents are rendered once at write time (with and without merchant data) so a read is one
 * indexed query and string concatenation.
 */
export interface CatalogTables {
  products: ProductRow;
  product_variants: VariantRow;
  product_collections: ListingRow;
  collections: CollectionRow;
  media_uploads: MediaUploadRow;
  catalog_entities: CatalogEntityRow;
  product_entity_links: ProductEntityLinkRow;
}

export interface ProductRow {
  id: string;
  numeric_id: number;
  slug: string;
  name: string;
  /** Lowercased name: case-insensitive prefix and substring search, and sort by name. */
  name_lower: string;
  /** Lowercased description (as text) and SKUs, the product's and its variants': text search (search.ts). */
  search_text: string;
  price: number;
  discounted_price: number;
  visible: number;
  inventory_status: string;
  in_stock: number;
  product_type: string;
  sku: string;
  brand: string;
  ribbon: string;
  created_date: string;
  last_updated: string;
  /** What the merchant set (`ProductRecord` JSON): the source every document is rendered from. */
  record: string;
  /** The wire product without variants, without merchant data, as JSON text. */
  doc: string;
  /** The same with merchant data (cost and profit). */
  doc_merchant: string;
  /** The wire variants array, without and with merchant data. */
  variants_doc: string;
  variants_doc_merchant: string;
}

/**
 * A product's place in a collection, with copies of the product's sort keys and visibility, so a
 * collection's page is one walk of a (collection, sort key) index. The product row is their source:
 * every product write copies them here (`LISTING_KEYS`).
 */
export interface ListingRow {
  product_id: string;
  collection_id: string;
  visible: number;
  price: number;
  discounted_price: number;
  name_lower: string;
  numeric_id: number;
  created_date: string;
  last_updated: string;
}

/** The product columns a listing row copies. */
export const LISTING_KEYS = [
  'visible',
  'price',
  'discounted_price',
  'name_lower',
  'numeric_id',
  'created_date',
  'last_updated',
] as const satisfies ReadonlyArray<keyof ListingRow & keyof ProductRow>;

/** What a product's listings copy from its row. */
export function listingKeys(row: ProductRow): Omit<ListingRow, 'product_id' | 'collection_id'> {
  return Object.fromEntries(LISTING_KEYS.map((key) => [key, row[key]])) as Omit<
    ListingRow,
    'product_id' | 'collection_id'
  >;
}

export interface VariantRow {
  /** The store variant id: `{productId}-{variantId}`. */
  id: string;
  product_id: string;
  variant_id: string;
  position: number;
  sku: string;
  price: number;
  visible: number;
  in_stock: number;
  product_visible: number;
  managed: number;
  /** 1 while the variant has its v3 inventory item, 0 once deleted (model.ts `noInventoryItem`). */
  has_item: number;
  /** The store variant (`/v1/variants/...`) as JSON text, without and with merchant data. */
  doc: string;
  doc_merchant: string;
}

export interface CollectionRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  visible: number;
  /** `Media` JSON. */
  media: string;
  created_date: string;
  updated_date: string;
  /** Products in the collection, and those of them visitors see: kept by every write that changes them. */
  product_count: number;
  visible_product_count: number;
  /**
   * Moves with every write that changes who the collection lists, who of them is visible, or a key
   * they are anchored by (page-anchors.ts); never goes back.
   */
  listing_version: number;
}

/** An image a merchant uploaded (uploads.ts), its bytes as base64 text so one column type fits both databases. */
export interface MediaUploadRow {
  id: string;
  content_type: string;
  size: number;
  data: string;
  created_date: string;
}

/** What a v3 catalog entity is (v3-entities.ts): each kind has its own calls, all share one table. */
export type CatalogEntityKind = 'brand' | 'ribbon' | 'infoSection' | 'customization';

/**
 * What a product's link names: an entity in its role (`ribbon` the main one, `additionalRibbon` one
 * beside it, a ribbon entity too), or a tag id of its public or private tags (no entity: tags are ids).
 */
export type ProductLinkKind = CatalogEntityKind | 'additionalRibbon' | 'publicTag' | 'privateTag';

/**
 * A brand, ribbon, info section or customization of the v3 catalog: the columns its queries filter and
 * sort on, and the rest of it as JSON.
 */
export interface CatalogEntityRow {
  id: string;
  kind: CatalogEntityKind;
  /** A brand's, ribbon's or customization's name; an info section's title. */
  name: string;
  name_lower: string;
  /** What no two entities of a kind share: a brand's or ribbon's name, an info section's unique name; null: none. */
  unique_key: string | null;
  /** An info section's unique name. */
  unique_name: string | null;
  /** A customization's type and render type. */
  type: string | null;
  render_type: string | null;
  revision: number;
  created_date: string;
  updated_date: string;
  /** What the kind keeps beyond the columns (a customization's choices, an info section's description), JSON. */
  doc: string;
}

/**
 * Which entities a product refers to (its brand, ribbon, info sections), written from its record by
 * every save: an entity's products are found, counted and changed with it through here.
 */
export interface ProductEntityLinkRow {
  product_id: string;
  kind: ProductLinkKind;
  entity_id: string;
  position: number;
}
