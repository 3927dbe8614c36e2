import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

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
};
