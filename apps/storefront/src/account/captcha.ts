import type { CaptchaConfig, CaptchaToken, LoginResult } from '@cartwheel/sdk';
import { CAPTCHA_CHALLENGE_PATH, captchaTokenFrom } from '@cartwheel/sdk/auth';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The platform's proof-of-work captcha on the storefront's sign-in and sign-up forms: when the store
 * asks for one, the browser fetches a challenge and solves it before the form is sent (the shopper only
 * waits a moment), and the answer goes as `captchaTokens: [{InvisibleRecaptcha: token}]`.
 */

export const CHECKING_TEXT = "Checking you're not a robot…";

/** The robot check could not run: the challenge could not be fetched or solved. */
export class CaptchaCheckError extends Error {
  override name = 'CaptchaCheckError';
}

/** -19971 (no captcha token) or -19970 (a bad, expired or spent one), as the SDK classes them. */
export function isCaptchaRefusal(result: LoginResult): boolean {
  return (
    result.loginState === 'FAILURE' &&
    (result.errorCode === 'missingCaptchaToken' || result.errorCode === 'invalidCaptchaToken')
  );
}

/** The captcha part of `GET /api/cartwheel/config`, read now: the owner may turn it on at any time. */
async function currentCaptcha(): Promise<CaptchaConfig | undefined> {
  try {
    const response = await fetch('/api/cartwheel/config', {
      headers: { Accept: 'application/json' },
      cache: 'no-cache',
    });
    if (!response.ok) return undefined;
    return ((await response.json()) as { captcha?: CaptchaConfig }).captcha;
  } catch {
    return undefined;
  }
}

/**
 * `run(attempt)` signs in or up with a solved captcha when the store asks for one. A captcha refusal
 * (the setting changed, the challenge expired) is tried once more with a fresh challenge; a second
 * refusal is the result. `busy` covers the whole run, `checking` the moment the browser solves.
 */
export function useCaptcha() {
  const [busy, setBusy] = useState(false);
  const [checking, setChecking] = useState(false);
  const leaving = useRef<AbortController>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const run = useCallback(
    async (attempt: (captchaTokens?: CaptchaToken[]) => Promise<LoginResult>): Promise<LoginResult> => {
      const solve = async (challengeUrl: string): Promise<string> => {
        setChecking(true);
        try {
          const signal = leaving.current?.signal;
          return await captchaTokenFrom(challengeUrl, signal ? { signal } : {});
        } catch (error) {
          throw new CaptchaCheckError(error instanceof Error ? error.message : String(error));
        } finally {
          setChecking(false);
        }
      };
      setBusy(true);
      try {
        const config = await currentCaptcha();
        let required = config?.required ?? false;
        const challengeUrl = config?.challengeUrl || CAPTCHA_CHALLENGE_PATH;
        for (let tries = 0; ; tries += 1) {
          const captchaTokens = required ? [{ InvisibleRecaptcha: await solve(challengeUrl) }] : undefined;
          const result = await attempt(captchaTokens);
          if (!isCaptchaRefusal(result) || tries > 0) return result;
          required = true;
        }
      } finally {
        setBusy(false);
      }
    },
    [],
  );

  return { busy, checking, run };
}
