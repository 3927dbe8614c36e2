import { FormAlert } from '@cartwheel/design';
import { useCurrentStaff } from '@cartwheel/react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { PermissionsContext } from '../staff-session.ts';
import { AdminKeyForm } from './AdminKeyForm.tsx';
import { SecondStepEnrolment } from './SecondStepEnrolment.tsx';

/**
 * How to sign in, staff first: the owner and staff with their account through the hosted login page,
 * which brings them back to the page they asked for; below it, the developer's way, the admin API key
 * (`refused` says why a key was refused). Without a staff sign-in (no OAuth client), the key alone.
 */
export function StaffSignIn({ refused }: { refused?: string | undefined }) {
  const { staffSignInAvailable, signInAsStaff } = useAdminSession();
  const location = useLocation();
  return (
    <div className="sign-in">
      {staffSignInAvailable ? (
        <section className="panel panel--narrow" aria-labelledby="staff-sign-in-title">
          <h2 id="staff-sign-in-title">Sign in</h2>
          <p className="muted">The store's owner and staff sign in with their email and password.</p>
          <button
            className="button button--primary"
            type="button"
            onClick={() => void signInAsStaff(`/admin${location.pathname}${location.search}`)}
          >
            Use your staff account
          </button>
        </section>
      ) : null}
      <AdminKeyForm refused={refused} secondary={staffSignInAvailable} />
    </div>
  );
}

/**
 * A staff member's pages: their role's permissions decide which controls show (the API refuses the
 * rest anyway). A member who is not staff, or a suspended one, is told so and can sign out; one the
 * store requires a second step of, with none set up, sets one up first.
 */
export function StaffGate({ children }: { children: ReactNode }) {
  const staff = useCurrentStaff();
  const { signOut } = useAdminSession();
  if (staff.isPending) return <p role="status">Checking your staff account…</p>;
  if (staff.isError) {
    return (
      <FormAlert>
        <p>This account cannot use the back office: {staff.error.message}</p>
        <button className="button" type="button" onClick={signOut}>
          Sign out
        </button>
      </FormAlert>
    );
  }
  return (
    <PermissionsContext.Provider value={staff.data.permissions}>
      <SecondStepEnrolment>{children}</SecondStepEnrolment>
    </PermissionsContext.Provider>
  );
}

/** Who is signed in, for the top bar: "owner@shop.test · Owner". */
export function StaffBadge() {
  const staff = useCurrentStaff();
  if (!staff.data) return null;
  const role = staff.data.role === 'OWNER' ? 'Owner' : staff.data.role.name;
  return (
    <span className="topbar__who" data-testid="signed-in-as">
      {staff.data.email} · {role}
    </span>
  );
}
