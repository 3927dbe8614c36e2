import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/app.ts';
import { IdParams } from '../http/input.ts';
import { Empty } from '../http/responses-identity.ts';
import type { Operation } from '../shared/access.ts';
import { DomainError } from '../shared/errors.ts';
import type { MemberPrincipal } from '../shared/principal.ts';
import { MEMBER_OPERATIONS } from './operations-access.ts';
import {
  BulkDeleteAnswer,
  JobAnswer,
  JobStartedAnswer,
  MemberAnswer,
  MemberPageAnswer,
} from './responses.ts';
import {
  BulkByFilterBody,
  BulkDeleteBody,
  CreateMemberBody,
  DeleteMemberQuery,
  DeleteMyMemberQuery,
  GetMemberQuery,
  GetMyMemberQuery,
  JobParams,
  ListMembersQuery,
  MemberActionBody,
  MemberSlugBody,
  MySlugBody,
  QueryMembersBody,
  UpdateMemberBody,
} from './schemas.ts';
import type { MembersService } from './service.ts';

/**
 * Members (point 7) at the hosted platform's paths: the signed-in member's own calls (`/my...`, the
 * community), reads for any token holder (strangers see the PUBLIC fieldset of approved public
 * members; staff everything), and member administration for staff (today: the admin API key). The
 * path's id wins over the copy the hosted client puts in the body or the query.
 */
