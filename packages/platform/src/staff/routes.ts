import type { HttpApp } from '../http/app.ts';
import { IdParams } from '../http/input.ts';
import { Empty } from '../http/responses-identity.ts';
import { signedInMemberOf } from '../members/routes.ts';
import { PERMISSIONS } from '../shared/permissions.ts';
import type { ApiKeyService } from './api-keys.ts';
import type { AuditLog } from './audit.ts';
import { STAFF_OPERATIONS } from './operations-access.ts';
import {
  ApiKeyAnswer,
  ApiKeysAnswer,
  AuditLogPageAnswer,
  CreatedApiKeyAnswer,
  PermissionsAnswer,
  RoleAnswer,
  RolesAnswer,
  StaffListAnswer,
  StaffMemberAnswer,
} from './responses.ts';
import {
  AcceptInvitationBody,
  AuditLogQuery,
  ChangeRoleBody,
  CreateApiKeyBody,
  CreateRoleBody,
  InviteBody,
  UpdateRoleBody,
} from './schemas.ts';
import { grantsOf, type StaffService } from './service.ts';

/**
 * The store's staff, their roles, the apps' API keys and the audit log (issue 21), under
 * `/api/cartwheel/`: Cartwheel's own calls, the hosted platform has none of these on its wire.
 */
export function staffRoutes(
  app: HttpApp,
  services: { staff: StaffService; apiKeys: ApiKeyService; audit: AuditLog },
): void {
  const { staff, apiKeys, audit } = services;

  app.get(
    '/api/cartwheel/permissions',
    { schema: { response: { 200: PermissionsAnswer } }, config: STAFF_OPERATIONS.listPermissions },
    async () => ({ permissions: [...PERMISSIONS] }),
  );

  // roles
  const roles = '/api/cartwheel/staff-roles';
  app.get(
    roles,
    { schema: { response: { 200: RolesAnswer } }, config: STAFF_OPERATIONS.listRoles },
    async () => ({
      roles: await staff.listRoles(),
    }),
  );
  app.post(
    roles,
    { schema: { body: CreateRoleBody, response: { 200: RoleAnswer } }, config: STAFF_OPERATIONS.createRole },
    async (request) => ({
      role: await staff.createRole(grantsOf(request.principal), request.body.role),
    }),
  );
  app.patch(
    `${roles}/:id`,
    {
      schema: { params: IdParams, body: UpdateRoleBody, response: { 200: RoleAnswer } },
      config: STAFF_OPERATIONS.updateRole,
    },
    async (request) => ({
      role: await staff.updateRole(grantsOf(request.principal), request.params.id, request.body.role),
    }),
  );
  app.delete(
    `${roles}/:id`,
    { schema: { params: IdParams, response: { 200: Empty } }, config: STAFF_OPERATIONS.deleteRole },
    async (request) => {
      await staff.deleteRole(grantsOf(request.principal), request.params.id);
      return {};
    },
  );

  // staff
  const path = '/api/cartwheel/staff';
  app.get(
    path,
    { schema: { response: { 200: StaffListAnswer } }, config: STAFF_OPERATIONS.listStaff },
    async () => ({
      staff: await staff.list(),
    }),
  );
  // a signed-in member asks whether they are staff, and what they may do (the back office's menu)
  app.get(
    `${path}/me`,
    { schema: { response: { 200: StaffMemberAnswer } }, config: STAFF_OPERATIONS.getMyStaffMember },
    async (request) => ({
      staffMember: await staff.mine(signedInMemberOf(request).memberId),
    }),
  );
  app.post(
    `${path}/invitations`,
    {
      schema: { body: InviteBody, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.inviteStaffMember,
    },
    async (request) => ({
      staffMember: await staff.invite(grantsOf(request.principal), request.body),
    }),
  );
  // the invitation's link: its token is the proof, whoever holds it (a visitor on the hosted page)
  app.post(
    `${path}/invitations/accept`,
    {
      schema: { body: AcceptInvitationBody, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.acceptInvitation,
    },
    async (request) => ({ staffMember: await staff.accept(request.body) }),
  );
  app.get(
    `${path}/:id`,
    {
      schema: { params: IdParams, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.getStaffMember,
    },
    async (request) => ({
      staffMember: await staff.get(request.params.id),
    }),
  );
  app.patch(
    `${path}/:id`,
    {
      schema: { params: IdParams, body: ChangeRoleBody, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.changeStaffRole,
    },
    async (request) => ({
      staffMember: await staff.changeRole(
        grantsOf(request.principal),
        request.params.id,
        request.body.roleId,
      ),
    }),
  );
  app.post(
    `${path}/:id/suspend`,
    {
      schema: { params: IdParams, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.suspendStaffMember,
    },
    async (request) => ({
      staffMember: await staff.suspend(grantsOf(request.principal), request.params.id),
    }),
  );
  app.post(
    `${path}/:id/reinstate`,
    {
      schema: { params: IdParams, response: { 200: StaffMemberAnswer } },
      config: STAFF_OPERATIONS.reinstateStaffMember,
    },
    async (request) => ({
      staffMember: await staff.reinstate(grantsOf(request.principal), request.params.id),
    }),
  );
  app.delete(
    `${path}/:id`,
    { schema: { params: IdParams, response: { 200: Empty } }, config: STAFF_OPERATIONS.removeStaffMember },
    async (request) => {
      await staff.remove(grantsOf(request.principal), request.params.id);
      return {};
    },
  );

  // API keys
  const keys = '/api/cartwheel/api-keys';
  app.get(
    keys,
    { schema: { response: { 200: ApiKeysAnswer } }, config: STAFF_OPERATIONS.listApiKeys },
    async () => ({
      apiKeys: await apiKeys.list(),
    }),
  );
  app.post(
    keys,
    {
      schema: { body: CreateApiKeyBody, response: { 200: CreatedApiKeyAnswer } },
      config: STAFF_OPERATIONS.createApiKey,
    },
    async (request) => apiKeys.create(grantsOf(request.principal), request.body.apiKey),
  );
  app.post(
    `${keys}/:id/revoke`,
    { schema: { params: IdParams, response: { 200: ApiKeyAnswer } }, config: STAFF_OPERATIONS.revokeApiKey },
    async (request) => ({
      apiKey: await apiKeys.revoke(request.params.id),
    }),
  );

  // the audit log: the owner's (and the admin key's) to read
  app.get(
    '/api/cartwheel/audit-log',
    {
      schema: { querystring: AuditLogQuery, response: { 200: AuditLogPageAnswer } },
      config: STAFF_OPERATIONS.listAuditLog,
    },
    async (request) => audit.list(request.query),
  );
}
