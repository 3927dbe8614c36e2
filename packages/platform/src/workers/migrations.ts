import type { Kysely, Migration } from 'kysely';

export const workerMigrations: Record<string, Migration> = {
  '0040_worker_leases': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('worker_leases')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('holder', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
