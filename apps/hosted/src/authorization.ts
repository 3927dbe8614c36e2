import type { OAuthData } from '@cartwheel/sdk';
import { generateOAuthData, signInCallbackUrl } from '@cartwheel/sdk/auth';

/**
 * The authorization request the hosted pages work for. `GET /oauth2/authorize` sends the browser to
 * `/auth/login?<its parameters>`; the pages carry those parameters from page to page untouched and,
 * once the member is signed in, end at the callback, which has the endpoint answer with the code.
 */
export interface AuthorizationRequest {
  clientId: string;
  /** The parameters exactly as the authorization endpoint sent them. */
  params: URLSearchParams;
}

/** The pages' own parameters: they ride beside the authorization request's, and never go back to it. */
const PAGE_PARAMS = ['token', 'redirect', 'email', 'flow'];
/** Set again when going back to the endpoint, so a stale copy never wins. */
const CONTINUATION_PARAMS = ['prompt', 'sessionToken'];

/** The authorization request in a page's query, or undefined when the page was opened directly. */
export function authorizationRequestOf(search: string): AuthorizationRequest | undefined {
  const params = new URLSearchParams(search);
  const clientId = params.get('client_id');
  if (!clientId) return undefined;
  for (const name of PAGE_PARAMS) params.delete(name);
  return { clientId, params };
}

/**
 * `path` with the authorization request's parameters, so the next page can finish the same request,
 * and the page's own (`email`, to spare typing it again).
 */
export function withRequest(
  path: string,
  request: AuthorizationRequest | undefined,
  pageParams: Record<string, string> = {},
): string {
  const query = new URLSearchParams(request?.params);
  for (const [name, value] of Object.entries(pageParams)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The sign-in's callback (point 7's `GET /v1/callback`), which has the authorization endpoint answer
 * the request at once for the member the session token names; the state is the request itself.
 */
export function continuationUrl(request: AuthorizationRequest, sessionToken: string): string {
  const params = new URLSearchParams(request.params);
  for (const name of CONTINUATION_PARAMS) params.delete(name);
  return signInCallbackUrl(params, sessionToken);
}

/** A flow the hosted pages started themselves, remembered until `/auth/callback` finishes it. */
export interface OwnFlow {
  clientId: string;
  oauthData: OAuthData;
}

const OWN_FLOW_KEY = 'cartwheel.hosted.flow';

/**
 * Someone opened `/auth/login` without an authorization request (a bookmark, a reset link): the page
 * makes one for the store's own client, answering to `/auth/callback`, which signs the store in and
 * returns to `returnTo`.
 */
export async function startOwnFlow(
  origin: string,
  clientId: string,
  returnTo: string,
): Promise<AuthorizationRequest> {
  const oauthData = await generateOAuthData(`${origin}/auth/callback`, returnTo);
  const flow: OwnFlow = { clientId, oauthData };
  sessionStorage.setItem(`${OWN_FLOW_KEY}.${oauthData.state}`, JSON.stringify(flow));
  const params = new URLSearchParams({
    client_id: clientId,
    redirect_uri: oauthData.redirectUri,
    response_type: 'code',
    response_mode: 'query',
    scope: 'offline_access',
    state: oauthData.state,
    code_challenge: oauthData.codeChallenge,
    code_challenge_method: 'S256',
  });
  return { clientId, params };
}

/** The flow the hosted pages started with this `state`, used up by reading it. */
export function takeOwnFlow(state: string): OwnFlow | undefined {
  const key = `${OWN_FLOW_KEY}.${state}`;
  const stored = sessionStorage.getItem(key);
  sessionStorage.removeItem(key);
  if (!stored) return undefined;
  try {
    return JSON.parse(stored) as OwnFlow;
  } catch {
    return undefined;
  }
}

/** Only a path on this site is a place to return to: a link never sends anyone elsewhere. */
export function localPath(value: string | null | undefined, fallback = '/'): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : fallback;
}
