import { DEFAULT_HOST } from '../client.ts';
import { createTransport } from '../transport/http.ts';
import type { IdentityProfile } from '../types/identity.ts';
import type { LoginResult } from '../types/login.ts';
import {
  type AuthorizationResponse,
  type AuthUrlOptions,
  type OAuthData,
  parseFromUrl,
  type UrlResponseMode,
} from './authorization.ts';
import type { CaptchaTokensInput } from './login-state.ts';
import type { MemberFlows } from './member-flows.ts';
import type { AuthContext, AuthStrategy } from './strategy.ts';
import { anonymousGrant, refreshTokenGrant, requestTokens } from './token-endpoint.ts';
import { memoryTokenStorage, type TokenStorage } from './token-storage.ts';
import { emptyTokens, isAccessTokenValid, type Tokens } from './tokens.ts';

export interface OAuthStrategyOptions {
  /** The OAuth client (headless site) id: the demo store's is printed when the platform starts. */
  clientId: string;
  /** Tokens to start from (a server render); else what `storage` holds; else empty tokens of role none. */
  tokens?: Tokens;
  /** Where tokens are kept: memory by default; `localStorageTokenStorage()` in a browser. */
  storage?: TokenStorage;
  /**
   * Where the strategy's own calls go (login, registration, redirect sessions, code exchange). By
   * default the host of the first `createClient` given this strategy; with none, the local platform.
   */
  host?: string;
  fetch?: typeof fetch;
  /**
   * The redirect URI a direct login's silent authorization answers to; it must be registered with the
   * OAuth client. In a browser the page's origin by default; in Node, required for a direct login.
   */
  redirectUri?: string;
  /** How long a silent login may take (point 9: 120000 ms). */
  silentLoginTimeoutMs?: number;
}

export interface LoginParams {
  email: string;
  password: string;
  captchaTokens?: CaptchaTokensInput;
}

export interface RegisterParams extends LoginParams {
  profile?: IdentityProfile;
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

  /** RFC 7636 §4.1–4.2: a fresh state, code verifier and challenge for one login flow. Keep it until the return. */
  generateOAuthData(redirectUri: string, originalUri?: string): Promise<OAuthData>;
  /** RFC 6749 §4.1.1: the address of the login page, from a login redirect session. */
  getAuthUrl(oauthData: OAuthData, options?: AuthUrlOptions): Promise<{ authUrl: string }>;
  /** RFC 6749 §4.1.2: code and state from the URL the browser came back to (this page's by default). */
  parseFromUrl(url?: string, responseMode?: UrlResponseMode): AuthorizationResponse;
  /**
   * RFC 6749 §4.1.3: checks the state ('Invalid _state') and exchanges the code for member tokens
   * ('Failed to get member tokens'). Returns them: `setTokens` makes them the strategy's.
   */
  getMemberTokens(code: string, state: string, oauthData: OAuthData): Promise<Tokens>;
  /** A logout redirect session back to `originalUrl`; the tokens become empty, role none, whatever happens. */
  logout(originalUrl: string): Promise<{ logoutUrl: string }>;

  /** `POST /v2/register`, as a login state (point 4) or a classified failure (point 5). */
  register(params: RegisterParams): Promise<LoginResult>;
  /** `POST /v2/login`, as a login state (point 4) or a classified failure (point 5). */
  login(params: LoginParams): Promise<LoginResult>;
  /** The emailed code, only while the state is EMAIL_VERIFICATION_REQUIRED; else FAILURE 'Unknown _state'. */
  processVerification(params: { verificationCode: string }, state: LoginResult): Promise<LoginResult>;
  /**
   * A SUCCESS login's session token → member tokens, through the authorization URL with `prompt: none`
   * (a hidden frame in a browser, manual redirects in Node). Returns them: `setTokens` makes them the
   * strategy's.
   */
  getMemberTokensForDirectLogin(sessionToken: string, options?: { redirectUri?: string }): Promise<Tokens>;
  /** `POST /v1/send-email`: a password-reset link that lands on `redirectUri`. */
  sendPasswordResetEmail(email: string, redirectUri: string): Promise<void>;
  /** `POST /v2/change-password`: the signed-in member's password. */
  changePassword(newPassword: string): Promise<void>;
  /**
   * Member tokens for `memberId` from a server holding an admin API key (`grant_type: authorized_client`,
   * `Authorization: <access token>,<API key>`). Returns them without keeping them.
   */
  getMemberTokensForExternalLogin(memberId: string, apiKey: string): Promise<Tokens>;
}

/**
 * Visitor and member tokens with the lifecycle of point 4: start empty (role none); with no valid access
 * token, renew with the refresh token, and if that fails or there is none, get anonymous visitor tokens;
 * a code exchange yields member tokens; logout empties them. Renewal is single-flight: however many
 * calls start at once, one token request is made. Runs unchanged in a browser and in Node.
 */
export function OAuthStrategy(options: OAuthStrategyOptions): OAuthStrategy {
  const { clientId } = options;
  const storage = options.storage ?? memoryTokenStorage();
  let tokens: Tokens = options.tokens ?? storage.load() ?? emptyTokens();
  const keep = (next: Tokens) => {
    tokens = next;
    storage.save(next);
  };
  let renewal: Promise<Tokens> | undefined;
  let clientHost: string | undefined;
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  const strategy: OAuthStrategy = {
    clientId,
    getTokens: () => tokens,
    setTokens: keep,
    loggedIn: () => tokens.refreshToken.role === 'member',
    generateVisitorTokens: (context) => requestTokens(context, anonymousGrant(clientId), 'visitor'),
    renewToken: (context, refreshToken) =>
      requestTokens(
        context,
        refreshTokenGrant(clientId, refreshToken),
        tokens.refreshToken.role === 'none' ? 'visitor' : tokens.refreshToken.role,
        { previous: tokens.refreshToken },
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

    attach(client) {
      clientHost ??= client.baseUrl;
    },

    parseFromUrl,

    // the member flows load on first use (see member-flows.ts)
    generateOAuthData: lazy('generateOAuthData'),
    getAuthUrl: lazy('getAuthUrl'),
    getMemberTokens: lazy('getMemberTokens'),
    logout: lazy('logout'),
    register: lazy('register'),
    login: lazy('login'),
    processVerification: lazy('processVerification'),
    getMemberTokensForDirectLogin: lazy('getMemberTokensForDirectLogin'),
    sendPasswordResetEmail: lazy('sendPasswordResetEmail'),
    changePassword: lazy('changePassword'),
    getMemberTokensForExternalLogin: lazy('getMemberTokensForExternalLogin'),
  };

  let flows: Promise<MemberFlows> | undefined;
  function lazy<K extends keyof MemberFlows>(name: K): MemberFlows[K] {
    const call = async (...args: unknown[]) => {
      flows ??= import('./member-flows.ts').then((module) => {
        // The strategy's own calls go through a transport authorized by the strategy itself.
        const host = options.host ?? clientHost ?? DEFAULT_HOST;
        const transport = createTransport({ host, auth: strategy, fetch: doFetch });
        return module.memberFlows({
          clientId,
          options,
          transport,
          own: { baseUrl: transport.baseUrl, fetch: doFetch },
          doFetch,
          tokens: () => tokens,
          keep,
          ensureFreshTokens,
        });
      });
      return ((await flows)[name] as (...args: unknown[]) => unknown)(...args);
    };
    return call as MemberFlows[K];
  }

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
