import type { Kysely, Migration } from 'kysely';

/** Orders and the counter their numbers come from. */
export const orderMigrations: Record<string, Migration> = {
  '0018_orders': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('number', 'bigint', (col) => col.unique())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('payment_status', 'text', (col) => col.notNull())
        .addColumn('fulfillment_status', 'text', (col) => col.notNull())
        .addColumn('checkout_id', 'text')
        .addColumn('visitor_id', 'text')
        .addColumn('member_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .execute();
      // the default search (newest first) and a buyer's own orders walk these
      await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();
      await db.schema
        .createIndex('orders_member')
        .on('orders')
        .columns(['member_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('orders_visitor')
        .on('orders')
        .columns(['visitor_id', 'created_at', 'id'])
        .execute();
      await db.schema.createIndex('orders_checkout').on('orders').column('checkout_id').execute();
      await db.schema
        .createTable('order_counters')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('value', 'bigint', (col) => col.notNull())
        .execute();
    },
  },
  '0021_unpaid_orders_holding_stock': {
    // create-order took an unpaid order's stock at once until this version; now paying takes it. The
    // unpaid orders made before keep what they took, marked, so paying them takes none again and
    // canceling them gives it back.
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('holds_stock', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db
        .updateTable('orders')
        .set({ holds_stock: 1 })
        .where('status', '=', 'INITIALIZED')
        .where('number', 'is not', null)
        .execute();
    },
  },
};
