import type { FastifyRequest } from 'fastify';
import { CALLERS, type HttpApp } from '../http/app.ts';
import { IdParams } from '../http/input.ts';
import type { Services } from '../platform.ts';
import { DomainError } from '../shared/errors.ts';
import type { MemberPrincipal } from '../shared/principal.ts';
import { DeleteMemberQuery, MemberActionBody, MySlugBody, UpdateMemberBody } from './schemas.ts';

/**
 * The signed-in member's own calls (`/members/v1/members/my...`), a member's profile update, and the
 * admin's block, approve and delete (routes say nothing of access: admin only).
 */
export function memberRoutes(app: HttpApp, services: Pick<Services, 'members'>): void {
  const members = services.members;
  const path = '/members/v1/members';

  app.get(`${path}/my`, { config: CALLERS.members }, async (request) => ({
    member: await members.getMy(memberIdOf(request)),
  }));

  app.post(`${path}/my/slug`, { schema: { body: MySlugBody }, config: CALLERS.members }, async (request) => ({
    member: await members.updateMySlug(memberIdOf(request), request.body.slug),
  }));

  // any token holder may ask; the service lets members change only their own profile, admins anyone's
  app.patch(
    `${path}/:id`,
    {
      schema: { params: IdParams, body: UpdateMemberBody },
      config: CALLERS.tokenHoldersOrStaff('members.manage'),
    },
    async (request) => ({
      member: await members.updateMember(request.principal, request.params.id, request.body),
    }),
  );

  // the path's id wins over the copy the hosted client puts in the body or the query
  app.post(
    `${path}/:id/block`,
    { schema: { params: IdParams, body: MemberActionBody }, config: CALLERS.staff('members.manage') },
    async (request) => ({
      member: await members.block(request.params.id),
    }),
  );
  app.post(
    `${path}/:id/approve`,
    { schema: { params: IdParams, body: MemberActionBody }, config: CALLERS.staff('members.manage') },
    async (request) => ({ member: await members.approve(request.params.id) }),
  );
  app.delete(
    `${path}/:id`,
    { schema: { params: IdParams, querystring: DeleteMemberQuery }, config: CALLERS.staff('members.manage') },
    async (request) => {
      await members.delete(request.params.id);
      return {};
    },
  );
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
