import type { Kysely, Migration } from 'kysely';

export const cartMigrations: Record<string, Migration> = {
  '0016_carts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('carts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('owner_key', 'text', (col) => col.notNull().unique())
        .addColumn('visitor_id', 'text', (col) => col.notNull())
        .addColumn('member_id', 'text')
        .addColumn('lines', 'text', (col) => col.notNull())
        .addColumn('coupon_code', 'text')
        .addColumn('merchant_discounts', 'text', (col) => col.notNull())
        .addColumn('buyer_note', 'text')
        .addColumn('contact_info', 'text')
        .addColumn('selected_shipping_option', 'text')
        .addColumn('checkout_id', 'text')
        .addColumn('revision', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
