import type { Kysely, Migration } from 'kysely';

/** Authorization codes of the code grant. */
export const oauthMigrations: Record<string, Migration> = {
  '0006_oauth_codes': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_codes')
        .addColumn('code_hash', 'text', (col) => col.primaryKey())
        .addColumn('client_id', 'text', (col) => col.notNull())
        .addColumn('redirect_uri', 'text')
        .addColumn('code_challenge', 'text', (col) => col.notNull())
        .addColumn('sealed_tokens', 'text', (col) => col.notNull())
        .addColumn('token_family', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .execute();
    },
  },
};
