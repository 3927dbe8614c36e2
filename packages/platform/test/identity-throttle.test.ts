import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import {
  addressThrottleKey,
  CAPTCHA_AFTER_ADDRESS_FAILURES,
  CAPTCHA_AFTER_EMAIL_FAILURES,
  MAX_FAILURES_PER_ADDRESS,
} from '../src/identity/throttle.ts';
import { type Answer, call, register, solveCaptcha, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Failed logins, as someone guessing at a member's password meets them, and as the member does: the
 * platform sits behind a trusted proxy here, so each test signs in from addresses of its own.
 */

const PASSWORD = 'correct horse battery';
const MISSING_CAPTCHA = '-19971';
const INVALID_CAPTCHA = '-19970';
const WRONG_PASSWORD = '-19976';
const UNKNOWN_EMAIL = '-19999';

let addressCounter = 0;
/** A documentation address (RFC 5737) no other test signs in from. */
const newAddress = () => `203.0.113.${++addressCounter}`;

describe.each(DIALECTS)('failed logins on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: { TRUST_PROXY: '127.0.0.1' } });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());
  beforeEach(() => platform.services.database.db.deleteFrom('identity_login_attempts').execute());

  /** A login from `address`, with a captcha token when given one. */
  async function loginFrom(
    address: string,
    email: string,
    password: string,
    captcha?: string,
  ): Promise<Answer> {
    const response = await fetch(`${platform.url}/_api/iam/authentication/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: visitor, 'x-forwarded-for': address },
      body: JSON.stringify({
        loginId: { email },
        password,
        ...(captcha ? { captchaTokens: [{ InvisibleRecaptcha: captcha }] } : {}),
      }),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A challenge solved the way the browser does it. */
  async function solvedCaptcha(): Promise<string> {
    return solveCaptcha((await call(platform, 'GET', '/api/cartwheel/captcha/challenge')).body);
  }

  const codeOf = (answer: Answer) => answer.body.details?.applicationError?.code;

  const backdateAttempts = (minutes: number) =>
    platform.services.database.db
      .updateTable('identity_login_attempts')
      .set({ attempted_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .execute();

  it('asks for a captcha after three wrong passwords for an email, and with one the owner signs in', async () => {
    const email = uniqueEmail('guessed');
    await register(platform, visitor, email, PASSWORD);
    const guesser = newAddress();
    const owner = newAddress();
    const answers: Answer[] = [];
    for (let guess = 0; guess < CAPTCHA_AFTER_EMAIL_FAILURES; guess += 1) {
      const wrong = await loginFrom(guesser, email, `guess number ${guess}`);
      expect(codeOf(wrong)).toBe(WRONG_PASSWORD);
      answers.push(wrong);
    }
    // the guesser goes on only with captchas now, and each wrong one still counts
    const unchecked = await loginFrom(guesser, email, 'one more guess');
    expect(unchecked.status).toBe(400);
    expect(codeOf(unchecked)).toBe(MISSING_CAPTCHA);
    expect(codeOf(await loginFrom(guesser, email, 'a paid guess', await solvedCaptcha()))).toBe(
      WRONG_PASSWORD,
    );

    // the owner, from anywhere: the right password without a captcha is asked for one, never refused
    const withoutCaptcha = await loginFrom(owner, email, PASSWORD);
    expect(withoutCaptcha.status).toBe(400);
    expect(codeOf(withoutCaptcha)).toBe(MISSING_CAPTCHA);
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(await solvedCaptcha(), 'base64').toString()),
        signature: '00'.repeat(32),
      }),
    ).toString('base64');
    expect(codeOf(await loginFrom(owner, email, PASSWORD, forged))).toBe(INVALID_CAPTCHA);
    const signedIn = await loginFrom(owner, email, PASSWORD, await solvedCaptcha());
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.state).toBe('SUCCESS');
    answers.push(unchecked, withoutCaptcha, signedIn);
    expect(answers.map((answer) => answer.status)).not.toContain(429);

    // signing in forgave the email's failures: the next login needs no captcha
    expect((await loginFrom(owner, email, PASSWORD)).body.state).toBe('SUCCESS');
  });

  it("asks for no captcha for another member's email from the guesser's address, nor once the failures leave the window", async () => {
    const email = uniqueEmail('window');
    const bystander = uniqueEmail('bystander');
    await register(platform, visitor, email, PASSWORD);
    await register(platform, visitor, bystander, PASSWORD);
    const address = newAddress();
    for (let guess = 0; guess < CAPTCHA_AFTER_EMAIL_FAILURES; guess += 1) {
      await loginFrom(address, email, `wrong ${guess}`);
    }
    expect(codeOf(await loginFrom(address, email, PASSWORD))).toBe(MISSING_CAPTCHA);
    expect((await loginFrom(address, bystander, PASSWORD)).body.state).toBe('SUCCESS');

    await backdateAttempts(16);
    expect((await loginFrom(address, email, PASSWORD)).body.state).toBe('SUCCESS');
  });

  it('slows each further wrong password down, but never past a second', async () => {
    const email = uniqueEmail('slowed');
    await register(platform, visitor, email, PASSWORD);
    const address = newAddress();
    const timings: number[] = [];
    for (let guess = 0; guess < 7; guess += 1) {
      const captcha = guess >= CAPTCHA_AFTER_EMAIL_FAILURES ? await solvedCaptcha() : undefined;
      const started = performance.now();
      expect(codeOf(await loginFrom(address, email, `wrong ${guess}`, captcha))).toBe(WRONG_PASSWORD);
      timings.push(performance.now() - started);
    }
    // held back 0, 100, 200, 400, 800 ms, then 1 s at most
    expect(timings[2]).toBeGreaterThanOrEqual(200);
    expect(timings[4]).toBeGreaterThanOrEqual(800);
    expect(timings[6]).toBeGreaterThanOrEqual(1000);
    expect(timings[6]).toBeLessThan(2500);
  });

  it('lets fifty failures from one address through, then asks that address for captchas, for any email', async () => {
    const office = newAddress();
    const colleague = uniqueEmail('colleague');
    await register(platform, visitor, colleague, PASSWORD);
    for (let attempt = 0; attempt < CAPTCHA_AFTER_ADDRESS_FAILURES; attempt += 1) {
      expect(codeOf(await loginFrom(office, uniqueEmail('typo'), PASSWORD))).toBe(UNKNOWN_EMAIL);
    }
    const asked = await loginFrom(office, colleague, PASSWORD);
    expect(asked.status).toBe(400);
    expect(codeOf(asked)).toBe(MISSING_CAPTCHA);
    expect((await loginFrom(office, colleague, PASSWORD, await solvedCaptcha())).body.state).toBe('SUCCESS');
    // another address is not affected
    expect((await loginFrom(newAddress(), colleague, PASSWORD)).body.state).toBe('SUCCESS');
  });

  it('refuses an address far past its failures with 429, even with a captcha, until they leave the window', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < CAPTCHA_AFTER_ADDRESS_FAILURES; attempt += 1) {
      await loginFrom(address, uniqueEmail('spray'), PASSWORD);
    }
    // the rest of the five hundred, as if each had come with a solved captcha
    const now = new Date().toISOString();
    await platform.services.database.db
      .insertInto('identity_login_attempts')
      .values(
        Array.from({ length: MAX_FAILURES_PER_ADDRESS - CAPTCHA_AFTER_ADDRESS_FAILURES }, (_, n) => ({
          id: `seeded-${address}-${n}`,
          throttle_key: addressThrottleKey(address),
          attempted_at: now,
        })),
      )
      .execute();
    const refused = await loginFrom(address, uniqueEmail('next'), PASSWORD, await solvedCaptcha());
    expect(refused.status).toBe(429);
    expect(refused.body.details.applicationError).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      data: { retryAfterSeconds: expect.any(Number) },
    });
    expect(refused.body.details.applicationError.data.retryAfterSeconds).toBeGreaterThan(14 * 60);

    await backdateAttempts(16);
    expect(codeOf(await loginFrom(address, uniqueEmail('later'), PASSWORD))).toBe(UNKNOWN_EMAIL);
  });

  it('keeps the counts in the database, so parallel guesses without a captcha share the same three', async () => {
    const email = uniqueEmail('parallel');
    await register(platform, visitor, email, PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, guess) => loginFrom(newAddress(), email, `parallel guess ${guess}`)),
    );
    const checked = answers.filter((answer) => codeOf(answer) === WRONG_PASSWORD);
    expect(checked.length).toBeLessThanOrEqual(CAPTCHA_AFTER_EMAIL_FAILURES);
    expect(answers.filter((answer) => codeOf(answer) === MISSING_CAPTCHA).length).toBeGreaterThanOrEqual(
      12 - CAPTCHA_AFTER_EMAIL_FAILURES,
    );
  });

  it('asks for a captcha on every login when the site requires it, whatever the counts', async () => {
    const { settings } = platform.services;
    const email = uniqueEmail('required');
    await register(platform, visitor, email, PASSWORD);
    await settings.set(IDENTITY_SETTINGS.captcha, 'required');
    try {
      expect(codeOf(await loginFrom(newAddress(), email, PASSWORD))).toBe(MISSING_CAPTCHA);
      expect((await loginFrom(newAddress(), email, PASSWORD, await solvedCaptcha())).body.state).toBe(
        'SUCCESS',
      );
    } finally {
      await settings.set(IDENTITY_SETTINGS.captcha, 'off');
    }
  });
});
