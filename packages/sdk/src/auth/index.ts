/**
 * `@cartwheel/sdk/auth`: the protocol steps OAuthStrategy is built from, each a function of its own
 * (PKCE, the authorization request and its answer, token grants, login states, silent login, the
 * captcha solver), for clients that drive a flow themselves. Kept off the root entry so a storefront
 * that only browses never bundles them.
 */
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
  SIGN_IN_CALLBACK_PATH,
  signInCallbackUrl,
  type UrlResponseMode,
} from './authorization.ts';
export {
  CAPTCHA_CHALLENGE_PATH,
  type CaptchaChallenge,
  type CaptchaConfig,
  captchaTokenFrom,
  type SolveCaptchaOptions,
  solveCaptchaChallenge,
} from './captcha.ts';
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
} from './login-state.ts';
export {
  CODE_CHALLENGE_METHOD,
  codeChallengeOf,
  generateRandomSecret,
  SECRET_MAX_LENGTH,
  SECRET_MIN_LENGTH,
} from './pkce.ts';
export {
  authorizationCodeFromFrame,
  authorizationCodeFromRedirects,
  canUseFrame,
  type FrameHost,
  type FrameOptions,
  type RedirectOptions,
  SilentLoginMessages,
  type SilentLoginTarget,
} from './silent-login.ts';
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
} from './token-endpoint.ts';
