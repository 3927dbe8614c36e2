import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/app.ts';
import type { Services } from '../platform.ts';
import { DomainError } from '../shared/errors.ts';

/** The signed-in member's own calls (`/members/v1/members/my...`) and a member's profile update. */
export function memberRoutes(app: HttpApp, services: Pick<Services, 'members'>): void {
  const member = { config: { access: 'member' as const } };

  app.get('/members/v1/members/my', member, async (request) => ({
    member: await services.members.getMy(memberIdOf(request)),
  }));

  app.post<{ Body: { slug?: unknown } }>('/members/v1/members/my/slug', member, async (request) => ({
    member: await services.members.updateMySlug(memberIdOf(request), request.body?.slug),
  }));

  // any token holder may ask; the service lets members change only their own profile, admins anyone's
  app.patch<{ Params: { id: string } }>(
    '/members/v1/members/:id',
    { config: { access: 'visitor' } },
    async (request) => ({
      member: await services.members.updateMember(request.principal, request.params.id, request.body),
    }),
  );
}

/** The signed-in member's id; the route's `member` access has already refused anyone else. */
export function memberIdOf(request: FastifyRequest): string {
  const principal = request.principal;
  if (principal.kind !== 'member')
    throw new DomainError('PERMISSION_DENIED', 'this call is for signed-in members');
  return principal.memberId;
}
