import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

export const webhookMigrations: Record<string, Migration> = {
  '0045_webhooks': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      const bigint = postgres ? 'bigint' : 'integer';
      await db.schema
        .createTable('webhook_app_keys')
        .addColumn('app_id', 'text', (col) => col.primaryKey())
        .addColumn('public_key', 'text', (col) => col.notNull())
        .addColumn('private_key', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('app_id', 'text', (col) => col.notNull())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('event_types', 'text', (col) => col.notNull())
        .addColumn('signature', 'text', (col) => col.notNull())
        .addColumn('secret', 'text')
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('paused_reason', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_endpoints_app')
        .on('webhook_endpoints')
        .columns(['app_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('endpoint_id', 'text', (col) => col.notNull())
        .addColumn('event_id', 'text', (col) => col.notNull())
        .addColumn('event_sequence', bigint, (col) => col.notNull())
        .addColumn('entity_key', 'text', (col) => col.notNull())
        .addColumn('event_type', 'text', (col) => col.notNull())
        .addColumn('data', 'text', (col) => col.notNull())
        .addColumn('identity', 'text', (col) => col.notNull())
        .addColumn('event_time', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('failures', 'integer', (col) => col.notNull())
        .addColumn('next_attempt_at', 'text', (col) => col.notNull())
        .addColumn('first_failed_at', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('delivered_at', 'text')
        // the fan-out writes each event once per endpoint, however often it reads the event
        .addUniqueConstraint('webhook_deliveries_once', ['endpoint_id', 'event_id'])
        .execute();
      // what is due, and whether an earlier event of the same entity still waits (the order's check)
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_entity')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'entity_key', 'status', 'event_sequence'])
        .execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('delivery_id', 'text', (col) => col.notNull())
        .addColumn('endpoint_id', 'text', (col) => col.notNull())
        .addColumn('attempt', 'integer', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('outcome', 'text', (col) => col.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('duration_ms', 'integer', (col) => col.notNull())
        .addColumn('response_excerpt', 'text')
        .execute();
      await db.schema
        .createIndex('webhook_attempts_delivery')
        .on('webhook_attempts')
        .columns(['delivery_id', 'attempt'])
        .execute();
      await db.schema
        .createIndex('webhook_attempts_endpoint')
        .on('webhook_attempts')
        .columns(['endpoint_id', 'at'])
        .execute();
    },
  },
  '0070_webhook_log_retention': {
    async up(db: Kysely<any>) {
      // the log's pruning finds what was delivered longest ago without reading every delivery
      await db.schema
        .createIndex('webhook_deliveries_delivered')
        .on('webhook_deliveries')
        .columns(['delivered_at'])
        .execute();
    },
  },
};
