import type { IdentityStatus, MemberStatus } from '@cartwheel/sdk';

/** A member's status is its identity's, in the members' words (point 4). */
export const MEMBER_STATUS_OF: Record<IdentityStatus, MemberStatus> = {
  PENDING: 'PENDING',
  ACTIVE: 'APPROVED',
  BLOCKED: 'BLOCKED',
  OFFLINE: 'OFFLINE',
  DELETED: 'UNKNOWN',
};
