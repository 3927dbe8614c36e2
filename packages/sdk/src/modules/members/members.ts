import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { BulkActionMetadata } from '../../types/ecom-orders.ts';
import type { Member, MemberFieldset } from '../../types/members.ts';
import type { Filter, OffsetPage, OffsetPaging, Sorting } from '../../types/paging.ts';
import { type OffsetListMetadata, pageOfList } from '../offset-list.ts';
import { segment } from '../stores/domains.ts';
import { MEMBERS, membersTrace } from './domains.ts';

/** How much of a member to return: `PUBLIC` (the platform's default), `EXTENDED` or `FULL`. */
export interface FieldsetOptions {
  fieldsets?: MemberFieldset[];
}

export interface ListMembersOptions extends FieldsetOptions {
  paging?: OffsetPaging;
  sorting?: Sorting[];
}

/** Free text over `loginEmail`, `contact.firstName`, `contact.lastName`, `profile.title`, `.nickname`, `.slug`. */
export interface MemberSearch {
  expression?: string | null;
  fields?: string[];
}

/** A members query: note the members service says `sorting` where the catalog says `sort`. */
export interface MemberQuery {
  filter?: Filter;
  paging?: OffsetPaging;
  sorting?: Sorting[];
}

export interface QueryMembersOptions extends FieldsetOptions {
  search?: MemberSearch;
}

export interface DeleteMyMemberOptions {
  /** The member who receives the deleted member's content. */
  contentAssigneeId?: string | null;
}

export interface BulkDeleteMembersByFilterOptions extends DeleteMyMemberOptions {
  search?: MemberSearch;
}

/** One member of a bulk call: whether it worked, and why not. */
export interface BulkMemberResult {
  itemMetadata?: {
    id?: string | null;
    originalIndex?: number;
    success?: boolean;
    error?: { code?: string; description?: string; data?: Record<string, unknown> | null };
  };
}

export interface BulkDeleteMembersResult {
  results?: BulkMemberResult[];
  bulkActionMetadata?: BulkActionMetadata;
}

/** A bulk call by filter runs as a job. */
export interface BulkMembersJob {
  jobId?: string;
}

/** A bulk job's progress: running or finished, its counts so far, and the first failures' reasons. */
export interface BulkMembersJobProgress {
  id: string;
  action: 'DELETE' | 'APPROVE' | 'BLOCK';
  status: 'RUNNING' | 'FINISHED';
  createdDate?: Date;
  updatedDate?: Date;
  /** When it finished, an ISO string (not a date field of point 3's entities). */
  finishedDate?: string;
  bulkActionMetadata: BulkActionMetadata;
  results: BulkMemberResult[];
}

/** The fields of a member an update may set; the id comes from the call. */
export type MemberUpdate = Omit<Member, 'id'>;

type MemberAnswer = { member: Member };

/**
 * Site members (point 7): the signed-in member's own profile, and member administration for admins.
 * Each call sends what the hosted platform's client sends (path ids repeated in the query or body);
 * single members come back unwrapped, lists as offset pages, empty answers as `void`.
 */
