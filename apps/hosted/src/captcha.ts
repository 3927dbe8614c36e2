import {
  ApplicationError,
  AUTH_SERVER_ERROR_CODES,
  type CaptchaConfig,
  type CaptchaToken,
} from '@cartwheel/sdk';
import { CAPTCHA_CHALLENGE_PATH, captchaTokenFrom } from '@cartwheel/sdk/auth';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Problem } from './problems.ts';

/**
 * The platform's proof-of-work captcha on the hosted pages: when the site asks for one, the page fetches
 * a challenge and solves it in the browser before sending the form (nothing for the member to do but
 * wait a moment), and sends the answer as `captchaTokens: [{InvisibleRecaptcha: token}]`.
 */

export const CHECKING_TEXT = "Checking you're not a robot…";

/** The robot check could not run: the challenge could not be fetched or solved. */
export class CaptchaCheckError extends Error {
  override name = 'CaptchaCheckError';
}

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

/** The captcha part of `GET /api/cartwheel/config`, read now: an admin may turn it on while pages are open. */
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
 * `run(attempt)` sends a form with a solved captcha when the site asks for one. A captcha refusal
 * (the setting changed, the challenge expired) is retried once with a fresh challenge; a second one is
 * thrown for the page to show. `checking` is true while the browser solves a challenge.
 */
export function useCaptcha() {
  const [checking, setChecking] = useState(false);
  const leaving = useRef<AbortController>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const run = useCallback(async <T>(attempt: (captchaTokens?: CaptchaToken[]) => Promise<T>): Promise<T> => {
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
    const config = await currentCaptcha();
    let required = config?.required ?? false;
    const challengeUrl = config?.challengeUrl || CAPTCHA_CHALLENGE_PATH;
    for (let tries = 0; ; tries += 1) {
      const captchaTokens = required ? [{ InvisibleRecaptcha: await solve(challengeUrl) }] : undefined;
      try {
        return await attempt(captchaTokens);
      } catch (error) {
        // a refusal of the captcha: the setting changed since the config was read, or the challenge expired
        if (!isCaptchaRefusal(error) || tries > 0) throw error;
        required = true;
      }
    }
  }, []);

  return { checking, run };
}
