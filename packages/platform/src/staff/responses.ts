import Type from 'typebox';
import { Choice, NullableText } from '../http/responses-identity.ts';
import { PERMISSIONS } from '../shared/permissions.ts';

/** What the staff, role, API key and audit log calls answer (the SDK's modules/cartwheel/store-admin.ts). */

const Permission = Choice(PERMISSIONS);
const Dated = { createdDate: Type.String(), updatedDate: Type.String() };

export const PermissionsAnswer = Type.Object({ permissions: Type.Array(Permission) });

const StaffRole = Type.Object({
  id: Type.String(),
  name: Type.String(),
  permissions: Type.Array(Permission),
  ...Dated,
});
export const RolesAnswer = Type.Object({ roles: Type.Array(StaffRole) });
export const RoleAnswer = Type.Object({ role: StaffRole });

/** A staff record (SDK `StaffRecord`): `OWNER`, or the role the owner gave them. */
const StaffMember = Type.Object({
  id: Type.String(),
  email: Type.String(),
  identityId: NullableText,
  role: Type.Union([Type.Literal('OWNER'), Type.Object({ id: Type.String(), name: Type.String() })]),
  status: Choice(['INVITED', 'ACTIVE', 'SUSPENDED']),
  permissions: Type.Array(Permission),
  ...Dated,
});
export const StaffListAnswer = Type.Object({ staff: Type.Array(StaffMember) });
export const StaffMemberAnswer = Type.Object({ staffMember: StaffMember });

const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  keyPrefix: Type.String(),
  permissions: Type.Array(Permission),
  createdDate: Type.String(),
  expiresDate: NullableText,
  lastUsedDate: NullableText,
  revokedDate: NullableText,
});
export const ApiKeysAnswer = Type.Object({ apiKeys: Type.Array(ApiKey) });
export const ApiKeyAnswer = Type.Object({ apiKey: ApiKey });
/** A new key: the only answer that shows the key itself. */
export const CreatedApiKeyAnswer = Type.Object({ apiKey: ApiKey, key: Type.String() });

/** A page of the audit log (SDK `AuditLogPage`), newest first. */
export const AuditLogPageAnswer = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      date: Type.String(),
      actor: Type.Object({ type: Type.String(), id: NullableText, name: NullableText }),
      operation: NullableText,
      method: Type.String(),
      route: Type.String(),
      path: Type.String(),
      status: Type.Number(),
      address: Type.String(),
      requestId: Type.String(),
    }),
  ),
  nextCursor: NullableText,
});
