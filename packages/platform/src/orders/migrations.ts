import type { Kysely, Migration } from 'kysely';
import { buyerEmail } from './model.ts';

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
  '0025_orders_buyer_email': {
    // A guest's orders join the account that proves their email (OrderService.adoptGuestOrders): the
    // buyer's email, in lower case, is a column of its own, indexed with whose orders they are.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('buyer_email', 'text').execute();
      let after = '';
      for (;;) {
        const rows: Array<{ id: string; doc: string }> = await db
          .selectFrom('orders')
          .select(['id', 'doc'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute();
        for (const row of rows) {
          const email = (JSON.parse(row.doc) as { buyerInfo?: { email?: unknown } }).buyerInfo?.email;
          if (typeof email !== 'string' || email.trim() === '') continue;
          await db
            .updateTable('orders')
            .set({ buyer_email: buyerEmail(email) })
            .where('id', '=', row.id)
            .execute();
        }
        if (rows.length < 500) break;
        after = rows[rows.length - 1]!.id;
      }
      await db.schema
        .createIndex('orders_buyer_email')
        .on('orders')
        .columns(['buyer_email', 'member_id'])
        .execute();
    },
  },
};
