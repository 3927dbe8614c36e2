/** Token roles of point 6. */
export type TokenRole = 'none' | 'visitor' | 'member';

export interface AccessToken {
  value: string;
  /** Absolute expiry in epoch seconds: the time it was issued plus `expires_in`. */
  expiresAt: number;
}

export interface RefreshToken {
  value: string;
  role: TokenRole;
}

export interface Tokens {
  accessToken: AccessToken;
  refreshToken: RefreshToken;
}

/** The answer of `POST /oauth2/token`: camelCase in, snake_case out. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

export function emptyTokens(): Tokens {
  return { accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } };
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function isAccessTokenValid(token: AccessToken): boolean {
  return token.value !== '' && token.expiresAt > nowInSeconds();
}

/** Tokens from a token answer; a refresh answer may leave the refresh token out: keep the old one. */
export function tokensFromResponse(
  response: TokenResponse,
  role: TokenRole,
  previous?: RefreshToken,
): Tokens {
  return {
    accessToken: { value: response.access_token, expiresAt: nowInSeconds() + response.expires_in },
    refreshToken: {
      value: response.refresh_token ?? previous?.value ?? '',
      role: response.refresh_token || !previous ? role : previous.role,
    },
  };
}