export const members = {
  /** `GET /v1/members/my` with `fieldsets`: the signed-in member. */
  getCurrentMember:
    (transport: Transport) =>
    async (options: FieldsetOptions = {}): Promise<Member> => {
      const answer = await transport.request<MemberAnswer>({
        method: 'GET',
        path: '/v1/members/my',
        mapping: MEMBERS,
        params: { fieldsets: options.fieldsets },
        trace: membersTrace('GetMyMember'),
      });
      return answer.member;
    },

  /** `POST /v1/members/my/slug` {slug}: the signed-in member's profile address. */
  updateCurrentMemberSlug:
    (transport: Transport) =>
    (slug: string): Promise<Member> =>
      memberOf(transport, 'POST', '/v1/members/my/slug', 'UpdateMySlug', { slug }),

  /** `POST /v1/members/{id}/slug` {id, slug}. */
  updateMemberSlug:
    (transport: Transport) =>
    (id: string, slug: string): Promise<Member> =>
      memberOf(transport, 'POST', `/v1/members/${segment(id)}/slug`, 'UpdateMemberSlug', { id, slug }),

  /** `POST /v1/members/join-community` {}: the signed-in member becomes public. */
  joinCommunity: (transport: Transport) => (): Promise<Member> =>
    memberOf(transport, 'POST', '/v1/members/join-community', 'JoinCommunity', {}),

  /** `POST /v1/members/leave-community` {}: the signed-in member becomes private. */
  leaveCommunity: (transport: Transport) => (): Promise<Member> =>
    memberOf(transport, 'POST', '/v1/members/leave-community', 'LeaveCommunity', {}),

  /** `GET /v1/members/{id}` with `fieldsets`. */
  getMember:
    (transport: Transport) =>
    async (id: string, options: FieldsetOptions = {}): Promise<Member> => {
      const answer = await transport.request<MemberAnswer>({
        method: 'GET',
        path: `/v1/members/${segment(id)}`,
        mapping: MEMBERS,
        params: { id, fieldsets: options.fieldsets },
        trace: membersTrace('GetMember'),
      });
      return answer.member;
    },

  /** `GET /v1/members` with paging, fieldsets and sorting as `.r`. */
  listMembers:
    (transport: Transport) =>
    async (options: ListMembersOptions = {}): Promise<OffsetPage<Member>> => {
      const answer = await transport.request<{ members?: Member[]; metadata?: OffsetListMetadata }>({
        method: 'GET',
        path: '/v1/members',
        mapping: MEMBERS,
        params: { paging: options.paging, fieldsets: options.fieldsets, sorting: options.sorting },
        trace: membersTrace('ListMembers'),
      });
      return pageOfList(answer.members, answer.metadata);
    },

  /** `POST /v1/members/query` {fieldsets, search, query: {filter, paging, sorting}} (offset paging). */
  queryMembers:
    (transport: Transport) =>
    async (query: MemberQuery = {}, options: QueryMembersOptions = {}): Promise<OffsetPage<Member>> => {
      const answer = await transport.request<{ members?: Member[]; metadata?: OffsetListMetadata }>({
        method: 'POST',
        path: '/v1/members/query',
        mapping: MEMBERS,
        // the hosted client puts its options before the query
        body: { fieldsets: options.fieldsets, search: options.search, query },
        trace: membersTrace('QueryMembers'),
      });
      return pageOfList(answer.members, answer.metadata);
    },

  /** `POST /v1/members/{id}/mute` {id}: the member can no longer post in the community. */
  muteMember: (transport: Transport) => (id: string) => memberAction(transport, id, 'mute', 'MuteMember'),
  /** `POST /v1/members/{id}/unmute` {id}. */
  unmuteMember: (transport: Transport) => (id: string) =>
    memberAction(transport, id, 'unmute', 'UnmuteMember'),
  /** `POST /v1/members/{id}/approve` {id}: a pending member may sign in. */
  approveMember: (transport: Transport) => (id: string) =>
    memberAction(transport, id, 'approve', 'ApproveMember'),
  /** `POST /v1/members/{id}/block` {id}: the member may no longer sign in. */
  blockMember: (transport: Transport) => (id: string) => memberAction(transport, id, 'block', 'BlockMember'),
  /** `POST /v1/members/{id}/disconnect` {id}: the member becomes an offline contact. */
  disconnectMember: (transport: Transport) => (id: string) =>
    memberAction(transport, id, 'disconnect', 'DisconnectMember'),

  /** `DELETE /v1/members/{id}?id={id}`. */
  deleteMember:
    (transport: Transport) =>
    async (id: string): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: `/v1/members/${segment(id)}`,
        mapping: MEMBERS,
        params: { id },
        trace: membersTrace('DeleteMember'),
      });
    },

  /** `DELETE /v1/members/my?contentAssigneeId=...`: the signed-in member deletes their own membership. */
  deleteMyMember:
    (transport: Transport) =>
    async (options: DeleteMyMemberOptions = {}): Promise<void> => {
      await transport.request({
        method: 'DELETE',
        path: '/v1/members/my',
        mapping: MEMBERS,
        params: { contentAssigneeId: options.contentAssigneeId },
        trace: membersTrace('DeleteMyMember'),
      });
    },

  /** `POST /v1/members/bulk/delete` {memberIds}: up to 100 members, each with its own result. */
  bulkDeleteMembers:
    (transport: Transport) =>
    (memberIds: string[]): Promise<BulkDeleteMembersResult> =>
      transport.request<BulkDeleteMembersResult>({
        method: 'POST',
        path: '/v1/members/bulk/delete',
        mapping: MEMBERS,
        body: { memberIds },
        trace: membersTrace('BulkDeleteMembers'),
      }),

  /** `POST /v1/members/bulk/delete-by-filter` {filter, contentAssigneeId, search}. */
  bulkDeleteMembersByFilter:
    (transport: Transport) =>
    (filter: Filter, options: BulkDeleteMembersByFilterOptions = {}): Promise<BulkMembersJob> =>
      transport.request<BulkMembersJob>({
        method: 'POST',
        path: '/v1/members/bulk/delete-by-filter',
        mapping: MEMBERS,
        body: { filter, contentAssigneeId: options.contentAssigneeId, search: options.search },
        trace: membersTrace('BulkDeleteMembersByFilter'),
      }),

  /** `POST /v1/members/bulk/approve-by-filter` {filter}. */
  bulkApproveMembers:
    (transport: Transport) =>
    (filter: Filter): Promise<BulkMembersJob> =>
      transport.request<BulkMembersJob>({
        method: 'POST',
        path: '/v1/members/bulk/approve-by-filter',
        mapping: MEMBERS,
        body: { filter },
        trace: membersTrace('BulkApproveMembers'),
      }),

  /** `POST /v1/members/bulk/block-by-filter` {filter}. */
  bulkBlockMembers:
    (transport: Transport) =>
    (filter: Filter): Promise<BulkMembersJob> =>
      transport.request<BulkMembersJob>({
        method: 'POST',
        path: '/v1/members/bulk/block-by-filter',
        mapping: MEMBERS,
        body: { filter },
        trace: membersTrace('BulkBlockMembers'),
      }),

  /**
   * `GET /v1/members/jobs/{jobId}`: a bulk call by filter's progress (Cartwheel's own: the hosted
   * client has no members call for it). Counts so far and the first failures with their reasons.
   */
  getBulkMembersJob:
    (transport: Transport) =>
    async (jobId: string): Promise<BulkMembersJobProgress> => {
      const answer = await transport.request<{ job: BulkMembersJobProgress }>({
        method: 'GET',
        path: `/v1/members/jobs/${segment(jobId)}`,
        mapping: MEMBERS,
        trace: membersTrace('GetBulkMembersJob'),
      });
      return answer.job;
    },

  /** `POST /v1/members` {member: {loginEmail, profile, ...}}. */
  createMember:
    (transport: Transport) =>
    (options: { member?: Member } = {}): Promise<Member> =>
      memberOf(transport, 'POST', '/v1/members', 'CreateMember', { member: options.member ?? {} }),

  /** `PATCH /v1/members/{id}` {member: {id, ...}}: only the fields given change. */
  updateMember:
    (transport: Transport) =>
    (id: string, member: MemberUpdate): Promise<Member> =>
      memberOf(transport, 'PATCH', `/v1/members/${segment(id)}`, 'UpdateMember', {
        member: { ...member, id },
      }),

  /** `DELETE /v1/members/{id}/phones?id={id}`: the member without phone numbers. */
  deleteMemberPhones: (transport: Transport) => (id: string) =>
    memberPartDeleted(transport, id, 'phones', 'DeleteMemberPhones'),
  /** `DELETE /v1/members/{id}/emails?id={id}`: the member without contact emails (the login email stays). */
  deleteMemberEmails: (transport: Transport) => (id: string) =>
    memberPartDeleted(transport, id, 'emails', 'DeleteMemberEmails'),
  /** `DELETE /v1/members/{id}/addresses?id={id}`: the member without street addresses. */
  deleteMemberAddresses: (transport: Transport) => (id: string) =>
    memberPartDeleted(transport, id, 'addresses', 'DeleteMemberAddresses'),
} satisfies ModuleDefinition;

/** A call answered with `{member}`: the member, unwrapped. */
async function memberOf(
  transport: Transport,
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  traceName: string,
  body?: unknown,
  params?: Record<string, string>,
): Promise<Member> {
  const answer = await transport.request<MemberAnswer>({
    method,
    path,
    mapping: MEMBERS,
    body,
    params,
    trace: membersTrace(traceName),
  });
  return answer.member;
}

/** `POST /v1/members/{id}/<action>` with the id repeated in the body, as the hosted client sends it. */
function memberAction(
  transport: Transport,
  id: string,
  action: 'mute' | 'unmute' | 'approve' | 'block' | 'disconnect',
  traceName: string,
): Promise<Member> {
  return memberOf(transport, 'POST', `/v1/members/${segment(id)}/${action}`, traceName, { id });
}

/** `DELETE /v1/members/{id}/<part>` with the id copied into the query, as the hosted client sends it. */
function memberPartDeleted(
  transport: Transport,
  id: string,
  part: 'phones' | 'emails' | 'addresses',
  traceName: string,
): Promise<Member> {
  return memberOf(transport, 'DELETE', `/v1/members/${segment(id)}/${part}`, traceName, undefined, { id });
}
