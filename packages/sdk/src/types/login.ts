/**
 * The login state machine of point 4 and the failures of point 5: what the authentication service
 * answers, and what the client makes of it.
 */
import type { FactorStatus, FactorType, Identity } from './identity.ts';

/** `state` of an authentication answer, as the server sends it. */
export const SERVER_AUTH_STATES = [
  'UNKNOWN_STATE',
  'SUCCESS',
  'REQUIRE_OWNER_APPROVAL',
  'REQUIRE_EMAIL_VERIFICATION',
  'STATUS_CHECK',
  'REQUIRE_MFA',
] as const;
export type ServerAuthState = (typeof SERVER_AUTH_STATES)[number];

/** The answer of register, login and verification calls. */
export interface StateMachineResponse {
  state?: ServerAuthState;
  /** Present on `SUCCESS`: turned into member tokens through a `prompt: none` redirect. */
  sessionToken?: string | null;
  /** Present while a step is pending: the next call of the flow sends it back. */
  stateToken?: string | null;
  identity?: Identity;
  additionalData?: Record<string, unknown>;
  /** `REQUIRE_MFA`: the factors the second step may use (`POST /v2/{factorType}/verify`). */
  requireMfaData?: {
    availableFactors: Array<{ factorType: FactorType; factorStatus: FactorStatus }>;
    /** `USER_SETTINGS`: the member turned it on, or the store requires it of them. */
    reason: string;
  };
}

/** The client's login states (point 4). */
export const LOGIN_STATES = [
  'INITIAL',
  'SUCCESS',
  'FAILURE',
  'EMAIL_VERIFICATION_REQUIRED',
  'OWNER_APPROVAL_REQUIRED',
  'USER_CAPTCHA_REQUIRED',
  'SILENT_CAPTCHA_REQUIRED',
] as const;
export type LoginState = (typeof LOGIN_STATES)[number];

/** Which client state each server state becomes; any other server state is `FAILURE` 'Unknown _state'. */
export const LOGIN_STATE_BY_SERVER_STATE = {
  SUCCESS: 'SUCCESS',
  REQUIRE_OWNER_APPROVAL: 'OWNER_APPROVAL_REQUIRED',
  REQUIRE_EMAIL_VERIFICATION: 'EMAIL_VERIFICATION_REQUIRED',
} as const satisfies Partial<Record<ServerAuthState, LoginState>>;

/** Failure classes of registration and login (point 5). */
export const LOGIN_ERROR_CODES = [
  'invalidEmail',
  'emailAlreadyExists',
  'missingCaptchaToken',
  'invalidCaptchaToken',
  'invalidPassword',
  'resetPassword',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number];

/** The failure classes a registration can end with (point 8). */
export const REGISTRATION_ERROR_CODES = [
  'invalidEmail',
  'missingCaptchaToken',
  'emailAlreadyExists',
  'invalidCaptchaToken',
] as const satisfies readonly LoginErrorCode[];
export type RegistrationErrorCode = (typeof REGISTRATION_ERROR_CODES)[number];

/** The server's numeric application error codes behind the failure classes (point 5). */
export const AUTH_SERVER_ERROR_CODES = {
  /** Registration only. */
  emailAlreadyExists: '-19995',
  missingCaptchaToken: '-19971',
  invalidCaptchaToken: '-19970',
  /** Login only. */
  invalidPassword: '-19976',
  /** Login only: the password must be reset before signing in. */
  resetPassword: '-19973',
} as const satisfies Partial<Record<LoginErrorCode, string>>;

/** What a login or registration call resolves to. */
export type LoginResult =
  | { loginState: 'SUCCESS'; data: { sessionToken: string } }
  | { loginState: 'EMAIL_VERIFICATION_REQUIRED'; data: { stateToken: string } }
  | { loginState: 'OWNER_APPROVAL_REQUIRED'; data?: { stateToken?: string } }
  | { loginState: 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED'; data?: Record<string, never> }
  | { loginState: 'FAILURE'; error: string; errorCode?: LoginErrorCode }
  | { loginState: 'INITIAL' };
