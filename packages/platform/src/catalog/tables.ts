/**
 * The catalog's rows. Every column a query filters or sorts on is its own indexed column; the wire
 * documents are rendered once at write time (with and without merchant data) so a read is one
 * indexed query and string concatenation.
 */
export interface CatalogTables {
  products: ProductRow;
  product_variants: VariantRow;
  product_collections: { product_id: string; collection_id: string };
  collections: CollectionRow;
}

export interface ProductRow {
  id: string;
  numeric_id: number;
  slug: string;
  name: string;
  /** Lowercased name: case-insensitive prefix and substring search, and sort by name. */
  name_lower: string;
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
}
