import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { DIALECTS, type TestPlatform } from './support/platform.ts';
import { startUpgradedPlatform } from './support/upgrade.ts';

/**
 * A store saved before slugs were unique whatever their case (`0030_members_administration`): members
 * whose slugs differ only in case keep the oldest as it was, the later ones get a suffix, and from then
 * on the database refuses a second slug of any case.
 */
const BEFORE = '0025_orders_buyer_email';
const SLUGS = ['Ada', 'ada', 'ADA', 'bob'];

describe.each(DIALECTS)('members saved before slugs ignored case, opened on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startUpgradedPlatform({ dialect, before: BEFORE }, async (db, database) => {
      for (const [index, slug] of SLUGS.entries()) {
        const at = `2026-01-0${index + 1}T00:00:00.000Z`;
        const id = `old-member-${index}`;
        await db
          .insertInto('identities')
          .values({
            id,
            email: `${id}@example.com`,
            email_verified: 1,
            status: 'ACTIVE',
            pending_reason: null,
            password_hash: null,
            must_reset_password: 0,
            profile: JSON.stringify({ nickname: slug }),
            created_at: at,
            updated_at: at,
          })
          .execute();
        await db
          .insertInto('members')
          .values({
            id,
            contact_id: `contact-${index}`,
            slug,
            privacy_status: 'PUBLIC',
            activity_status: 'ACTIVE',
            created_at: at,
            updated_at: at,
            last_login_at: null,
          })
          .execute();
      }
    });
  });
  afterAll(() => platform?.stop());

  it('keeps the oldest slug, suffixes the others, and refuses a new one of another case', async () => {
    const slugs: string[] = [];
    for (const index of SLUGS.keys()) {
      const response = await fetch(`${platform.url}/members/v1/members/old-member-${index}`, {
        headers: { authorization: platform.adminApiKey },
      });
      slugs.push(((await response.json()) as any).member.profile.slug);
    }
    expect(slugs).toEqual(['Ada', 'ada-2', 'ADA-3', 'bob']);
    await expect(
      platform.services.database.db
        .updateTable('members')
        .set({ slug: 'BOB' })
        .where('id', '=', 'old-member-0')
        .execute(),
    ).rejects.toThrow();
  });
});
