import type { CaptchaConfig, CaptchaToken } from '@cartwheel/sdk';
import { CAPTCHA_CHALLENGE_PATH, captchaTokenFrom } from '@cartwheel/sdk/auth';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The platform's proof-of-work captcha on a sign-in or sign-up form: when the store asks for one, the
 * browser fetches a challenge and solves it before the form is sent (the shopper only waits a
 * moment), and the answer rides along as `captchaTokens: [{InvisibleRecaptcha: token}]`.
 */

/** The robot check could not run: the challenge could not be fetched or solved. */
export class CaptchaCheckError extends Error {
  override name = 'CaptchaCheckError';
}

/** What one attempt came to: its result, or what it threw. */
export type CaptchaOutcome<T> = { result: T } | { error: unknown };

export interface UseCaptchaOptions<T> {
  /**
   * Whether an attempt's outcome is the platform refusing its captcha: none sent (-19971), or a bad,
   * expired or spent one (-19970). A form whose call throws them and one whose call answers them as a
   * result say so differently.
   */
  refused: (outcome: CaptchaOutcome<T>) => boolean;
  /** Where the store's settings are read; the page's own `/api/cartwheel/config` by default. */
  configUrl?: string;
}

/**
 * `run(attempt)` sends a form with a solved captcha when the store asks for one; the store's setting
 * is read at each send, since its owner may turn it on at any time. A refusal (the setting changed,
 * the challenge expired) is tried once more with a fresh challenge; a second one is the outcome.
 * `busy` covers the whole run, `checking` the moment the browser solves; leaving the page stops it.
 */
export function useCaptcha<T = unknown>(options: UseCaptchaOptions<T>) {
  const [busy, setBusy] = useState(false);
  const [checking, setChecking] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const leaving = useRef<AbortController>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);

  const run = useCallback(
    async <R extends T>(attempt: (captchaTokens?: CaptchaToken[]) => Promise<R>): Promise<R> => {
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
        const config = await currentCaptcha(latest.current.configUrl ?? '/api/cartwheel/config');
        let required = config?.required ?? false;
        const challengeUrl = config?.challengeUrl || CAPTCHA_CHALLENGE_PATH;
        for (let tries = 0; ; tries += 1) {
          const captchaTokens = required ? [{ InvisibleRecaptcha: await solve(challengeUrl) }] : undefined;
          let outcome: CaptchaOutcome<R>;
          try {
            outcome = { result: await attempt(captchaTokens) };
          } catch (error) {
            outcome = { error };
          }
          if (tries === 0 && latest.current.refused(outcome)) {
            required = true; // the setting changed since it was read, or the challenge expired
            continue;
          }
          if ('error' in outcome) throw outcome.error;
          return outcome.result;
        }
      } finally {
        setBusy(false);
      }
    },
    [],
  );

  return { busy, checking, run };
}

/** The captcha part of the store's settings, read now; none when they cannot be read. */
async function currentCaptcha(configUrl: string): Promise<CaptchaConfig | undefined> {
  try {
    const response = await fetch(configUrl, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
    if (!response.ok) return undefined;
    return ((await response.json()) as { captcha?: CaptchaConfig }).captcha;
  } catch {
    return undefined;
  }
}
