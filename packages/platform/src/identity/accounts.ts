import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { KeptProfile } from './profile.ts';
import type { IdentityRow } from './tables.ts';

/**
 * The writes to `identities` that other domains ask for: members (an identity a merchant creates, a
 * profile edited, a status moved, a member deleted, a sign-in held) and staff (the owner's and an
 * invited person's identity). Identity owns the table; these run in the caller's transaction
 * (`executor`), so a member's or a staff change and its identity's commit together.
 */

/** The identity with this email, if any (emails are stored as sign-in keys: trimmed, lower case). */
export async function identityByEmail(
  executor: Kysely<Tables>,
  email: string,
): Promise<Pick<IdentityRow, 'id' | 'password_hash'> | undefined> {
  return executor
    .selectFrom('identities')
    .select(['id', 'password_hash'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function insertIdentity(executor: Kysely<Tables>, row: IdentityRow): Promise<void> {
  await executor.insertInto('identities').values(row).execute();
}

/** Changes an identity's columns (a password set, an email proven, a status); answers whether it was there. */
export async function updateIdentity(
  executor: Kysely<Tables>,
  id: string,
  set: Partial<Omit<IdentityRow, 'id' | 'created_at'>> & { updated_at: string },
): Promise<boolean> {
  const result = await executor.updateTable('identities').set(set).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Rewrites an identity's profile with `edit`, read and written in `executor`'s transaction. */
export async function editProfile(
  executor: Kysely<Tables>,
  id: string,
  edit: (profile: KeptProfile) => void,
  now: string,
): Promise<void> {
  const row = await executor
    .selectFrom('identities')
    .select('profile')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const profile = { ...(JSON.parse(row.profile) as KeptProfile) };
  edit(profile);
  await executor
    .updateTable('identities')
    .set({ profile: JSON.stringify(profile), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Moves an identity to `to` only from one of `from` (a block, an approval, a deletion); answers the
 * status it has when it did not move (undefined: no such identity), or true when it moved.
 */
export async function moveStatus(
  executor: Kysely<Tables>,
  id: string,
  from: { in: readonly IdentityRow['status'][] } | { notIn: readonly IdentityRow['status'][] },
  to: IdentityRow['status'],
  now: string,
): Promise<true | IdentityRow['status'] | undefined> {
  const moved = await executor
    .updateTable('identities')
    .set({ status: to, pending_reason: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in' in from ? 'in' : 'not in', [...('in' in from ? from.in : from.notIn)])
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0) return true;
  const row = await executor
    .selectFrom('identities')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}

/**
 * Holds the identity's row until `executor`'s transaction ends when it is in none of `statuses` (a
 * write that changes nothing takes the row lock on both databases); answers whether it was held.
 */
export async function holdUnless(
  executor: Kysely<Tables>,
  id: string,
  statuses: readonly IdentityRow['status'][],
): Promise<boolean> {
  const held = await executor
    .updateTable('identities')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', id)
    .where('status', 'not in', [...statuses])
    .executeTakeFirst();
  return Number(held.numUpdatedRows) > 0;
}
