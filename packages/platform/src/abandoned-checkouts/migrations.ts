import type { Kysely, Migration } from 'kysely';

/** Abandoned checkouts (issue 34): found by a scan, emailed, recovered. */
export const abandonedCheckoutMigrations: Record<string, Migration> = {
  '0052_abandoned_checkouts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('abandoned_checkouts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('checkout_id', 'text', (col) => col.notNull().unique())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();
      // the query filters on status and pages by id
      await db.schema
        .createIndex('abandoned_checkouts_status')
        .on('abandoned_checkouts')
        .columns(['status', 'id'])
        .execute();
      await db.schema
        .createTable('abandoned_checkout_scan')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('checkout_id', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('abandoned_checkout_unsubscribes')
        .addColumn('email', 'text', (col) => col.primaryKey())
        .addColumn('created_date', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
