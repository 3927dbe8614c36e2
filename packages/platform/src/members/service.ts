import { randomBytes } from 'node:crypto';
import type { IdentityProfile, Member, MemberRole } from '@cartwheel/sdk';
import { type Kysely, sql, type Transaction } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { editProfile, identityByEmail, insertIdentity, moveStatus } from '../identity/accounts.ts';
import { emailAlreadyExists, loginEmail } from '../identity/errors.ts';
import { emailsOf, type KeptProfile, memberCustomFieldsOf, phonesOf } from '../identity/profile.ts';
import type { IdentityRow } from '../identity/tables.ts';
import type { RevocationReason } from '../oauth/revocations.ts';
import type { TokenService } from '../oauth/tokens.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import { BULK_MAX, type BulkItemResult, bulkItem } from './bulk.ts';
import { applyMemberChanges, type MemberActor, memberChanges } from './changes.ts';
import { MemberJobs } from './jobs.ts';
import {
  compileMemberFilter,
  compileSearch,
  compileSorting,
  fieldsetOf,
  inFieldset,
  type MemberCondition,
  pagingOf,
  type Reader,
} from './query.ts';
import { isSlug, SLUG_MAX_LENGTH, slugFrom } from './slug.ts';
import {
  ACTIVITY_TRANSITIONS,
  type ActivityAction,
  MEMBER_STATUS_OF,
  type StatusAction,
  TRANSITIONS,
  transitionNotAllowed,
} from './status.ts';
import type { MemberRow } from './tables.ts';

/** Who reads and runs member administration: today the admin API key (the staff's roles come later). */
export function isStaff(principal: Principal): boolean {
  return principal.kind === 'admin';
}

/** An offset page of members, as list and query answer it. */
export interface MemberPage {
  members: Member[];
  metadata: { count: number; offset: number; total: number; tooManyToCount: boolean };
}

/** A member joined with its identity: what the wire member is made of. */
type JoinedRow = MemberRow & Pick<IdentityRow, 'email' | 'email_verified' | 'status' | 'profile'>;

const REVOCATION_OF: Record<Exclude<StatusAction, 'approve'>, RevocationReason> = {
  block: 'MEMBER_BLOCKED',
  disconnect: 'MEMBER_DISCONNECTED',
};

/** The new identity a member is made for. */
export interface NewMemberIdentity {
  id: string;
  email: string;
  profile: IdentityProfile;
}

/** Where an identity stands on the staff, as member administration asks: the owner, or active staff. */
export type StaffStanding = 'OWNER' | 'STAFF';

/**
 * What members need of the other domains, next to the service that needs it: the token service to end
 * a member's sessions, and the staff domain's word on whom member administration may not take out (the
 * owner always; staff while active).
 */
export interface MembersDependencies {
  tokens: Pick<TokenService, 'endSessionsOf'>;
  staff: {
    standingOf(memberId: string): Promise<StaffStanding | undefined>;
    /** Point 3's member roles of those among `memberIds` who are the owner or staff (the rest are MEMBER). */
    rolesOf(memberIds: readonly string[]): Promise<Map<string, Exclude<MemberRole, 'MEMBER'>>>;
  };
}

/**
 * Members: one made for every identity, the member's own read and slug, a profile update, and the
 * admin's block, approve and delete. A member's status is its identity's: blocking or deleting one
 * ends all its sessions, on every platform process.
 */
