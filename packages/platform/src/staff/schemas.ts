import Type from 'typebox';
import { Id, Nullable, OneOf, Text } from '../http/input.ts';
import { EMAIL_MAX_LENGTH } from '../identity/errors.ts';
import { PERMISSIONS } from '../shared/permissions.ts';

/** The staff calls' inputs: types and sizes; the rules (a blank name, a permission not held) are the service's. */

const Permissions = Type.Array(OneOf([...PERMISSIONS]), { maxItems: PERMISSIONS.length * 2 });
const Name = Text(100);

export const CreateRoleBody = Type.Object({
  role: Type.Object({ name: Name, permissions: Permissions }),
});

export const UpdateRoleBody = Type.Object({
  role: Type.Object({ name: Type.Optional(Name), permissions: Type.Optional(Permissions) }),
});

export const InviteBody = Type.Object({ email: Text(EMAIL_MAX_LENGTH), roleId: Id() });

export const AcceptInvitationBody = Type.Object({ token: Text(200), password: Text(1000) });

export const ChangeRoleBody = Type.Object({ roleId: Id() });

export const CreateApiKeyBody = Type.Object({
  apiKey: Type.Object({
    name: Name,
    permissions: Permissions,
    expiresDate: Type.Optional(Nullable(Text(40))),
  }),
});

export const AuditLogQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  before: Type.Optional(Id()),
});
