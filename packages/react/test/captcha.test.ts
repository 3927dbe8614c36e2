import { type CaptchaToken, createClient, type LoginResult, OAuthStrategy } from '@cartwheel/sdk';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IDENTITY_SETTINGS } from '../../platform/src/identity/service.ts';
import { CAPTCHA_AFTER_EMAIL_FAILURES } from '../../platform/src/identity/throttle.ts';
import {
  DIALECTS,
  startTestPlatform,
  TEST_CLIENT_ID,
  type TestPlatform,
} from '../../platform/test/support/platform.ts';
import { type CaptchaOutcome, useCaptcha } from '../src/index.ts';

const PASSWORD = 'correct horse battery';

/** As the storefront says it: a login answered -19971 or -19970. */
const refused = (outcome: CaptchaOutcome<LoginResult>) =>
  'result' in outcome &&
  outcome.result.loginState === 'FAILURE' &&
  (outcome.result.errorCode === 'missingCaptchaToken' || outcome.result.errorCode === 'invalidCaptchaToken');

/** The hook's `run`, taken from a render (no effects run on the server; `run` needs none). */
function captchaRun(): ReturnType<typeof useCaptcha<LoginResult>>['run'] {
  let run: ReturnType<typeof useCaptcha<LoginResult>>['run'] | undefined;
  function Form() {
    run = useCaptcha<LoginResult>({ refused }).run;
    return null;
  }
  renderToString(createElement(Form));
  if (!run) throw new Error('the form did not render');
  return run;
}

describe.each(DIALECTS)('useCaptcha when the platform asks on its own, on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await platform.services.settings.set(IDENTITY_SETTINGS.captcha, 'off');
    // the page's own origin: relative URLs (the config, the challenge) go to the platform, as in a browser
    const fetchOfNode = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      fetchOfNode(typeof input === 'string' ? new URL(input, platform.url) : input, init),
    );
  });
  afterAll(() => platform?.stop());
  afterAll(() => vi.unstubAllGlobals());

  it('solves a challenge and sends the form again when a guessed-at email needs a captcha, though the setting is off', async () => {
    const client = createClient({
      host: platform.url,
      auth: OAuthStrategy({ clientId: TEST_CLIENT_ID, host: platform.url, redirectUri: `${platform.url}/` }),
      modules: {},
    });
    client.auth.setTokens(
      await client.auth.generateVisitorTokens({ baseUrl: platform.url, fetch: globalThis.fetch }),
    );
    const email = `owner.${Date.now().toString(36)}@example.com`;
    expect((await client.auth.register({ email, password: PASSWORD })).loginState).toBe('SUCCESS');
    for (let guess = 0; guess < CAPTCHA_AFTER_EMAIL_FAILURES; guess += 1) {
      const wrong = await client.auth.login({ email, password: `someone guessing ${guess}` });
      expect(wrong).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
    }
    const config = await (await fetch('/api/cartwheel/config')).json();
    expect(config.captcha.required).toBe(false);

    const sent: Array<CaptchaToken[] | undefined> = [];
    const result = await captchaRun()((captchaTokens) => {
      sent.push(captchaTokens);
      return client.auth.login({ email, password: PASSWORD, ...(captchaTokens ? { captchaTokens } : {}) });
    });
    expect(result.loginState).toBe('SUCCESS');
    expect(sent).toEqual([undefined, [{ InvisibleRecaptcha: expect.any(String) }]]);
  });
});
