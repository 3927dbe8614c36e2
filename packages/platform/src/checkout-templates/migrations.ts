import type { Kysely, Migration } from 'kysely';

/** Checkout templates (issue 34): what a merchant's buy link makes a checkout of. */
export const checkoutTemplateMigrations: Record<string, Migration> = {
  '0050_checkout_templates': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('checkout_templates')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('created_date', 'text', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();
      // the query filters on status and pages by id
      await db.schema
        .createIndex('checkout_templates_status')
        .on('checkout_templates')
        .columns(['status', 'id'])
        .execute();
    },
  },
};
