import { CALLERS, operationTable } from '../shared/access.ts';

const STAFF_MANAGERS = CALLERS.staff('staff.manage');
const KEY_MANAGERS = CALLERS.staff('apiKeys.manage');

/**
 * The store's staff, their roles, the apps' API keys and the audit log (issue 21): Cartwheel's own
 * operations, the hosted platform has none of these. A staff member reads their own standing as a
 * signed-in member; an invitation is accepted by its code, by anyone; the audit log is the owner's.
 */
export const STAFF_OPERATIONS = operationTable('staff', {
  listPermissions: STAFF_MANAGERS,
  listRoles: STAFF_MANAGERS,
  createRole: STAFF_MANAGERS,
  updateRole: STAFF_MANAGERS,
  deleteRole: STAFF_MANAGERS,
  listStaff: STAFF_MANAGERS,
  getMyStaffMember: CALLERS.members,
  inviteStaffMember: STAFF_MANAGERS,
  acceptInvitation: CALLERS.anyone,
  getStaffMember: STAFF_MANAGERS,
  changeStaffRole: STAFF_MANAGERS,
  suspendStaffMember: STAFF_MANAGERS,
  reinstateStaffMember: STAFF_MANAGERS,
  removeStaffMember: STAFF_MANAGERS,
  listApiKeys: KEY_MANAGERS,
  createApiKey: KEY_MANAGERS,
  revokeApiKey: KEY_MANAGERS,
  listAuditLog: CALLERS.staff('OWNER'),
});
