import type { Kysely, Migration } from 'kysely';

/** Settings, OAuth clients and refresh tokens: what every other domain leans on. */
export const coreMigrations: Record<string, Migration> = {
  '0001_core': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('settings')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('redirect_uris', 'text', (col) => col.notNull())
        .addColumn('allowed_origins', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('family_id', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('visitor_id', 'text', (col) => col.notNull())
        .addColumn('member_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
    },
  },
};
