import { Link, NavLink, Outlet, ScrollRestoration } from 'react-router';
import { AccountMenu } from '../account/AccountMenu.tsx';
import { useStoreConfig } from './store-config.ts';

export function Layout() {
  const { storeName } = useStoreConfig();
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link to="/" className="site-header__brand">
            {storeName}
          </Link>
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
    </>
  );
}
