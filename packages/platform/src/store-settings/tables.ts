/**
 * The store's commerce settings. Each row keeps its whole setting as a JSON document (`doc`, the
 * types of model.ts) beside the columns lookups and uniqueness need; pricing loads them all at once.
 */
export interface StoreSettingsTables {
  /** One row per key: `store` holds `StoreCommerceSettings` (currency, tax mode, checkout brand). */
  store_settings: { key: string; doc: string; updated_date: string };
  tax_regions: {
    id: string;
    /** `US` for a whole country, `US-NY` for a subdivision: one rate per place. */
    region_key: string;
    doc: string;
    created_date: string;
    updated_date: string;
  };
  shipping_regions: DocumentRow;
  pickup_locations: DocumentRow & { code: string };
  discount_rules: DocumentRow & { revision: number };
  /**
   * What pricing reads, the catalog and these settings, each with a counter its every change moves in
   * its own transaction (store-settings/pricing-versions.ts): how a cached price knows it is still true.
   */
  pricing_versions: { source: 'catalog' | 'store-settings'; version: number };
  coupons: DocumentRow & {
    /** The code in upper case: codes are unique and matched without regard to case. */
    code_key: string;
  };
}

export interface DocumentRow {
  id: string;
  doc: string;
  created_date: string;
  updated_date: string;
}
