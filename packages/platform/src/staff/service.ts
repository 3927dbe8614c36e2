import type { Kysely } from 'kysely';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { identityByEmail, insertIdentity, updateIdentity } from '../identity/accounts.ts';
import { loginEmail } from '../identity/errors.ts';
import { hashPassword, passwordViolation } from '../identity/passwords.ts';
import type { IdentityRow } from '../identity/tables.ts';
import type { MembersService } from '../members/service.ts';
import { sha256, type TokenService } from '../oauth/tokens.ts';
import {
  applicationError,
  type DomainError,
  invalidArgument,
  notFound,
  violation,
} from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import { isPermission, PERMISSIONS, type Permission } from '../shared/permissions.ts';
import type { Principal } from '../shared/principal.ts';
import { type Authority, OWNER_SLOT, parsePermissions, type StaffAuthorities } from './authorities.ts';
import type { StaffRoleRow, StaffRow, StaffStatus } from './tables.ts';

export interface StaffRole {
  id: string;
  name: string;
  permissions: Permission[];
  createdDate: string;
  updatedDate: string;
}

export interface StaffMember {
  id: string;
  email: string;
  /** The identity (and member) id, once the invitation is accepted. */
  identityId: string | null;
  /** `OWNER`, or the id and name of the role the owner gave them. */
  role: { id: string; name: string } | 'OWNER';
  status: StaffStatus;
  permissions: Permission[];
  createdDate: string;
  updatedDate: string;
}

/** How long an invitation may be accepted. */
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The owner's login when the environment names none. */
export const DEFAULT_OWNER_EMAIL = 'owner@cartwheel.local';

/** The permissions a principal holds: everything for the admin key, the actor's for staff and keys. */
export function grantsOf(principal: Principal): readonly Permission[] {
  if (principal.kind !== 'admin') return [];
  return principal.actor ? principal.actor.permissions : PERMISSIONS;
}

/**
 * What the staff service needs of the other domains: who is staff (its own reads, kept apart so tokens
 * and members can ask them), sessions to end, members to make for accepted invitations, and the outbox
 * for invitations.
 */
export interface StaffDependencies {
  authorities: Pick<StaffAuthorities, 'authorityOf' | 'forget'>;
  tokens: Pick<TokenService, 'endSessionsOf'>;
  members: Pick<MembersService, 'createForIdentity'>;
  mailer: Pick<Mailer, 'send'>;
}

/**
 * The store's staff: the owner (made on the first start), the roles the owner defines from
 * permissions, invitations by email, suspension. Nobody grants what they do not hold: a role, a key or
 * an invitation with a permission the caller lacks is refused, so `staff.manage` is not a way to
 * everything.
 */
