import type { ReactNode } from 'react';
import { useHostedConfig, usePageTitle } from './HostedConfig.ts';

/** One hosted page: the store's name above a card holding the page's heading and form. */
export function HostedPage({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { storeName } = useHostedConfig();
  usePageTitle(title);
  return (
    <div className="shell">
      <header className="shell__header">
        <a className="shell__store" href="/">
          {storeName}
        </a>
      </header>
      <main className="card" id="main">
        <h1>{title}</h1>
        {intro ? <div className="card__intro">{intro}</div> : null}
        {children}
        {footer ? <div className="card__footer">{footer}</div> : null}
      </main>
      <footer className="shell__footer">
        <a href="/">Back to {storeName}</a>
      </footer>
    </div>
  );
}
