import { ClientError, ClientMessages } from '../errors/client-error.ts';
import { authentication } from '../modules/identity/authentication.ts';
import { recovery } from '../modules/identity/recovery.ts';
import { verification } from '../modules/identity/verification.ts';
import { redirects } from '../modules/redirects/redirects.ts';
import type { Transport } from '../transport/http.ts';
import type { RedirectSession } from '../types/redirects.ts';
import {
  authRedirectSessionRequest,
  checkState,
  generateOAuthData,
  logoutRedirectSessionRequest,
} from './authorization.ts';
import {
  captchaTokensOnWire,
  loginFailureOf,
  loginResultOf,
  unknownStateFailure,
  verificationStateToken,
} from './login-state.ts';
import type { OAuthStrategy, OAuthStrategyOptions } from './oauth.ts';
import { authorizationCodeFromFrame, authorizationCodeFromRedirects, canUseFrame } from './silent-login.ts';
import type { AuthContext } from './strategy.ts';
import {
  authorizationCodeGrant,
  authorizedClientAuthorization,
  authorizedClientGrant,
  requestTokens,
} from './token-endpoint.ts';
import { emptyTokens, isAccessTokenValid, type Tokens } from './tokens.ts';

/**
 * OAuthStrategy's member flows: sign-in pages, login and registration, verification, direct login,
 * logout, password reset, external login. `OAuthStrategy` loads this module the first time one of
 * them is called, so a visitor who browses and buys without signing in never downloads it (bundlers
 * put it in a chunk of its own).
 */
export type MemberFlows = Pick<
  OAuthStrategy,
  | 'generateOAuthData'
  | 'getAuthUrl'
  | 'getMemberTokens'
  | 'logout'
  | 'register'
  | 'login'
  | 'processVerification'
  | 'getMemberTokensForDirectLogin'
  | 'sendPasswordResetEmail'
  | 'changePassword'
  | 'getMemberTokensForExternalLogin'
>;

/** What the flows share with the strategy that loaded them. */
export interface MemberFlowContext {
  clientId: string;
  options: OAuthStrategyOptions;
  /** Calls authorized by the strategy itself (visitor or member tokens). */
  transport: Transport;
  own: AuthContext;
  doFetch: typeof fetch;
  tokens(): Tokens;
  keep(tokens: Tokens): void;
  ensureFreshTokens(context: AuthContext): Promise<Tokens>;
}

export function memberFlows(context: MemberFlowContext): MemberFlows {
  const { clientId, options, transport, own, doFetch, tokens, keep, ensureFreshTokens } = context;
  const api = {
    createRedirectSession: redirects.createRedirectSession(transport),
    register: authentication.register(transport),
    login: authentication.login(transport),
    changePassword: authentication.changePassword(transport),
    verifyDuringAuthentication: verification.verifyDuringAuthentication(transport),
    sendRecoveryEmail: recovery.sendRecoveryEmail(transport),
  };

  const flows: MemberFlows = {
    generateOAuthData,

    async getAuthUrl(oauthData, authUrlOptions) {
      const answer = await api.createRedirectSession(
        authRedirectSessionRequest(clientId, oauthData, authUrlOptions),
      );
      return { authUrl: fullUrlOf(answer.redirectSession) };
    },

    async getMemberTokens(code, state, oauthData) {
      checkState(state, oauthData);
      try {
        return await requestTokens(own, authorizationCodeGrant(clientId, code, oauthData), 'member');
      } catch (cause) {
        throw new ClientError(ClientMessages.failedToGetMemberTokens, { cause });
      }
    },

    async logout(originalUrl) {
      try {
        const answer = await api.createRedirectSession(logoutRedirectSessionRequest(clientId, originalUrl));
        return { logoutUrl: fullUrlOf(answer.redirectSession) };
      } finally {
        keep(emptyTokens());
      }
    },

    async register({ email, password, profile, captchaTokens }) {
      try {
        const answer = await api.register(
          { email },
          { password, ...(profile ? { profile } : {}), captchaTokens: captchaTokensOnWire(captchaTokens) },
        );
        return loginResultOf(answer);
      } catch (error) {
        return loginFailureOf(error, 'register');
      }
    },

    async login({ email, password, captchaTokens }) {
      try {
        const answer = await api.login(
          { email },
          { password, captchaTokens: captchaTokensOnWire(captchaTokens) },
        );
        return loginResultOf(answer);
      } catch (error) {
        return loginFailureOf(error, 'login');
      }
    },

    async processVerification({ verificationCode }, state) {
      const stateToken = verificationStateToken(state);
      if (!stateToken) return unknownStateFailure();
      try {
        return loginResultOf(await api.verifyDuringAuthentication(verificationCode, { stateToken }));
      } catch (error) {
        return loginFailureOf(error, 'verification');
      }
    },

    async getMemberTokensForDirectLogin(sessionToken, directOptions = {}) {
      const framed = canUseFrame();
      const redirectUri =
        directOptions.redirectUri ?? options.redirectUri ?? (framed ? window.location.origin : undefined);
      if (!redirectUri) throw new ClientError(NEEDS_REDIRECT_URI);
      const oauthData = await generateOAuthData(redirectUri);
      const target = { state: oauthData.state, redirectUri, clientId };
      const { authUrl } = await flows.getAuthUrl(oauthData, {
        prompt: 'none',
        responseMode: framed ? 'web_message' : 'query',
        sessionToken,
      });
      const answer = framed
        ? await authorizationCodeFromFrame(authUrl, {
            ...target,
            origins: [new URL(authUrl).origin, new URL(transport.baseUrl).origin],
            ...(options.silentLoginTimeoutMs !== undefined
              ? { timeoutMs: options.silentLoginTimeoutMs }
              : {}),
          })
        : await authorizationCodeFromRedirects(authUrl, { ...target, fetch: doFetch, responseMode: 'query' });
      return flows.getMemberTokens(answer.code, answer.state, oauthData);
    },

    async sendPasswordResetEmail(email, redirectUri) {
      await api.sendRecoveryEmail(email, { language: 'en', redirect: { url: redirectUri, clientId } });
    },

    changePassword: (newPassword) => api.changePassword(newPassword),

    async getMemberTokensForExternalLogin(memberId, apiKey) {
      const held = tokens();
      const current = isAccessTokenValid(held.accessToken) ? held : await ensureFreshTokens(own);
      return requestTokens(own, authorizedClientGrant(memberId), 'member', {
        authorization: authorizedClientAuthorization(current.accessToken.value, apiKey),
      });
    },
  };
  return flows;
}

const NEEDS_REDIRECT_URI =
  'A direct login outside a browser needs a redirect URI registered with the OAuth client: OAuthStrategy({ redirectUri })';

function fullUrlOf(session: RedirectSession | undefined): string {
  if (!session?.fullUrl) throw new ClientError('The platform answered a redirect session without a fullUrl');
  return session.fullUrl;
}
