import { CALLERS, operationTable } from '../shared/access.ts';

/** Member administration (issue 21): the admin key, staff and API keys holding members.manage. */
const MEMBER_MANAGERS = CALLERS.staff('members.manage');

/**
 * The hosted SDK's `members` operations: the signed-in member's own (`/my...`, the community), reads
 * for any token holder (the service decides what each sees: strangers the PUBLIC fieldset of approved
 * public members, staff everything), a profile's updates for any token holder (the service lets
 * members change only their own), and member administration for staff.
 */
export const MEMBER_OPERATIONS = operationTable('members', {
  getMyMember: CALLERS.members,
  updateMySlug: CALLERS.members,
  joinCommunity: CALLERS.members,
  leaveCommunity: CALLERS.members,
  deleteMyMember: CALLERS.members,
  getMember: CALLERS.tokenHoldersOrStaff('members.read'),
  listMembers: CALLERS.tokenHoldersOrStaff('members.read'),
  queryMembers: CALLERS.tokenHoldersOrStaff('members.read'),
  updateMember: CALLERS.tokenHoldersOrStaff('members.manage'),
  updateMemberSlug: CALLERS.tokenHoldersOrStaff('members.manage'),
  approveMember: MEMBER_MANAGERS,
  blockMember: MEMBER_MANAGERS,
  disconnectMember: MEMBER_MANAGERS,
  muteMember: MEMBER_MANAGERS,
  unmuteMember: MEMBER_MANAGERS,
  deleteMember: MEMBER_MANAGERS,
  createMember: MEMBER_MANAGERS,
  deleteMemberPhones: MEMBER_MANAGERS,
  deleteMemberEmails: MEMBER_MANAGERS,
  deleteMemberAddresses: MEMBER_MANAGERS,
  bulkDeleteMembers: MEMBER_MANAGERS,
  bulkDeleteMembersByFilter: MEMBER_MANAGERS,
  bulkApproveMembers: MEMBER_MANAGERS,
  bulkBlockMembers: MEMBER_MANAGERS,
  /** A bulk job's progress (Cartwheel's own: the hosted platform answers it elsewhere). */
  getMemberJob: MEMBER_MANAGERS,
});
