import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import {
  call,
  latestCode,
  login,
  mailbox,
  memberTokens,
  register,
  solveCaptcha,
  uniqueEmail,
  visitorToken,
} from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery';

describe.each(DIALECTS)('visitor and member authentication on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());
  beforeEach(async () => {
    const { settings } = platform.services;
    await settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
    await settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    await settings.set(IDENTITY_SETTINGS.captcha, 'off');
  });

  const setting = (key: string, value: string) => platform.services.settings.set(key, value);

  it('registers a member: SUCCESS, a session token that buys member tokens once, and the member reads themself', async () => {
    const email = uniqueEmail('ada');
    const registered = await register(platform, visitor, email, PASSWORD, {
      profile: { firstName: 'Ada', lastName: 'Lovelace', nickname: 'Countess Ada' },
    });
    expect(registered.status).toBe(200);
    expect(registered.body.state).toBe('SUCCESS');
    expect(registered.body.sessionToken).toEqual(expect.any(String));
    expect(registered.body.identity.email).toEqual({ address: email, isVerified: false });
    expect(registered.body.identity.status).toEqual({ name: 'ACTIVE', reasons: [] });

    const tokens = await memberTokens(platform, registered.body.sessionToken);
    await expect(memberTokens(platform, registered.body.sessionToken)).rejects.toMatchObject({
      application: { code: 'INVALID_SESSION_TOKEN' },
    });

    const my = await call(platform, 'GET', '/members/v1/members/my?fieldsets=FULL', {
      auth: tokens.access_token,
    });
    expect(my.status).toBe(200);
    expect(my.body.member).toMatchObject({
      id: registered.body.identity.id,
      loginEmail: email,
      loginEmailVerified: false,
      status: 'APPROVED',
      contact: { firstName: 'Ada', lastName: 'Lovelace', emails: [email] },
      profile: { nickname: 'Countess Ada', slug: 'countess-ada' },
      privacyStatus: 'PUBLIC',
      activityStatus: 'ACTIVE',
    });
    expect(Date.parse(my.body.member.lastLoginDate)).toBeGreaterThan(Date.now() - 60_000);

    // the refresh token's role is member: a refreshed access token still names the member
    const refreshed = await call(platform, 'POST', '/oauth2/token', {
      body: { clientId: TEST_CLIENT_ID, grantType: 'refresh_token', refreshToken: tokens.refresh_token },
    });
    const again = await call(platform, 'GET', '/members/v1/members/my', {
      auth: refreshed.body.access_token,
    });
    expect(again.body.member.id).toBe(registered.body.identity.id);
  });

  it('keeps a session token for the OAuth client the visitor belongs to', async () => {
    const registered = await register(platform, visitor, uniqueEmail('client'), PASSWORD);
    await expect(
      memberTokens(platform, registered.body.sessionToken, 'another-client'),
    ).rejects.toMatchObject({
      application: { code: 'INVALID_SESSION_TOKEN' },
    });
  });

  it('refuses a second registration of an email with -19995, whatever its case', async () => {
    const email = uniqueEmail('twice');
    expect((await register(platform, visitor, email, PASSWORD)).status).toBe(200);
    const again = await register(platform, visitor, email.toUpperCase(), PASSWORD);
    expect(again.status).toBe(409);
    expect(again.body.details.applicationError.code).toBe('-19995');
  });

  it('answers a malformed email with a FORMAT violation on loginId.email and a short password on password', async () => {
    const badEmail = await register(platform, visitor, 'not-an-email', PASSWORD);
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'loginId.email', violatedRule: 'FORMAT' }),
    ]);
    const shortPassword = await register(platform, visitor, uniqueEmail('short'), '12345');
    expect(shortPassword.status).toBe(400);
    expect(shortPassword.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'password', violatedRule: 'MIN_LENGTH' }),
    ]);
  });

  it('refuses registration and login without a visitor token', async () => {
    const answer = await call(platform, 'POST', '/_api/iam/authentication/v2/login', {
      body: { loginId: { email: uniqueEmail('anon') }, password: PASSWORD },
    });
    expect(answer.status).toBe(401);
  });

  it('logs in with the right password, and fails with -19976 for a wrong one and -19999 for an unknown email', async () => {
    const email = uniqueEmail('login');
    await register(platform, visitor, email, PASSWORD);

    const wrong = await login(platform, visitor, email, 'not the password');
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.applicationError.code).toBe('-19976');

    const unknown = await login(platform, visitor, uniqueEmail('nobody'), PASSWORD);
    expect(unknown.body.details.applicationError.code).toBe('-19999');

    const right = await login(platform, visitor, `  ${email.toUpperCase()} `, PASSWORD);
    expect(right.status).toBe(200);
    expect(right.body.state).toBe('SUCCESS');
    const tokens = await memberTokens(platform, right.body.sessionToken);
    const my = await call(platform, 'GET', '/members/v1/members/my', { auth: tokens.access_token });
    expect(my.body.member.loginEmail).toBe(email);
  });

  it('tells a member who must reset their password so with -19973, only once the password is right', async () => {
    const email = uniqueEmail('reset');
    await register(platform, visitor, email, PASSWORD);
    await platform.services.database.db
      .updateTable('identities')
      .set({ must_reset_password: 1 })
      .where('email', '=', email)
      .execute();
    expect((await login(platform, visitor, email, 'wrong password')).body.details.applicationError.code).toBe(
      '-19976',
    );
    expect((await login(platform, visitor, email, PASSWORD)).body.details.applicationError.code).toBe(
      '-19973',
    );
  });

  it('stores passwords only as salted scrypt hashes', async () => {
    const first = uniqueEmail('hash1');
    const second = uniqueEmail('hash2');
    await register(platform, visitor, first, PASSWORD);
    await register(platform, visitor, second, PASSWORD);
    const rows = await platform.services.database.db
      .selectFrom('identities')
      .select(['email', 'password_hash'])
      .where('email', 'in', [first, second])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.password_hash).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    }
    expect(rows[0]?.password_hash).not.toBe(rows[1]?.password_hash);
  });

  it('verifies the email with the mailed code: a wrong code is counted, the right one signs in', async () => {
    await setting(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    const email = uniqueEmail('verify');
    const registered = await register(platform, visitor, email, PASSWORD);
    expect(registered.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    expect(registered.body.sessionToken).toBeUndefined();
    expect(registered.body.identity.status).toEqual({
      name: 'PENDING',
      reasons: ['PENDING_EMAIL_VERIFICATION_REQUIRED'],
    });
    const stateToken = registered.body.stateToken;
    const code = await latestCode(platform, email);

    const wrong = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code: code === '000000' ? '111111' : '000000', stateToken },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.applicationError).toMatchObject({
      code: 'VERIFICATION_FAILED',
      data: { reason: 'BAD_CODE', attemptsLeft: 4 },
    });

    const right = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken },
    });
    expect(right.status).toBe(200);
    expect(right.body.state).toBe('SUCCESS');
    expect(right.body.identity.email.isVerified).toBe(true);
    const tokens = await memberTokens(platform, right.body.sessionToken);
    const my = await call(platform, 'GET', '/members/v1/members/my', { auth: tokens.access_token });
    expect(my.body.member).toMatchObject({ loginEmailVerified: true, status: 'APPROVED' });

    const replay = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken },
    });
    expect(replay.body.details.applicationError.data.reason).toBe('NOT_FOUND');
  });

  it('asks an unverified member to verify on login, refuses an expired code, and accepts a resent one', async () => {
    await setting(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    const email = uniqueEmail('expired');
    await register(platform, visitor, email, PASSWORD);
    const loggedIn = await login(platform, visitor, email, PASSWORD);
    expect(loggedIn.body.state).toBe('REQUIRE_EMAIL_VERIFICATION');
    const stateToken = loggedIn.body.stateToken;
    const code = await latestCode(platform, email);
    await platform.services.database.db
      .updateTable('identity_verifications')
      .set({ code_expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('completed_at', 'is', null)
      .execute();

    const expired = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken },
    });
    expect(expired.body.details.applicationError.data.reason).toBe('CODE_EXPIRED');

    const resent = await call(platform, 'POST', '/_api/iam/verification/v1/auth/resend', {
      auth: visitor,
      body: { stateToken },
    });
    expect(resent.status).toBe(200);
    const fresh = await latestCode(platform, email);
    const verified = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code: fresh, stateToken },
    });
    expect(verified.body.state).toBe('SUCCESS');
  });

  it('gives a code five tries, then refuses even the right one', async () => {
    await setting(IDENTITY_SETTINGS.requireEmailVerification, 'true');
    const email = uniqueEmail('guess');
    const { body } = await register(platform, visitor, email, PASSWORD);
    const code = await latestCode(platform, email);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
        auth: visitor,
        body: { code: wrongCode, stateToken: body.stateToken },
      });
    }
    const right = await call(platform, 'POST', '/_api/iam/verification/v1/auth/verify', {
      auth: visitor,
      body: { code, stateToken: body.stateToken },
    });
    expect(right.status).toBe(429);
    expect(right.body.details.applicationError.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('makes a member wait for the owner when the site requires approval, then lets them in once approved', async () => {
    await setting(IDENTITY_SETTINGS.requireOwnerApproval, 'true');
    const email = uniqueEmail('approval');
    const registered = await register(platform, visitor, email, PASSWORD);
    expect(registered.body.state).toBe('REQUIRE_OWNER_APPROVAL');
    expect(registered.body.sessionToken).toBeUndefined();
    expect(registered.body.identity.status).toEqual({
      name: 'PENDING',
      reasons: ['PENDING_ADMIN_APPROVAL_REQUIRED'],
    });
    expect((await login(platform, visitor, email, PASSWORD)).body.state).toBe('REQUIRE_OWNER_APPROVAL');

    await platform.services.identity.approve(registered.body.identity.id);
    const approved = await login(platform, visitor, email, PASSWORD);
    expect(approved.body.state).toBe('SUCCESS');
  });

  it('resets a password end to end through the emailed link, which works once', async () => {
    const email = uniqueEmail('forgot');
    await register(platform, visitor, email, PASSWORD);

    const unknown = await call(platform, 'POST', '/_api/iam/recovery/v1/send-email', {
      auth: visitor,
      body: { email: uniqueEmail('stranger'), language: 'en' },
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({});

    const sent = await call(platform, 'POST', '/_api/iam/recovery/v1/send-email', {
      auth: visitor,
      body: {
        email,
        language: 'en',
        redirect: { url: 'https://evil.example/steal', clientId: TEST_CLIENT_ID },
      },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({});
    const [message] = await mailbox(platform, email);
    expect(message?.kind).toBe('PASSWORD_RESET');
    const link = new URL(/https?:\/\/\S+/.exec(message?.text)?.[0] ?? '');
    expect(link.pathname).toBe('/auth/reset-password');
    expect(link.searchParams.get('redirect')).toBeNull(); // not one of the client's origins
    const recoveryToken = link.searchParams.get('token');

    const recovered = await call(platform, 'POST', '/_api/iam/recovery/v1/recover', {
      auth: visitor,
      body: { recoveryToken, password: 'a brand new password' },
    });
    expect(recovered.status).toBe(200);
    expect(recovered.body.state).toBe('SUCCESS');
    expect(recovered.body.sessionToken).toEqual(expect.any(String));

    const reused = await call(platform, 'POST', '/_api/iam/recovery/v1/recover', {
      auth: visitor,
      body: { recoveryToken, password: 'yet another password' },
    });
    expect(reused.status).toBe(400);
    expect(reused.body.details.applicationError.code).toBe('INVALID_RECOVERY_TOKEN');

    expect((await login(platform, visitor, email, PASSWORD)).body.details.applicationError.code).toBe(
      '-19976',
    );
    expect((await login(platform, visitor, email, 'a brand new password')).body.state).toBe('SUCCESS');
  });

  it('keeps a reset link redirect only when it points at the client’s own origin', async () => {
    const email = uniqueEmail('redirect');
    await register(platform, visitor, email, PASSWORD);
    const origin = new URL(platform.services.config.publicUrl).origin;
    await call(platform, 'POST', '/_api/iam/recovery/v1/send-email', {
      auth: visitor,
      body: { email, redirect: { url: `${origin}/account`, clientId: TEST_CLIENT_ID } },
    });
    const [message] = await mailbox(platform, email);
    const link = new URL(/https?:\/\/\S+/.exec(message?.text)?.[0] ?? '');
    expect(link.searchParams.get('redirect')).toBe(`${origin}/account`);
  });

  it('lets a signed-in member change their password', async () => {
    const email = uniqueEmail('change');
    const registered = await register(platform, visitor, email, PASSWORD);
    const tokens = await memberTokens(platform, registered.body.sessionToken);
    const tooShort = await call(platform, 'POST', '/_api/iam/authentication/v2/change-password', {
      auth: tokens.access_token,
      body: { newPassword: 'abc' },
    });
    expect(tooShort.body.details.validationError.fieldViolations[0].field).toBe('newPassword');
    const changed = await call(platform, 'POST', '/_api/iam/authentication/v2/change-password', {
      auth: tokens.access_token,
      body: { newPassword: 'changed password' },
    });
    expect(changed.status).toBe(200);
    expect((await login(platform, visitor, email, 'changed password')).body.state).toBe('SUCCESS');
    const asVisitor = await call(platform, 'POST', '/_api/iam/authentication/v2/change-password', {
      auth: visitor,
      body: { newPassword: 'changed again' },
    });
    expect(asVisitor.status).toBe(403);
  });

  it('keeps a visitor token and no token out of /members/v1/members/my', async () => {
    expect((await call(platform, 'GET', '/members/v1/members/my', { auth: visitor })).status).toBe(403);
    expect((await call(platform, 'GET', '/members/v1/members/my')).status).toBe(401);
  });

  it('updates my slug, and refuses one another member has', async () => {
    const first = await register(platform, visitor, uniqueEmail('slug1'), PASSWORD);
    const second = await register(platform, visitor, uniqueEmail('slug2'), PASSWORD);
    const firstTokens = await memberTokens(platform, first.body.sessionToken);
    const secondTokens = await memberTokens(platform, second.body.sessionToken);
    const slug = `my-page-${Date.now()}`;
    const updated = await call(platform, 'POST', '/members/v1/members/my/slug', {
      auth: firstTokens.access_token,
      body: { slug },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.member.profile.slug).toBe(slug);
    const taken = await call(platform, 'POST', '/members/v1/members/my/slug', {
      auth: secondTokens.access_token,
      body: { slug },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.details.applicationError).toMatchObject({
      code: 'SLUG_ALREADY_EXISTS',
      data: { slug },
    });
    const malformed = await call(platform, 'POST', '/members/v1/members/my/slug', {
      auth: secondTokens.access_token,
      body: { slug: 'no spaces allowed' },
    });
    expect(malformed.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'slug',
      violatedRule: 'FORMAT',
    });
  });

  it('gives two members of one nickname different slugs', async () => {
    const one = await register(platform, visitor, uniqueEmail('twin'), PASSWORD, {
      profile: { nickname: 'Twin Star' },
    });
    const two = await register(platform, visitor, uniqueEmail('twin'), PASSWORD, {
      profile: { nickname: 'Twin Star' },
    });
    const slugs = [one.body.identity.identityProfile.slug, two.body.identity.identityProfile.slug];
    expect(slugs[0]).toBe('twin-star');
    expect(slugs[1]).toMatch(/^twin-star-[0-9a-f]{6}$/);
  });

  it('asks for a solved captcha when the site requires one: -19971 without, -19970 for a bad or reused one', async () => {
    await setting(IDENTITY_SETTINGS.captcha, 'required');
    const email = uniqueEmail('captcha');
    expect((await register(platform, visitor, email, PASSWORD)).body.details.applicationError.code).toBe(
      '-19971',
    );

    const challenge = await call(platform, 'GET', '/api/cartwheel/captcha/challenge');
    expect(challenge.body).toMatchObject({ algorithm: 'SHA-256', maxnumber: expect.any(Number) });
    const solved = solveCaptcha(challenge.body);
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(solved, 'base64').toString()), signature: '00'.repeat(32) }),
    ).toString('base64');
    const bad = await register(platform, visitor, email, PASSWORD, {
      captchaTokens: [{ InvisibleRecaptcha: forged }],
    });
    expect(bad.body.details.applicationError.code).toBe('-19970');

    const good = await register(platform, visitor, email, PASSWORD, {
      captchaTokens: [{ Recaptcha: solved }],
    });
    expect(good.body.state).toBe('SUCCESS');
    const reused = await login(platform, visitor, email, PASSWORD, {
      captchaTokens: [{ Recaptcha: solved }],
    });
    expect(reused.body.details.applicationError.code).toBe('-19970');
  });

  it('signs a member on for an admin, making the member if new, and refuses anyone else', async () => {
    const email = uniqueEmail('signon');
    const asVisitor = await call(platform, 'POST', '/_api/iam/authentication/v2/sign-on', {
      auth: visitor,
      body: { loginId: { email } },
    });
    expect(asVisitor.status).toBe(403);
    const signedOn = await call(platform, 'POST', '/_api/iam/authentication/v2/sign-on', {
      auth: platform.adminApiKey,
      body: { loginId: { email }, profile: { firstName: 'Grace' }, verifyEmail: true },
    });
    expect(signedOn.status).toBe(200);
    expect(signedOn.body.identity.email).toEqual({ address: email, isVerified: true });
    const tokens = await memberTokens(platform, signedOn.body.sessionToken);
    const my = await call(platform, 'GET', '/members/v1/members/my', { auth: tokens.access_token });
    expect(my.body.member.contact.firstName).toBe('Grace');
    // no password was ever set: a password login says to reset it
    expect((await login(platform, visitor, email, PASSWORD)).body.details.applicationError.code).toBe(
      '-19973',
    );
  });

  it('shows the developer mailbox to admins only', async () => {
    expect((await call(platform, 'GET', '/api/cartwheel/mailbox', { auth: visitor })).status).toBe(403);
    const asAdmin = await call(platform, 'GET', '/api/cartwheel/mailbox?limit=5', {
      auth: platform.adminApiKey,
    });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.messages.length).toBeLessThanOrEqual(5);
  });
});
