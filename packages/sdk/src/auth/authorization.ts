import { ClientError, ClientMessages } from '../errors/client-error.ts';
import {
  CODE_CHALLENGE_METHOD,
  DEFAULT_PROMPT,
  DEFAULT_RESPONSE_MODE,
  OAUTH_RESPONSE_TYPE,
  OAUTH_SCOPE,
} from '../types/constants.ts';
import type { CreateRedirectSessionRequest, Prompt, ResponseMode } from '../types/redirects.ts';
import { codeChallengeOf, generateRandomSecret } from './pkce.ts';

/**
 * The steps of the authorization-code flow with PKCE that need no network: each one protocol step,
 * each naming the RFC section it follows. They run unchanged in a browser and in Node.
 */

/** What a login flow must remember between sending the browser away and its return. */
export interface OAuthData {
  /** RFC 6749 §10.12: ties the answer to this flow. */
  state: string;
  /** RFC 7636 §4.1. Kept secret: only its challenge leaves the client before the code exchange. */
  codeVerifier: string;
  /** RFC 7636 §4.2, S256. */
  codeChallenge: string;
  redirectUri: string;
  /** Where the visitor was when the flow started, to return there afterwards. */
  originalUri: string;
}

/**
 * RFC 7636 §4.1–4.2 and RFC 6749 §10.12: a fresh state and code verifier (random secrets of 43
 * characters, point 5) and the verifier's S256 challenge. Asynchronous because Web Crypto's digest is.
 */
export async function generateOAuthData(redirectUri: string, originalUri = ''): Promise<OAuthData> {
  const state = generateRandomSecret();
  const codeVerifier = generateRandomSecret();
  return {
    state,
    codeVerifier,
    codeChallenge: await codeChallengeOf(codeVerifier),
    redirectUri,
    originalUri,
  };
}

export interface AuthUrlOptions {
  /** `login` (default) shows the login page; `none` answers at once and needs a `sessionToken`. */
  prompt?: Prompt;
  /** How the code comes back: `fragment` (default), `query`, or `web_message` for a hidden frame. */
  responseMode?: ResponseMode;
  /** From a direct email-and-password login (point 4). */
  sessionToken?: string;
}

/**
 * RFC 6749 §4.1.1 with RFC 7636 §4.3: the authorization request, as the body of a login redirect
 * session (wire contract, Redirect sessions). Scope is always `offline_access`, the method `S256`.
 */
export function authRedirectSessionRequest(
  clientId: string,
  oauthData: OAuthData,
  options: AuthUrlOptions = {},
): CreateRedirectSessionRequest {
  return {
    auth: {
      authRequest: {
        redirectUri: oauthData.redirectUri,
        clientId,
        codeChallenge: oauthData.codeChallenge,
        codeChallengeMethod: CODE_CHALLENGE_METHOD,
        responseMode: options.responseMode ?? DEFAULT_RESPONSE_MODE,
        responseType: OAUTH_RESPONSE_TYPE,
        scope: OAUTH_SCOPE,
        state: oauthData.state,
        ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}),
      },
      prompt: options.prompt ?? DEFAULT_PROMPT,
    },
  };
}

/** The logout redirect session: ends the platform's session, then sends the browser to `postFlowUrl`. */
export function logoutRedirectSessionRequest(
  clientId: string,
  postFlowUrl: string,
): CreateRedirectSessionRequest {
  return { logout: { clientId }, callbacks: { postFlowUrl } };
}

/** What the authorization endpoint hands back to the redirect URI. */
export interface AuthorizationResponse {
  code: string;
  state: string;
  /** RFC 6749 §4.1.2.1, when the platform sent an error beside a code and state. */
  error?: string;
  errorDescription?: string;
}

/** Response modes whose answer is in the redirect URI itself. */
export type UrlResponseMode = Exclude<ResponseMode, 'web_message'>;

/**
 * RFC 6749 §4.1.2: `code` and `state` from the URL the browser came back to, in its fragment
 * (default) or its query. Either missing is 'Missing code or _state'; an RFC 6749 §4.1.2.1 error
 * answer rides along as the error's `cause`.
 */
export function parseFromUrl(
  url: string | undefined = globalThis.location?.href,
  responseMode: UrlResponseMode = DEFAULT_RESPONSE_MODE,
): AuthorizationResponse {
  const params = authorizationParams(url ?? '', responseMode);
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error') ?? undefined;
  const errorDescription = params.get('error_description') ?? undefined;
  if (!code || !state) {
    throw new ClientError(
      ClientMessages.missingCodeOrState,
      error ? { cause: { error, errorDescription } } : {},
    );
  }
  return {
    code,
    state,
    ...(error ? { error } : {}),
    ...(errorDescription ? { errorDescription } : {}),
  };
}

/** The answer's parameters in `url`: the fragment's or the query's. */
export function authorizationParams(url: string, responseMode: UrlResponseMode): URLSearchParams {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return new URLSearchParams();
  }
  return new URLSearchParams(responseMode === 'query' ? parsed.search : parsed.hash.replace(/^#/, ''));
}

/** RFC 6749 §10.12: the state that came back must be the one this flow sent, else 'Invalid _state'. */
export function checkState(received: string, oauthData: OAuthData): void {
  if (received !== oauthData.state) throw new ClientError(ClientMessages.invalidState);
}

/** Where a hosted sign-in ends (point 7's `GET /v1/callback`), on the platform's own origin. */
export const SIGN_IN_CALLBACK_PATH = '/_api/iam/authentication/v1/callback';

/**
 * `GET /v1/callback` {state, sessionToken}: the address that ends a sign-in made on a hosted page. The
 * state is the authorization request the page worked for (its query, as the authorization endpoint
 * sent it there); the platform answers that request at once for the member the session token names.
 */
export function signInCallbackUrl(request: URLSearchParams | string, sessionToken: string): string {
  const query = new URLSearchParams({ state: request.toString(), sessionToken });
  return `${SIGN_IN_CALLBACK_PATH}?${query.toString()}`;
}