export class MembersService {
  /** The bulk calls by filter, run as jobs. */
  readonly jobs: MemberJobs;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: MembersDependencies,
    private readonly dialect: DialectName = 'sqlite',
  ) {
    this.jobs = new MemberJobs(db, this);
  }

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
    await recordEvents(executor, [await memberEvent(executor, 'created', row.id, { slug: row.slug })]);
    return row;
  }

  async row(memberId: string): Promise<MemberRow | undefined> {
    return this.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirst();
  }

  /** `GET /v1/members/my`: the signed-in member, everything included unless a smaller fieldset is asked. */
  async getMy(memberId: string, fieldsets?: unknown): Promise<Member> {
    const fieldset = fieldsetOf(fieldsets, 'FULL');
    const member = await this.document(memberId);
    if (!member) throw notFound('member', memberId);
    return inFieldset(member, fieldset);
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
    const current = await this.document(memberId);
    if (!current) throw notFound('member', memberId);
    if (current.profile?.slug !== wanted) {
      const taken = await this.slugHolder(wanted);
      if (taken && taken !== memberId) throw slugAlreadyExists(wanted);
      try {
        await this.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('members')
            .set({ slug: wanted, updated_at: new Date().toISOString() })
            .where('id', '=', memberId)
            .execute();
          await recordEvents(trx, [
            await memberEvent(trx, 'updated', memberId, { change: 'slug', slug: wanted }),
          ]);
        });
      } catch (error) {
        // someone took it between the check and the write: the unique index decides
        const raced = await this.slugHolder(wanted);
        if (raced && raced !== memberId) throw slugAlreadyExists(wanted);
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
      if (
        Object.keys(changes.identityProfile).length > 0 ||
        Object.keys(changes.lists).length > 0 ||
        changes.customFields
      ) {
        await editProfile(trx, memberId, (profile) => applyMemberChanges(profile, changes), now);
      }
      await trx
        .updateTable('members')
        .set({ ...(changes.privacyStatus ? { privacy_status: changes.privacyStatus } : {}), updated_at: now })
        .where('id', '=', memberId)
        .execute();
      await recordEvents(trx, [await memberEvent(trx, 'updated', memberId, { change: 'profile' })]);
    });
    return this.getMy(memberId);
  }

  /** `POST /v1/members/{id}/slug` {slug}: staff set anyone's slug, a member only their own. */
  async updateMemberSlug(actor: Principal, memberId: string, slug: unknown): Promise<Member> {
    if (!isStaff(actor) && !(actor.kind === 'member' && actor.memberId === memberId)) {
      throw new DomainError('PERMISSION_DENIED', "only staff may change another member's slug");
    }
    return this.updateMySlug(memberId, slug);
  }

  /** `POST /v1/members/join-community` and `/leave-community`: the member's own privacy. */
  async setCommunity(memberId: string, joined: boolean): Promise<Member> {
    await this.existing(memberId);
    const privacyStatus = joined ? 'PUBLIC' : 'PRIVATE';
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('members')
        .set({ privacy_status: privacyStatus, updated_at: new Date().toISOString() })
        .where('id', '=', memberId)
        .execute();
      await recordEvents(trx, [
        await memberEvent(trx, 'updated', memberId, { change: 'privacy', privacyStatus }),
      ]);
    });
    return this.getMy(memberId);
  }

  /** `GET /v1/members/{id}`: staff and the member themselves choose the fieldset; others see PUBLIC. */
  async getMember(actor: Principal, memberId: string, fieldsets: unknown): Promise<Member> {
    const self = actor.kind === 'member' && actor.memberId === memberId;
    const asked = fieldsetOf(fieldsets, 'PUBLIC');
    const member = await this.document(memberId);
    // a stranger learns nothing of a member who is not approved, not even that they exist
    if (!member || (!isStaff(actor) && !self && member.status !== 'APPROVED'))
      throw notFound('member', memberId);
    return inFieldset(member, isStaff(actor) || self ? asked : 'PUBLIC');
  }

  /** `GET /v1/members`: a page of members, newest first unless sorted otherwise. */
  async listMembers(
    actor: Principal,
    input: { paging?: unknown; fieldsets?: unknown; sorting?: unknown },
  ): Promise<MemberPage> {
    return this.page(actor, { paging: input.paging, sorting: input.sorting, fieldsets: input.fieldsets });
  }

  /** `POST /v1/members/query` {query: {filter, paging, sorting}, fieldsets, search}. */
  async queryMembers(
    actor: Principal,
    input: {
      query?: { filter?: unknown; paging?: unknown; sorting?: unknown; sort?: unknown };
      fieldsets?: unknown;
      search?: unknown;
    },
  ): Promise<MemberPage> {
    const reader = this.readerOf(actor);
    return this.page(actor, {
      paging: input.query?.paging,
      // the members service says `sorting`; the hosted client's query builder sends `sort`
      sorting: input.query?.sorting ?? input.query?.sort,
      fieldsets: input.fieldsets,
      where: [compileMemberFilter(input.query?.filter, reader), compileSearch(input.search, reader)],
      pagingField: 'query.paging',
      sortingField:
        input.query?.sorting === undefined && input.query?.sort !== undefined
          ? 'query.sort'
          : 'query.sorting',
    });
  }

  private readerOf(actor: Principal): Reader {
    return { staff: isStaff(actor), dialect: this.dialect };
  }

  private async page(
    actor: Principal,
    input: {
      paging: unknown;
      sorting: unknown;
      fieldsets: unknown;
      where?: MemberCondition[];
      pagingField?: string;
      sortingField?: string;
    },
  ): Promise<MemberPage> {
    const reader = this.readerOf(actor);
    const { limit, offset } = pagingOf(input.paging, input.pagingField);
    const orderings = compileSorting(input.sorting, reader, input.sortingField);
    // checked for everyone; a stranger gets the PUBLIC fieldset whatever they ask
    const asked = fieldsetOf(input.fieldsets, 'PUBLIC');
    const fieldset = reader.staff ? asked : 'PUBLIC';
    const conditions = [...(input.where ?? [])];
    // a stranger lists the approved members who are in the community, and no one else
    if (!reader.staff) {
      conditions.push((eb) =>
        eb.and([eb('identities.status', '=', 'ACTIVE'), eb('members.privacy_status', '=', 'PUBLIC')]),
      );
    }
    const base = this.db
      .selectFrom('members')
      .innerJoin('identities', 'identities.id', 'members.id')
      .where('identities.status', '!=', 'DELETED')
      .where((eb) => eb.and(conditions.map((condition) => condition(eb))));
    let rows = base
      .selectAll('members')
      .select(['identities.email', 'identities.email_verified', 'identities.status', 'identities.profile']);
    for (const ordering of orderings) rows = rows.orderBy(ordering.ref, ordering.descending ? 'desc' : 'asc');
    const [found, counted] = await Promise.all([
      limit === 0 ? Promise.resolve([]) : rows.orderBy('members.id').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
    ]);
    const roles = await this.deps.staff.rolesOf(found.map((row) => row.id));
    const members = (found as JoinedRow[]).map((row) =>
      inFieldset(documentOf(row, roles.get(row.id) ?? 'MEMBER'), fieldset),
    );
    return {
      members,
      metadata: { count: members.length, offset, total: Number(counted?.total ?? 0), tooManyToCount: false },
    };
  }

  /** `POST /v1/members/{id}/approve`, `/block`, `/disconnect` (staff): point 4's transitions. */
  async block(memberId: string): Promise<Member> {
    return this.transition(memberId, 'block');
  }

  async approve(memberId: string): Promise<Member> {
    return this.transition(memberId, 'approve');
  }

  async disconnect(memberId: string): Promise<Member> {
    return this.transition(memberId, 'disconnect');
  }

  /**
   * Moves a member along point 4's transitions, refusing one its status does not allow with an
   * application error. The status changes only from a status the action allows (a conditional write),
   * so two staff acting at once cannot both pass. Block and disconnect end every sign-in of the member
   * in the same transaction: refresh tokens renew nothing, access tokens are refused on every process.
   */
  async transition(memberId: string, action: StatusAction): Promise<Member> {
    const identity = await this.existing(memberId);
    if (action !== 'approve') await this.refuseStaff(memberId, action);
    const rule = TRANSITIONS[action];
    if (!rule.from.includes(identity.status)) {
      throw transitionNotAllowed(memberId, action, MEMBER_STATUS_OF[identity.status]);
    }
    const change = async (trx: Transaction<Tables>) => {
      const now = new Date().toISOString();
      const moved = await moveStatus(trx, memberId, { in: rule.from }, rule.to, now);
      if (moved !== true)
        throw transitionNotAllowed(memberId, action, moved ? MEMBER_STATUS_OF[moved] : 'UNKNOWN');
      await trx.updateTable('members').set({ updated_at: now }).where('id', '=', memberId).execute();
      await recordEvents(trx, [
        await memberEvent(trx, 'updated', memberId, { change: action, status: MEMBER_STATUS_OF[rule.to] }),
      ]);
    };
    if (action === 'approve') await inTransaction(this.db, change);
    else await this.deps.tokens.endSessionsOf(memberId, REVOCATION_OF[action], { along: change });
    return this.getMy(memberId);
  }

  /** `POST /v1/members/{id}/mute` and `/unmute` (staff): the activity status, nothing else. */
  async setActivity(memberId: string, action: ActivityAction): Promise<Member> {
    const member = await this.document(memberId);
    if (!member) throw notFound('member', memberId);
    const rule = ACTIVITY_TRANSITIONS[action];
    await inTransaction(this.db, async (trx) => {
      const moved = await trx
        .updateTable('members')
        .set({ activity_status: rule.to, updated_at: new Date().toISOString() })
        .where('id', '=', memberId)
        .where('activity_status', '=', rule.from)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) {
        throw transitionNotAllowed(memberId, action, member.activityStatus ?? 'UNKNOWN');
      }
      await recordEvents(trx, [
        await memberEvent(trx, 'updated', memberId, { change: action, activityStatus: rule.to }),
      ]);
    });
    return this.getMy(memberId);
  }

  /**
   * `DELETE /v1/members/{id}` (staff) and `DELETE /v1/members/my`: the member is gone from every read
   * and may never sign in again; every session ends now. The identity stays, marked DELETED, so its
   * email cannot be taken over; the slug is freed. `contentAssigneeId` names the member who receives
   * the deleted member's content (kept on the row); it must be another member who exists.
   */
  async delete(memberId: string, contentAssigneeId?: unknown, field = 'contentAssigneeId'): Promise<void> {
    await this.existing(memberId);
    await this.refuseStaff(memberId, 'delete');
    let assignee: string | null = null;
    if (contentAssigneeId !== undefined && contentAssigneeId !== null && contentAssigneeId !== '') {
      if (typeof contentAssigneeId !== 'string')
        throw invalidArgument([violation(field, 'must be a member id', 'FORMAT')]);
      if (contentAssigneeId === memberId)
        throw invalidArgument([
          violation(field, 'must be another member than the one deleted', 'VALIDATION'),
        ]);
      if (!(await this.document(contentAssigneeId)))
        throw invalidArgument([violation(field, `names no member (${contentAssigneeId})`, 'VALIDATION')]);
      assignee = contentAssigneeId;
    }
    await this.deps.tokens.endSessionsOf(memberId, 'MEMBER_DELETED', {
      along: async (trx) => {
        const now = new Date().toISOString();
        if ((await moveStatus(trx, memberId, { notIn: ['DELETED'] }, 'DELETED', now)) !== true)
          throw notFound('member', memberId);
        await trx
          .updateTable('members')
          .set({ slug: `deleted.${memberId}`, content_assignee_id: assignee, updated_at: now })
          .where('id', '=', memberId)
          .execute();
        await recordEvents(trx, [
          await memberEvent(trx, 'deleted', memberId, { contentAssigneeId: assignee }),
        ]);
      },
    });
  }

  /** `POST /v1/members/bulk/delete` {memberIds}: each member deleted on its own, each with its result. */
  async bulkDelete(memberIds: unknown): Promise<{
    results: BulkItemResult[];
    bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
  }> {
    if (!Array.isArray(memberIds) || memberIds.length === 0)
      throw invalidArgument([violation('memberIds', 'must list at least one member id', 'REQUIRED_FIELD')]);
    if (memberIds.length > BULK_MAX)
      throw invalidArgument([violation('memberIds', `lists at most ${BULK_MAX} members`, 'MAX_SIZE')]);
    const results: BulkItemResult[] = [];
    for (const [index, id] of memberIds.entries()) {
      results.push(await bulkItem(String(id), index, () => this.delete(String(id))));
    }
    const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
    return {
      results,
      bulkActionMetadata: {
        totalSuccesses,
        totalFailures: results.length - totalSuccesses,
        undetailedFailures: 0,
      },
    };
  }

  /**
   * `POST /v1/members` {member} (staff): a new member with its identity, approved, with no password
   * (they set one through the recovery or activation email). The login email is required and unused.
   */
  async createMember(input: { member?: Record<string, unknown> | null }): Promise<Member> {
    const given = input.member ?? {};
    const email = loginEmail(given.loginEmail, 'member.loginEmail');
    const now = new Date().toISOString();
    const id = newId();
    // the patch rules check every other field, against an empty member
    const changes = memberChanges({ member: { ...given, loginEmail: undefined } }, { id });
    const profile: KeptProfile = {};
    applyMemberChanges(profile, changes);
    if (typeof profile.nickname !== 'string') profile.nickname = email.split('@')[0] || email;
    if (changes.slug !== undefined && !isSlug(changes.slug.trim())) {
      throw invalidArgument([violation('member.profile.slug', 'is not a valid slug', 'FORMAT')]);
    }
    if (changes.slug !== undefined && (await this.slugHolder(changes.slug.trim()))) {
      throw slugAlreadyExists(changes.slug.trim());
    }
    if (await identityByEmail(this.db, email)) throw emailAlreadyExists();
    try {
      await this.db.transaction().execute(async (trx) => {
        await insertIdentity(trx, {
          id,
          email,
          email_verified: 0,
          status: 'ACTIVE',
          pending_reason: null,
          password_hash: null,
          must_reset_password: 0,
          profile: JSON.stringify(profile),
          created_at: now,
          updated_at: now,
        });
        await this.createForIdentity(
          trx,
          {
            id,
            email,
            profile: {
              nickname: profile.nickname,
              ...(changes.slug ? { slug: changes.slug.trim() } : {}),
              ...(changes.privacyStatus ? { privacyStatus: changes.privacyStatus } : {}),
            },
          },
          now,
        );
      });
    } catch (error) {
      if (await identityByEmail(this.db, email)) throw emailAlreadyExists();
      throw error;
    }
    return this.getMy(id);
  }

  /** `DELETE /v1/members/{id}/phones`, `/emails`, `/addresses` (staff): the member without them. */
  async deleteContactPart(memberId: string, part: 'phones' | 'emails' | 'addresses'): Promise<Member> {
    await this.existing(memberId);
    await inTransaction(this.db, async (trx) => {
      const now = new Date().toISOString();
      await editProfile(
        trx,
        memberId,
        (profile) => {
          for (const field of KEPT_AS[part]) delete profile[field];
        },
        now,
      );
      await trx.updateTable('members').set({ updated_at: now }).where('id', '=', memberId).execute();
      await recordEvents(trx, [await memberEvent(trx, 'updated', memberId, { change: part })]);
    });
    return this.getMy(memberId);
  }

  /** The ids of members a filter and search match (staff's view), after `after`, in id order. */
  async idsMatching(
    filter: unknown,
    search: unknown,
    after: string | null,
    limit: number,
  ): Promise<string[]> {
    const reader: Reader = { staff: true, dialect: this.dialect };
    const where = [compileMemberFilter(filter, reader, 'filter'), compileSearch(search, reader)];
    let query = this.db
      .selectFrom('members')
      .innerJoin('identities', 'identities.id', 'members.id')
      .select('members.id')
      .where('identities.status', '!=', 'DELETED')
      .where((eb) => eb.and(where.map((condition) => condition(eb))));
    if (after !== null) query = query.where('members.id', '>', after);
    const rows = await query.orderBy('members.id').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /** Checks a filter and search before a job is made of them: bad input is the caller's, at once. */
  checkFilter(filter: unknown, search: unknown): void {
    if (filter === undefined || filter === null)
      throw invalidArgument([violation('filter', 'is required', 'REQUIRED_FIELD')]);
    const reader: Reader = { staff: true, dialect: this.dialect };
    compileMemberFilter(filter, reader, 'filter');
    compileSearch(search, reader);
  }

  /** The member holding a slug, whatever its case. */
  private async slugHolder(slug: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('members')
      .select('id')
      .where(sql`lower(slug)`, '=', slug.toLowerCase())
      .executeTakeFirst();
    return row?.id;
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
    const roles = await this.deps.staff.rolesOf([row.id]);
    return documentOf(row, roles.get(row.id) ?? 'MEMBER');
  }

  /**
   * Refuses to block, disconnect or delete the store's owner (never) or an active staff member (the
   * staff calls suspend or remove them first): member administration is no back door around them.
   */
  private async refuseStaff(memberId: string, action: 'block' | 'disconnect' | 'delete'): Promise<void> {
    const standing = await this.deps.staff.standingOf(memberId);
    if (standing === 'OWNER') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'OWNER_IS_PERMANENT',
        `the store's owner cannot be ${ACTION_DONE[action]} through member administration`,
        { memberId, action },
      );
    }
    if (standing === 'STAFF') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'MEMBER_IS_ACTIVE_STAFF',
        `member ${memberId} is active staff: suspend or remove them through the staff calls before they are ${ACTION_DONE[action]}`,
        { memberId, action },
      );
    }
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

  /** `base` if no member has it, else `base-<6 hex>`: a clash there is one in sixteen million. */
  private async freeSlug(executor: Kysely<Tables>, base: string): Promise<string> {
    let candidate = base;
    for (let tries = 0; tries < 5; tries += 1) {
      const taken = await executor
        .selectFrom('members')
        .select('id')
        .where(sql`lower(slug)`, '=', candidate.toLowerCase())
        .executeTakeFirst();
      if (!taken) return candidate;
      candidate = `${base.slice(0, SLUG_MAX_LENGTH - 7)}-${randomBytes(3).toString('hex')}`;
    }
    return `${base.slice(0, SLUG_MAX_LENGTH - 13)}-${randomBytes(6).toString('hex')}`;
  }
}

