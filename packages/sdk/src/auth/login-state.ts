import { ApplicationError } from '../errors/application-error.ts';
import { ClientMessages } from '../errors/client-error.ts';
import type { FieldViolation } from '../errors/http-error.ts';
import { HttpError } from '../errors/http-error.ts';
import { ValidationError } from '../errors/validation-error.ts';
import type { CaptchaToken } from '../types/identity.ts';
import {
  AUTH_SERVER_ERROR_CODES,
  type LoginErrorCode,
  type LoginResult,
  type StateMachineResponse,
} from '../types/login.ts';

/**
 * The client half of the login state machine (points 4 and 5): what a server answer or a server
 * refusal becomes. Pure functions, so every transition is tested on its own.
 */

export type LoginFailure = Extract<LoginResult, { loginState: 'FAILURE' }>;
/** Which call failed: some server codes mean something only for one of them. */
export type AuthenticationFlow = 'login' | 'register' | 'verification';

/** Any server state this client does not handle (REQUIRE_MFA, STATUS_CHECK, ...): 'Unknown _state'. */
export function unknownStateFailure(): LoginFailure {
  return { loginState: 'FAILURE', error: ClientMessages.unknownState };
}

/**
 * Point 4: SUCCESS → SUCCESS with the session token; REQUIRE_OWNER_APPROVAL → OWNER_APPROVAL_REQUIRED;
 * REQUIRE_EMAIL_VERIFICATION → EMAIL_VERIFICATION_REQUIRED keeping the state token; anything else (or a
 * state missing the token it needs) → FAILURE 'Unknown _state'.
 */
export function loginResultOf(answer: StateMachineResponse): LoginResult {
  switch (answer.state) {
    case 'SUCCESS':
      return answer.sessionToken
        ? { loginState: 'SUCCESS', data: { sessionToken: answer.sessionToken } }
        : unknownStateFailure();
    case 'REQUIRE_OWNER_APPROVAL':
      return { loginState: 'OWNER_APPROVAL_REQUIRED' };
    case 'REQUIRE_EMAIL_VERIFICATION':
      return answer.stateToken
        ? { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken: answer.stateToken } }
        : unknownStateFailure();
    default:
      return unknownStateFailure();
  }
}

/** Point 5: the failure class of each server application code, per flow. Data, not `if`s. */
const FAILURE_BY_SERVER_CODE: Record<AuthenticationFlow, Readonly<Record<string, LoginErrorCode>>> = {
  register: {
    [AUTH_SERVER_ERROR_CODES.emailAlreadyExists]: 'emailAlreadyExists',
    [AUTH_SERVER_ERROR_CODES.missingCaptchaToken]: 'missingCaptchaToken',
    [AUTH_SERVER_ERROR_CODES.invalidCaptchaToken]: 'invalidCaptchaToken',
  },
  login: {
    [AUTH_SERVER_ERROR_CODES.missingCaptchaToken]: 'missingCaptchaToken',
    [AUTH_SERVER_ERROR_CODES.invalidCaptchaToken]: 'invalidCaptchaToken',
    [AUTH_SERVER_ERROR_CODES.invalidPassword]: 'invalidPassword',
    [AUTH_SERVER_ERROR_CODES.resetPassword]: 'resetPassword',
  },
  verification: {},
};

/** What an unclassified server refusal is: on login, an email the platform won't sign in. */
const FALLBACK_FAILURE: Record<AuthenticationFlow, LoginErrorCode | undefined> = {
  login: 'invalidEmail',
  register: undefined,
  verification: undefined,
};

/** A field violation of the login email (`loginId.email`), or one the server typed `EMAIL`. */
export function isEmailViolation(violation: FieldViolation): boolean {
  return /(^|\.)email$/i.test(violation.field) || violation.data?.type === 'EMAIL';
}

/**
 * Point 5: a server refusal of a login, a registration or a verification code as
 * `{loginState: 'FAILURE', error, errorCode}`. A field violation of the email is invalidEmail; application
 * codes map through the table above; any other login refusal is invalidEmail, any other registration or
 * verification refusal has no code. Anything that is not
 * a server answer (the network is down) is not a login failure and is thrown again.
 */
export function loginFailureOf(error: unknown, flow: AuthenticationFlow): LoginFailure {
  if (!(error instanceof HttpError)) throw error;
  const emailViolation =
    error instanceof ValidationError ? error.fieldViolations.find(isEmailViolation) : undefined;
  const errorCode = emailViolation
    ? 'invalidEmail'
    : ((error instanceof ApplicationError ? FAILURE_BY_SERVER_CODE[flow][error.code] : undefined) ??
      FALLBACK_FAILURE[flow]);
  return { loginState: 'FAILURE', error: error.message, ...(errorCode ? { errorCode } : {}) };
}

/**
 * A verification code may be sent only while the login waits for one (point 4): the state token of
 * that state, or undefined for any other state.
 */
export function verificationStateToken(state: LoginResult): string | undefined {
  return state.loginState === 'EMAIL_VERIFICATION_REQUIRED' ? state.data.stateToken : undefined;
}

/** Captcha answers as a caller may hold them: the wire's list, or the hosted client's two named tokens. */
export type CaptchaTokensInput =
  | CaptchaToken[]
  | { recaptchaToken?: string | undefined; invisibleRecaptchaToken?: string | undefined };

/** The wire's `captchaTokens: [{Recaptcha?, InvisibleRecaptcha?}]`, or undefined when there are none. */
export function captchaTokensOnWire(input: CaptchaTokensInput | undefined): CaptchaToken[] | undefined {
  if (!input) return undefined;
  if (Array.isArray(input)) return input.length > 0 ? input : undefined;
  const token: CaptchaToken = {
    ...(input.recaptchaToken ? { Recaptcha: input.recaptchaToken } : {}),
    ...(input.invisibleRecaptchaToken ? { InvisibleRecaptcha: input.invisibleRecaptchaToken } : {}),
  };
  return Object.keys(token).length > 0 ? [token] : undefined;
}
