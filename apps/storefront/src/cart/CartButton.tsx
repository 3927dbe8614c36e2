import { cartItemCount, useCurrentCart, useEstimateTotals } from '@cartwheel/react';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { ProductImage } from '../components/ProductImage.tsx';
import { checkoutBlocker, lineName, lineOptions } from './availability.ts';
import { CheckoutButton } from './CheckoutButton.tsx';
import { useMiniCart } from './mini-cart.tsx';
import { money } from './PriceSummaryList.tsx';
import './cart.css';

/** "Cart, 3 items": how the cart link names itself, by the sum of the lines' quantities. */
export function cartLabel(count: number): string {
  return `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
}

/** The badge's count: up to 99, then "99+" (the label still says the whole number). */
export function badgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The header's cart: a link to `/cart` showing the item count; a plain click opens the mini-cart
 * instead (a new tab or a click without scripts still reaches the cart page).
 */
export function CartButton() {
  const cart = useCurrentCart();
  const { open, setOpen } = useMiniCart();
  const count = cartItemCount(cart.data);
  const corner = useRef<HTMLDivElement>(null);
  const location = useLocation();

  // a new page closes the mini-cart
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation only
  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    const closeOutside = (event: PointerEvent) => {
      if (!corner.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    document.addEventListener('pointerdown', closeOutside);
    return () => {
      document.removeEventListener('keydown', closeOnEscape);
      document.removeEventListener('pointerdown', closeOutside);
    };
  }, [open, setOpen]);

  return (
    <div className="cart-corner" ref={corner}>
      <Link
        to="/cart"
        className="cart-button"
        aria-label={cartLabel(count)}
        aria-expanded={open}
        aria-controls="mini-cart"
        data-testid="cart-button"
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          setOpen(!open);
        }}
      >
        <CartIcon />
        <span className="cart-button__count" aria-hidden="true" data-testid="cart-count">
          {badgeCount(count)}
        </span>
      </Link>
      {open ? <MiniCart onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

function MiniCart({ onClose }: { onClose: () => void }) {
  const cart = useCurrentCart();
  const lines = cart.data?.lineItems ?? [];
  // the items' subtotal as the platform prices it (an estimate with no address: items only)
  const estimate = useEstimateTotals({}, { enabled: lines.length > 0 });
  const blocker = checkoutBlocker(cart.data);

  return (
    <section
      id="mini-cart"
      className="mini-cart"
      role="dialog"
      aria-label="Your cart"
      data-testid="mini-cart"
    >
      <div className="mini-cart__header">
        <h2>Your cart</h2>
        <button type="button" className="link-button" onClick={onClose}>
          Close
        </button>
      </div>
      {lines.length === 0 ? (
        <p>{cart.isPending ? 'Loading your cart…' : 'Your cart is empty.'}</p>
      ) : (
        <>
          <ul className="mini-cart__lines">
            {lines.map((line) => (
              <li key={line.id} className="mini-cart__line">
                <ProductImage image={line.image ? { url: line.image.url } : undefined} alt="" />
                <div>
                  <p className="mini-cart__name">
                    {line.url?.relativePath?.startsWith('/') ? (
                      <Link to={line.url.relativePath} onClick={onClose}>
                        {lineName(line)}
                      </Link>
                    ) : (
                      lineName(line)
                    )}
                  </p>
                  {lineOptions(line) ? <p className="mini-cart__options">{lineOptions(line)}</p> : null}
                  <p className="mini-cart__quantity">
                    {line.quantity} × {money(line.price)}
                  </p>
                </div>
                <p className="mini-cart__price">{money(line.lineItemPrice)}</p>
              </li>
            ))}
          </ul>
          <p className="mini-cart__subtotal">
            <span>Subtotal</span>
            <span data-testid="mini-cart-subtotal">
              {money(estimate.data?.priceSummary?.subtotal) || '…'}
            </span>
          </p>
          <div className="mini-cart__actions">
            <Link to="/cart" className="button button--secondary">
              View cart
            </Link>
            {blocker ? (
              <Link to="/cart" className="button">
                Checkout
              </Link>
            ) : (
              <CheckoutButton className="button" />
            )}
          </div>
        </>
      )}
    </section>
  );
}

function CartIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.76L20 8H6.2"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="9" cy="19" r="1.5" fill="currentColor" />
      <circle cx="17" cy="19" r="1.5" fill="currentColor" />
    </svg>
  );
}
