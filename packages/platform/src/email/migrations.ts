import type { Kysely, Migration } from 'kysely';

export const emailMigrations: Record<string, Migration> = {
  '0005_email': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('email_outbox')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('to_address', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('body_text', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema
        .createIndex('email_outbox_created')
        .on('email_outbox')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('email_outbox_to')
        .on('email_outbox')
        .columns(['to_address', 'created_at'])
        .execute();
    },
  },
  '0024_email_html_and_queue': {
    // Messages with an HTML part beside the text (an order confirmation), and messages written in the
    // transaction of what they tell of, delivered once it commits: the delivery finds them by status.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('email_outbox').addColumn('body_html', 'text').execute();
      await db.schema
        .createIndex('email_outbox_status')
        .on('email_outbox')
        .columns(['status', 'created_at'])
        .execute();
    },
  },
  '0040_email_event_keys': {
    // A message a subscriber of the event bus sends names its event: an event handled twice (the bus
    // delivers at least once) queues it once.
    async up(db: Kysely<any>) {
      await db.schema.alterTable('email_outbox').addColumn('event_id', 'text').execute();
      await db.schema
        .createIndex('email_outbox_event')
        .on('email_outbox')
        .column('event_id')
        .unique()
        .execute();
    },
  },
};
