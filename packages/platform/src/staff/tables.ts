/** The store's staff, their roles, the apps' API keys and the audit log of what staff and keys change. */
export interface StaffTables {
  staff_roles: StaffRoleRow;
  staff: StaffRow;
  api_keys: ApiKeyRow;
  audit_log: AuditLogRow;
}

/** A role the owner defines: a name and the permissions it grants. */
export interface StaffRoleRow {
  id: string;
  name: string;
  /** JSON array of permissions (shared/permissions.ts). */
  permissions: string;
  created_at: string;
  updated_at: string;
}

export type StaffStatus = 'INVITED' | 'ACTIVE' | 'SUSPENDED';

/** A staff member: an identity (once the invitation is accepted) with the owner's role or a defined one. */
export interface StaffRow {
  id: string;
  /** Lowercased: whom the invitation went to, and the identity's login email. */
  email: string;
  /** The identity (and member: one id) once they accepted; null while invited. */
  identity_id: string | null;
  /** Null for the owner. */
  role_id: string | null;
  /** `OWNER` on the owner's row, null on every other: a unique column, so a store has one owner. */
  owner_slot: string | null;
  status: StaffStatus;
  /** SHA-256 of the invitation's token, while it may be accepted. */
  invite_token_hash: string | null;
  invite_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** An app's API key: only its hash is stored; the key itself is shown once, when it is made. */
export interface ApiKeyRow {
  id: string;
  name: string;
  /** SHA-256 (hex) of the key. */
  key_hash: string;
  /** The key's first characters, so a list can tell keys apart without holding them. */
  key_prefix: string;
  /** JSON array of permissions. */
  permissions: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** One change a staff member or an API key made: who, what, when, from where. */
export interface AuditLogRow {
  id: string;
  at: string;
  /** `STAFF`, `API_KEY` or `ADMIN_KEY` (the environment's key). */
  actor_type: string;
  actor_id: string | null;
  actor_name: string | null;
  /** The operation the call made (`staff.createRole`); null on entries written before it was kept. */
  operation: string | null;
  method: string;
  /** The route as declared (`/api/cartwheel/staff-roles/:id`) and the path called. */
  route: string;
  path: string;
  status: number;
  address: string;
  request_id: string;
}
