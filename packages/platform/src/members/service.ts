import { randomBytes } from 'node:crypto';
import type { IdentityProfile, Member } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { statusAfterOwnerApproval } from '../identity/login-flow.ts';
import type { IdentityRow } from '../identity/tables.ts';
import type { TokenService } from '../oauth/tokens.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { type MemberActor, memberChanges } from './changes.ts';
import { isSlug, SLUG_MAX_LENGTH, slugFrom } from './slug.ts';
import { MEMBER_STATUS_OF } from './status.ts';
import type { MemberRow } from './tables.ts';

/** The new identity a member is made for. */
export interface NewMemberIdentity {
  id: string;
  email: string;
  profile: IdentityProfile;
}

/** Identity statuses whose member may not sign in or renew a sign-in. */
const SIGNED_OUT_STATUSES: ReadonlySet<IdentityRow['status']> = new Set(['BLOCKED', 'DELETED', 'OFFLINE']);

/**
 * Members: one made for every identity, the member's own read and slug, a profile update, and the
 * admin's block, approve and delete. A member's status is its identity's: blocking or deleting one
 * ends all its sessions, on every platform process.
 */
export class MembersService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly tokens: TokenService,
  ) {}

  /** Makes the member of a new identity; pass the identity's transaction as `executor`. */
  async createForIdentity(
    executor: Kysely<Tables>,
    identity: NewMemberIdentity,
    now: string,
  ): Promise<MemberRow> {
    const wanted = identity.profile.slug?.trim();
    const base = wanted && isSlug(wanted) ? wanted : slugFrom(identity.profile.nickname, identity.email);
    const row: MemberRow = {
      id: identity.id,
      contact_id: newId(),
      slug: await this.freeSlug(executor, base),
      privacy_status: identity.profile.privacyStatus === 'PRIVATE' ? 'PRIVATE' : 'PUBLIC',
      activity_status: 'ACTIVE',
      created_at: now,
      updated_at: now,
      last_login_at: null,
    };
    await executor.insertInto('members').values(row).execute();
    return row;
  }

  async row(memberId: string): Promise<MemberRow | undefined> {
    return this.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirst();
  }

  /** `GET /v1/members/my`: the signed-in member, everything included. */
  async getMy(memberId: string): Promise<Member> {
    const member = await this.document(memberId);
    if (!member) throw notFound('member', memberId);
    return member;
  }

  /** `POST /v1/members/my/slug`: a new profile address; someone else's slug is refused. */
  async updateMySlug(memberId: string, slug: unknown): Promise<Member> {
    if (typeof slug !== 'string' || slug.trim() === '') {
      throw invalidArgument([violation('slug', 'is required', 'REQUIRED_FIELD')]);
    }
    const wanted = slug.trim();
    if (!isSlug(wanted)) {
      throw invalidArgument([
        violation(
          'slug',
          `must be at most ${SLUG_MAX_LENGTH} letters, digits, '.', '_' or '-', starting with a letter or digit`,
          'FORMAT',
        ),
      ]);
    }
    const current = await this.row(memberId);
    if (!current) throw notFound('member', memberId);
    if (current.slug !== wanted) {
      const taken = await this.db
        .selectFrom('members')
        .select('id')
        .where('slug', '=', wanted)
        .executeTakeFirst();
      if (taken) throw slugAlreadyExists(wanted);
      try {
        await this.db
          .updateTable('members')
          .set({ slug: wanted, updated_at: new Date().toISOString() })
          .where('id', '=', memberId)
          .execute();
      } catch (error) {
        // someone took it between the check and the write: the unique index decides
        const raced = await this.db
          .selectFrom('members')
          .select('id')
          .where('slug', '=', wanted)
          .executeTakeFirst();
        if (raced && raced.id !== memberId) throw slugAlreadyExists(wanted);
        throw error;
      }
    }
    return this.getMy(memberId);
  }

  /**
   * `PATCH /v1/members/{id}`: the fields given change, the rest stay. A member may change only their
   * own profile; an admin anyone's. Names, nickname, photo and company live in the identity's profile,
   * slug and privacy on the member row; the login email is the identity's and is changed there.
   */
  async updateMember(actor: MemberActor, memberId: string, input: unknown): Promise<Member> {
    if (actor.kind !== 'admin' && !(actor.kind === 'member' && actor.memberId === memberId)) {
      throw new DomainError('PERMISSION_DENIED', 'a member may update only their own profile');
    }
    const current = await this.document(memberId);
    if (!current) throw notFound('member', memberId);
    const changes = memberChanges(input, current);

    if (changes.slug !== undefined) await this.updateMySlug(memberId, changes.slug);
    const now = new Date().toISOString();
    await this.db.transaction().execute(async (trx) => {
      if (Object.keys(changes.identityProfile).length > 0) {
        const identity = await trx
          .selectFrom('identities')
          .select('profile')
          .where('id', '=', memberId)
          .executeTakeFirstOrThrow();
        const profile = { ...(JSON.parse(identity.profile) as Record<string, unknown>) };
        for (const [field, value] of Object.entries(changes.identityProfile)) {
          if (value === null) delete profile[field];
          else profile[field] = value;
        }
        await trx
          .updateTable('identities')
          .set({ profile: JSON.stringify(profile), updated_at: now })
          .where('id', '=', memberId)
          .execute();
      }
      await trx
        .updateTable('members')
        .set({ ...(changes.privacyStatus ? { privacy_status: changes.privacyStatus } : {}), updated_at: now })
        .where('id', '=', memberId)
        .execute();
    });
    return this.getMy(memberId);
  }

  /** `POST /v1/members/{id}/block` (admin): the member may no longer sign in; every session ends now. */
  async block(memberId: string): Promise<Member> {
    await this.existing(memberId);
    await this.tokens.endSessionsOf(memberId, 'MEMBER_BLOCKED', {
      along: (trx) => this.setStatus(trx, memberId, 'BLOCKED'),
    });
    return this.getMy(memberId);
  }

  /**
   * `POST /v1/members/{id}/approve` (admin): a member waiting for the owner may sign in, and a blocked
   * one may again. A member waiting for their email keeps waiting for it.
   */
  async approve(memberId: string): Promise<Member> {
    const identity = await this.existing(memberId);
    const next =
      identity.status === 'BLOCKED'
        ? { status: 'ACTIVE' as const, pendingReason: null }
        : statusAfterOwnerApproval({
            status: identity.status,
            pendingReason: identity.pending_reason,
            emailVerified: Boolean(identity.email_verified),
          });
    if (next.status !== identity.status || next.pendingReason !== identity.pending_reason) {
      await this.setStatus(this.db, memberId, next.status, next.pendingReason);
    }
    return this.getMy(memberId);
  }

  /**
   * `DELETE /v1/members/{id}` (admin): the member is gone from every read and may never sign in again;
   * every session ends now. The identity stays, marked DELETED, so its email cannot be taken over.
   */
  async delete(memberId: string): Promise<void> {
    await this.existing(memberId);
    await this.tokens.endSessionsOf(memberId, 'MEMBER_DELETED', {
      along: (trx) => this.setStatus(trx, memberId, 'DELETED'),
    });
  }

  /**
   * Whether the member may still sign in or renew a sign-in, asked by the token service inside the
   * transaction that stores the new refresh token (`executor`). A write that changes nothing takes the
   * identity's row lock until that transaction commits, on both databases: a block or delete at the
   * same moment either committed first (and its status is read here) or waits, and then ends the new
   * sign-in with the others.
   */
  async maySignIn(memberId: string, executor: Kysely<Tables> = this.db): Promise<boolean> {
    const held = await executor
      .updateTable('identities')
      .set((eb) => ({ status: eb.ref('status') }))
      .where('id', '=', memberId)
      .where('status', 'not in', [...SIGNED_OUT_STATUSES])
      .executeTakeFirst();
    return Number(held.numUpdatedRows) > 0;
  }

  async recordLogin(memberId: string, at = new Date().toISOString()): Promise<void> {
    await this.db.updateTable('members').set({ last_login_at: at }).where('id', '=', memberId).execute();
  }

  /** The wire member: the member's own columns with its identity's email, status and profile. */
  async document(memberId: string): Promise<Member | undefined> {
    const row = await this.db
      .selectFrom('members')
      .innerJoin('identities', 'identities.id', 'members.id')
      .selectAll('members')
      .select(['identities.email', 'identities.email_verified', 'identities.status', 'identities.profile'])
      .where('members.id', '=', memberId)
      .where('identities.status', '!=', 'DELETED')
      .executeTakeFirst();
    if (!row) return undefined;
    const profile = JSON.parse(row.profile) as IdentityProfile;
    return {
      id: row.id,
      loginEmail: row.email,
      loginEmailVerified: Boolean(row.email_verified),
      status: MEMBER_STATUS_OF[row.status],
      contactId: row.contact_id,
      contact: {
        firstName: profile.firstName ?? null,
        lastName: profile.lastName ?? null,
        phones: [],
        emails: [row.email],
        addresses: [],
        ...(profile.company ? { company: profile.company } : {}),
        ...(profile.position ? { jobTitle: profile.position } : {}),
        ...(profile.birthdate ? { birthdate: profile.birthdate } : {}),
      },
      profile: {
        nickname: profile.nickname ?? null,
        slug: row.slug,
        ...(profile.picture ? { photo: { url: profile.picture } } : {}),
      },
      privacyStatus: row.privacy_status,
      activityStatus: row.activity_status,
      createdDate: new Date(row.created_at),
      updatedDate: new Date(row.updated_at),
      ...(row.last_login_at ? { lastLoginDate: new Date(row.last_login_at) } : {}),
    };
  }

  /** The identity of a member that exists (not deleted); NOT_FOUND otherwise. */
  private async existing(memberId: string): Promise<IdentityRow> {
    const identity = await this.db
      .selectFrom('identities')
      .innerJoin('members', 'members.id', 'identities.id')
      .selectAll('identities')
      .where('identities.id', '=', memberId)
      .where('identities.status', '!=', 'DELETED')
      .executeTakeFirst();
    if (!identity) throw notFound('member', memberId);
    return identity;
  }

  private async setStatus(
    executor: Kysely<Tables>,
    memberId: string,
    status: IdentityRow['status'],
    pendingReason: IdentityRow['pending_reason'] = null,
  ): Promise<void> {
    const now = new Date().toISOString();
    await executor
      .updateTable('identities')
      .set({ status, pending_reason: pendingReason, updated_at: now })
      .where('id', '=', memberId)
      .execute();
    await executor.updateTable('members').set({ updated_at: now }).where('id', '=', memberId).execute();
  }

  /** `base` if no member has it, else `base-<6 hex>`: a clash there is one in sixteen million. */
  private async freeSlug(executor: Kysely<Tables>, base: string): Promise<string> {
    let candidate = base;
    for (let tries = 0; tries < 5; tries += 1) {
      const taken = await executor
        .selectFrom('members')
        .select('id')
        .where('slug', '=', candidate)
        .executeTakeFirst();
      if (!taken) return candidate;
      candidate = `${base.slice(0, SLUG_MAX_LENGTH - 7)}-${randomBytes(3).toString('hex')}`;
    }
    return `${base.slice(0, SLUG_MAX_LENGTH - 13)}-${randomBytes(6).toString('hex')}`;
  }
}

const slugAlreadyExists = (slug: string) =>
  applicationError('ALREADY_EXISTS', 'SLUG_ALREADY_EXISTS', `another member has the slug ${slug}`, { slug });
