import { AUTH_SERVER_ERROR_CODES } from '@cartwheel/sdk';
import { applicationError, type DomainError, invalidArgument, violation } from '../shared/errors.ts';

/**
 * The hosted platform's numeric codes for login and registration failures (point 5), as the SDK
 * declares them, plus one for an unknown email. The hosted client files every login error it does
 * not know as invalidEmail, so any code would do there; '-19999' is Cartwheel's own.
 */
export const AUTH_ERROR_CODES = { ...AUTH_SERVER_ERROR_CODES, unknownEmail: '-19999' } as const;

export const emailAlreadyExists = (): DomainError =>
  applicationError(
    'ALREADY_EXISTS',
    AUTH_ERROR_CODES.emailAlreadyExists,
    'a member with this email already exists',
  );

export const invalidPassword = (): DomainError =>
  applicationError('INVALID_ARGUMENT', AUTH_ERROR_CODES.invalidPassword, 'the password is not correct');

export const resetPasswordRequired = (): DomainError =>
  applicationError(
    'FAILED_PRECONDITION',
    AUTH_ERROR_CODES.resetPassword,
    'this member must reset their password before signing in',
  );

export const unknownEmail = (): DomainError =>
  applicationError('INVALID_ARGUMENT', AUTH_ERROR_CODES.unknownEmail, 'no member has this email');

export const missingCaptchaToken = (): DomainError =>
  applicationError('INVALID_ARGUMENT', AUTH_ERROR_CODES.missingCaptchaToken, 'a captcha token is required');

export const invalidCaptchaToken = (): DomainError =>
  applicationError(
    'INVALID_ARGUMENT',
    AUTH_ERROR_CODES.invalidCaptchaToken,
    'the captcha token is not valid',
  );

export const tooManyAttempts = (retryAfterSeconds: number): DomainError =>
  applicationError('RESOURCE_EXHAUSTED', 'TOO_MANY_ATTEMPTS', 'too many failed attempts: try again later', {
    retryAfterSeconds,
  });

/** One code's tries are used up; a new code (resend) brings new ones. */
export const tooManyWrongCodes = (): DomainError =>
  applicationError('RESOURCE_EXHAUSTED', 'TOO_MANY_ATTEMPTS', 'too many wrong codes: ask for a new one', {
    reason: 'CODE_ATTEMPTS',
  });

/** One login's resends are used up; signing in again starts a new verification. */
export const tooManyResends = (): DomainError =>
  applicationError('RESOURCE_EXHAUSTED', 'TOO_MANY_ATTEMPTS', 'too many codes sent: sign in again', {
    reason: 'SEND_LIMIT',
  });

/**
 * The identity's wrong codes, across all its logins and codes, are used up for a while. No new code
 * helps; the password reset link proves the email another way.
 */
export const tooManyWrongCodesForIdentity = (retryAfterSeconds: number): DomainError =>
  applicationError(
    'RESOURCE_EXHAUSTED',
    'TOO_MANY_ATTEMPTS',
    'too many wrong codes for this account: try again later, or reset your password',
    { reason: 'IDENTITY_CODE_ATTEMPTS', retryAfterSeconds },
  );

/** The identity was sent as many codes as it may be for a while, by any of its logins. */
export const tooManyCodesForIdentity = (retryAfterSeconds: number): DomainError =>
  applicationError(
    'RESOURCE_EXHAUSTED',
    'TOO_MANY_ATTEMPTS',
    'too many codes sent to this email lately: try again later, or reset your password',
    { reason: 'IDENTITY_SEND_LIMIT', retryAfterSeconds },
  );

/** A verification code that is wrong, expired, or for a state that is over (point 8's member reasons). */
export const verificationFailed = (
  reason: 'BAD_CODE' | 'CODE_EXPIRED' | 'NOT_FOUND',
  data: Record<string, unknown> = {},
): DomainError =>
  applicationError(
    'INVALID_ARGUMENT',
    'VERIFICATION_FAILED',
    reason === 'BAD_CODE'
      ? 'the verification code is not correct'
      : reason === 'CODE_EXPIRED'
        ? 'the verification code has expired: ask for a new one'
        : 'there is no verification in progress for this state token',
    { reason, ...data },
  );

export const identityCannotSignIn = (status: string): DomainError =>
  applicationError(
    'PERMISSION_DENIED',
    `IDENTITY_${status}`,
    `this member is ${status.toLowerCase()} and cannot sign in`,
  );

export const invalidRecoveryToken = (): DomainError =>
  applicationError(
    'INVALID_ARGUMENT',
    'INVALID_RECOVERY_TOKEN',
    'the link is not valid, was already used, or expired',
  );

export const invalidSessionToken = (): DomainError =>
  applicationError(
    'INVALID_ARGUMENT',
    'INVALID_SESSION_TOKEN',
    'the session token is not valid, was used, or expired',
  );

/** Deliberately plain: one `@`, something on each side, a dot in the domain, no spaces. */
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

/** The login email, normalised (trimmed, lowercased); a field violation on `field` when malformed. */
export function loginEmail(value: unknown, field = 'loginId.email'): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidArgument([violation(field, 'is required', 'REQUIRED_FIELD')]);
  }
  const email = value.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_FORMAT.test(email)) {
    throw invalidArgument([violation(field, 'is not a valid email address', 'FORMAT')]);
  }
  return email;
}
