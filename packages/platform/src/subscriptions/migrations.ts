import type { Kysely, Migration } from 'kysely';

/** Subscription contracts (issue 34): made by a checkout's subscription lines, renewed by a leased worker. */
export const subscriptionMigrations: Record<string, Migration> = {
  '0074_subscription_contracts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('subscription_contracts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('member_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('first_order_id', 'text', (col) => col.notNull().unique())
        .addColumn('doc', 'text', (col) => col.notNull())
        .addColumn('source', 'text', (col) => col.notNull())
        .addColumn('frequency', 'text', (col) => col.notNull())
        .addColumn('interval_count', 'integer', (col) => col.notNull())
        .addColumn('billing_cycles', 'integer')
        .addColumn('cycles_billed', 'integer', (col) => col.notNull())
        .addColumn('next_billing_at', 'text', (col) => col.notNull())
        .addColumn('due_at', 'text', (col) => col.notNull())
        .addColumn('anchor_at', 'text', (col) => col.notNull())
        .addColumn('anchor_cycle', 'integer', (col) => col.notNull())
        .addColumn('provider_id', 'text', (col) => col.notNull())
        .addColumn('saved_method_id', 'text', (col) => col.notNull())
        .addColumn('customer_id', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('revision', 'integer', (col) => col.notNull())
        .execute();
      // the worker reads the active contracts due by now, soonest first: a range of this index
      await db.schema
        .createIndex('subscription_contracts_due')
        .on('subscription_contracts')
        .columns(['status', 'due_at'])
        .execute();
      // a member's contracts, newest first
      await db.schema
        .createIndex('subscription_contracts_member')
        .on('subscription_contracts')
        .columns(['member_id', 'id'])
        .execute();
      await db.schema
        .createTable('subscription_renewals')
        .addColumn('contract_id', 'text', (col) => col.notNull())
        .addColumn('cycle', 'integer', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('order_id', 'text', (col) => col.notNull())
        .addColumn('try', 'integer', (col) => col.notNull())
        .addColumn('claimed_until', 'text', (col) => col.notNull())
        .addColumn('next_attempt_at', 'text')
        .addColumn('last_failure', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('subscription_renewals_pk', ['contract_id', 'cycle'])
        .execute();
      await db.schema
        .createTable('subscription_checkout_methods')
        .addColumn('attempt_id', 'text', (col) => col.primaryKey())
        .addColumn('provider_id', 'text', (col) => col.notNull())
        .addColumn('saved_method_id', 'text', (col) => col.notNull())
        .addColumn('customer_id', 'text', (col) => col.notNull())
        .addColumn('contact_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '0080_subscription_contracts_contact': {
    async up(db: Kysely<any>) {
      // the hosted query filters and sorts on the buyer's contact: a column, and its index
      await db.schema.alterTable('subscription_contracts').addColumn('contact_id', 'text').execute();
      await db.schema
        .createIndex('subscription_contracts_contact')
        .on('subscription_contracts')
        .columns(['contact_id', 'id'])
        .execute();
      // contracts made before: the contact their document's buyer holds
      let after = '';
      for (;;) {
        const rows: Array<{ id: string; doc: string }> = await db
          .selectFrom('subscription_contracts')
          .select(['id', 'doc'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .execute();
        for (const row of rows) {
          const contactId = (JSON.parse(row.doc) as { buyerInfo?: { contactId?: string | null } }).buyerInfo
            ?.contactId;
          if (contactId) {
            await db
              .updateTable('subscription_contracts')
              .set({ contact_id: contactId })
              .where('id', '=', row.id)
              .execute();
          }
        }
        if (rows.length < 500) return;
        after = rows.at(-1)!.id;
      }
    },
  },
};
