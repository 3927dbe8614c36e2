import { type Kysely, type Migration, sql } from 'kysely';

/** Back-in-stock requests (issue 34): asked for on an out-of-stock item, emailed when it is back. */
export const backInStockMigrations: Record<string, Migration> = {
  '0071_back_in_stock_requests': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('back_in_stock_requests')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('product_id', 'text', (col) => col.notNull())
        .addColumn('variant_id', 'text', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('contact_id', 'text')
        .addColumn('auto_notified', 'integer')
        .addColumn('item_url', 'text')
        .addColumn('catalog_reference', 'text', (col) => col.notNull())
        .addColumn('item_name', 'text', (col) => col.notNull())
        .addColumn('item_price', 'text', (col) => col.notNull())
        .addColumn('item_path', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('claim', 'text')
        .addColumn('retry_at', 'text')
        .addColumn('failure_reason', 'text')
        .addColumn('created_date', 'text', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();
      // a restock reads the waiting requests of one variant; the counts group by item and status
      await db.schema
        .createIndex('back_in_stock_requests_item')
        .on('back_in_stock_requests')
        .columns(['product_id', 'variant_id', 'status'])
        .execute();
      // the query pages by id, optionally of one status
      await db.schema
        .createIndex('back_in_stock_requests_status')
        .on('back_in_stock_requests')
        .columns(['status', 'id'])
        .execute();
      // the retry job reads what is due
      await db.schema
        .createIndex('back_in_stock_requests_due')
        .on('back_in_stock_requests')
        .columns(['retry_at'])
        .execute();
      // one waiting request per shopper and item, however many tabs ask at once
      await sql`CREATE UNIQUE INDEX back_in_stock_requests_waiting ON back_in_stock_requests (product_id, variant_id, lower(email)) WHERE status = 'RECEIVED'`.execute(
        db,
      );
      await db.schema
        .createTable('back_in_stock_settings')
        .addColumn('app_id', 'text', (col) => col.primaryKey())
        .addColumn('collecting_requests', 'integer', (col) => col.notNull())
        .addColumn('updated_date', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
