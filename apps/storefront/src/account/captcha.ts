import { type CaptchaOutcome, useCaptcha as useStoreCaptcha } from '@cartwheel/react';
import type { LoginResult } from '@cartwheel/sdk';

/** The storefront's sign-in and sign-up forms with the store's captcha (`@cartwheel/react`'s useCaptcha). */

export const CHECKING_TEXT = "Checking you're not a robot…";

/** -19971 (no captcha token) or -19970 (a bad, expired or spent one), as the SDK classes them in a result. */
export function isCaptchaRefusal(outcome: CaptchaOutcome<LoginResult>): boolean {
  return (
    'result' in outcome &&
    outcome.result.loginState === 'FAILURE' &&
    (outcome.result.errorCode === 'missingCaptchaToken' || outcome.result.errorCode === 'invalidCaptchaToken')
  );
}

export const useCaptcha = () => useStoreCaptcha<LoginResult>({ refused: isCaptchaRefusal });
