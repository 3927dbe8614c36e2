import { useAuth, useCurrentMember } from '@cartwheel/react';
import type { Member } from '@cartwheel/sdk';
import { Link, useNavigate } from 'react-router';
import { useAccountHref } from './return-to.ts';
import './account.css';

/** The name a member goes by in the store: nickname, else first name, else email. */
export function displayName(member: Member | undefined): string {
  return member?.profile?.nickname || member?.contact?.firstName || member?.loginEmail || 'your account';
}

/** Signs out here and goes to the home page as a new visitor. */
export function useSignOut() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  return {
    signOut: async () => {
      await logout.mutateAsync({ originalUrl: `${window.location.origin}/` });
      navigate('/', { replace: true });
    },
    pending: logout.isPending,
  };
}

/** The header's account corner: who is signed in and a way out, or a way in. */
export function AccountMenu() {
  const { data: member, loggedIn, isPending } = useCurrentMember();
  const { signOut, pending } = useSignOut();
  const signInHref = useAccountHref('/account/sign-in');

  if (!loggedIn) {
    return (
      <div className="account-menu" data-testid="account-menu">
        <Link to={signInHref}>Sign in</Link>
      </div>
    );
  }
  return (
    <div className="account-menu" data-testid="account-menu">
      {/* the name read out starts with the words shown (WCAG 2.5.3), then says where the link goes */}
      <Link to="/account" className="account-menu__member">
        {isPending ? (
          'Your account'
        ) : (
          <>
            Hi, {displayName(member)}
            <span className="visually-hidden">: your account</span>
          </>
        )}
      </Link>
      <button type="button" className="link-button" onClick={() => void signOut()} disabled={pending}>
        Sign out
      </button>
    </div>
  );
}
