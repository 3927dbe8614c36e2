import type {
  Address,
  BoundModule,
  Cart,
  CartResponse,
  CreateCheckoutFromCartRequest,
  currentCart,
  EstimateTotalsResponse,
  LineItem,
  LineItemQuantityUpdate,
  redirects,
  SelectedShippingOption,
} from '@cartwheel/sdk';
import {
  keepPreviousData,
  mutationOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';
import { isNotFoundError } from './query-client.ts';

/** What the cart hooks need of the client: the SDK's `currentCart` module. */
export interface CartClient {
  currentCart: BoundModule<typeof currentCart>;
}

/** What starting a checkout needs: the cart, and redirect sessions for the hosted checkout page. */
export interface CheckoutStartClient extends CartClient {
  redirects: BoundModule<typeof redirects>;
}

/** What a totals estimate is asked for: where the order would ship, and the carrier option chosen. */
export interface EstimateTotalsInput {
  shippingAddress?: Address;
  selectedShippingOption?: SelectedShippingOption;
}

/** `null` for the platform's 404 "no cart yet": a shopper without a cart has an empty one. */
async function orNullWhenMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (isNotFoundError(error)) return null;
    throw error;
  }
}

/** What the cart hooks may read of the client's auth, when it has one: an `OAuthStrategy`'s tokens. */
interface CartOwnerAuth {
  clientId?: string;
  getTokens?: () => { refreshToken?: { role?: string } };
}

/** The localStorage key under which this browser remembers whether its visitor has a cart. */
export const cartPresenceKey = (clientId: string) => `cartwheel.cart.${clientId}`;

function browserStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage refused (privacy settings): every read asks the platform
  }
}

/**
 * Whether the shopper surely has no cart, so that asking would only get the platform's 404 (which a
 * browser logs as a red console error on every page of every new visitor). A visitor's cart is made
 * only by this browser: with no tokens at all there is no visitor yet, and once the platform said
 * "no cart", this browser remembers so (`cartwheel.cart.<client id>`) until a change answers a cart.
 * A member may have filled a cart elsewhere, so a member's cart is always asked for.
 */
function surelyWithoutCart(client: CartClient): boolean {
  const auth = (client as { auth?: CartOwnerAuth }).auth;
  const role = auth?.getTokens?.().refreshToken?.role;
  if (!auth?.clientId || role === undefined || role === 'member') return false;
  if (role === 'none') {
    rememberCartPresence(client, false);
    return true;
  }
  return browserStorage()?.getItem(cartPresenceKey(auth.clientId)) === 'none';
}

/** Notes whether the shopper has a cart now, for {@link surelyWithoutCart}. */
function rememberCartPresence(client: CartClient, present: boolean): void {
  const clientId = (client as { auth?: CartOwnerAuth }).auth?.clientId;
  if (!clientId) return;
  try {
    browserStorage()?.setItem(cartPresenceKey(clientId), present ? 'present' : 'none');
  } catch {
    // storage full or refused: the next read asks the platform, as before
  }
}

export const cartQueries = {
  /**
   * The current cart, or `null` while the shopper has none; a visitor known to have none is answered
   * `null` without a request (see {@link surelyWithoutCart}).
   */
  current: (client: CartClient) =>
    queryOptions({
      queryKey: cartwheelKeys.cart.current,
      queryFn: async () => {
        if (surelyWithoutCart(client)) return null;
        const cart = await orNullWhenMissing(() => client.currentCart.getCurrentCart());
        rememberCartPresence(client, cart !== null);
        return cart;
      },
    }),
  /**
   * The platform's totals for the cart shipped to `input.shippingAddress` (items only without one),
   * or `null` while there is no cart. The page shows these amounts; it never adds them up itself.
   */
  estimate: (client: CartClient, input: EstimateTotalsInput = {}) =>
    queryOptions({
      queryKey: cartwheelKeys.cart.estimate(input),
      queryFn: () =>
        orNullWhenMissing<EstimateTotalsResponse>(() =>
          client.currentCart.estimateCurrentCartTotals({
            ...input,
            calculateTax: Boolean(input.shippingAddress),
            calculateShipping: Boolean(input.shippingAddress),
          }),
        ),
    }),
};

/** Every query that shows the cart's contents reads the cart a change answered, without a new request. */
function cartChanged(client: CartClient, queryClient: QueryClient, cart: Cart): Promise<void> {
  rememberCartPresence(client, true);
  queryClient.setQueryData<Cart | null>(cartwheelKeys.cart.current, cart);
  // estimates are the one thing a change makes stale that its answer does not carry
  return queryClient.invalidateQueries({ queryKey: cartwheelKeys.cart.estimates });
}

/** The shopper's cart: `data` is the cart, or `null` when they have none (yet, or since their order). */
export function useCurrentCart() {
  const client = useCartwheel<CartClient>();
  return useQuery(cartQueries.current(client));
}

/** How many items the cart holds: the sum of its lines' quantities (0 without a cart). */
export function cartItemCount(cart: Cart | null | undefined): number {
  return (cart?.lineItems ?? []).reduce((count, line) => count + (line.quantity ?? 0), 0);
}

/**
 * The cart's changes as mutation options, usable outside React too (`new MutationObserver(queryClient,
 * cartMutations.addToCart(client, queryClient))`). Each puts the cart it answers in the cache.
 */
