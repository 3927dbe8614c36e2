import { everyHost } from '../../transport/domains.ts';
import type { RequestSpec } from '../../transport/http.ts';

/**
 * Domain mappings of the stores modules (wire contract, Hosts). Catalog reads and writes share
 * service prefixes (`/v1/products`) but not public ones, so each call names the table it goes through.
 */
export const CATALOG_READS = everyHost(
  ['/v1/products', '/stores-reader/v1/products'],
  ['/v1/variants', '/stores-reader/v1/variants'],
  ['/v1/collections', '/stores-reader/v1/collections'],
);

export const CATALOG_WRITES = everyHost(
  ['/v1/products', '/stores/v1/products'],
  ['/v1/collections', '/stores/v1/collections'],
  ['/v1/bulk/products', '/stores/v1/bulk/products'],
);

/**
 * The v3 catalog (products, read-only variants, inventory items, the catalog's version, brands,
 * ribbons, info sections, customizations).
 */
export const CATALOG_V3 = everyHost(
  ['/v3/products', '/stores/v3/products'],
  ['/v3/bulk/products', '/stores/v3/bulk/products'],
  ['/v3/products-with-inventory', '/stores/v3/products-with-inventory'],
  ['/v3/bulk/products-with-inventory', '/stores/v3/bulk/products-with-inventory'],
  ['/v3/all-products-category', '/stores/v3/all-products-category'],
  ['/v3/inventory-items', '/stores/v3/inventory-items'],
  ['/v3/bulk/inventory-items', '/stores/v3/bulk/inventory-items'],
  ['/v3/provision', '/stores/v3/provision'],
  ['/v3/brands', '/stores/v3/brands'],
  ['/v3/bulk/brands', '/stores/v3/bulk/brands'],
  ['/v3/ribbons', '/stores/v3/ribbons'],
  ['/v3/bulk/ribbons', '/stores/v3/bulk/ribbons'],
  ['/v3/info-sections', '/stores/v3/info-sections'],
  ['/v3/bulk/info-sections', '/stores/v3/bulk/info-sections'],
  ['/v3/customizations', '/stores/v3/customizations'],
  ['/v3/bulk/customizations', '/stores/v3/bulk/customizations'],
);

/** v2 collections keep their path on every host. */
export const COLLECTIONS_V2 = everyHost(['/v2/collections', '/v2/collections']);

/**
 * Tracing of one catalog call. Method names are Cartwheel's, shaped like the hosted services'
 * (`cartwheel.stores.v1.CatalogReadApi.GetProduct`), so one grep finds a call on both sides.
 */
export function catalogTrace(
  method: string,
  entity:
    | 'product'
    | 'collection'
    | 'variant'
    | 'inventory_item'
    | 'provision'
    | 'brand'
    | 'ribbon'
    | 'info_section'
    | 'customization',
): RequestSpec['trace'] {
  return { package: '@cartwheel/sdk', method: `cartwheel.stores.${method}`, entity };
}

/** Ids and slugs are the caller's: escaped, so `a/b` stays one path segment. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
