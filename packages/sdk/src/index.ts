export { ApiKeyStrategy, type ApiKeyStrategyOptions } from './auth/api-key.ts';
export {
  type AuthorizationResponse,
  type AuthUrlOptions,
  authorizationParams,
  authRedirectSessionRequest,
  checkState,
  generateOAuthData,
  logoutRedirectSessionRequest,
  type OAuthData,
  parseFromUrl,
  type UrlResponseMode,
} from './auth/authorization.ts';
export {
  CAPTCHA_CHALLENGE_PATH,
  type CaptchaChallenge,
  type CaptchaConfig,
  captchaTokenFrom,
  type SolveCaptchaOptions,
  solveCaptchaChallenge,
} from './auth/captcha.ts';
export {
  type AuthenticationFlow,
  type CaptchaTokensInput,
  captchaTokensOnWire,
  isEmailViolation,
  type LoginFailure,
  loginFailureOf,
  loginResultOf,
  unknownStateFailure,
  verificationStateToken,
} from './auth/login-state.ts';
export {
  type LoginParams,
  OAuthStrategy,
  type OAuthStrategyOptions,
  type RegisterParams,
} from './auth/oauth.ts';
export {
  CODE_CHALLENGE_METHOD,
  codeChallengeOf,
  generateRandomSecret,
  SECRET_MAX_LENGTH,
  SECRET_MIN_LENGTH,
} from './auth/pkce.ts';
export {
  authorizationCodeFromFrame,
  authorizationCodeFromRedirects,
  canUseFrame,
  type FrameHost,
  type FrameOptions,
  type RedirectOptions,
  SilentLoginMessages,
  type SilentLoginTarget,
} from './auth/silent-login.ts';
export type { AuthContext, AuthStrategy } from './auth/strategy.ts';
export {
  anonymousGrant,
  authorizationCodeGrant,
  authorizedClientAuthorization,
  authorizedClientGrant,
  refreshTokenGrant,
  requestTokens,
  TOKEN_ENDPOINT_PATH,
  type TokenGrant,
  type TokenRequestOptions,
} from './auth/token-endpoint.ts';
export {
  localStorageTokenStorage,
  memoryTokenStorage,
  parseTokens,
  serializeTokens,
  type TokenStorage,
} from './auth/token-storage.ts';
export {
  type AccessToken,
  emptyTokens,
  isAccessTokenValid,
  type RefreshToken,
  type TokenResponse,
  type TokenRole,
  type Tokens,
} from './auth/tokens.ts';
export {
  type BoundModule,
  type Client,
  type ClientOptions,
  createClient,
  DEFAULT_HOST,
  type MethodFactory,
  type ModuleDefinition,
} from './client.ts';
export * from './errors/index.ts';
export * from './modules/ecom/index.ts';
export * from './modules/identity/index.ts';
export * from './modules/members/index.ts';
export * from './modules/redirects/index.ts';
export * from './modules/stores/index.ts';
export {
  type DomainMapping,
  everyHost,
  HOSTED_API_HOST,
  type PrefixRule,
  toPublicPath,
} from './transport/domains.ts';
export { createTransport, type HttpMethod, type RequestSpec, type Transport } from './transport/http.ts';
export * from './types/index.ts';
