import { ClientError, ClientMessages } from '../errors/client-error.ts';
import type { AuthContext, AuthStrategy } from './strategy.ts';
import { memoryTokenStorage, type TokenStorage } from './token-storage.ts';
import {
  emptyTokens,
  isAccessTokenValid,
  type TokenResponse,
  type TokenRole,
  type Tokens,
  tokensFromResponse,
} from './tokens.ts';

export interface OAuthStrategyOptions {
  /** The OAuth client (headless site) id: the demo store's is printed when the platform starts. */
  clientId: string;
  /** Tokens to start from (a server render); else what `storage` holds; else empty tokens of role none. */
  tokens?: Tokens;
  /** Where tokens are kept: memory by default; `localStorageTokenStorage()` in a browser. */
  storage?: TokenStorage;
}

export interface OAuthStrategy extends AuthStrategy {
  readonly clientId: string;
  getTokens(): Tokens;
  setTokens(tokens: Tokens): void;
  /** Anonymous visitor tokens (`grantType: anonymous`). */
  generateVisitorTokens(context: AuthContext): Promise<Tokens>;
  /** New tokens from the refresh token (`grantType: refresh_token`). */
  renewToken(context: AuthContext, refreshToken: string): Promise<Tokens>;
  /** True only when the refresh token's role is member (point 4). */
  loggedIn(): boolean;
}

/**
 * Visitor tokens with the lifecycle of point 4: start empty (role none); with no valid access token,
 * renew with the refresh token, and if that fails or there is none, get anonymous visitor tokens.
 * Renewal is single-flight: however many calls start at once, one token request is made.
 */
export function OAuthStrategy(options: OAuthStrategyOptions): OAuthStrategy {
  const storage = options.storage ?? memoryTokenStorage();
  let tokens: Tokens = options.tokens ?? storage.load() ?? emptyTokens();
  const keep = (next: Tokens) => {
    tokens = next;
    storage.save(next);
  };
  let renewal: Promise<Tokens> | undefined;

  async function tokenRequest(context: AuthContext, body: Record<string, unknown>, role: TokenRole) {
    const response = await context.fetch(`${context.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new ClientError(ClientMessages.tokenEndpointFailed);
    return tokensFromResponse((await response.json()) as TokenResponse, role, tokens.refreshToken);
  }

  const strategy: OAuthStrategy = {
    clientId: options.clientId,
    getTokens: () => tokens,
    setTokens: keep,
    loggedIn: () => tokens.refreshToken.role === 'member',
    generateVisitorTokens: (context) =>
      tokenRequest(context, { clientId: options.clientId, grantType: 'anonymous' }, 'visitor'),
    renewToken: (context, refreshToken) =>
      tokenRequest(
        context,
        { clientId: options.clientId, grantType: 'refresh_token', refreshToken },
        tokens.refreshToken.role === 'none' ? 'visitor' : tokens.refreshToken.role,
      ),

    async getAuthHeaders(context) {
      if (!isAccessTokenValid(tokens.accessToken)) await ensureFreshTokens(context);
      return { Authorization: tokens.accessToken.value };
    },

    async onUnauthorized(context) {
      keep({ ...tokens, accessToken: { value: '', expiresAt: 0 } });
      await ensureFreshTokens(context);
      return true;
    },
  };

  function ensureFreshTokens(context: AuthContext): Promise<Tokens> {
    renewal ??= (async () => {
      try {
        keep(await renewOrStartVisitor(context));
        return tokens;
      } finally {
        renewal = undefined;
      }
    })();
    return renewal;
  }

  async function renewOrStartVisitor(context: AuthContext): Promise<Tokens> {
    if (tokens.refreshToken.value) {
      try {
        return await strategy.renewToken(context, tokens.refreshToken.value);
      } catch {
        // an expired or revoked refresh token: fall through to a fresh visitor
      }
    }
    return strategy.generateVisitorTokens(context);
  }

  return strategy;
}
