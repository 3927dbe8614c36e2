import type { Kysely, Migration } from 'kysely';

/** An order's fulfillments: the line quantities shipped, with their tracking. */
export const fulfillmentMigrations: Record<string, Migration> = {
  '0027_order_fulfillments': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('order_fulfillments')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .execute();
      // an order's fulfillments are read (and counted) together, oldest first
      await db.schema
        .createIndex('order_fulfillments_order')
        .on('order_fulfillments')
        .columns(['order_id', 'created_at', 'id'])
        .execute();
    },
  },
};
