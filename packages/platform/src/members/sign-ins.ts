import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { holdUnless } from '../identity/accounts.ts';
import type { IdentityRow } from '../identity/tables.ts';

/** Identity statuses whose member may not sign in or renew a sign-in. */
export const SIGNED_OUT_STATUSES: ReadonlySet<IdentityRow['status']> = new Set([
  'BLOCKED',
  'DELETED',
  'OFFLINE',
]);

/**
 * The members domain's one answer the token service needs: whether a member may still be signed in.
 * It stands apart from `MembersService` (which ends sessions through the token service), so tokens are
 * built from it before members are built from tokens.
 */
export class MemberSignIns {
  constructor(private readonly db: Kysely<Tables>) {}

  /**
   * Whether the member may still sign in or renew a sign-in, asked by the token service inside the
   * transaction that stores the new refresh token (`executor`). A write that changes nothing takes the
   * identity's row lock until that transaction commits, on both databases: a block or delete at the
   * same moment either committed first (and its status is read here) or waits, and then ends the new
   * sign-in with the others.
   */
  async maySignIn(memberId: string, executor: Kysely<Tables> = this.db): Promise<boolean> {
    return holdUnless(executor, memberId, [...SIGNED_OUT_STATUSES]);
  }
}
