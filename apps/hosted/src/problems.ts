import { ApplicationError, AUTH_SERVER_ERROR_CODES, HttpError, ValidationError } from '@cartwheel/sdk';

/** A refusal as the person at the form reads it, and what they can do about it. */
export interface Problem {
  message: string;
  /** The field the problem is about, to point the form at it. */
  field?: 'email' | 'password' | 'code';
  /** A next step the page offers beside the message. */
  action?: 'forgot-password' | 'login' | 'signup' | 'resend' | 'new-link';
}

/** The platform's own code for "no member has this email" (identity/errors.ts). */
const UNKNOWN_EMAIL = '-19999';

/** Turns a failed identity call into a plain sentence; anything unforeseen keeps the server's words. */
export function problemOf(error: unknown): Problem {
  if (error instanceof ValidationError) {
    const [first] = error.fieldViolations;
    const field = first?.field ?? '';
    if (/email$/i.test(field)) return { message: 'Enter a valid email address.', field: 'email' };
    if (/password$/i.test(field)) {
      return {
        message:
          first?.violatedRule === 'REQUIRED_FIELD'
            ? 'Enter a password.'
            : `That password is too weak: it ${first?.description ?? 'is not allowed'}.`,
        field: 'password',
      };
    }
    if (/code$/i.test(field)) return { message: 'Enter the 6-digit code from the email.', field: 'code' };
    return { message: `Please check the form: ${first?.field} ${first?.description}.` };
  }
  if (error instanceof ApplicationError) return applicationProblem(error);
  if (error instanceof HttpError) {
    return { message: `The store could not do that (${error.status}). Please try again in a moment.` };
  }
  return { message: 'The store could not be reached. Check your connection and try again.' };
}

function applicationProblem(error: ApplicationError): Problem {
  switch (error.code) {
    case AUTH_SERVER_ERROR_CODES.invalidPassword:
      return {
        message: 'That password is not right. Try again, or reset it.',
        field: 'password',
        action: 'forgot-password',
      };
    case UNKNOWN_EMAIL:
      return {
        message: 'There is no account with this email. Check it, or create an account.',
        field: 'email',
        action: 'signup',
      };
    case AUTH_SERVER_ERROR_CODES.emailAlreadyExists:
      return {
        message: 'An account with this email already exists. Sign in instead.',
        field: 'email',
        action: 'login',
      };
    case AUTH_SERVER_ERROR_CODES.resetPassword:
      return {
        message: 'This account needs a new password before it can sign in. We can email you a link.',
        action: 'forgot-password',
      };
    case AUTH_SERVER_ERROR_CODES.missingCaptchaToken:
    case AUTH_SERVER_ERROR_CODES.invalidCaptchaToken:
      return {
        message: "We couldn't confirm you're not a robot. Please try again.",
      };
    case 'TOO_MANY_ATTEMPTS':
      return tooManyAttempts(error);
    case 'VERIFICATION_FAILED':
      return verificationProblem(error);
    case 'INVALID_RECOVERY_TOKEN':
      return {
        message: 'This reset link has expired or was already used. Ask for a new one.',
        action: 'new-link',
      };
    case 'INVALID_SESSION_TOKEN':
      return { message: 'Your sign-in took too long. Please sign in again.', action: 'login' };
    case 'IDENTITY_BLOCKED':
      return { message: 'This account is blocked. Contact the store if you think this is a mistake.' };
    default:
      return { message: sentence(error.description || error.message) };
  }
}

function tooManyAttempts(error: ApplicationError): Problem {
  const reason = error.data?.reason;
  if (reason === 'CODE_ATTEMPTS') {
    return {
      message: 'Too many wrong codes. Send a new code and try again.',
      field: 'code',
      action: 'resend',
    };
  }
  if (reason === 'SEND_LIMIT') {
    return { message: 'We sent too many codes for this sign-in. Please sign in again.', action: 'login' };
  }
  const seconds = Number(error.data?.retryAfterSeconds);
  const wait = Number.isFinite(seconds) && seconds > 0 ? ` in ${duration(seconds)}` : ' later';
  // the account's codes are used up for a while, whichever sign-in asks: the reset link still works
  if (reason === 'IDENTITY_CODE_ATTEMPTS') {
    return {
      message: `Too many wrong codes for this account. Try again${wait}, or reset your password to sign in now.`,
      field: 'code',
      action: 'forgot-password',
    };
  }
  if (reason === 'IDENTITY_SEND_LIMIT') {
    return {
      message: `We sent too many codes to this email lately. Try again${wait}, or reset your password to sign in now.`,
      action: 'forgot-password',
    };
  }
  return { message: `Too many attempts. For your safety, try again${wait}.` };
}

function verificationProblem(error: ApplicationError): Problem {
  switch (error.data?.reason) {
    case 'BAD_CODE': {
      const left = Number(error.data?.attemptsLeft);
      const tries = Number.isFinite(left) ? ` ${left} ${left === 1 ? 'try' : 'tries'} left.` : '';
      return { message: `That code is not right.${tries}`, field: 'code' };
    }
    case 'CODE_EXPIRED':
      return { message: 'That code has expired. Send a new one.', field: 'code', action: 'resend' };
    default:
      return { message: 'This verification is over. Please sign in again.', action: 'login' };
  }
}

/** `90` → "2 minutes", `30` → "30 seconds". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} ${Math.ceil(seconds) === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return 'Something went wrong. Please try again.';
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
