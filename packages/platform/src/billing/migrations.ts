import type { Kysely, Migration } from 'kysely';

/** Capture, void and refund of orders' payments, and payments recorded by the merchant. */
export const billingMigrations: Record<string, Migration> = {
  '0028_payment_actions': {
    async up(db: Kysely<any>) {
      // a payment's capture and void (authorization details), what was captured, and whether it was
      // taken outside the platform (cash, a bank transfer) and recorded by the merchant
      await db.schema.alterTable('order_payments').addColumn('captured_amount', 'text').execute();
      await db.schema.alterTable('order_payments').addColumn('captures', 'text').execute();
      await db.schema.alterTable('order_payments').addColumn('void', 'text').execute();
      await db.schema
        .alterTable('order_payments')
        .addColumn('offline', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('order_refunds')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('order_refunds_order')
        .on('order_refunds')
        .columns(['order_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('billing_requests')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('plan', 'text', (col) => col.notNull())
        .addColumn('answer', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      // the test gateway's refunds and voids: its tables since 0042 (payments/tables.ts), made here
      // as they always were, since a shipped migration never changes
      for (const table of ['gateway_refunds', 'gateway_voids']) {
        await db.schema
          .createTable(table)
          .addColumn('idempotency_key', 'text', (col) => col.primaryKey())
          .addColumn('transaction_id', 'text', (col) => col.notNull())
          .addColumn('amount', 'text', (col) => col.notNull())
          .addColumn('status', 'text', (col) => col.notNull())
          .addColumn('created_at', 'text', (col) => col.notNull())
          .execute();
      }
    },
  },
  '0041_billing_requests_started': {
    // the sweep (BillingService.sweepStarted) finds the money calls left STARTED, oldest first
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('billing_requests_started')
        .on('billing_requests')
        .columns(['status', 'updated_at'])
        .execute();
    },
  },
};
