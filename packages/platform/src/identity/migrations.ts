import type { Kysely, Migration } from 'kysely';

/** Identities, their sessions, verifications, recovery tokens, login attempts and used captchas. */
export const identityMigrations: Record<string, Migration> = {
  '0003_identity': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('identities')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('email_verified', 'integer', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('pending_reason', 'text')
        .addColumn('password_hash', 'text')
        .addColumn('must_reset_password', 'integer', (col) => col.notNull())
        .addColumn('profile', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('identity_sessions')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('visitor_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .execute();

      await db.schema
        .createTable('identity_verifications')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('state_token_hash', 'text', (col) => col.unique())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('visitor_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('code_digest', 'text', (col) => col.notNull())
        .addColumn('code_expires_at', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull())
        .addColumn('sends', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('completed_at', 'text')
        .execute();

      await db.schema
        .createTable('identity_recovery_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('purpose', 'text', (col) => col.notNull())
        .addColumn('client_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('identity_recovery_tokens_identity')
        .on('identity_recovery_tokens')
        .columns(['identity_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('identity_login_attempts')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('throttle_key', 'text', (col) => col.notNull())
        .addColumn('attempted_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('identity_login_attempts_key')
        .on('identity_login_attempts')
        .columns(['throttle_key', 'attempted_at'])
        .execute();

      await db.schema
        .createTable('identity_captcha_uses')
        .addColumn('challenge', 'text', (col) => col.primaryKey())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
