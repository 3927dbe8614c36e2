import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { StaffStanding } from '../members/service.ts';
import { isPermission, PERMISSIONS, type Permission } from '../shared/permissions.ts';

/** What a signed-in staff member may do, as the access check reads it. */
export interface Authority {
  staffId: string;
  identityId: string;
  email: string;
  owner: boolean;
  /** `OWNER`, or the name of their role. */
  role: string;
  permissions: readonly Permission[];
}

/** How long what a staff member may do is kept in a process's memory: a role change or suspension shows within it. */
const AUTHORITY_TTL_MS = 500;
/** The permissions that move money. */
const MONEY_PERMISSIONS: readonly Permission[] = ['orders.capture', 'orders.void', 'orders.refund'];
/** The owner's `owner_slot` (unique: one owner), and the role name the owner's tokens carry. */
export const OWNER_SLOT = 'OWNER';

/**
 * Who is staff and what they may do: the staff domain's reads that the token service (the role a
 * member's tokens carry) and member administration (whom it may not take out) ask. They stand apart
 * from `StaffService`, which ends sessions through the token service and makes members, so tokens and
 * members are built from them before the staff service is built from tokens and members. The staff
 * service `forget`s an identity whose standing it changes.
 */
export class StaffAuthorities {
  private readonly authorities = new Map<string, { at: number; authority: Authority | undefined }>();

  constructor(private readonly db: Kysely<Tables>) {}

  /** What the identity may do as staff; undefined for a member who is not (or no longer) staff. */
  async authorityOf(identityId: string): Promise<Authority | undefined> {
    const now = Date.now();
    const known = this.authorities.get(identityId);
    if (known && now - known.at < AUTHORITY_TTL_MS) return known.authority;
    const row = await this.db
      .selectFrom('staff')
      .leftJoin('staff_roles', 'staff_roles.id', 'staff.role_id')
      .select([
        'staff.id',
        'staff.email',
        'staff.owner_slot',
        'staff.status',
        'staff_roles.name',
        'staff_roles.permissions',
      ])
      .where('staff.identity_id', '=', identityId)
      .executeTakeFirst();
    const authority: Authority | undefined =
      row && row.status === 'ACTIVE'
        ? {
            staffId: row.id,
            identityId,
            email: row.email,
            owner: row.owner_slot === OWNER_SLOT,
            role: row.owner_slot === OWNER_SLOT ? OWNER_SLOT : (row.name ?? ''),
            permissions: row.owner_slot === OWNER_SLOT ? PERMISSIONS : parsePermissions(row.permissions),
          }
        : undefined;
    if (this.authorities.size >= 10_000) this.authorities.clear();
    this.authorities.set(identityId, { at: now, authority });
    return authority;
  }

  /** The owner, or active staff (read now, not from the cache: it guards a change). */
  async standingOf(identityId: string): Promise<StaffStanding | undefined> {
    const row = await this.db
      .selectFrom('staff')
      .select(['owner_slot', 'status'])
      .where('identity_id', '=', identityId)
      .executeTakeFirst();
    if (row?.owner_slot === OWNER_SLOT) return 'OWNER';
    return row?.status === 'ACTIVE' ? 'STAFF' : undefined;
  }

  /**
   * Whether the identity is the owner, or active staff whose role moves money (capture, void,
   * refund): those the store may require a second step of at sign-in (identity's `handlesMoney`).
   */
  async handlesMoney(identityId: string): Promise<boolean> {
    const authority = await this.authorityOf(identityId);
    return (
      authority !== undefined &&
      (authority.owner || authority.permissions.some((permission) => MONEY_PERMISSIONS.includes(permission)))
    );
  }

  /**
   * Point 3's member roles of the identities among `identityIds` on the staff: the owner is OWNER, a
   * staff member CONTRIBUTOR while active (invited or suspended staff are members like any other).
   */
  async rolesOf(identityIds: readonly string[]): Promise<Map<string, 'OWNER' | 'CONTRIBUTOR'>> {
    const roles = new Map<string, 'OWNER' | 'CONTRIBUTOR'>();
    if (identityIds.length === 0) return roles;
    const rows = await this.db
      .selectFrom('staff')
      .select(['identity_id', 'owner_slot', 'status'])
      .where('identity_id', 'in', [...identityIds])
      .execute();
    for (const row of rows) {
      if (!row.identity_id) continue;
      if (row.owner_slot === OWNER_SLOT) roles.set(row.identity_id, 'OWNER');
      else if (row.status === 'ACTIVE') roles.set(row.identity_id, 'CONTRIBUTOR');
    }
    return roles;
  }

  /** Drops what this process keeps of the identity's authority: its standing just changed. */
  forget(identityId: string): void {
    this.authorities.delete(identityId);
  }
}

/** A role's permissions as stored (JSON text), those this version knows. */
export function parsePermissions(text: string | null | undefined): Permission[] {
  if (!text) return [];
  return (JSON.parse(text) as unknown[]).filter(isPermission);
}
