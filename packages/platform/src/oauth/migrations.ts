import { type Kysely, type Migration, PostgresAdapter } from 'kysely';

/** Authorization codes of the code grant; revocations every process follows; who started a request. */
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
  '0012_token_revocations': {
    async up(db: Kysely<any>) {
      // a sequence that never goes back, even once old rows are deleted: SQLite's AUTOINCREMENT
      // (a plain rowid may reuse the highest number), PostgreSQL's bigserial
      const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
      await db.schema
        .createTable('token_revocations')
        .addColumn('seq', postgres ? 'bigserial' : 'integer', (col) =>
          postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('family_id', 'text', (col) => col.notNull())
        .addColumn('member_id', 'text')
        .addColumn('reason', 'text', (col) => col.notNull())
        .addColumn('revoked_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('token_revocations_revoked_at')
        .on('token_revocations')
        .column('revoked_at')
        .execute();
      // when a member's sessions end (password, block), all their families are found by member
      await db.schema.alterTable('refresh_tokens').addColumn('signed_in_at', 'text').execute();
      await db.schema
        .createIndex('refresh_tokens_member')
        .on('refresh_tokens')
        .columns(['member_id', 'revoked_at'])
        .execute();
    },
  },
  // named for the order it runs in: after every migration of the domains before it
  '0022_oauth_authorization_requests': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('oauth_authorization_requests')
        .addColumn('client_id', 'text', (col) => col.notNull())
        .addColumn('code_challenge', 'text', (col) => col.notNull())
        .addColumn('visitor_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('oauth_authorization_requests_pk', ['client_id', 'code_challenge'])
        .execute();
      await db.schema
        .createIndex('oauth_authorization_requests_expires_at')
        .on('oauth_authorization_requests')
        .column('expires_at')
        .execute();
    },
  },
};
