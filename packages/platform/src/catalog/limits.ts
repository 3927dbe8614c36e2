/**
 * What one product, collection or call may hold, as on the hosted platform. The schemas (schemas.ts)
 * declare them to the wire; the service's own rules (validation.ts) count what a schema cannot.
 */

/** A product's options, each option's choices, and the variants they make (one choice per option). */
export const MAX_PRODUCT_OPTIONS = 6;
export const MAX_OPTION_CHOICES = 100;
export const MAX_PRODUCT_VARIANTS = 1000;

/** The longest text each product and collection field takes, in characters. */
export const PRODUCT_TEXT = {
  name: 80,
  slug: 100,
  description: 16_000,
  sku: 40,
  ribbon: 30,
  brand: 50,
  optionName: 50,
  choice: 50,
} as const;
export const COLLECTION_TEXT = { name: 50, slug: 100, description: 600 } as const;

/** Products a bulk update or adjustment changes in one call. */
export const MAX_BULK_PRODUCTS = 100;
/** Products one call adds to or removes from a collection. */
export const MAX_MEMBERSHIP_CHANGE = 1000;
