import type { Permission, Requirement } from './permissions.ts';

/**
 * Who acts when a staff member or an app's API key makes a call as the store: services see an admin,
 * and this says which one (the audit log's "who"). Absent for the environment's admin key.
 */
export interface Actor {
  type: 'STAFF' | 'API_KEY';
  /** The staff member's identity id, or the key's id. */
  id: string;
  /** The staff member's email, or the key's name. */
  name: string;
  /** What they hold: what they may grant others (a role, a key) is bounded by it. */
  permissions: readonly Permission[];
  /** Staff: the OAuth client (the app) their token was issued to; the app whose webhooks they manage. */
  clientId?: string;
}

/** Who is calling, resolved once per request from `Authorization` (point 6). */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'visitor'; visitorId: string; clientId: string }
  | {
      kind: 'member';
      visitorId: string;
      memberId: string;
      clientId: string;
      /** The sign-in this token belongs to (its refresh-token family): what a logout ends. */
      familyId: string;
      /** When the member last proved who they are (ms since the epoch); refreshes keep it. */
      signedInAt: number;
    }
  /**
   * The admin API key, or a staff member or API key holding the permission the route asks for
   * (`actor` says which): every service's admin rules apply to them alike.
   */
  | { kind: 'admin'; actor?: Actor };

/**
 * An app's API key as `Authorization` names it, before the route's access is checked: it reaches a
 * service only as an admin with an actor (it holds the route's permission) or not at all.
 */
export interface ApiKeyCaller {
  kind: 'apiKey';
  keyId: string;
  name: string;
  permissions: readonly Permission[];
}

/** What `Authorization` resolves to; the access check turns it into the `Principal` services see. */
export type Caller = Principal | ApiKeyCaller;

/** Who may make a call, by kind: anyone, any token holder, a signed-in member, or the admin API key. */
export type CallerLevel = 'public' | 'visitor' | 'member' | 'admin';

/**
 * A route's access declaration: a caller level, or a level plus the permission (or `OWNER`) with which
 * staff and API keys may call it as admins (see `authorizeCall`, staff/access.ts).
 */
export type Access = CallerLevel | { callers: CallerLevel; requires: Requirement };

/** A signed-in member as a call resolves them. */
export type MemberPrincipal = Extract<Principal, { kind: 'member' }>;

export const levelOf = (access: Access): CallerLevel =>
  typeof access === 'string' ? access : access.callers;
export const requirementOf = (access: Access): Requirement | undefined =>
  typeof access === 'string' ? undefined : access.requires;

export function allows(access: Access, principal: Caller): boolean {
  switch (levelOf(access)) {
    case 'public':
      return true;
    case 'visitor':
      return principal.kind === 'visitor' || principal.kind === 'member' || principal.kind === 'admin';
    case 'member':
      return principal.kind === 'member';
    case 'admin':
      return principal.kind === 'admin';
  }
}
