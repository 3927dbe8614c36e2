/** Who is calling, resolved once per request from `Authorization` (point 6). */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'visitor'; visitorId: string; clientId: string }
  | { kind: 'member'; visitorId: string; memberId: string; clientId: string }
  | { kind: 'admin' };

/** Who may make a call: anyone, any token holder, a signed-in member, or an admin API key. */
export type Access = 'public' | 'visitor' | 'member' | 'admin';

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
