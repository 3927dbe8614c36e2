import { type Kysely, type Migration, sql } from 'kysely';

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
  /**
   * Member administration (issue 21): slugs unique whatever their case (older rows that differ only
   * in case get a suffix first), who receives a deleted member's content, the order lists sort in,
   * and the jobs bulk calls by filter run as.
   */
  '0030_members_administration': {
    async up(db: Kysely<any>) {
      const rows: Array<{ id: string; slug: string }> = await db
        .selectFrom('members')
        .select(['id', 'slug'])
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const seen = new Set<string>();
      for (const row of rows) {
        let slug = row.slug;
        for (let n = 2; seen.has(slug.toLowerCase()); n++) slug = `${row.slug}-${n}`;
        seen.add(slug.toLowerCase());
        if (slug !== row.slug)
          await db.updateTable('members').set({ slug }).where('id', '=', row.id).execute();
      }
      await db.schema
        .createIndex('members_slug_lower')
        .on('members')
        .unique()
        .expression(sql`lower(slug)`)
        .execute();
      await db.schema.alterTable('members').addColumn('content_assignee_id', 'text').execute();
      await db.schema.createIndex('members_created_at').on('members').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('member_jobs')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('filter', 'text', (col) => col.notNull())
        .addColumn('search', 'text')
        .addColumn('content_assignee_id', 'text')
        .addColumn('requested_by', 'text')
        /** The highest member id handled so far: the job walks the members in id order. */
        .addColumn('cursor', 'text')
        .addColumn('succeeded', 'integer', (col) => col.notNull())
        .addColumn('failed', 'integer', (col) => col.notNull())
        /** The first failures, each `{id, code, description}` (JSON); later ones are only counted. */
        .addColumn('failures', 'text', (col) => col.notNull())
        /** A process working the job holds it until then; past it, any process may take it over. */
        .addColumn('lease_until', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('finished_at', 'text')
        .execute();
    },
  },
};
