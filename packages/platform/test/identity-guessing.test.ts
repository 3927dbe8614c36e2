import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import {
  IDENTITY_CODE_WINDOW_MS,
  MAX_CODE_ATTEMPTS,
  MAX_CODES_SENT_PER_IDENTITY,
  MAX_WRONG_CODES_PER_IDENTITY,
  wrongCodeKey,
} from '../src/identity/verification.ts';
import {
  type Answer,
  call,
  latestCode,
  login,
  mailbox,
  register,
  uniqueEmail,
  visitorToken,
} from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Guessing a member's emailed verification code: whoever knows the password can start logins and ask
 * for codes again and again, but only the newest code works, and the member's wrong codes and codes
 * sent are counted across all of them.
 */

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('verification code guessing on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'true');
  });
  afterAll(() => platform?.stop());

  const verify = (stateToken: string, code: string) =>
    call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken },
    });
  const resend = (stateToken: string) =>
    call(platform, 'POST', '/_api/iam/verification/v1/auth/resend', { auth: visitor, body: { stateToken } });
  /** A login of an unverified member: its state token, and the code it mailed. */
  async function loginForCode(email: string): Promise<{ stateToken: string; code: string }> {
    const answer = await login(platform, visitor, email, PASSWORD);
    expect(answer.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    return { stateToken: answer.body.stateToken, code: await latestCode(platform, email) };
  }
  async function unverifiedMember(label: string) {
    const email = uniqueEmail(label);
    const registered = await register(platform, visitor, email, PASSWORD);
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    return {
      email,
      id: registered.body.identity.id as string,
      stateToken: registered.body.stateToken as string,
      code: await latestCode(platform, email),
    };
  }
  /** The n-th code that is not `code`. */
  const wrongCode = (code: string, n: number) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');
  const failure = (answer: Answer) => answer.body.details?.applicationError;

  it("stops a code once a newer one is sent: another login's, or a resend", async () => {
    const member = await unverifiedMember('newest');
    const second = await loginForCode(member.email);
    const first = await verify(member.stateToken, member.code);
    expect(first.status).toBe(400);
    expect(failure(first)).toMatchObject({ code: 'VERIFICATION_FAILED', data: { reason: 'NOT_FOUND' } });

    // a resend on the first login's token makes its new code the one that works
    expect((await resend(member.stateToken)).status).toBe(200);
    const resent = await latestCode(platform, member.email);
    expect(failure(await verify(second.stateToken, second.code))).toMatchObject({
      data: { reason: 'NOT_FOUND' },
    });
    expect(failure(await verify(member.stateToken, member.code))).toMatchObject({
      data: { reason: 'BAD_CODE' },
    });
    const verified = await verify(member.stateToken, resent);
    expect(verified.status).toBe(200);
    expect(verified.body.state).toBe('SUCCESS');
  });

  it('counts wrong codes across logins: ten an hour, then even the right code waits, and the reset link still lets the owner in', async () => {
    const member = await unverifiedMember('guessed');
    const answers: Answer[] = [];
    for (let round = 0; round < 6; round += 1) {
      const { stateToken, code } = await loginForCode(member.email);
      for (let guess = 0; guess < MAX_CODE_ATTEMPTS; guess += 1) {
        answers.push(await verify(stateToken, wrongCode(code, guess)));
      }
    }
    const checked = answers.filter((answer) => failure(answer)?.data?.reason === 'BAD_CODE');
    expect(checked).toHaveLength(MAX_WRONG_CODES_PER_IDENTITY);
    expect(failure(checked.at(-1)!).data.attemptsLeft).toBe(0);
    const refused = answers.slice(MAX_WRONG_CODES_PER_IDENTITY);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(failure(answer)).toMatchObject({
        code: 'TOO_MANY_ATTEMPTS',
        data: { reason: 'IDENTITY_CODE_ATTEMPTS' },
      });
    }

    // a new login's code, right this time, is not even compared
    const fresh = await loginForCode(member.email);
    const right = await verify(fresh.stateToken, fresh.code);
    expect(right.status).toBe(429);
    expect(failure(right)).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      data: { reason: 'IDENTITY_CODE_ATTEMPTS', retryAfterSeconds: expect.any(Number) },
    });
    expect(failure(right).data.retryAfterSeconds).toBeGreaterThan(50 * 60);

    // nor is a code an admin's verification sent
    const started = await call(platform, 'POST', '/_api/iam/verification/v1/start', {
      auth: platform.adminApiKey,
      body: { identityId: member.id, target: 'EMAIL' },
    });
    const byId = await call(platform, 'POST', '/_api/iam/verification/v1/verify', {
      auth: visitor,
      body: { verificationId: started.body.verificationId, code: await latestCode(platform, member.email) },
    });
    expect(byId.status).toBe(429);

    // the reset link proves the email another way
    await call(platform, 'POST', '/_api/iam/recovery/v1/send-email', {
      auth: visitor,
      body: { email: member.email },
    });
    const [message] = await mailbox(platform, member.email);
    expect(message?.kind).toBe('PASSWORD_RESET');
    const recoveryToken = new URL(/https?:\/\/\S+/.exec(message?.text)?.[0] ?? '').searchParams.get('token');
    const recovered = await call(platform, 'POST', '/_api/iam/recovery/v1/recover', {
      auth: visitor,
      body: { recoveryToken, password: 'a brand new password' },
    });
    expect(recovered.status).toBe(200);
    expect(recovered.body.state).toBe('SUCCESS');
    expect(recovered.body.identity.email.isVerified).toBe(true);
  });

  it('accepts the right code again once the wrong ones leave the hour', async () => {
    const member = await unverifiedMember('waits');
    for (let round = 0; round < 3; round += 1) {
      const { stateToken, code } = await loginForCode(member.email);
      for (let guess = 0; guess < MAX_CODE_ATTEMPTS; guess += 1)
        await verify(stateToken, wrongCode(code, guess));
    }
    const locked = await loginForCode(member.email);
    expect((await verify(locked.stateToken, locked.code)).status).toBe(429);

    await platform.services.database.db
      .updateTable('identity_login_attempts')
      .set({ attempted_at: new Date(Date.now() - IDENTITY_CODE_WINDOW_MS - 60_000).toISOString() })
      .where('throttle_key', '=', wrongCodeKey(member.id))
      .execute();
    const verified = await verify(locked.stateToken, locked.code);
    expect(verified.status).toBe(200);
    expect(verified.body.state).toBe('SUCCESS');
  });

  it("counts parallel guesses before comparing them, so they share what is left of the member's ten", async () => {
    const member = await unverifiedMember('parallel');
    for (let guess = 0; guess < MAX_CODE_ATTEMPTS; guess += 1) {
      await verify(member.stateToken, wrongCode(member.code, guess));
    }
    const second = await loginForCode(member.email);
    for (let guess = 0; guess < 3; guess += 1) await verify(second.stateToken, wrongCode(second.code, guess));
    const left = MAX_WRONG_CODES_PER_IDENTITY - MAX_CODE_ATTEMPTS - 3;

    const third = await loginForCode(member.email);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, guess) => verify(third.stateToken, wrongCode(third.code, guess))),
    );
    const checked = answers.filter((answer) => failure(answer)?.data?.reason === 'BAD_CODE');
    expect(checked.length).toBeLessThanOrEqual(left);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(12 - left);
    expect(answers.map((answer) => answer.status).filter((status) => status >= 500)).toEqual([]);
  });

  it('sends a member ten codes an hour at most, however many logins ask; the last one still works', async () => {
    const member = await unverifiedMember('flooded');
    let last = { stateToken: member.stateToken, code: member.code };
    for (let sent = 1; sent < MAX_CODES_SENT_PER_IDENTITY; sent += 1) last = await loginForCode(member.email);

    const another = await login(platform, visitor, member.email, PASSWORD);
    expect(another.status).toBe(429);
    expect(failure(another)).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      data: { reason: 'IDENTITY_SEND_LIMIT', retryAfterSeconds: expect.any(Number) },
    });
    const resent = await resend(last.stateToken);
    expect(resent.status).toBe(429);
    expect(failure(resent).data.reason).toBe('IDENTITY_SEND_LIMIT');
    const codes = (await mailbox(platform, member.email)).filter(
      (message) => message.kind === 'EMAIL_VERIFICATION_CODE',
    );
    expect(codes).toHaveLength(MAX_CODES_SENT_PER_IDENTITY);

    const verified = await verify(last.stateToken, last.code);
    expect(verified.body.state).toBe('SUCCESS');
  });
});

