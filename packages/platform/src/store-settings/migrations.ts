import type { Kysely, Migration } from 'kysely';

/** A table of settings documents: an id, the JSON document, and when it was made and changed. */
function documentTable(db: Kysely<any>, name: string) {
  return db.schema
    .createTable(name)
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('doc', 'text', (col) => col.notNull())
    .addColumn('created_date', 'text', (col) => col.notNull())
    .addColumn('updated_date', 'text', (col) => col.notNull());
}

export const storeSettingsMigrations: Record<string, Migration> = {
  '0015_store_settings': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('store_settings')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();
      await documentTable(db, 'tax_regions')
        .addColumn('region_key', 'text', (col) => col.notNull().unique())
        .execute();
      await documentTable(db, 'shipping_regions').execute();
      await documentTable(db, 'pickup_locations')
        .addColumn('code', 'text', (col) => col.notNull().unique())
        .execute();
      await documentTable(db, 'discount_rules')
        .addColumn('revision', 'integer', (col) => col.notNull())
        .execute();
      await documentTable(db, 'coupons')
        .addColumn('code_key', 'text', (col) => col.notNull().unique())
        .execute();
    },
  },
  '0020_pricing_versions': {
    async up(db: Kysely<any>) {
      // one counter per source of prices (store-settings/pricing-versions.ts): moved by every change that can alter one
      await db.schema
        .createTable('pricing_versions')
        .addColumn('source', 'text', (col) => col.primaryKey())
        .addColumn('version', 'integer', (col) => col.notNull())
        .execute();
      await db
        .insertInto('pricing_versions')
        .values([
          { source: 'catalog', version: 0 },
          { source: 'store-settings', version: 0 },
        ])
        .execute();
    },
  },
};
