import type { Kysely, Migration } from 'kysely';

export const memberMigrations: Record<string, Migration> = {
  '0004_members': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('members')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('contact_id', 'text', (col) => col.notNull())
        .addColumn('slug', 'text', (col) => col.notNull().unique())
        .addColumn('privacy_status', 'text', (col) => col.notNull())
        .addColumn('activity_status', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('last_login_at', 'text')
        .execute();
    },
  },
};