export class StaffService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: StaffDependencies,
    private readonly options: { publicUrl: string; storeName: string },
  ) {}

  /**
   * Makes the store's owner unless it has one: an identity (made, or the one with that email) with
   * the owner's row. Several processes starting at once make one owner: the owner's row is unique,
   * and a process whose transaction loses finds the winner's. Answers the login when this call made
   * the owner, with the password when it set one (to print once).
   */
  async ensureOwner(given: {
    email?: string;
    password?: string;
  }): Promise<{ email: string; password?: string } | undefined> {
    if (await this.ownerRow()) return undefined;
    let email: string;
    try {
      email = loginEmail(given.email ?? DEFAULT_OWNER_EMAIL, 'CARTWHEEL_OWNER_EMAIL');
    } catch {
      throw new Error(`CARTWHEEL_OWNER_EMAIL is not a valid email address: ${given.email}`);
    }
    const password = given.password ?? newSecret(18);
    const weak = passwordViolation(password, 'CARTWHEEL_OWNER_PASSWORD');
    if (weak) throw new Error(`CARTWHEEL_OWNER_PASSWORD: ${weak.fieldViolations[0]?.description}`);
    const passwordHash = await hashPassword(password);
    try {
      return await inTransaction(this.db, async (trx) => {
        if (
          await trx.selectFrom('staff').select('id').where('owner_slot', '=', OWNER_SLOT).executeTakeFirst()
        ) {
          return undefined;
        }
        const now = new Date().toISOString();
        let identity = await identityByEmail(trx, email);
        let passwordSet = false;
        if (!identity) {
          identity = { id: newId(), password_hash: passwordHash };
          await insertIdentity(trx, ownerIdentity(identity.id, email, passwordHash, now));
          await this.deps.members.createForIdentity(
            trx,
            { id: identity.id, email, profile: { nickname: 'Owner' } },
            now,
          );
          passwordSet = true;
        } else if (given.password || !identity.password_hash) {
          await updateIdentity(trx, identity.id, {
            password_hash: passwordHash,
            email_verified: 1,
            status: 'ACTIVE',
            pending_reason: null,
            updated_at: now,
          });
          passwordSet = true;
        }
        // an invitation to that email becomes the owner's row; an owner another process just made
        // stays (its slot refuses this one's row, and the catch below answers that one)
        await trx.deleteFrom('staff').where('email', '=', email).where('owner_slot', 'is', null).execute();
        await trx
          .insertInto('staff')
          .values({
            id: newId(),
            email,
            identity_id: identity.id,
            role_id: null,
            owner_slot: OWNER_SLOT,
            status: 'ACTIVE',
            invite_token_hash: null,
            invite_expires_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        return { email, ...(passwordSet ? { password } : {}) };
      });
    } catch (error) {
      // another process made the owner (or the owner's identity) at the same moment
      if (await this.ownerRow()) return undefined;
      throw error;
    }
  }

  /** What the identity may do as staff; undefined for a member who is not (or no longer) staff. */
  authorityOf(identityId: string): Promise<Authority | undefined> {
    return this.deps.authorities.authorityOf(identityId);
  }

  // roles

  async listRoles(): Promise<StaffRole[]> {
    const rows = await this.db.selectFrom('staff_roles').selectAll().orderBy('name').execute();
    return rows.map(roleDocument);
  }

  async createRole(
    grants: readonly Permission[],
    input: { name: string; permissions: string[] },
  ): Promise<StaffRole> {
    const permissions = grantable(grants, input.permissions);
    const name = roleName(input.name);
    const now = new Date().toISOString();
    const row: StaffRoleRow = {
      id: newId(),
      name,
      permissions: JSON.stringify(permissions),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.insertInto('staff_roles').values(row).execute();
    } catch (error) {
      if (await this.db.selectFrom('staff_roles').select('id').where('name', '=', name).executeTakeFirst()) {
        throw roleNameTaken(name);
      }
      throw error;
    }
    return roleDocument(row);
  }

  async updateRole(
    grants: readonly Permission[],
    id: string,
    input: { name?: string; permissions?: string[] },
  ): Promise<StaffRole> {
    const current = await this.role(id);
    // changing a role changes what its holders may do: the caller must hold what it had and what it gets
    grantable(grants, parsePermissions(current.permissions));
    const changes: Partial<StaffRoleRow> = { updated_at: new Date().toISOString() };
    if (input.permissions !== undefined)
      changes.permissions = JSON.stringify(grantable(grants, input.permissions));
    if (input.name !== undefined) changes.name = roleName(input.name);
    try {
      await this.db.updateTable('staff_roles').set(changes).where('id', '=', id).execute();
    } catch (error) {
      if (changes.name) throw roleNameTaken(changes.name);
      throw error;
    }
    return roleDocument(await this.role(id));
  }

  async deleteRole(grants: readonly Permission[], id: string): Promise<void> {
    const current = await this.role(id);
    grantable(grants, parsePermissions(current.permissions));
    await inTransaction(this.db, async (trx) => {
      const holder = await trx.selectFrom('staff').select('id').where('role_id', '=', id).executeTakeFirst();
      if (holder) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'ROLE_IN_USE',
          `staff still hold role ${current.name}: give them another first`,
          { id },
        );
      }
      await trx.deleteFrom('staff_roles').where('id', '=', id).execute();
    });
  }

  // staff

  async list(): Promise<StaffMember[]> {
    const rows = await this.staffRows().orderBy('staff.created_at').orderBy('staff.id').execute();
    return rows.map(staffDocument);
  }

  async get(id: string): Promise<StaffMember> {
    const row = await this.staffRows().where('staff.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('staff member', id);
    return staffDocument(row);
  }

  /** The caller's own staff record (the back office asks what to show); NOT_FOUND for a member who is not staff. */
  async mine(identityId: string): Promise<StaffMember> {
    const row = await this.staffRows().where('staff.identity_id', '=', identityId).executeTakeFirst();
    if (row?.status !== 'ACTIVE') {
      throw applicationError(
        'NOT_FOUND',
        'NOT_STAFF',
        'the signed-in member is not active staff of this store',
      );
    }
    return staffDocument(row);
  }

  /**
   * Invites someone to the staff with a role: a row waiting for them and an email (through the
   * outbox) with a link whose token, accepted with a password, makes them staff. Inviting an email
   * again while the invitation waits sends a new link (the old one stops working).
   */
  async invite(
    grants: readonly Permission[],
    input: { email: string; roleId: string },
  ): Promise<StaffMember> {
    const email = loginEmail(input.email, 'email');
    const role = await this.role(input.roleId, 'roleId');
    grantable(grants, parsePermissions(role.permissions));
    const token = newSecret();
    const now = new Date();
    const expires = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
    const id = await inTransaction(this.db, async (trx) => {
      const existing = await trx
        .selectFrom('staff')
        .select(['id', 'status'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (existing && existing.status !== 'INVITED') {
        throw applicationError(
          'ALREADY_EXISTS',
          'STAFF_ALREADY_EXISTS',
          `${email} is already staff of this store`,
          { email },
        );
      }
      const fields = {
        role_id: role.id,
        invite_token_hash: sha256(token),
        invite_expires_at: expires,
        updated_at: now.toISOString(),
      };
      if (existing) {
        await trx.updateTable('staff').set(fields).where('id', '=', existing.id).execute();
        return existing.id;
      }
      const staffId = newId();
      await trx
        .insertInto('staff')
        .values({
          id: staffId,
          email,
          identity_id: null,
          owner_slot: null,
          status: 'INVITED',
          created_at: now.toISOString(),
          ...fields,
        })
        .execute();
      return staffId;
    });
    const link = `${this.options.publicUrl}/auth/staff-invitation?token=${encodeURIComponent(token)}`;
    await this.deps.mailer.send({
      kind: 'STAFF_INVITATION',
      to: email,
      subject: `You are invited to the staff of ${this.options.storeName}`,
      text: `You are invited to join the staff of ${this.options.storeName} as ${role.name}.\n\nAccept and choose your password: ${link}\n\nThe link works for 7 days.`,
      html: `<p>You are invited to join the staff of ${escapeHtml(this.options.storeName)} as ${escapeHtml(role.name)}.</p><p><a href="${escapeHtml(link)}">Accept and choose your password</a></p><p>The link works for 7 days.</p>`,
    });
    return this.get(id);
  }

  /**
   * Accepts an invitation: the token (once) and a password. The identity with the invitation's email
   * is made (or, if it exists, given this password: the link proved the email is theirs, and its other
   * sign-ins end), and the row becomes active staff.
   */
  async accept(input: { token: string; password: string }): Promise<StaffMember> {
    const weak = passwordViolation(input.password, 'password');
    if (weak) throw weak;
    const hash = sha256(input.token);
    const invitation = await this.db
      .selectFrom('staff')
      .selectAll()
      .where('invite_token_hash', '=', hash)
      .where('status', '=', 'INVITED')
      .executeTakeFirst();
    if (!invitation?.invite_expires_at || invitation.invite_expires_at <= new Date().toISOString()) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'INVITATION_NOT_VALID',
        'the invitation is not valid: it was used, replaced or has expired',
      );
    }
    const passwordHash = await hashPassword(input.password);
    const now = new Date().toISOString();
    const existing = await identityByEmail(this.db, invitation.email);
    const identityId = existing?.id ?? newId();
    const claim = async (trx: Kysely<Tables>) => {
      // single use: whoever takes the token first wins
      const taken = await trx
        .updateTable('staff')
        .set({
          identity_id: identityId,
          status: 'ACTIVE',
          invite_token_hash: null,
          invite_expires_at: null,
          updated_at: now,
        })
        .where('id', '=', invitation.id)
        .where('invite_token_hash', '=', hash)
        .where('status', '=', 'INVITED')
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'INVITATION_NOT_VALID',
          'the invitation was already accepted',
        );
      }
    };
    if (existing) {
      await this.deps.tokens.endSessionsOf(identityId, 'PASSWORD_CHANGED', {
        along: async (trx) => {
          await claim(trx);
          await updateIdentity(trx, identityId, {
            password_hash: passwordHash,
            email_verified: 1,
            must_reset_password: 0,
            updated_at: now,
          });
        },
      });
    } else {
      await inTransaction(this.db, async (trx) => {
        await insertIdentity(trx, ownerIdentity(identityId, invitation.email, passwordHash, now));
        await this.deps.members.createForIdentity(
          trx,
          { id: identityId, email: invitation.email, profile: { nickname: invitation.email.split('@')[0] } },
          now,
        );
        await claim(trx);
      });
    }
    this.deps.authorities.forget(identityId);
    return this.get(invitation.id);
  }

  async changeRole(grants: readonly Permission[], id: string, roleId: string): Promise<StaffMember> {
    const target = await this.actOn(grants, id);
    const role = await this.role(roleId, 'roleId');
    grantable(grants, parsePermissions(role.permissions));
    await this.db
      .updateTable('staff')
      .set({ role_id: role.id, updated_at: new Date().toISOString() })
      .where('id', '=', target.id)
      .execute();
    if (target.identity_id) this.deps.authorities.forget(target.identity_id);
    return this.get(id);
  }

  /**
   * Suspends a staff member: every sign-in of theirs ends (each process refuses their tokens within a
   * second, as for a blocked member) and, signed in again, they are no longer staff until reinstated.
   */
  async suspend(grants: readonly Permission[], id: string): Promise<StaffMember> {
    const target = await this.actOn(grants, id);
    const setSuspended = async (trx: Kysely<Tables>) => {
      await trx
        .updateTable('staff')
        .set({ status: 'SUSPENDED', updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    };
    if (target.identity_id) {
      await this.deps.tokens.endSessionsOf(target.identity_id, 'STAFF_SUSPENDED', { along: setSuspended });
      this.deps.authorities.forget(target.identity_id);
    } else {
      await setSuspended(this.db);
    }
    return this.get(id);
  }

  async reinstate(grants: readonly Permission[], id: string): Promise<StaffMember> {
    const target = await this.actOn(grants, id);
    if (target.status !== 'SUSPENDED') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'STAFF_NOT_SUSPENDED',
        `staff member ${id} is not suspended`,
        { id },
      );
    }
    await this.db
      .updateTable('staff')
      .set({ status: target.identity_id ? 'ACTIVE' : 'INVITED', updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'SUSPENDED')
      .execute();
    if (target.identity_id) this.deps.authorities.forget(target.identity_id);
    return this.get(id);
  }

  /** Removes someone from the staff (their member stays); their sign-ins end as on suspension. */
  async remove(grants: readonly Permission[], id: string): Promise<void> {
    const target = await this.actOn(grants, id);
    const remove = async (trx: Kysely<Tables>) => {
      await trx.deleteFrom('staff').where('id', '=', id).execute();
    };
    if (target.identity_id) {
      await this.deps.tokens.endSessionsOf(target.identity_id, 'STAFF_SUSPENDED', { along: remove });
      this.deps.authorities.forget(target.identity_id);
    } else {
      await remove(this.db);
    }
  }

  /** A staff row the caller may act on: not the owner, and holding nothing the caller does not. */
  private async actOn(
    grants: readonly Permission[],
    id: string,
  ): Promise<StaffRow & { role_permissions: string | null }> {
    const row = await this.db
      .selectFrom('staff')
      .leftJoin('staff_roles', 'staff_roles.id', 'staff.role_id')
      .selectAll('staff')
      .select('staff_roles.permissions as role_permissions')
      .where('staff.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('staff member', id);
    if (row.owner_slot === OWNER_SLOT) {
      throw applicationError(
        'PERMISSION_DENIED',
        'OWNER_IS_PERMANENT',
        'the owner cannot be suspended, removed or given a role',
      );
    }
    grantable(grants, parsePermissions(row.role_permissions));
    return row;
  }

  private staffRows() {
    return this.db
      .selectFrom('staff')
      .leftJoin('staff_roles', 'staff_roles.id', 'staff.role_id')
      .selectAll('staff')
      .select(['staff_roles.name as role_name', 'staff_roles.permissions as role_permissions']);
  }

  private async ownerRow() {
    return this.db.selectFrom('staff').select('id').where('owner_slot', '=', OWNER_SLOT).executeTakeFirst();
  }

  private async role(id: string, field?: string): Promise<StaffRoleRow> {
    const row = await this.db.selectFrom('staff_roles').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) {
      if (field) throw invalidArgument([violation(field, `names no role: ${id}`, 'VALIDATION')]);
      throw notFound('staff role', id);
    }
    return row;
  }
}

