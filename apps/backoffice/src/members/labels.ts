import type { Member } from '@cartwheel/sdk';

/** A member's status in the back office's words. */
export const STATUS_LABELS: Record<string, string> = {
  PENDING: 'Waiting for approval',
  APPROVED: 'Approved',
  BLOCKED: 'Blocked',
  OFFLINE: 'Disconnected',
};

/** What the back office calls a member: their nickname, else their login email. */
export function memberName(member: Member): string {
  return member.profile?.nickname || member.loginEmail || 'Member';
}
