import type { BoundModule, StaffPermission, staffSession } from '@cartwheel/sdk';
import { useQuery } from '@tanstack/react-query';
import { useLoggedIn } from './auth.ts';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the staff hooks need of the client: the SDK's `staffSession` module and an `OAuthStrategy`. */
export interface StaffClient {
  staffSession: BoundModule<typeof staffSession>;
}

/**
 * The signed-in member as staff (role and permissions), for a back office signed in through the
 * hosted login page; no request while nobody is signed in. A member who is not staff is an error.
 */
export function useCurrentStaff() {
  const client = useCartwheel<StaffClient>();
  const loggedIn = useLoggedIn();
  return useQuery({
    queryKey: cartwheelKeys.staff.current,
    queryFn: () => client.staffSession.getCurrentStaff(),
    enabled: loggedIn,
  });
}

/** Whether `permissions` (a staff member's) allow `permission`; the owner's list holds every one. */
export function allows(
  permissions: readonly StaffPermission[] | undefined,
  permission: StaffPermission,
): boolean {
  return permissions?.includes(permission) === true;
}
