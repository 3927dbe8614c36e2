import type { Kysely, Migration } from 'kysely';

/**
 * Identities, their sessions, verifications (and which one is live), recovery tokens, the attempt log
 * and used captchas.
 */
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
  '0013_identity_guessing': {
    async up(db: Kysely<any>) {
      // one verification per identity whose code works (verification.ts)
      await db.schema
        .createTable('identity_live_verifications')
        .addColumn('identity_id', 'text', (col) =>
          col.primaryKey().references('identities.id').onDelete('cascade'),
        )
        .addColumn('verification_id', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      // the attempt log drops every key's old rows at once (throttle.ts)
      await db.schema
        .createIndex('identity_login_attempts_time')
        .on('identity_login_attempts')
        .column('attempted_at')
        .execute();
      // verifications in progress at the upgrade: the newest of each identity stays live
      await db
        .insertInto('identity_live_verifications')
        .columns(['identity_id', 'verification_id', 'updated_at'])
        .expression(
          db
            .selectFrom('identity_verifications as v')
            .select(['v.identity_id', 'v.id', 'v.created_at'])
            .where('v.completed_at', 'is', null)
            .where(({ eb, exists, not, selectFrom }) =>
              not(
                exists(
                  selectFrom('identity_verifications as w')
                    .select('w.id')
                    .whereRef('w.identity_id', '=', 'v.identity_id')
                    .where('w.completed_at', 'is', null)
                    .where((inner) =>
                      inner.or([
                        inner('w.created_at', '>', eb.ref('v.created_at')),
                        inner.and([
                          inner('w.created_at', '=', eb.ref('v.created_at')),
                          inner('w.id', '>', eb.ref('v.id')),
                        ]),
                      ]),
                    ),
                ),
              ),
            ),
        )
        .execute();
    },
  },
  '0047_identity_factors': {
    async up(db: Kysely<any>) {
      // second factors (factors.ts): one row per identity and type, its status and (TOTP) secret
      await db.schema
        .createTable('identity_factors')
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('secret', 'text')
        .addColumn('email_verification_id', 'text')
        .addColumn('last_used_step', 'integer')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('identity_factors_pk', ['identity_id', 'type'])
        .execute();
      await db.schema
        .createTable('identity_recovery_codes')
        .addColumn('code_hash', 'text', (col) => col.primaryKey())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('identity_recovery_codes_identity')
        .on('identity_recovery_codes')
        .column('identity_id')
        .execute();
      // a sign-in waiting for its second step, known by its state token
      await db.schema
        .createTable('identity_mfa_challenges')
        .addColumn('state_token_hash', 'text', (col) => col.primaryKey())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('visitor_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('email_verification_id', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('completed_at', 'text')
        .execute();
      await db.schema
        .createTable('identity_remembered_devices')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('identity_id', 'text', (col) =>
          col.notNull().references('identities.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
};
