import { refusal } from '../http/app.ts';
import { DomainError } from '../shared/errors.ts';
import type { Requirement } from '../shared/permissions.ts';
import {
  type Access,
  allows,
  type Caller,
  levelOf,
  type Principal,
  requirementOf,
} from '../shared/principal.ts';
import type { Authority } from './authorities.ts';
import type { StaffService } from './service.ts';

/**
 * The access check every call passes (http/app.ts runs it before the input is read), over the route's
 * one declaration (`config.access`: its operation's entry in its domain's operation table, see
 * shared/access.ts):
 *
 * - the environment's admin key may make every call;
 * - a route's caller level (`public`, `visitor`, `member`, `admin`) takes its callers as themselves;
 * - a route that names a requirement (a permission, or `OWNER`) also takes staff (a member's token whose
 *   identity is active staff) and API keys holding it: services then see an admin (`actor` says who),
 *   so every admin rule of theirs applies unchanged;
 * - an API key lacking the requirement is refused (on a public route it calls as nobody);
 * - nothing else is allowed: a route that declares nothing is for the admin key alone.
 */
export function accessControl(staff: StaffService) {
  return async function authorize(access: Access, caller: Caller): Promise<Principal> {
    if (caller.kind === 'admin') return caller;
    const requires = requirementOf(access);
    if (caller.kind === 'apiKey') {
      if (requires && holds(caller.permissions, requires, false)) {
        return {
          kind: 'admin',
          actor: { type: 'API_KEY', id: caller.keyId, name: caller.name, permissions: caller.permissions },
        };
      }
      if (levelOf(access) === 'public') return { kind: 'anonymous' };
      throw new DomainError(
        'PERMISSION_DENIED',
        requires ? `this API key does not hold ${requires}` : 'this call is not for API keys',
      );
    }
    if (requires && caller.kind === 'member') {
      const authority = await staff.authorityOf(caller.memberId);
      if (authority && holds(authority.permissions, requires, authority.owner)) {
        return asAdmin(authority, caller.clientId);
      }
    }
    if (allows(access, caller)) return caller;
    if (requires && caller.kind === 'member') {
      throw new DomainError('PERMISSION_DENIED', `this call needs the ${requires} permission`);
    }
    throw refusal(access, caller);
  };
}

function holds(permissions: readonly string[], requires: Requirement, owner: boolean): boolean {
  return owner || (requires !== 'OWNER' && permissions.includes(requires));
}

function asAdmin(authority: Authority, clientId: string): Principal {
  return {
    kind: 'admin',
    actor: {
      type: 'STAFF',
      id: authority.identityId,
      name: authority.email,
      permissions: authority.permissions,
      clientId,
    },
  };
}
