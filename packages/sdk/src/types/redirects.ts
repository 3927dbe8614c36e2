/**
 * Redirect sessions (`POST /v1/redirect-session`): one flow per request (login, logout, a
 * checkout, a product page...), answered with the address to send the browser to.
 */

/** `prompt` of an auth flow: `none` answers at once with no page, when a session token is given. */
export const PROMPTS = ['login', 'none', 'consent', 'select_account'] as const;
export type Prompt = (typeof PROMPTS)[number];

/** How the authorization endpoint hands back `code` and `state`. */
export const RESPONSE_MODES = ['fragment', 'query', 'web_message'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export const CALLBACK_TYPES = ['LOGOUT', 'CHECKOUT', 'AUTHORIZE'] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

/** Members account sections a redirect can open (point 2). */
export const MEMBERS_ACCOUNT_SECTIONS = [
  'ACCOUNT_INFO',
  'BOOKINGS',
  'ORDERS',
  'SUBSCRIPTIONS',
  'EVENTS',
] as const;
export type MembersAccountSection = (typeof MEMBERS_ACCOUNT_SECTIONS)[number];

/** The flow kinds a redirect-session request can carry: exactly one per request. */
export const REDIRECT_FLOWS = [
  'auth',
  'login',
  'logout',
  'bookingsCheckout',
  'ecomCheckout',
  'eventsCheckout',
  'paidPlansCheckout',
  'storesProduct',
  'bookingsBook',
] as const;
export type RedirectFlow = (typeof REDIRECT_FLOWS)[number];

/** An OAuth authorization request with PKCE (RFC 7636). */
export interface AuthorizeRequest {
  clientId: string;
  /** Always `code`. */
  responseType: 'code';
  redirectUri?: string | null;
  /** Always `offline_access`. */
  scope?: string | null;
  state: string;
  responseMode?: ResponseMode | null;
  codeChallenge?: string | null;
  /** Always `S256`. */
  codeChallengeMethod?: 'S256' | null;
  /** From a direct email-and-password login: with `prompt: none`, no page is shown. */
  sessionToken?: string | null;
}

export interface RedirectAuthParams {
  authRequest: AuthorizeRequest;
  prompt?: Prompt;
}

export interface RedirectBookingsCheckoutParams {
  timezone?: string;
  slotAvailability?: Record<string, unknown>;
}

export interface RedirectCallbacks {
  /** Where the browser goes when the flow ends. */
  postFlowUrl?: string | null;
  thankYouPageUrl?: string | null;
  cartPageUrl?: string | null;
  loginUrl?: string | null;
  bookingsServiceListUrl?: string | null;
  planListUrl?: string | null;
}

export interface RedirectPreferences {
  useGenericWixPages?: boolean | null;
  maintainIdentity?: boolean | null;
  additionalQueryParameters?: Record<string, string>;
}

/** `POST /v1/redirect-session`: one flow, plus optional callbacks and preferences. */
export interface CreateRedirectSessionRequest {
  auth?: RedirectAuthParams;
  login?: Record<string, never>;
  logout?: { clientId?: string };
  bookingsCheckout?: RedirectBookingsCheckoutParams;
  ecomCheckout?: { checkoutId?: string };
  eventsCheckout?: { reservationId?: string; eventSlug?: string };
  paidPlansCheckout?: { planId?: string; checkoutData?: string | null };
  storesProduct?: { productSlug?: string };
  bookingsBook?: { resourceId?: string };
  callbacks?: RedirectCallbacks;
  preferences?: RedirectPreferences;
}

export interface RedirectSession {
  id?: string;
  /** The whole address to send the browser to. */
  fullUrl?: string;
  urlDetails?: { endpoint?: string; searchParams?: Record<string, string> };
  sessionToken?: string | null;
  shortUrl?: string;
}
