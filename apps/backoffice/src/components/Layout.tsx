import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { StaffBadge } from './StaffGate.tsx';

/** The sections a merchant will find here; those not built yet are named, not linked. */
const SECTIONS: Array<{ name: string; path?: string }> = [
  { name: 'Orders', path: '/orders' },
  { name: 'Mailbox', path: '/mailbox' },
  { name: 'Products', path: '/products' },
  { name: 'Collections', path: '/collections' },
  { name: 'Members', path: '/members' },
  { name: 'Settings', path: '/settings' },
];

export function Layout({ children }: { children: ReactNode }) {
  const { apiKey, staff, signOut } = useAdminSession();
  return (
    <div className="layout">
      <header className="topbar">
        <NavLink className="topbar__brand" to="/">
          Cartwheel back office
        </NavLink>
        <nav aria-label="Sections">
          <ul className="nav">
            {SECTIONS.map((section) => (
              <li key={section.name}>
                {section.path ? (
                  <NavLink to={section.path}>{section.name}</NavLink>
                ) : (
                  <span className="nav__soon" aria-disabled="true">
                    {section.name} <small>coming soon</small>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </nav>
        {apiKey ? (
          <button className="button button--quiet" type="button" onClick={signOut}>
            Forget admin key
          </button>
        ) : null}
        {staff && !apiKey ? (
          <>
            <StaffBadge />
            <button className="button button--quiet" type="button" onClick={signOut}>
              Sign out
            </button>
          </>
        ) : null}
      </header>
      <main className="content" id="main">
        {children}
      </main>
    </div>
  );
}
