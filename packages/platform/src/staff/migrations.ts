import type { Kysely, Migration } from 'kysely';

export const staffMigrations: Record<string, Migration> = {
  '0031_staff_and_keys': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('staff_roles')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull().unique())
        .addColumn('permissions', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('staff')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('identity_id', 'text', (col) => col.unique())
        .addColumn('role_id', 'text')
        .addColumn('owner_slot', 'text', (col) => col.unique())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('invite_token_hash', 'text', (col) => col.unique())
        .addColumn('invite_expires_at', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('staff_by_role').on('staff').column('role_id').execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('key_hash', 'text', (col) => col.notNull().unique())
        .addColumn('key_prefix', 'text', (col) => col.notNull())
        .addColumn('permissions', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('actor_type', 'text', (col) => col.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('method', 'text', (col) => col.notNull())
        .addColumn('route', 'text', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('status', 'integer', (col) => col.notNull())
        .addColumn('address', 'text', (col) => col.notNull())
        .addColumn('request_id', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('audit_log_by_time').on('audit_log').columns(['at', 'id']).execute();
    },
  },
  // issue 37: an entry names the operation (`orders.cancelOrder`), whichever route or API served it;
  // entries written before say only their route
  '0046_audit_log_operation': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('audit_log').addColumn('operation', 'text').execute();
    },
  },
};
