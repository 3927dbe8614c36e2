export { ApiKeyStrategy, type ApiKeyStrategyOptions } from './auth/api-key.ts';
// The protocol steps themselves are at `@cartwheel/sdk/auth`; their types are here too.
export type {
  AuthorizationResponse,
  AuthUrlOptions,
  OAuthData,
  UrlResponseMode,
} from './auth/authorization.ts';
export type { CaptchaChallenge, CaptchaConfig, SolveCaptchaOptions } from './auth/captcha.ts';
export type { AuthenticationFlow, CaptchaTokensInput, LoginFailure } from './auth/login-state.ts';
export {
  type LoginParams,
  OAuthStrategy,
  type OAuthStrategyOptions,
  type RegisterParams,
} from './auth/oauth.ts';
export type { FrameHost, FrameOptions, RedirectOptions, SilentLoginTarget } from './auth/silent-login.ts';
export type { AuthContext, AuthStrategy } from './auth/strategy.ts';
export type { TokenGrant, TokenRequestOptions } from './auth/token-endpoint.ts';
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
  type GraphQLCall,
  graphqlCall,
  type MethodFactory,
  type ModuleDefinition,
} from './client.ts';
export * from './errors/index.ts';
export * from './modules/cartwheel/index.ts';
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
