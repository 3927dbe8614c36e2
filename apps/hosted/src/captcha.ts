import { CaptchaCheckError, useCaptcha as useSiteCaptcha } from '@cartwheel/react';
import { ApplicationError, AUTH_SERVER_ERROR_CODES } from '@cartwheel/sdk';
import type { Problem } from './problems.ts';

/** The hosted sign-in and sign-up pages with the site's captcha (`@cartwheel/react`'s useCaptcha). */

export const CHECKING_TEXT = "Checking you're not a robot…";

/** -19971 (no captcha token) or -19970 (a bad, expired or spent one). */
export function isCaptchaRefusal(error: unknown): boolean {
  return (
    error instanceof ApplicationError &&
    (error.code === AUTH_SERVER_ERROR_CODES.missingCaptchaToken ||
      error.code === AUTH_SERVER_ERROR_CODES.invalidCaptchaToken)
  );
}

/** The sentence for a robot check that failed even with a fresh challenge; undefined for other problems. */
export function captchaProblemOf(error: unknown): Problem | undefined {
  if (error instanceof CaptchaCheckError) {
    return { message: "We couldn't check that you're not a robot. Check your connection and try again." };
  }
  if (isCaptchaRefusal(error)) {
    return { message: "We couldn't confirm you're not a robot. Please try again." };
  }
  return undefined;
}

/** The hosted pages' calls throw a captcha refusal as an application error. */
export const useCaptcha = () =>
  useSiteCaptcha({ refused: (outcome) => 'error' in outcome && isCaptchaRefusal(outcome.error) });
