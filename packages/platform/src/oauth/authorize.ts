import type { TokenResponse } from '@cartwheel/sdk';
import {
  type OAuthClient,
  type OAuthClients,
  originAllowed,
  originOf,
  redirectUriAllowed,
} from './clients.ts';
import type { AuthorizationCodes } from './codes.ts';

/** The query of `GET /oauth2/authorize` (RFC 6749 §4.1.1, RFC 7636 §4.3, plus the session token). */
export interface AuthorizeParams {
  client_id?: string;
  redirect_uri?: string;
  response_type?: string;
  response_mode?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  prompt?: string;
  sessionToken?: string;
}

/** What the endpoint answers; the HTTP layer only renders it. */
export type AuthorizeOutcome =
  /** RFC 6749 §4.1.2.1: the redirect URI (or origin) cannot be trusted, so the answer is given here. */
  | { kind: 'refuse'; responseMode: string; error: string; description: string }
  /** The hosted login page, carrying the whole request on. */
  | { kind: 'login-page'; location: string }
  /** A 302 to the redirect URI with the answer in its query or fragment. */
  | { kind: 'redirect'; location: string }
  /** A page posting the answer to these exact origins. */
  | { kind: 'web-message'; message: Record<string, string>; targetOrigins: string[] };

const RESPONSE_MODES = ['query', 'fragment', 'web_message'];

export interface AuthorizationEndpointDeps {
  clients: OAuthClients;
  codes: AuthorizationCodes;
  /**
   * Trades a session token for member tokens of the client: once, and only while the member may sign
   * in. `visitorId`: the visitor the tokens are for, when the request names one (else the session's).
   */
  memberTokensForSession(
    sessionToken: string,
    clientId: string,
    visitorId: string | undefined,
  ): Promise<TokenResponse>;
  /** The visitor who started the client's request with this PKCE challenge (a login redirect session). */
  visitorOfRequest(clientId: string, codeChallenge: string): Promise<string | undefined>;
  publicUrl: string;
}

/**
 * The authorization endpoint (RFC 6749 §3.1, §4.1). With `prompt=none` and a session token from a
 * direct login it answers at once with a code; otherwise it sends the browser to the hosted login page,
 * which comes back here with `prompt=none` and a fresh session token. A redirect URI or origin the
 * client did not register is never redirected to: it is refused on the spot, naming what to register.
 */
export class AuthorizationEndpoint {
  constructor(private readonly deps: AuthorizationEndpointDeps) {}

  /** `embedder`: the origin of the page that loaded this one (`Referer`), for a `web_message` answer. */
  async authorize(params: AuthorizeParams, embedder: string | undefined): Promise<AuthorizeOutcome> {
    const responseMode =
      typeof params.response_mode === 'string' ? params.response_mode || 'fragment' : 'fragment';
    const refuse = (error: string, description: string): AuthorizeOutcome => ({
      kind: 'refuse',
      responseMode,
      error,
      description,
    });
    // RFC 6749 §3.1: no parameter may come twice (a repeated one arrives as a list)
    const repeated = Object.entries(params).find(([, value]) => typeof value !== 'string');
    if (repeated) return refuse('invalid_request', `${repeated[0]} must be given once`);
    if (!RESPONSE_MODES.includes(responseMode)) {
      return refuse(
        'invalid_request',
        `response_mode ${responseMode} is not one of ${RESPONSE_MODES.join(', ')}`,
      );
    }
    const clientId = params.client_id ?? '';
    const client = clientId ? await this.deps.clients.find(clientId) : undefined;
    if (!client) {
      return refuse(
        'redirect_uri_not_allowed',
        clientId ? `client_id ${clientId} is not a registered OAuth client` : 'client_id is required',
      );
    }

    const target = this.target(client, params.redirect_uri, responseMode, embedder);
    if ('refused' in target) return refuse(target.refused.error, target.refused.description);
    const state = params.state ?? '';
    const answer = (values: Record<string, string>): AuthorizeOutcome =>
      deliver(responseMode, target, { ...values, ...(params.state !== undefined ? { state } : {}) });

    if (params.response_type !== 'code') {
      return answer({
        error: 'unsupported_response_type',
        error_description: 'response_type must be code',
      });
    }
    if (!params.code_challenge || params.code_challenge_method !== 'S256') {
      return answer({
        error: 'invalid_request',
        error_description: 'PKCE is required: code_challenge with code_challenge_method S256',
      });
    }
    if (params.prompt !== 'none' || !params.sessionToken) {
      return { kind: 'login-page', location: this.loginPage(params) };
    }

    // the member tokens belong to the visitor whose client started the request (and holds the
    // verifier), not to whichever visitor the login page ran as
    const visitorId = await this.deps.visitorOfRequest(client.id, params.code_challenge);
    let tokens: TokenResponse;
    try {
      tokens = await this.deps.memberTokensForSession(params.sessionToken, client.id, visitorId);
    } catch {
      return answer({
        error: 'login_required',
        error_description: 'the session token is not valid, was already used, or has expired',
      });
    }
    const code = await this.deps.codes.issue({
      clientId: client.id,
      redirectUri: params.redirect_uri ?? null,
      codeChallenge: params.code_challenge,
      tokens,
    });
    return answer({ code });
  }

  /** Where the answer may go: the registered redirect URI, or for `web_message` an allowed origin. */
  private target(
    client: OAuthClient,
    redirectUri: string | undefined,
    responseMode: string,
    embedder: string | undefined,
  ): Target | { refused: { error: string; description: string } } {
    const notAllowed = (what: string) => ({
      refused: {
        error: 'redirect_uri_not_allowed',
        description: `${what} is not registered with the OAuth client ${client.id}`,
      },
    });
    if (redirectUri) {
      const origin = originOf(redirectUri);
      const allowed =
        redirectUriAllowed(client, redirectUri) ||
        (responseMode === 'web_message' && origin !== undefined && originAllowed(client, origin));
      if (!allowed || !origin) return notAllowed(`redirect_uri ${redirectUri}`);
      return { redirectUri, origins: [origin] };
    }
    if (responseMode !== 'web_message') {
      return { refused: { error: 'invalid_request', description: 'redirect_uri is required' } };
    }
    if (embedder) {
      return originAllowed(client, embedder) ? { origins: [embedder] } : notAllowed(`origin ${embedder}`);
    }
    // no Referer: each allowed origin, and the browser delivers only to the one that embeds the page
    return { origins: client.allowedOrigins };
  }

  /** `/auth/login?<the request>`: the hosted page signs the member in and comes back with a session token. */
  private loginPage(params: AuthorizeParams): string {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (key !== 'sessionToken' && typeof value === 'string') query.set(key, value);
    }
    return `${this.deps.publicUrl}/auth/login?${query}`;
  }
}

interface Target {
  redirectUri?: string;
  origins: string[];
}

function deliver(responseMode: string, target: Target, values: Record<string, string>): AuthorizeOutcome {
  if (responseMode === 'web_message' || !target.redirectUri) {
    return { kind: 'web-message', message: values, targetOrigins: target.origins };
  }
  const location = new URL(target.redirectUri);
  if (responseMode === 'query') {
    for (const [key, value] of Object.entries(values)) location.searchParams.set(key, value);
  } else {
    location.hash = new URLSearchParams(values).toString();
  }
  return { kind: 'redirect', location: location.href };
}
