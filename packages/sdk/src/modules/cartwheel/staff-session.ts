import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import { CARTWHEEL_API } from './domains.ts';

/** A permission a staff role or an app's key can hold (the platform's `staff/permissions.ts`). */
export type StaffPermission =
  | 'orders.read'
  | 'orders.manage'
  | 'orders.capture'
  | 'orders.void'
  | 'orders.refund'
  | 'fulfillments.manage'
  | 'members.read'
  | 'members.manage'
  | 'products.manage'
  | 'settings.manage'
  | 'staff.manage'
  | 'apiKeys.manage'
  | 'webhooks.manage';

/** The signed-in member as staff: their role (OWNER, or one the owner made) and what it permits. */
export interface StaffMember {
  id: string;
  email: string;
  role: 'OWNER' | { id: string; name: string };
  status: 'INVITED' | 'ACTIVE' | 'SUSPENDED';
  permissions: StaffPermission[];
}

/** Whether the signed-in member is staff, and what they may do: what a back office shows them. */
export const staffSession = {
  /** `GET /api/cartwheel/staff/me`: refused (`NOT_STAFF`) for a member who is not staff. */
  getCurrentStaff: (transport: Transport) => async (): Promise<StaffMember> =>
    (
      await transport.request<{ staffMember: StaffMember }>({
        method: 'GET',
        path: '/staff/me',
        mapping: CARTWHEEL_API,
        trace: {
          package: '@cartwheel/sdk',
          method: 'cartwheel.staff.GetCurrentStaff',
          entity: 'staffMember',
        },
      })
    ).staffMember,
} satisfies ModuleDefinition;
