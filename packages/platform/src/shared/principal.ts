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
  | { kind: 'admin' };

/** Who may make a call: anyone, any token holder, a signed-in member, or an admin API key. */
export type Access = 'public' | 'visitor' | 'member' | 'admin';

/** A signed-in member as a call resolves them. */
export type MemberPrincipal = Extract<Principal, { kind: 'member' }>;

export function allows(access: Access, principal: Principal): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'visitor':
      return principal.kind !== 'anonymous';
    case 'member':
      return principal.kind === 'member';
    case 'admin':
      return principal.kind === 'admin';
  }
}
