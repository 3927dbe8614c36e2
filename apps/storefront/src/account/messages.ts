import type { LoginResult } from '@cartwheel/sdk';

type Failure = Extract<LoginResult, { loginState: 'FAILURE' }>;

/** Which form the failure came from: the same code means different things on each. */
export type AccountFlow = 'sign-in' | 'sign-up' | 'verification';

/**
 * What a shopper reads when signing in or up fails: one plain sentence per failure class of point 5,
 * plus the platform's refusals the SDK files under another class (too many attempts, a blocked
 * member, a wrong or expired code), recognised by what the platform said.
 */
export function loginFailureMessage(failure: Failure, flow: AccountFlow): string {
  const said = failure.error.toLowerCase();
  const usedUp = accountCodesUsedUp(failure.error);
  if (usedUp === 'wrong-codes') {
    return 'Too many wrong codes for this account. Try again later, or reset your password to sign in now.';
  }
  if (usedUp === 'codes-sent') {
    return 'We sent too many codes to this email lately. Try again later, or reset your password to sign in now.';
  }
  if (said.includes('too many')) {
    return flow === 'verification'
      ? 'Too many wrong codes. Ask for a new code, then try again.'
      : 'Too many attempts. Wait a few minutes, then try again.';
  }
  if (flow === 'verification') {
    if (said.includes('expired')) return 'That code has expired. Ask for a new one.';
    if (said.includes('not correct')) return "That code isn't right. Check the email and try again.";
    return 'We could not check that code. Ask for a new one and try again.';
  }
  switch (failure.errorCode) {
    case 'invalidPassword':
      return "That password isn't right. Try again, or reset your password.";
    case 'resetPassword':
      return 'You need to choose a new password before signing in. Use "Forgot your password?" to get a link.';
    case 'emailAlreadyExists':
      return 'An account with this email already exists. Sign in instead.';
    case 'missingCaptchaToken':
    case 'invalidCaptchaToken':
      return "We couldn't confirm you're not a robot. Please try again.";
    case 'invalidEmail':
      if (flow === 'sign-up') return 'Please enter a valid email address.';
      if (said.includes('blocked')) return 'This account is blocked. Contact the store for help.';
      if (said.includes('pending')) return 'This account is waiting for the store owner\u2019s approval.';
      // the SDK files every login refusal it has no class for as invalidEmail (an outage, a refusal
      // it does not know): only the platform saying it has no such member is told as a missing account
      if (platformSaidNoAccount(said)) {
        return "We couldn't find an account with that email. Check it, or create an account.";
      }
      return "We couldn't sign you in with that email and password. Check them and try again.";
    default:
      if (said.includes('password')) return 'Please choose a password of at least 6 characters.';
      return flow === 'sign-up'
        ? 'We could not create your account. Check your details and try again.'
        : 'We could not sign you in. Please try again.';
  }
}

/**
 * Whether the platform's own words say it has no account with the email: Cartwheel's "no member has
 * this email", or a hosted platform's "not found" / "no account".
 */
function platformSaidNoAccount(said: string): boolean {
  return /no member has this email|no account|not found|does not exist|doesn't exist/.test(said);
}

/**
 * Whether the platform said the account's codes are used up for a while, whichever sign-in asks (its
 * wrong codes, or the codes sent to it): then only the password reset link lets the shopper in now.
 */
export function accountCodesUsedUp(said: string): 'wrong-codes' | 'codes-sent' | undefined {
  const text = said.toLowerCase();
  if (text.includes('too many wrong codes for this account')) return 'wrong-codes';
  if (text.includes('too many codes sent to this email')) return 'codes-sent';
  return undefined;
}

/** Anything else that went wrong (the network, the platform): never a raw error. */
export function unexpectedFailureMessage(error: unknown): string {
  if (error instanceof Error && error.name === 'CaptchaCheckError') {
    return "We couldn't check that you're not a robot. Check your connection and try again.";
  }
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  if (offline) return 'You seem to be offline. Check your connection and try again.';
  return error instanceof Error && /timed out/i.test(error.message)
    ? 'Signing in took too long. Please try again.'
    : 'Something went wrong on our side. Please try again in a moment.';
}