/** Where a contact list is kept in the identity's profile (tagged, and the plain list of older rows). */
const KEPT_AS = {
  phones: ['phonesV2', 'phones'],
  emails: ['secondaryEmails', 'emails'],
  addresses: ['addresses'],
} as const;

/**
 * The wire member of a member row joined with its identity, with its role when the caller read it
 * (point 3: the staff domain's word, MembersDependencies.staff).
 */
export function documentOf(row: JoinedRow, role?: MemberRole): Member {
  const profile = JSON.parse(row.profile) as KeptProfile;
  const extraEmails = emailsOf(profile)
    .map((entry) => entry.email)
    .filter((email) => email !== row.email);
  const customFields = memberCustomFieldsOf(profile);
  return {
    id: row.id,
    loginEmail: row.email,
    loginEmailVerified: Boolean(row.email_verified),
    status: MEMBER_STATUS_OF[row.status],
    contactId: row.contact_id,
    contact: {
      firstName: profile.firstName ?? null,
      lastName: profile.lastName ?? null,
      phones: phonesOf(profile).map((entry) => entry.phone),
      emails: [row.email, ...extraEmails],
      addresses: (profile.addresses ?? []).map((wrapper) => ({ ...wrapper.address })),
      ...(profile.company ? { company: profile.company } : {}),
      ...(profile.position ? { jobTitle: profile.position } : {}),
      ...(profile.birthdate ? { birthdate: profile.birthdate } : {}),
      ...(Object.keys(customFields).length > 0 ? { customFields } : {}),
    },
    profile: {
      nickname: profile.nickname ?? null,
      slug: row.slug,
      ...(profile.picture ? { photo: { url: profile.picture } } : {}),
    },
    privacyStatus: row.privacy_status,
    activityStatus: row.activity_status,
    ...(role ? { role } : {}),
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
    ...(row.last_login_at ? { lastLoginDate: new Date(row.last_login_at) } : {}),
  };
}

/**
 * Point 4's member created, updated and deleted events: what the change was, with the member's id, and
 * (created and updated) the member as the change left it, read in the change's transaction: the hosted
 * event's entity, which an app's webhook receives.
 */
async function memberEvent(
  executor: Kysely<Tables>,
  slug: 'created' | 'updated' | 'deleted',
  memberId: string,
  change: Record<string, unknown>,
): Promise<DomainEvent> {
  const payload: Record<string, unknown> = { memberId, ...change };
  if (slug !== 'deleted') {
    const row = await executor
      .selectFrom('members')
      .innerJoin('identities', 'identities.id', 'members.id')
      .selectAll('members')
      .select(['identities.email', 'identities.email_verified', 'identities.status', 'identities.profile'])
      .where('members.id', '=', memberId)
      .executeTakeFirst();
    if (row) payload.member = documentOf(row as JoinedRow);
  }
  return { entity: 'member', slug, entityId: memberId, payload };
}

const ACTION_DONE = { block: 'blocked', disconnect: 'disconnected', delete: 'deleted' } as const;

const slugAlreadyExists = (slug: string) =>
  applicationError('ALREADY_EXISTS', 'SLUG_ALREADY_EXISTS', `another member has the slug ${slug}`, { slug });
