import { ClientError, ClientMessages } from '../errors/client-error.ts';
import { SILENT_LOGIN_TIMEOUT_MS } from '../types/constants.ts';
import {
  type AuthorizationResponse,
  authorizationParams,
  parseFromUrl,
  type UrlResponseMode,
} from './authorization.ts';

/**
 * A session token becomes an authorization code without showing a page: the authorization URL with
 * `prompt: none` answers at once (wire contract, Redirect sessions). A browser loads it in a hidden
 * frame (`web_message`); Node follows its redirects by hand and reads the code from `Location`.
 */

/** Messages of a silent login the platform refused, saying what to do about it. */
export const SilentLoginMessages = {
  refused: (error: string, description: string | undefined, redirectUri: string, clientId: string) =>
    error === 'redirect_uri_not_allowed'
      ? `Silent login refused: redirect_uri_not_allowed. Register ${redirectUri} as an allowed redirect URI of the OAuth client ${clientId}, then try again.`
      : `Silent login refused: ${error}${description ? ` (${description})` : ''}`,
  noRedirect: (status: number) =>
    `Silent login failed: the authorization endpoint answered ${status} instead of redirecting to the redirect URI`,
  tooManyRedirects: 'Silent login failed: too many redirects before reaching the redirect URI',
} as const;

export interface SilentLoginTarget {
  /** The flow's state: messages carrying another state belong to another flow and are ignored. */
  state: string;
  redirectUri: string;
  clientId: string;
}

/** The part of `window` the frame path uses, so a test can hand in its own. */
export type FrameHost = Pick<Window, 'addEventListener' | 'removeEventListener'> & {
  document: Pick<Document, 'createElement' | 'body'>;
};

export interface FrameOptions extends SilentLoginTarget {
  /** Origins whose messages are believed: the authorization page's. */
  origins: readonly string[];
  /** Point 9: 120000 ms unless a test says otherwise. */
  timeoutMs?: number;
  host?: FrameHost;
}

/** True where there is a DOM to put a hidden frame in; decided at each call, not at import. */
export function canUseFrame(): boolean {
  return typeof window !== 'undefined' && typeof window.document?.createElement === 'function';
}

/**
 * OAuth 2.0 Web Message Response Mode (draft-sakimura-oauth-wmrm §4): loads `authUrl` in a hidden
 * frame and waits for the page, from a trusted origin, to post `{code, state}` or
 * `{error, error_description}`. An error fails at once; no answer in time is 'OAuth flow timed out'.
 */
export function authorizationCodeFromFrame(
  authUrl: string,
  options: FrameOptions,
): Promise<AuthorizationResponse> {
  const host = options.host ?? (window as FrameHost);
  return new Promise((resolve, reject) => {
    const frame = host.document.createElement('iframe');
    const finish = () => {
      clearTimeout(timer);
      host.removeEventListener('message', onMessage);
      frame.remove();
    };
    const onMessage = (event: MessageEvent) => {
      if (!options.origins.includes(event.origin)) return;
      const data = event.data as Record<string, unknown> | null;
      if (!data || typeof data !== 'object') return;
      if (data.state !== undefined && data.state !== options.state) return;
      if (typeof data.error === 'string') {
        finish();
        reject(refusal(data.error, data.error_description ?? data.errorDescription, options));
      } else if (typeof data.code === 'string' && data.code && data.state === options.state) {
        finish();
        resolve({ code: data.code, state: options.state });
      }
    };
    const timer = setTimeout(() => {
      finish();
      reject(new ClientError(ClientMessages.oauthFlowTimedOut));
    }, options.timeoutMs ?? SILENT_LOGIN_TIMEOUT_MS);
    host.addEventListener('message', onMessage);
    frame.setAttribute('aria-hidden', 'true');
    frame.style.display = 'none';
    frame.src = authUrl;
    host.document.body.appendChild(frame);
  });
}

export interface RedirectOptions extends SilentLoginTarget {
  fetch: typeof fetch;
  responseMode: UrlResponseMode;
}

/** Enough for the platform's own hops (redirect session → authorize → redirect URI) and then some. */
const MAX_REDIRECTS = 10;

/**
 * RFC 6749 §4.1.2 without a browser: requests `authUrl` with `redirect: 'manual'`, follows the
 * platform's own hops, and reads the code from the `Location` that points at the redirect URI
 * (§4.1.2.1 errors there fail with what to do). Node's fetch shows `Location`; a browser's does not.
 */
export async function authorizationCodeFromRedirects(
  authUrl: string,
  options: RedirectOptions,
): Promise<AuthorizationResponse> {
  let url = authUrl;
  for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
    const response = await options.fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      // RFC 6749 §4.1.2.1: a redirect URI the client may not use is refused here, not redirected to
      const answer = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      if (typeof answer?.error === 'string') {
        throw refusal(answer.error, answer.error_description ?? answer.errorDescription, options);
      }
      throw new ClientError(SilentLoginMessages.noRedirect(response.status));
    }
    await response.body?.cancel();
    url = new URL(location, url).href;
    if (!isAddressedTo(url, options.redirectUri)) continue;
    const error =
      authorizationParams(url, options.responseMode).get('error') ??
      authorizationParams(url, options.responseMode === 'query' ? 'fragment' : 'query').get('error');
    if (error) {
      throw refusal(error, authorizationParams(url, options.responseMode).get('error_description'), options);
    }
    return parseFromUrl(url, options.responseMode);
  }
  throw new ClientError(SilentLoginMessages.tooManyRedirects);
}

/** RFC 6749 §4.1.2.1: the platform's error answer, as an error saying what to do. */
function refusal(error: string, description: unknown, target: SilentLoginTarget): ClientError {
  return new ClientError(
    SilentLoginMessages.refused(
      error,
      typeof description === 'string' ? description : undefined,
      target.redirectUri,
      target.clientId,
    ),
  );
}

/** Same origin and path as the redirect URI, whatever the query and fragment. */
function isAddressedTo(url: string, redirectUri: string): boolean {
  const at = new URL(url);
  const target = new URL(redirectUri);
  return at.origin === target.origin && at.pathname === target.pathname;
}
