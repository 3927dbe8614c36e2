import { ClientError, ClientMessages } from '../errors/client-error.ts';
import { OAUTH_SCOPE } from '../types/constants.ts';
import { tracingHeaders } from '../wire/tracing.ts';
import type { OAuthData } from './authorization.ts';
import type { AuthContext } from './strategy.ts';
import {
  type RefreshToken,
  type TokenResponse,
  type TokenRole,
  type Tokens,
  tokensFromResponse,
} from './tokens.ts';

/**
 * The token endpoint, `POST /oauth2/token` (wire contract, Tokens): one body builder per grant and one
 * request for all of them. JSON in camelCase (but the external-login grant, which is snake_case), keys
 * in the hosted client's order so the bytes are the same.
 */
export const TOKEN_ENDPOINT_PATH = '/oauth2/token';

/** The tracing of every token request, whatever the grant (the hosted client names one method too). */
const TOKEN_TRACE = {
  package: '@cartwheel/sdk',
  method: 'cartwheel.identity.oauth2.v1.Oauth2.Token',
  entity: 'refreshToken',
};

export type TokenGrant = Readonly<Record<string, string>>;

/** Anonymous visitor tokens. */
export function anonymousGrant(clientId: string): TokenGrant {
  return { clientId, grantType: 'anonymous' };
}

/** RFC 6749 §6: new tokens from a refresh token. */
export function refreshTokenGrant(clientId: string, refreshToken: string): TokenGrant {
  return { clientId, refreshToken, grantType: 'refresh_token' };
}

/** RFC 6749 §4.1.3 with RFC 7636 §4.5: the code, its verifier and the redirect URI it was sent to. */
export function authorizationCodeGrant(clientId: string, code: string, oauthData: OAuthData): TokenGrant {
  return {
    clientId,
    grantType: 'authorization_code',
    ...(oauthData.redirectUri ? { redirectUri: oauthData.redirectUri } : {}),
    code,
    codeVerifier: oauthData.codeVerifier,
  };
}

/** Member tokens for a member id, for a server holding an admin API key (external login). */
export function authorizedClientGrant(memberId: string): TokenGrant {
  return { grant_type: 'authorized_client', scope: OAUTH_SCOPE, member_id: memberId };
}

/** The `Authorization` header of the authorized-client grant: the access token, a comma, the API key. */
export function authorizedClientAuthorization(accessToken: string, apiKey: string): string {
  return `${accessToken},${apiKey}`;
}

export interface TokenRequestOptions {
  /** Kept when a refresh answer leaves the refresh token out. */
  previous?: RefreshToken;
  authorization?: string;
}

/**
 * Posts one grant and reads `{access_token, expires_in, refresh_token}`. Any answer but a 200 carrying
 * an access token is 'something went wrong' (point 8).
 */
export async function requestTokens(
  context: AuthContext,
  grant: TokenGrant,
  role: TokenRole,
  options: TokenRequestOptions = {},
): Promise<Tokens> {
  const headers: Record<string, string> = {
    ...tracingHeaders(TOKEN_TRACE),
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  if (options.authorization) headers.Authorization = options.authorization;
  const response = await context.fetch(`${context.baseUrl}${TOKEN_ENDPOINT_PATH}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(grant),
  });
  if (response.status !== 200) throw new ClientError(ClientMessages.tokenEndpointFailed);
  const answer = (await response.json().catch(() => undefined)) as TokenResponse | undefined;
  if (typeof answer?.access_token !== 'string' || typeof answer.expires_in !== 'number') {
    throw new ClientError(ClientMessages.tokenEndpointFailed);
  }
  return tokensFromResponse(answer, role, options.previous);
}
