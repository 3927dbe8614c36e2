import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

export const eventMigrations: Record<string, Migration> = {
  '0014_events_outbox': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('events_outbox')
        .addColumn('sequence', postgres ? 'bigserial' : 'integer', (col) =>
          postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('id', 'text', (col) => col.notNull().unique())
        .addColumn('entity_fqdn', 'text', (col) => col.notNull())
        .addColumn('slug', 'text', (col) => col.notNull())
        .addColumn('entity_id', 'text', (col) => col.notNull())
        .addColumn('payload', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('delivered_at', 'text')
        .execute();
      // No index by entity: delivery reads in `sequence` order, and an index on a random entity id costs
      // each cart, checkout and order write a third of its SQLite time (one B-tree insert at a random page).
    },
  },
  '0040_event_bus': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      // who caused each event; rows written before this migration were the platform's as far as anyone knows
      await db.schema
        .alterTable('events_outbox')
        .addColumn('actor_type', 'text', (col) => col.notNull().defaultTo('PLATFORM'))
        .execute();
      await db.schema.alterTable('events_outbox').addColumn('actor_id', 'text').execute();
      // the subscribers' cursors say what was handled; a single `delivered_at` could not say by whom
      await db.schema.alterTable('events_outbox').dropColumn('delivered_at').execute();
      await db.schema
        .createTable('event_cursors')
        .addColumn('subscriber', 'text', (col) => col.primaryKey())
        .addColumn('sequence', postgres ? 'bigint' : 'integer', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  '0044_entity_event_sequences': {
    async up(db: Kysely<any>) {
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      // each entity's events count 1, 2, 3... (the hosted `entityEventSequence`), so a receiver sees a gap
      await db.schema
        .createTable('event_entity_sequences')
        .addColumn('entity_fqdn', 'text', (col) => col.notNull())
        .addColumn('entity_id', 'text', (col) => col.notNull())
        .addColumn('sequence', postgres ? 'bigint' : 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('event_entity_sequences_pk', ['entity_fqdn', 'entity_id'])
        // SQLite: the key is the table's one B-tree, so a counter's upsert writes one page, not two
        .$call((table) => (postgres ? table : table.modifyEnd(sql`without rowid`)))
        .execute();
      // events written before have no number; their entities' counters start after none
      await db.schema
        .alterTable('events_outbox')
        .addColumn('entity_sequence', postgres ? 'bigint' : 'integer')
        .execute();
    },
  },
};
