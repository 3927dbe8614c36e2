import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { NoticeBoard } from './notices.tsx';
import { StaffBadge } from './StaffGate.tsx';
import './layout.css';

/** The sections a merchant will find here; those not built yet are named, not linked. */
const SECTIONS: Array<{ name: string; path?: string }> = [
  { name: 'Orders', path: '/orders' },
  { name: 'Subscriptions', path: '/subscriptions' },
  { name: 'Mailbox', path: '/mailbox' },
  { name: 'Products', path: '/products' },
  { name: 'Collections', path: '/collections' },
  { name: 'Members', path: '/members' },
  { name: 'Webhooks', path: '/webhooks' },
  { name: 'Settings', path: '/settings' },
];

/**
 * The top bar and the page. Below the laptop breakpoint (layout.css) the sections and the account
 * controls fold behind a Menu button (a disclosure: `aria-expanded`, `aria-controls`); it opens below
 * the bar, Escape closes it and gives focus back to the button, and following a link closes it.
 */
export function Layout({ children }: { children: ReactNode }) {
  const { apiKey, staff, signOut } = useAdminSession();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  // Escape folds the open menu from anywhere on the page and gives the focus back to its button
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div className="layout">
      <header className="topbar">
        <NavLink className="topbar__brand" to="/" onClick={close}>
          Cartwheel back office
        </NavLink>
        <button
          ref={toggle}
          className="button button--quiet menu-button"
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((was) => !was)}
        >
          <span aria-hidden="true" className="menu-button__bars" />
          Menu
        </button>
        <div className="topbar__panel" id={panelId} data-open={open}>
          <nav aria-label="Sections">
            <ul className="nav">
              {SECTIONS.map((section) => (
                <li key={section.name}>
                  {section.path ? (
                    <NavLink to={section.path} onClick={close}>
                      {section.name}
                    </NavLink>
                  ) : (
                    <span className="nav__soon" aria-disabled="true">
                      {section.name} <small>coming soon</small>
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          {apiKey || staff ? (
            <div className="topbar__account">
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
            </div>
          ) : null}
        </div>
      </header>
      <main className="content" id="main">
        <NoticeBoard>{children}</NoticeBoard>
      </main>
    </div>
  );
}
