import { type Kysely, sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';

/**
 * What a price is made of besides the cart itself: the catalog (prices, discounts, stock, visibility,
 * collections) and the store's settings (currency, discount rules, coupons, regions). Each has a counter
 * in the database (`pricing_versions`) that every change able to alter a price moves, in the transaction
 * of the change, so every process over the database sees it at the moment it sees the change.
 */
export type PricingSource = Tables['pricing_versions']['source'];

/** The counters as one read sees them. */
export interface PricingVersions {
  catalog: number;
  settings: number;
}

/** Moves `source`'s counter inside `trx`; run it last in the transaction, to hold the row briefly. */
export async function movePricingVersion(trx: Transaction<Tables>, source: PricingSource): Promise<void> {
  await trx
    .updateTable('pricing_versions')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('source', '=', source)
    .execute();
}

/**
 * The counters as columns of a caller's own query (`catalog_version`, `settings_version`), so a cart row
 * and the versions it will be priced at come from one statement, one snapshot.
 */
export const pricingVersionColumns = [
  catalogVersionNow().as('catalog_version'),
  settingsVersionNow().as('settings_version'),
] as const;

/** The catalog's counter as an expression of a caller's own statement. */
export function catalogVersionNow() {
  return sql<number>`(select version from pricing_versions where source = 'catalog')`;
}

/** The settings' counter as an expression of a caller's own statement. */
export function settingsVersionNow() {
  return sql<number>`(select version from pricing_versions where source = 'store-settings')`;
}

/** The settings counter alone (a snapshot of the settings is read after it, so it is at least this new). */
export async function settingsVersion(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom('pricing_versions')
    .select('version')
    .where('source', '=', 'store-settings')
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}
