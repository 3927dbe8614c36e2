export { ApiKeyStrategy, type ApiKeyStrategyOptions } from './auth/api-key.ts';
export { OAuthStrategy, type OAuthStrategyOptions } from './auth/oauth.ts';
export {
  CODE_CHALLENGE_METHOD,
  codeChallengeOf,
  generateRandomSecret,
  SECRET_MAX_LENGTH,
  SECRET_MIN_LENGTH,
} from './auth/pkce.ts';
export type { AuthContext, AuthStrategy } from './auth/strategy.ts';
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
