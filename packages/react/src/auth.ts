import type {
  AuthUrlOptions,
  LoginParams,
  LoginResult,
  OAuthData,
  OAuthStrategy,
  RegisterParams,
  UrlResponseMode,
} from '@cartwheel/sdk';
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the auth hooks need of the client: an `OAuthStrategy` as its `auth`. */
export interface AuthClient {
  auth: OAuthStrategy;
}

/**
 * Who is signed in, as a store React can subscribe to. The strategy itself has no events, so the
 * hooks announce each change they make (sign-in, sign-out); the snapshot is always the strategy's own
 * `loggedIn()`, so a change made elsewhere shows at the next render.
 */
const listenersOf = new WeakMap<OAuthStrategy, Set<() => void>>();

function subscribeTo(strategy: OAuthStrategy, listener: () => void): () => void {
  let listeners = listenersOf.get(strategy);
  if (!listeners) {
    listeners = new Set();
    listenersOf.set(strategy, listeners);
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every `useAuth` of this strategy that its tokens changed. */
export function announceAuthChange(strategy: OAuthStrategy): void {
  for (const listener of listenersOf.get(strategy) ?? []) listener();
}

/** The catalog is the same for everyone; every other cached answer may depend on who asks. */
const PUBLIC_ENTITIES = new Set<unknown>(['products', 'collections']);

/**
 * After a sign-in or sign-out: the member's answers are dropped (never show the previous member), and
 * every other answer that depends on who asks (the cart, orders) is fetched again.
 */
export async function refreshAfterAuthChange(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.resetQueries({ queryKey: cartwheelKeys.members.all }),
    queryClient.invalidateQueries({
      predicate: ({ queryKey }) =>
        queryKey[0] === cartwheelKeys.all[0] &&
        queryKey[1] !== cartwheelKeys.members.all[1] &&
        !PUBLIC_ENTITIES.has(queryKey[1]),
    }),
  ]);
}

/**
 * A login that reached SUCCESS becomes member tokens (a `prompt: none` authorization with the session
 * token). The visitor's tokens stay until the member's are in hand, so a failed exchange leaves the
 * shopper the visitor they were (and their cart theirs).
 */
export async function finishDirectLogin(strategy: OAuthStrategy, result: LoginResult): Promise<LoginResult> {
  if (result.loginState !== 'SUCCESS') return result;
  strategy.setTokens(await strategy.getMemberTokensForDirectLogin(result.data.sessionToken));
  return result;
}

/** Where a login flow's secrets wait while the browser is at the login page: this tab's session storage. */
export interface OAuthDataStore {
  save(data: OAuthData): void;
  /** The flow `state` belongs to, removed so a code is exchanged once. */
  take(state: string): OAuthData | undefined;
}

const OAUTH_DATA_PREFIX = 'cartwheel.oauth.';

export function sessionOAuthDataStore(): OAuthDataStore {
  const storage = () => (typeof sessionStorage === 'undefined' ? undefined : sessionStorage);
  return {
    save(data) {
      storage()?.setItem(OAUTH_DATA_PREFIX + data.state, JSON.stringify(data));
    },
    take(state) {
      const key = OAUTH_DATA_PREFIX + state;
      const text = storage()?.getItem(key);
      storage()?.removeItem(key);
      if (!text) return undefined;
      try {
        return JSON.parse(text) as OAuthData;
      } catch {
        return undefined;
      }
    },
  };
}

export interface LoginRedirectParams extends AuthUrlOptions {
  /** Registered with the OAuth client; the login page sends the browser back here with the code. */
  redirectUri: string;
  /** Where the shopper was, to return there afterwards. */
  originalUri?: string;
}

export interface CompleteLoginParams {
  /** The URL the login page came back to; this page's by default. */
  url?: string;
  responseMode?: UrlResponseMode;
}

export interface UseAuthOptions {
  oauthDataStore?: OAuthDataStore;
}

