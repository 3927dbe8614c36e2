/**
 * Every permission a staff role or an API key can hold, named once (issue 21). An operation names the
 * one it needs in its domain's operation table (`CALLERS.staff(...)`, shared/access.ts); the owner and the
 * environment's admin key hold them all. Capture, void and refund are separate, as on the hosted
 * platform: a role that may manage orders may not move money unless it holds them too.
 */
export const PERMISSIONS = [
  'orders.read',
  'orders.manage',
  'orders.capture',
  'orders.void',
  'orders.refund',
  'fulfillments.manage',
  'members.read',
  'members.manage',
  'products.manage',
  'settings.manage',
  'staff.manage',
  'apiKeys.manage',
  /** An app's webhook endpoints (issue 31): each app sees and manages its own. */
  'webhooks.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

/** What a route may require beyond the permissions: the owner themselves (the audit log). */
export type Requirement = Permission | 'OWNER';

export const isPermission = (value: unknown): value is Permission =>
  typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);

/** A `*.read` permission: calls needing only one change nothing, so the audit log skips them. */
export const isReadOnly = (requirement: Requirement | undefined): boolean =>
  requirement?.endsWith('.read') === true;
