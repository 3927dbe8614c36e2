import type { Kysely, Migration } from 'kysely';

export const orderViewMigrations: Record<string, Migration> = {
  '0033_order_views': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('order_views')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull().unique())
        .addColumn('params', 'text', (col) => col.notNull())
        .addColumn('saved_by', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('order_views').execute();
    },
  },
};