export const cartMutations = {
  /** `POST add-to-cart`: catalog lines (`catalogReference` and `quantity`); makes the cart if there is none. */
  addToCart: (client: CartClient, queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (lineItems: LineItem[]) => client.currentCart.addToCurrentCart({ lineItems }),
      onSuccess: ({ cart }: CartResponse) => cartChanged(client, queryClient, cart),
    }),
  /** `POST update-line-items-quantity`: `[{ id, quantity }]`. */
  updateLineItemQuantity: (client: CartClient, queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (lineItems: LineItemQuantityUpdate[]) =>
        client.currentCart.updateCurrentCartLineItemQuantity(lineItems),
      onSuccess: ({ cart }: CartResponse) => cartChanged(client, queryClient, cart),
    }),
  /** `POST remove-line-items`: the ids of the lines to take out. */
  removeLineItems: (client: CartClient, queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (lineItemIds: string[]) => client.currentCart.removeLineItemsFromCurrentCart(lineItemIds),
      onSuccess: ({ cart }: CartResponse) => cartChanged(client, queryClient, cart),
    }),
  /** `PATCH /v1/carts/current` {couponCode}: an unknown or expired code is refused with an application error. */
  applyCoupon: (client: CartClient, queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: (couponCode: string) => client.currentCart.updateCurrentCart({ couponCode }),
      onSuccess: (cart: Cart) => cartChanged(client, queryClient, cart),
    }),
  /** `POST remove-coupon`. */
  removeCoupon: (client: CartClient, queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: () => client.currentCart.removeCouponFromCurrentCart(),
      onSuccess: ({ cart }: CartResponse) => cartChanged(client, queryClient, cart),
    }),
};

export function useAddToCart() {
  const client = useCartwheel<CartClient>();
  return useMutation(cartMutations.addToCart(client, useQueryClient()));
}

export function useUpdateLineItemQuantity() {
  const client = useCartwheel<CartClient>();
  return useMutation(cartMutations.updateLineItemQuantity(client, useQueryClient()));
}

export function useRemoveLineItems() {
  const client = useCartwheel<CartClient>();
  return useMutation(cartMutations.removeLineItems(client, useQueryClient()));
}

export function useApplyCoupon() {
  const client = useCartwheel<CartClient>();
  return useMutation(cartMutations.applyCoupon(client, useQueryClient()));
}

export function useRemoveCoupon() {
  const client = useCartwheel<CartClient>();
  return useMutation(cartMutations.removeCoupon(client, useQueryClient()));
}

/**
 * `POST estimate-totals`: `data.priceSummary` (subtotal, shipping, discount, tax, total) and
 * `data.shippingInfo` for the address given, or `null` without a cart. While a new address's
 * estimate loads, the previous one stays in `data` (`isPlaceholderData`).
 */
export function useEstimateTotals(input: EstimateTotalsInput = {}, options: { enabled?: boolean } = {}) {
  const client = useCartwheel<CartClient>();
  return useQuery({
    ...cartQueries.estimate(client, input),
    enabled: options.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}

/** Where the hosted checkout page sends the shopper back to; each defaults to this site's page. */
export interface StartCheckoutOptions {
  /** Default `window.location.origin`. */
  origin?: string;
  /** Default `/thank-you`: the page gets `?orderId=` added. */
  thankYouPath?: string;
  /** Default `/cart`. */
  cartPath?: string;
  /** Default `window.location.assign`: how the browser is sent to the hosted checkout page. */
  navigate?: (url: string) => void;
}

/**
 * Creates a checkout from the cart (with the buyer's details given, an address estimated for, say),
 * asks for the hosted checkout page's address (a redirect session naming this site's thank-you and
 * cart pages) and sends the browser there. Resolves to that address.
 */
export function startCheckoutMutation(client: CheckoutStartClient, options: StartCheckoutOptions = {}) {
  return mutationOptions({
    mutationFn: async (details: CreateCheckoutFromCartRequest = {}) => {
      const origin = options.origin ?? window.location.origin;
      const { checkoutId } = await client.currentCart.createCheckoutFromCurrentCart({
        channelType: 'WEB',
        ...details,
      });
      const thankYouPageUrl = origin + (options.thankYouPath ?? '/thank-you');
      const { redirectSession } = await client.redirects.createRedirectSession({
        ecomCheckout: { checkoutId },
        callbacks: {
          postFlowUrl: thankYouPageUrl,
          thankYouPageUrl,
          cartPageUrl: origin + (options.cartPath ?? '/cart'),
        },
      });
      if (!redirectSession.fullUrl) throw new Error('The platform answered no checkout page address');
      (options.navigate ?? ((url: string) => window.location.assign(url)))(redirectSession.fullUrl);
      return redirectSession.fullUrl;
    },
  });
}

export function useStartCheckout(options: StartCheckoutOptions = {}) {
  const client = useCartwheel<CheckoutStartClient>();
  return useMutation(startCheckoutMutation(client, options));
}

/**
 * On the page an order lands on: the cart the order was placed from is gone, so the cached one is read
 * again (once per order), and the header shows the empty cart.
 */
export function useCartReplacedByOrder(orderId: string | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (orderId) void queryClient.invalidateQueries({ queryKey: cartwheelKeys.cart.all });
  }, [orderId, queryClient]);
}