/** The permissions asked for, checked and deduplicated, when the caller holds every one of them. */
export function grantable(grants: readonly Permission[], asked: readonly string[]): Permission[] {
  const permissions = [...new Set(asked)];
  const unknown = permissions.find((permission) => !isPermission(permission));
  if (unknown !== undefined) {
    throw invalidArgument([
      violation('permissions', `names no permission: ${unknown}`, 'INVALID_ENUM_VALUE'),
    ]);
  }
  const missing = permissions.filter((permission) => !grants.includes(permission as Permission));
  if (missing.length > 0) {
    throw applicationError(
      'PERMISSION_DENIED',
      'PERMISSION_NOT_HELD',
      `nobody grants what they do not hold: the caller lacks ${missing.join(', ')}`,
      { missing },
    );
  }
  return PERMISSIONS.filter((permission) => permissions.includes(permission));
}

function roleName(value: string): string {
  const name = value.trim();
  if (name === '') throw invalidArgument([violation('name', 'is required', 'REQUIRED_FIELD')]);
  if (name.toUpperCase() === OWNER_SLOT)
    throw invalidArgument([violation('name', 'OWNER is the owner’s role', 'VALIDATION')]);
  return name;
}

function roleNameTaken(name: string): DomainError {
  return applicationError('ALREADY_EXISTS', 'ROLE_NAME_TAKEN', `a role named ${name} exists`, { name });
}

function roleDocument(row: StaffRoleRow): StaffRole {
  return {
    id: row.id,
    name: row.name,
    permissions: parsePermissions(row.permissions),
    createdDate: row.created_at,
    updatedDate: row.updated_at,
  };
}

function staffDocument(
  row: StaffRow & { role_name: string | null; role_permissions: string | null },
): StaffMember {
  const owner = row.owner_slot === OWNER_SLOT;
  return {
    id: row.id,
    email: row.email,
    identityId: row.identity_id,
    role: owner ? 'OWNER' : { id: row.role_id ?? '', name: row.role_name ?? '' },
    status: row.status,
    permissions: owner ? [...PERMISSIONS] : parsePermissions(row.role_permissions),
    createdDate: row.created_at,
    updatedDate: row.updated_at,
  };
}

/** An identity made by the store (the owner, an invited staff member): active, its email proven. */
function ownerIdentity(id: string, email: string, passwordHash: string, now: string): IdentityRow {
  return {
    id,
    email,
    email_verified: 1,
    status: 'ACTIVE',
    pending_reason: null,
    password_hash: passwordHash,
    must_reset_password: 0,
    profile: JSON.stringify({ nickname: email.split('@')[0] }),
    created_at: now,
    updated_at: now,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
