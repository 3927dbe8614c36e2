import { useCallback, useEffect, useMemo, useState } from 'react';
import { CheckoutPageApi, type CheckoutSession } from './api.ts';
import { type CheckoutProblem, checkoutProblemOf } from './problems.ts';

/** Where the last checkout session said the cart is, for the page that finds its session gone. */
const CART_PAGE_KEY = 'cartwheel.checkout.cartPageUrl';

export type SessionState =
  | { state: 'loading' }
  | { state: 'ready'; session: CheckoutSession }
  | { state: 'failed'; problem: CheckoutProblem; cartPageUrl: string | undefined };

/** The redirect session `token` names: its checkout, the store's settings and where to go after. */
export function useCheckoutSession(token: string | null) {
  const api = useMemo(() => (token ? new CheckoutPageApi(token) : undefined), [token]);
  const [loaded, setLoaded] = useState<SessionState>({ state: 'loading' });

  useEffect(() => {
    if (!api) {
      setLoaded({
        state: 'failed',
        problem: { message: 'This checkout link is not complete. Go back to your cart to check out again.' },
        cartPageUrl: rememberedCartPage(),
      });
      return;
    }
    let current = true;
    api.session().then(
      (session) => {
        if (!current) return;
        if (session.callbacks?.cartPageUrl) remember(session.callbacks.cartPageUrl);
        setLoaded({ state: 'ready', session });
      },
      (error: unknown) => {
        if (!current) return;
        const problem = checkoutProblemOf(error);
        const said = (error as { data?: { cartPageUrl?: unknown } }).data?.cartPageUrl;
        setLoaded({
          state: 'failed',
          problem,
          cartPageUrl: typeof said === 'string' ? said : rememberedCartPage(),
        });
      },
    );
    return () => {
      current = false;
    };
  }, [api]);

  /**
   * Asks for the session again (the checkout may have changed elsewhere, e.g. been paid in another tab);
   * resolves whether the new answer is shown. A failed ask keeps what is shown.
   */
  const refresh = useCallback(async (): Promise<boolean> => {
    if (!api) return false;
    try {
      const session = await api.session();
      setLoaded({ state: 'ready', session });
      return true;
    } catch {
      return false;
    }
  }, [api]);

  return { api, loaded, setLoaded, refresh };
}

function remember(url: string): void {
  try {
    sessionStorage.setItem(CART_PAGE_KEY, url);
  } catch {
    // storage may be off: the page then links to the store's home
  }
}

function rememberedCartPage(): string | undefined {
  try {
    return sessionStorage.getItem(CART_PAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A v4 UUID; `crypto.randomUUID` exists only on secure origins, a store on plain http still pays. */
export function newAttemptKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * What the shopper typed, kept for this tab until the order is paid: the 3-D Secure step and a reload
 * leave the page, and the form comes back as they left it (the card never is kept).
 */
export const buyerDraft = {
  key: (token: string) => `cartwheel.checkout.draft.${token}`,
  read<T>(token: string): T | undefined {
    try {
      const stored = sessionStorage.getItem(this.key(token));
      return stored ? (JSON.parse(stored) as T) : undefined;
    } catch {
      return undefined;
    }
  },
  write(token: string, draft: unknown): void {
    try {
      sessionStorage.setItem(this.key(token), JSON.stringify(draft));
    } catch {
      // storage may be full or off: the checkout itself still holds what was saved
    }
  },
  clear(token: string): void {
    try {
      sessionStorage.removeItem(this.key(token));
    } catch {
      // as above
    }
  },
};
