import type { IdentityStatus, MemberStatus } from '@cartwheel/sdk';
import { applicationError, type DomainError } from '../shared/errors.ts';

/** A member's status is its identity's, in the members' words (point 4). */
export const MEMBER_STATUS_OF: Record<IdentityStatus, MemberStatus> = {
  PENDING: 'PENDING',
  ACTIVE: 'APPROVED',
  BLOCKED: 'BLOCKED',
  OFFLINE: 'OFFLINE',
  DELETED: 'UNKNOWN',
};

/** The identity status a member status is kept as (a filter on `status` reads this column). */
export const IDENTITY_STATUS_OF: Partial<Record<MemberStatus, IdentityStatus>> = {
  PENDING: 'PENDING',
  APPROVED: 'ACTIVE',
  BLOCKED: 'BLOCKED',
  OFFLINE: 'OFFLINE',
};

/** The staff's actions on a member's status (point 4); mute and unmute act on the activity status. */
export type StatusAction = 'approve' | 'block' | 'disconnect';

/**
 * Point 4's member transitions, as the identity statuses each action may start from and where it
 * leads. Approve lets a waiting, blocked or disconnected member (back) in; block shuts out anyone not
 * blocked yet; disconnect ends a member's sign-ins and keeps them, offline.
 */
export const TRANSITIONS: Record<StatusAction, { from: readonly IdentityStatus[]; to: IdentityStatus }> = {
  approve: { from: ['PENDING', 'BLOCKED', 'OFFLINE'], to: 'ACTIVE' },
  block: { from: ['PENDING', 'ACTIVE', 'OFFLINE'], to: 'BLOCKED' },
  disconnect: { from: ['PENDING', 'ACTIVE'], to: 'OFFLINE' },
};

/** The activity transitions: mute an active member, unmute a muted one. */
export const ACTIVITY_TRANSITIONS = {
  mute: { from: 'ACTIVE', to: 'MUTED' },
  unmute: { from: 'MUTED', to: 'ACTIVE' },
} as const;
export type ActivityAction = keyof typeof ACTIVITY_TRANSITIONS;

/** The application error of an action the member's status does not allow. */
export function transitionNotAllowed(
  memberId: string,
  action: StatusAction | ActivityAction,
  current: string,
): DomainError {
  return applicationError(
    'FAILED_PRECONDITION',
    'MEMBER_STATUS_TRANSITION_NOT_ALLOWED',
    `cannot ${action} a member whose status is ${current}`,
    { memberId, action, status: current },
  );
}
