import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation } from 'react-router';
import { AccountMenu } from '../account/AccountMenu.tsx';
import { CartButton } from '../cart/CartButton.tsx';
import { MiniCartProvider } from '../cart/mini-cart.tsx';
import { useStoreConfig } from './store-config.ts';

export function Layout() {
  const { storeName } = useStoreConfig();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  // a new page closes the phone menu
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation only
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <MiniCartProvider>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link to="/" className="site-header__brand">
            {storeName}
          </Link>
          {/* at a phone's width the links and the account corner fold behind this button */}
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span aria-hidden="true" className="menu-button__bars" />
            Menu
          </button>
          <div id="site-menu" className={`site-menu${menuOpen ? ' site-menu--open' : ''}`}>
            <nav aria-label="Main">
              <ul className="site-nav">
                <li>
                  <NavLink to="/" end>
                    Home
                  </NavLink>
                </li>
                <li>
                  <NavLink to="/products">Shop all</NavLink>
                </li>
              </ul>
            </nav>
            <AccountMenu />
          </div>
          <CartButton />
        </div>
      </header>
      <main id="content" className="page">
        <Outlet />
      </main>
      <footer className="site-footer">
        <p>
          © {new Date().getFullYear()} {storeName}. Powered by Cartwheel.
        </p>
      </footer>
      <ScrollRestoration />
    </MiniCartProvider>
  );
}
