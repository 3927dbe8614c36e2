import type { CheckoutBrand } from '@cartwheel/sdk';
import { type ReactNode, useEffect } from 'react';
import { BrandHeader } from './BrandHeader.tsx';

/** A checkout page: the store's brand above, the page below, the tab named after both. */
export function CheckoutShell({
  title,
  storeName,
  brand,
  children,
}: {
  title: string;
  storeName: string;
  brand?: CheckoutBrand | null | undefined;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · ${storeName}`;
  }, [title, storeName]);
  return (
    <div className="checkout-shell">
      <BrandHeader storeName={storeName} brand={brand} />
      {children}
    </div>
  );
}

/** A page with nothing to fill in: a heading, a sentence, and where to go from here. */
export function CheckoutMessage({
  title,
  storeName,
  brand,
  children,
  link,
}: {
  title: string;
  storeName: string;
  brand?: CheckoutBrand | null | undefined;
  children: ReactNode;
  link?: { href: string; text: string } | undefined;
}) {
  return (
    <CheckoutShell title={title} storeName={storeName} brand={brand}>
      <main className="checkout-message" id="main">
        <h1>{title}</h1>
        {children}
        {link ? (
          <p>
            <a className="button button--primary" href={link.href}>
              {link.text}
            </a>
          </p>
        ) : null}
      </main>
    </CheckoutShell>
  );
}