/** Whether a member is signed in (point 4: the refresh token's role is member), re-rendering on change. */
export function useLoggedIn(): boolean {
  const { auth: strategy } = useCartwheel<AuthClient>();
  const subscribe = useCallback((listener: () => void) => subscribeTo(strategy, listener), [strategy]);
  return useSyncExternalStore(subscribe, strategy.loggedIn, strategy.loggedIn);
}

/**
 * Sign-in state and actions of the client's `OAuthStrategy`. `loggedIn` re-renders when a hook signs
 * in or out; each action is a mutation (`isPending`, `error`, `data`, `reset`). Login, registration
 * and verification resolve to the login state (point 4): on SUCCESS the member is signed in already;
 * a FAILURE carries `errorCode` (point 5). Sign-in and sign-out refresh the member's queries.
 */
export function useAuth(options: UseAuthOptions = {}) {
  const { auth: strategy } = useCartwheel<AuthClient>();
  const queryClient = useQueryClient();
  const loggedIn = useLoggedIn();
  const oauthDataStore = options.oauthDataStore ?? sessionOAuthDataStore();

  const changed = async () => {
    announceAuthChange(strategy);
    await refreshAfterAuthChange(queryClient);
  };
  const signedInIf = async (result: LoginResult) => {
    const finished = await finishDirectLogin(strategy, result);
    if (finished.loginState === 'SUCCESS') await changed();
    return finished;
  };

  const login = useMutation({
    mutationFn: async (params: LoginParams) => signedInIf(await strategy.login(params)),
  });
  const register = useMutation({
    mutationFn: async (params: RegisterParams) => signedInIf(await strategy.register(params)),
  });
  /** The emailed code of a login or registration that answered EMAIL_VERIFICATION_REQUIRED. */
  const verify = useMutation({
    mutationFn: async ({ verificationCode, state }: { verificationCode: string; state: LoginResult }) =>
      signedInIf(await strategy.processVerification({ verificationCode }, state)),
  });
  /**
   * Signs out here: the tokens become empty (the next call starts a new visitor) whatever the platform
   * answers. `logoutUrl` ends the platform's own session when the caller navigates to it.
   */
  const logout = useMutation({
    mutationFn: async ({ originalUrl }: { originalUrl: string }) => {
      let logoutUrl: string | undefined;
      try {
        ({ logoutUrl } = await strategy.logout(originalUrl));
      } catch {
        // the tokens are gone all the same: signed out here
      }
      await changed();
      return { logoutUrl };
    },
  });
  const sendPasswordReset = useMutation({
    mutationFn: ({ email, redirectUri }: { email: string; redirectUri: string }) =>
      strategy.sendPasswordResetEmail(email, redirectUri),
  });
  /** The address of the store's login page for a new flow; its secrets wait in `oauthDataStore`. */
  const loginWithRedirect = useMutation({
    mutationFn: async ({ redirectUri, originalUri, ...urlOptions }: LoginRedirectParams) => {
      const oauthData = await strategy.generateOAuthData(redirectUri, originalUri);
      oauthDataStore.save(oauthData);
      return strategy.getAuthUrl(oauthData, urlOptions);
    },
  });
  /** Back from the login page: the code becomes member tokens. Resolves to where the shopper was. */
  const completeRedirectLogin = useMutation({
    mutationFn: async ({ url, responseMode }: CompleteLoginParams = {}) => {
      const { code, state } = strategy.parseFromUrl(url, responseMode);
      const oauthData = oauthDataStore.take(state);
      if (!oauthData) throw new Error(UNKNOWN_FLOW);
      strategy.setTokens(await strategy.getMemberTokens(code, state, oauthData));
      await changed();
      return { originalUri: oauthData.originalUri };
    },
  });

  return {
    loggedIn,
    login,
    register,
    verify,
    logout,
    sendPasswordReset,
    loginWithRedirect,
    completeRedirectLogin,
  };
}

const UNKNOWN_FLOW =
  'This sign-in link has already been used or was started in another tab: start signing in again.';
