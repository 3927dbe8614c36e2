import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('failed logins are throttled on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  const backdateAttempts = (minutes: number) =>
    platform.services.database.db
      .updateTable('identity_login_attempts')
      .set({ attempted_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .execute();

  it('refuses even the right password after five wrong ones for an email, until they leave the window', async () => {
    const email = uniqueEmail('guessed');
    const bystander = uniqueEmail('bystander');
    await register(platform, visitor, email, PASSWORD);
    await register(platform, visitor, bystander, PASSWORD);
    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await login(platform, visitor, email, `guess number ${guess}`);
      expect(wrong.body.details.applicationError.code).toBe('-19976');
    }
    const refused = await login(platform, visitor, email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.details.applicationError).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      data: { retryAfterSeconds: expect.any(Number) },
    });
    expect(refused.body.details.applicationError.data.retryAfterSeconds).toBeGreaterThan(14 * 60);

    // another member's login from the same address goes on
    expect((await login(platform, visitor, bystander, PASSWORD)).body.state).toBe('SUCCESS');

    await backdateAttempts(16);
    expect((await login(platform, visitor, email, PASSWORD)).body.state).toBe('SUCCESS');
  });

  it('slows each further wrong password down', async () => {
    const email = uniqueEmail('slowed');
    await register(platform, visitor, email, PASSWORD);
    const timings: number[] = [];
    for (let guess = 0; guess < 4; guess += 1) {
      const started = performance.now();
      await login(platform, visitor, email, `wrong ${guess}`);
      timings.push(performance.now() - started);
    }
    // after three failures, the fourth answer is held back 400 ms (100, 200, 400, ... up to 2 s)
    expect(timings[3]).toBeGreaterThanOrEqual(400);
    await backdateAttempts(16);
  });

  it('refuses logins from an address that failed twenty times, across any emails', async () => {
    await backdateAttempts(16);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const unknown = await login(platform, visitor, uniqueEmail('spray'), PASSWORD);
      expect(unknown.body.details.applicationError.code).toBe('-19999');
    }
    const refused = await call(platform, 'POST', '/_api/iam/authentication/v2/login', {
      auth: visitor,
      body: { loginId: { email: uniqueEmail('next') }, password: PASSWORD },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.details.applicationError.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('keeps the count in the database, so parallel guesses share the same five', async () => {
    await backdateAttempts(16);
    const email = uniqueEmail('parallel');
    await register(platform, visitor, email, PASSWORD);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, guess) => login(platform, visitor, email, `parallel guess ${guess}`)),
    );
    const checked = answers.filter((answer) => answer.body.details?.applicationError?.code === '-19976');
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(7);
  });
});
