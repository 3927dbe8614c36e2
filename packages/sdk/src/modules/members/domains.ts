import { everyHost } from '../../transport/domains.ts';
import type { RequestSpec } from '../../transport/http.ts';

/** Members (wire contract, Hosts): `/v1/members/my` becomes `/members/v1/members/my` on every host. */
export const MEMBERS = everyHost(['/v1/members', '/members/v1/members']);

/** Tracing of one members call, named like the hosted service (`cartwheel.members.v1.Members.GetMyMember`). */
export function membersTrace(method: string): RequestSpec['trace'] {
  return { package: '@cartwheel/sdk', method: `cartwheel.members.v1.Members.${method}`, entity: 'member' };
}