export function memberRoutes(app: HttpApp, services: { members: MembersService }): void {
  const members = services.members;
  const path = '/members/v1/members';

  // ---- the signed-in member's own ----
  app.get(
    `${path}/my`,
    {
      schema: { querystring: GetMyMemberQuery, response: { 200: MemberAnswer } },
      config: MEMBER_OPERATIONS.getMyMember,
    },
    async (request) => ({
      member: await members.getMy(memberIdOf(request), request.query.fieldsets ?? request.query.fieldSet),
    }),
  );
  app.post(
    `${path}/my/slug`,
    { schema: { body: MySlugBody, response: { 200: MemberAnswer } }, config: MEMBER_OPERATIONS.updateMySlug },
    async (request) => ({
      member: await members.updateMySlug(memberIdOf(request), request.body.slug),
    }),
  );
  app.post(
    `${path}/join-community`,
    { schema: { response: { 200: MemberAnswer } }, config: MEMBER_OPERATIONS.joinCommunity },
    async (request) => ({
      member: await members.setCommunity(memberIdOf(request), true),
    }),
  );
  app.post(
    `${path}/leave-community`,
    { schema: { response: { 200: MemberAnswer } }, config: MEMBER_OPERATIONS.leaveCommunity },
    async (request) => ({
      member: await members.setCommunity(memberIdOf(request), false),
    }),
  );
  app.delete(
    `${path}/my`,
    {
      schema: { querystring: DeleteMyMemberQuery, response: { 200: Empty } },
      config: MEMBER_OPERATIONS.deleteMyMember,
    },
    async (request) => {
      await members.delete(memberIdOf(request), request.query.contentAssigneeId);
      return {};
    },
  );

  // ---- reads: the service decides what each caller sees ----
  app.get(
    `${path}/:id`,
    {
      schema: { params: IdParams, querystring: GetMemberQuery, response: { 200: MemberAnswer } },
      config: MEMBER_OPERATIONS.getMember,
    },
    async (request) => ({
      member: await members.getMember(request.principal, request.params.id, request.query.fieldsets),
    }),
  );
  app.get(
    path,
    {
      schema: { querystring: ListMembersQuery, response: { 200: MemberPageAnswer } },
      config: MEMBER_OPERATIONS.listMembers,
    },
    async (request) => members.listMembers(request.principal, request.query),
  );
  app.post(
    `${path}/query`,
    {
      schema: { body: QueryMembersBody, response: { 200: MemberPageAnswer } },
      config: MEMBER_OPERATIONS.queryMembers,
    },
    async (request) => members.queryMembers(request.principal, request.body ?? {}),
  );

  // any token holder may ask; the service lets members change only their own profile and slug
  app.patch(
    `${path}/:id`,
    {
      schema: { params: IdParams, body: UpdateMemberBody, response: { 200: MemberAnswer } },
      config: MEMBER_OPERATIONS.updateMember,
    },
    async (request) => ({
      member: await members.updateMember(request.principal, request.params.id, request.body),
    }),
  );
  app.post(
    `${path}/:id/slug`,
    {
      schema: { params: IdParams, body: MemberSlugBody, response: { 200: MemberAnswer } },
      config: MEMBER_OPERATIONS.updateMemberSlug,
    },
    async (request) => ({
      member: await members.updateMemberSlug(request.principal, request.params.id, request.body.slug),
    }),
  );

  // ---- staff: point 4's actions ----
  const action = (config: Operation) => ({
    schema: { params: IdParams, body: MemberActionBody, response: { 200: MemberAnswer } },
    config,
  });
  app.post(`${path}/:id/approve`, action(MEMBER_OPERATIONS.approveMember), async (request) => ({
    member: await members.approve(request.params.id),
  }));
  app.post(`${path}/:id/block`, action(MEMBER_OPERATIONS.blockMember), async (request) => ({
    member: await members.block(request.params.id),
  }));
  app.post(`${path}/:id/disconnect`, action(MEMBER_OPERATIONS.disconnectMember), async (request) => ({
    member: await members.disconnect(request.params.id),
  }));
  app.post(`${path}/:id/mute`, action(MEMBER_OPERATIONS.muteMember), async (request) => ({
    member: await members.setActivity(request.params.id, 'mute'),
  }));
  app.post(`${path}/:id/unmute`, action(MEMBER_OPERATIONS.unmuteMember), async (request) => ({
    member: await members.setActivity(request.params.id, 'unmute'),
  }));
  app.delete(
    `${path}/:id`,
    {
      schema: { params: IdParams, querystring: DeleteMemberQuery, response: { 200: Empty } },
      config: MEMBER_OPERATIONS.deleteMember,
    },
    async (request) => {
      await members.delete(request.params.id);
      return {};
    },
  );
  app.post(
    path,
    {
      schema: { body: CreateMemberBody, response: { 200: MemberAnswer } },
      config: MEMBER_OPERATIONS.createMember,
    },
    async (request) => ({
      member: await members.createMember(request.body ?? {}),
    }),
  );
  for (const [part, operation] of [
    ['phones', MEMBER_OPERATIONS.deleteMemberPhones],
    ['emails', MEMBER_OPERATIONS.deleteMemberEmails],
    ['addresses', MEMBER_OPERATIONS.deleteMemberAddresses],
  ] as const) {
    app.delete(
      `${path}/:id/${part}`,
      {
        schema: { params: IdParams, querystring: DeleteMemberQuery, response: { 200: MemberAnswer } },
        config: operation,
      },
      async (request) => ({ member: await members.deleteContactPart(request.params.id, part) }),
    );
  }

  // ---- staff: bulk calls ----
  app.post(
    `${path}/bulk/delete`,
    {
      schema: { body: BulkDeleteBody, response: { 200: BulkDeleteAnswer } },
      config: MEMBER_OPERATIONS.bulkDeleteMembers,
    },
    async (request) => members.bulkDelete(request.body?.memberIds),
  );
  for (const [slug, job, operation] of [
    ['delete-by-filter', 'DELETE', MEMBER_OPERATIONS.bulkDeleteMembersByFilter],
    ['approve-by-filter', 'APPROVE', MEMBER_OPERATIONS.bulkApproveMembers],
    ['block-by-filter', 'BLOCK', MEMBER_OPERATIONS.bulkBlockMembers],
  ] as const) {
    const byFilter = {
      schema: { body: BulkByFilterBody, response: { 200: JobStartedAnswer } },
      config: operation,
    };
    app.post(`${path}/bulk/${slug}`, byFilter, async (request) => ({
      jobId: await members.jobs.start(job, request.body ?? {}, requesterOf(request)),
    }));
  }
  app.get(
    `${path}/jobs/:jobId`,
    { schema: { params: JobParams, response: { 200: JobAnswer } }, config: MEMBER_OPERATIONS.getMemberJob },
    async (request) => ({ job: await members.jobs.get(request.params.jobId) }),
  );
}

/** Who asked for a job, as its row keeps it. */
function requesterOf(request: FastifyRequest): string {
  const principal = request.principal;
  return principal.kind === 'member' ? `member:${principal.memberId}` : principal.kind;
}

/** The signed-in member's id; the route's `member` access has already refused anyone else. */
export function memberIdOf(request: FastifyRequest): string {
  return signedInMemberOf(request).memberId;
}

/** The signed-in member with their sign-in (family, time): what a password change must know. */
export function signedInMemberOf(request: FastifyRequest): MemberPrincipal {
  const principal = request.principal;
  if (principal.kind !== 'member')
    throw new DomainError('PERMISSION_DENIED', 'this call is for signed-in members');
  return principal;
}
