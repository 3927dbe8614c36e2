import {
  type AuthorizationResponse,
  localStorageTokenStorage,
  type OAuthData,
  OAuthStrategy,
  type StaffPermission,
} from '@cartwheel/sdk';
import { createContext, useContext } from 'react';

/**
 * Staff sign-in through the platform's hosted login page (OAuth with PKCE, the store's own client):
 * the tokens live in this tab's sessionStorage, as the admin key does, so a closed tab signs out.
 */
const TOKENS = 'cartwheel.backoffice.tokens';
const FLOW = 'cartwheel.backoffice.oauth';
export const CALLBACK_PATH = '/admin/callback';

export function staffStrategy(clientId: string) {
  return OAuthStrategy({
    clientId,
    host: window.location.origin,
    storage: localStorageTokenStorage(TOKENS, sessionStorage),
  });
}

/** Sends the browser to the hosted login page; it comes back to `CALLBACK_PATH`, then to `returnTo`. */
export async function startStaffSignIn(clientId: string, returnTo: string): Promise<void> {
  const auth = staffStrategy(clientId);
  const flow = await auth.generateOAuthData(`${window.location.origin}${CALLBACK_PATH}`, returnTo);
  sessionStorage.setItem(FLOW, JSON.stringify(flow));
  const { authUrl } = await auth.getAuthUrl(flow, { prompt: 'login', responseMode: 'query' });
  window.location.assign(authUrl);
}

/** Back from the hosted login page: the code becomes the tab's tokens; answers where to go next. */
export async function finishStaffSignIn(clientId: string, url: string): Promise<string> {
  const auth = staffStrategy(clientId);
  const stored = sessionStorage.getItem(FLOW);
  if (!stored) throw new Error('This sign-in was not started in this tab. Start it again.');
  const flow = JSON.parse(stored) as OAuthData;
  const answer: AuthorizationResponse = auth.parseFromUrl(url, 'query');
  if (answer.error) throw new Error(answer.errorDescription ?? answer.error);
  const tokens = await auth.getMemberTokens(answer.code, answer.state, flow);
  auth.setTokens(tokens);
  sessionStorage.removeItem(FLOW);
  return flow.originalUri ?? '/admin/orders';
}

export function hasStaffTokens(clientId: string | undefined): boolean {
  return clientId !== undefined && staffStrategy(clientId).loggedIn();
}

/** Forgets the tab's staff tokens. */
export function forgetStaffTokens(): void {
  sessionStorage.removeItem(TOKENS);
}

/**
 * Signs the tab's staff member out on the platform, not only in the tab: the SDK's logout makes a
 * logout redirect session with their own token, which ends that sign-in (its refresh token is refused
 * from then on, on every process). The tokens are forgotten even when the platform cannot be reached.
 */
export async function endStaffSignIn(clientId: string): Promise<void> {
  try {
    const auth = staffStrategy(clientId);
    if (auth.loggedIn()) await auth.logout(`${window.location.origin}/admin/`);
  } finally {
    forgetStaffTokens();
  }
}

/**
 * What the caller may do: every permission with a key (the API refuses what a scoped key lacks), a
 * staff member's role's permissions otherwise. Controls a caller may not use are not shown.
 */
export const PermissionsContext = createContext<readonly StaffPermission[] | 'all'>('all');

export function useCan(permission: StaffPermission): boolean {
  const permissions = useContext(PermissionsContext);
  return permissions === 'all' || permissions.includes(permission);
}
