import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CheckoutPageApi, type CheckoutSession } from './api.ts';
import { type CheckoutProblem, checkoutProblemOf } from './problems.ts';

/** Where the last checkout session said the cart is, for the page that finds its session gone. */
const CART_PAGE_KEY = 'cartwheel.checkout.cartPageUrl';

/** The query keys of one redirect session: its answer, and the changes made to it (one queue). */
export const checkoutKeys = {
  all: (token: string) => ['hosted-checkout', token] as const,
  session: (token: string) => ['hosted-checkout', token, 'session'] as const,
  changes: (token: string) => ['hosted-checkout', token, 'changes'] as const,
};

/**
 * The redirect session: its checkout, the store's settings and where to go after. Asked for on every
 * visit of a page (the checkout may have changed elsewhere), never again behind the shopper's back
 * (the form is built on it), and a refusal is final: the link is spent or wrong.
 */
export function checkoutSessionQuery(api: CheckoutPageApi) {
  return queryOptions({
    queryKey: checkoutKeys.session(api.sessionToken),
    queryFn: async () => {
      const session = await api.session();
      if (session.callbacks?.cartPageUrl) remember(session.callbacks.cartPageUrl);
      return session;
    },
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export type SessionState =
  | { state: 'loading' }
  | { state: 'ready'; session: CheckoutSession }
  | { state: 'failed'; problem: CheckoutProblem; cartPageUrl: string | undefined };

/** The redirect session `token` names, as the page shows it: loading, ready, or why not. */
export function useCheckoutSession(token: string | null) {
  const api = useMemo(() => (token ? new CheckoutPageApi(token) : undefined), [token]);
  const query = useQuery(
    api ? checkoutSessionQuery(api) : { queryKey: checkoutKeys.session(''), queryFn: skipToken },
  );

  /**
   * Asks for the session again (the checkout may have changed elsewhere, e.g. been paid in another tab);
   * resolves whether the new answer is shown. A failed ask keeps what is shown.
   */
  const refresh = async (): Promise<boolean> => (api ? (await query.refetch()).isSuccess : false);

  return { api, loaded: sessionState(api, query.data, query.error), refresh };
}

function sessionState(
  api: CheckoutPageApi | undefined,
  session: CheckoutSession | undefined,
  error: Error | null,
): SessionState {
  if (!api) {
    return {
      state: 'failed',
      problem: { message: 'This checkout link is not complete. Go back to your cart to check out again.' },
      cartPageUrl: rememberedCartPage(),
    };
  }
  // an answer shown stays shown when asking again fails
  if (session) return { state: 'ready', session };
  if (error) {
    const said = (error as { data?: { cartPageUrl?: unknown } }).data?.cartPageUrl;
    return {
      state: 'failed',
      problem: checkoutProblemOf(error),
      cartPageUrl: typeof said === 'string' ? said : rememberedCartPage(),
    };
  }
  return { state: 'loading' };
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
