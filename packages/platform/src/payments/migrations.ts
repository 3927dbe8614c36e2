import type { Kysely, Migration } from 'kysely';

/** Orders' payments, the provider that took each, and the test gateway's ledger. */
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
  '0042_payment_providers': {
    async up(db: Kysely<any>) {
      // each payment names the provider that took it; every one taken before was the test gateway's
      await db.schema.alterTable('order_payments').addColumn('provider_id', 'text').execute();
      await db
        .updateTable('order_payments')
        .set({ provider_id: 'cartwheel-test-gateway' })
        .where('offline', '=', 0)
        .execute();
      // test gateways registered under several ids share the ledger: each charge names its own
      await db.schema
        .alterTable('gateway_charges')
        .addColumn('gateway_id', 'text', (col) => col.notNull().defaultTo('cartwheel-test-gateway'))
        .execute();
      await db.schema
        .createTable('gateway_tokens')
        .addColumn('token', 'text', (col) => col.primaryKey())
        .addColumn('gateway_id', 'text', (col) => col.notNull())
        .addColumn('behaviour', 'text', (col) => col.notNull())
        .addColumn('card_last4', 'text', (col) => col.notNull())
        .addColumn('card_brand', 'text', (col) => col.notNull())
        .addColumn('used_by', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('gateway_saved_methods')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('gateway_id', 'text', (col) => col.notNull())
        .addColumn('customer_id', 'text', (col) => col.notNull())
        .addColumn('behaviour', 'text', (col) => col.notNull())
        .addColumn('card_last4', 'text', (col) => col.notNull())
        .addColumn('card_brand', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '0079_payment_provider_customers': {
    async up(db: Kysely<any>) {
      // one customer at a provider per member (Stripe's Customer), made on their first saved card
      await db.schema
        .createTable('payment_provider_customers')
        .addColumn('provider_id', 'text', (col) => col.notNull())
        .addColumn('member_id', 'text', (col) => col.notNull())
        .addColumn('customer_id', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('payment_provider_customers_pk', ['provider_id', 'member_id'])
        .execute();
    },
  },
};
