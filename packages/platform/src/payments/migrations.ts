import type { Kysely, Migration } from 'kysely';

/** The test gateway's ledger and orders' payments. */
export const paymentMigrations: Record<string, Migration> = {
  '0019_payments': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('gateway_charges')
        .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
        .addColumn('transaction_id', 'text', (col) => col.notNull().unique())
        .addColumn('amount', 'text', (col) => col.notNull())
        .addColumn('currency', 'text', (col) => col.notNull())
        .addColumn('captured', 'integer', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('decline_code', 'text')
        .addColumn('action_id', 'text', (col) => col.unique())
        .addColumn('card_last4', 'text', (col) => col.notNull())
        .addColumn('card_brand', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('gateway_captures')
        .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
        .addColumn('transaction_id', 'text', (col) => col.notNull())
        .addColumn('amount', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('order_payments')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('amount', 'text', (col) => col.notNull())
        .addColumn('formatted_amount', 'text', (col) => col.notNull())
        .addColumn('currency', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('payment_order_id', 'text', (col) => col.notNull())
        .addColumn('gateway_transaction_id', 'text', (col) => col.notNull())
        .addColumn('provider_transaction_id', 'text', (col) => col.notNull())
        .addColumn('method_name', 'text', (col) => col.notNull())
        .addColumn('card_brand', 'text', (col) => col.notNull())
        .addColumn('card_last4', 'text', (col) => col.notNull())
        .addColumn('delayed_capture', 'integer', (col) => col.notNull())
        .addColumn('authorized_at', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('order_payments_order')
        .on('order_payments')
        .columns(['order_id', 'created_at'])
        .execute();
    },
  },
};