/** Verifications in progress when a store upgrades: of each member's, the newest keeps working. */
describe.each(DIALECTS)('verifications saved before one code per member, opened on %s', (dialect) => {
  const hash = (value: string) => createHash('sha256').update(value).digest('hex');
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const verifications = [
    { id: 'v-older', stateToken: 'state-older', code: '111111', createdMinutesAgo: 10 },
    { id: 'v-newer', stateToken: 'state-newer', code: '222222', createdMinutesAgo: 5 },
  ];
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      async prepare(options) {
        const database = connectDatabase(options);
        try {
          await migrateTo(database.db, '0011_catalog_listing_versions');
          const db = database.db as unknown as Kysely<any>; // the schema as it was
          await db
            .insertInto('identities')
            .values({
              id: 'identity-1',
              email: 'waiting@example.com',
              email_verified: 0,
              status: 'PENDING',
              pending_reason: 'PENDING_EMAIL_VERIFICATION_REQUIRED',
              password_hash: null,
              must_reset_password: 0,
              profile: '{}',
              created_at: at(60),
              updated_at: at(60),
            })
            .execute();
          for (const verification of verifications) {
            await db
              .insertInto('identity_verifications')
              .values({
                id: verification.id,
                state_token_hash: hash(verification.stateToken),
                identity_id: 'identity-1',
                visitor_id: null,
                client_id: null,
                code_digest: hash(`${verification.id}:${verification.code}`),
                code_expires_at: at(verification.createdMinutesAgo - 15),
                attempts: 0,
                sends: 1,
                created_at: at(verification.createdMinutesAgo),
                expires_at: at(verification.createdMinutesAgo - 60),
                completed_at: null,
              })
              .execute();
          }
        } finally {
          await database.close();
        }
      },
    });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  const verify = ({ stateToken, code }: { stateToken: string; code: string }) =>
    call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken },
    });

  it("refuses the older login's code and accepts the newer one's", async () => {
    const [older, newer] = verifications;
    const refused = await verify(older!);
    expect(refused.body.details?.applicationError).toMatchObject({ data: { reason: 'NOT_FOUND' } });
    const verified = await verify(newer!);
    expect(verified.status).toBe(200);
    expect(verified.body.identity.email.isVerified).toBe(true);
  });
});
