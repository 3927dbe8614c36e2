import type { Kysely, Migration } from 'kysely';

/** Checkouts, the hosted checkout page's sessions, and its payment attempts. */
export const checkoutMigrations: Record<string, Migration> = {
  '0017_checkouts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('checkouts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('cart_id', 'text')
        .addColumn('visitor_id', 'text')
        .addColumn('member_id', 'text')
        .addColumn('channel_type', 'text', (col) => col.notNull())
        .addColumn('completed', 'integer', (col) => col.notNull())
        .addColumn('order_id', 'text')
        .addColumn('inputs', 'text', (col) => col.notNull())
        .addColumn('priced', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('checkouts_cart')
        .on('checkouts')
        .columns(['cart_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('checkout_sessions')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('checkout_id', 'text', (col) => col.notNull())
        .addColumn('callbacks', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('checkout_attempts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('checkout_id', 'text', (col) => col.notNull())
        .addColumn('attempt_key', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('order_id', 'text')
        .addColumn('stock', 'text', (col) => col.notNull())
        .addColumn('amount', 'text', (col) => col.notNull())
        .addColumn('formatted_amount', 'text', (col) => col.notNull())
        .addColumn('currency', 'text', (col) => col.notNull())
        .addColumn('card_last4', 'text', (col) => col.notNull())
        .addColumn('card_brand', 'text', (col) => col.notNull())
        .addColumn('action_id', 'text')
        .addColumn('outcome', 'text')
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('checkout_attempts_key', ['checkout_id', 'attempt_key'])
        .execute();
      // stock held by 3-D Secure steps past their time is found by this when stock runs short
      await db.schema
        .createIndex('checkout_attempts_holds')
        .on('checkout_attempts')
        .columns(['status', 'expires_at'])
        .execute();
    },
  },
  '0042_checkout_attempt_provider': {
    async up(db: Kysely<any>) {
      // the payment provider an attempt charges through: its lost answer is settled with that one
      // even after the store's default changes; attempts before it were the test gateway's
      await db.schema
        .alterTable('checkout_attempts')
        .addColumn('provider_id', 'text', (col) => col.notNull().defaultTo('cartwheel-test-gateway'))
        .execute();
    },
  },
  '0051_checkouts_unfinished': {
    async up(db: Kysely<any>) {
      // the abandoned-checkout scan reads unfinished checkouts by when they last changed, from where
      // its last run stopped: a range of this index, whatever the number of checkouts
      await db.schema
        .createIndex('checkouts_unfinished')
        .on('checkouts')
        .columns(['completed', 'updated_at', 'id'])
        .execute();
    },
  },
};
