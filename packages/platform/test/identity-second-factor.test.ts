import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, sealingKey } from '../src/identity/secret-box.ts';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { hotp, totpAt } from '../src/identity/totp.ts';
import {
  type Answer,
  call,
  latestCode,
  memberTokens,
  register,
  uniqueEmail,
  visitorToken,
} from './identity-client.ts';
import {
  as,
  createRole,
  OWNER,
  OWNER_ENV,
  ownerToken,
  STAFF_PASSWORD,
  staffMember,
} from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;
/** The suite's CARTWHEEL_SECRET_KEY: authenticators' secrets are sealed under it. */
const SECRET_KEY = 'the suite secret key, 32 characters or more';

/** `count` six-digit codes none of which the authenticator would take now. */
function wrongCodes(secret: string, count: number): string[] {
  const now = Date.now();
  const good = new Set([-1, 0, 1, 2].map((step) => totpAt(secret, now + step * STEP_MS)));
  const codes: string[] = [];
  for (let candidate = 100000; codes.length < count; candidate += 1) {
    if (!good.has(String(candidate))) codes.push(String(candidate));
  }
  return codes;
}

describe('TOTP (RFC 6238 over RFC 4226)', () => {
  it("gives RFC 4226 Appendix D's HOTP values and RFC 6238 Appendix B's SHA-1 value at 59 s", () => {
    // "12345678901234567890" in base32
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect([0, 1, 2, 9].map((counter) => hotp(secret, counter))).toEqual([
      '755224',
      '287082',
      '359152',
      '520489',
    ]);
    // 94287082 in the appendix's 8 digits: its last six
    expect(totpAt(secret, 59_000)).toBe('287082');
  });
});

/**
 * Two-step sign-in (point 7's `POST /v2/{factorType}/verify`): a member turns on an authenticator
 * (TOTP) or codes by email, a sign-in then answers REQUIRE_MFA with a state token, and the second
 * step answers SUCCESS with a session token. Wrong, reused and late codes are refused; guesses are
 * throttled; recovery codes work once; a remembered device skips the step; a store may require it of
 * staff who move money.
 */
describe.each(DIALECTS)('two-step sign-in on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: { ...OWNER_ENV, CARTWHEEL_SECRET_KEY: SECRET_KEY } });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  async function login(email: string, password: string, cookie?: string) {
    const response = await fetch(`${platform.url}/_api/iam/authentication/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: visitor, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ loginId: { email }, password }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function verify(factorType: string, body: Record<string, unknown>) {
    const response = await fetch(`${platform.url}/_api/iam/authentication/v2/${factorType}/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: visitor },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, any>,
      cookie: response.headers.get('set-cookie'),
    };
  }

  const failure = (answer: Answer) => answer.body.details?.applicationError ?? answer.body;

  /** A new member signed in now (a recent sign-in, as changing the second step asks). */
  async function member(label: string) {
    const email = uniqueEmail(label);
    const registered = await register(platform, visitor, email, PASSWORD);
    const token = (await memberTokens(platform, registered.body.sessionToken)).access_token;
    return { email, token, api: as(platform, token) };
  }

  /** A member with an active authenticator: its secret, and the step whose code activated it. */
  async function withAuthenticator(label: string) {
    const who = await member(label);
    const enrolled = await who.api.post('/api/cartwheel/identity/factors/TOTP/enrol');
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200);
    expect(enrolled.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    const secret = enrolled.body.secret as string;
    const wrong = await who.api.post('/api/cartwheel/identity/factors/TOTP/activate', { code: '000000' });
    expect(wrong.status).toBe(400);
    const activationCode = totpAt(secret, Date.now());
    const activated = await who.api.post('/api/cartwheel/identity/factors/TOTP/activate', {
      code: activationCode,
    });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    expect(activated.body.recoveryCodes).toHaveLength(10);
    return { ...who, secret, activationCode, recoveryCodes: activated.body.recoveryCodes as string[] };
  }

  it('an authenticator: REQUIRE_MFA, wrong, late and reused codes refused, the next code signs in', async () => {
    const ada = await withAuthenticator('totp');
    const factors = await ada.api.get('/api/cartwheel/identity/factors');
    expect(factors.body).toEqual({
      factors: [{ factorType: 'TOTP', status: 'ACTIVE' }],
      recoveryCodesLeft: 10,
      requiredByStore: false,
    });

    const first = await login(ada.email, PASSWORD);
    expect(first.body).toMatchObject({
      state: 'REQUIRE_MFA',
      stateToken: expect.any(String),
      requireMfaData: { availableFactors: [{ factorType: 'TOTP', factorStatus: 'ACTIVE' }] },
    });
    expect(first.body.sessionToken).toBeUndefined();
    const stateToken = first.body.stateToken;

    const wrong = await verify('TOTP', { stateToken, totpData: { code: '123456' } });
    expect(wrong.status).toBe(400);
    expect(failure(wrong)).toMatchObject({ code: 'VERIFICATION_FAILED', data: { reason: 'BAD_CODE' } });
    const late = await verify('TOTP', {
      stateToken,
      totpData: { code: totpAt(ada.secret, Date.now() - 4 * STEP_MS) },
    });
    expect(late.status).toBe(400);
    // the code that activated the authenticator was taken: it is not taken again
    const reused = await verify('TOTP', { stateToken, totpData: { code: ada.activationCode } });
    expect(reused.status).toBe(400);

    const next = totpAt(ada.secret, Date.now() + STEP_MS);
    const right = await verify('TOTP', { stateToken, totpData: { code: next } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.state).toBe('SUCCESS');
    expect(right.cookie).toBeNull();
    const tokens = await memberTokens(platform, right.body.sessionToken);
    expect(
      (await call(platform, 'GET', '/members/v1/members/my', { auth: tokens.access_token })).status,
    ).toBe(200);

    // the state token is spent, and the code too, in a new sign-in
    expect((await verify('TOTP', { stateToken, totpData: { code: next } })).status).toBe(400);
    const again = await login(ada.email, PASSWORD);
    expect(
      (await verify('TOTP', { stateToken: again.body.stateToken, totpData: { code: next } })).status,
    ).toBe(400);
  });

  it("an authenticator's secret is sealed at rest; one kept in the clear or under the database's own key still signs in and is sealed under CARTWHEEL_SECRET_KEY", async () => {
    const ada = await withAuthenticator('sealed');
    const db = platform.services.database.db;
    const identity = await db
      .selectFrom('identities')
      .select('id')
      .where('email', '=', ada.email)
      .executeTakeFirstOrThrow();
    const stored = async () =>
      (
        await db
          .selectFrom('identity_factors')
          .select('secret')
          .where('identity_id', '=', identity.id)
          .where('type', '=', 'TOTP')
          .executeTakeFirstOrThrow()
      ).secret as string;
    const sealedUnderSuiteKey = new RegExp(`^cw1\\.${sealingKey(SECRET_KEY).id}\\.`);
    expect(await stored()).toMatch(sealedUnderSuiteKey);
    expect(await stored()).not.toContain(ada.secret);

    /** Puts `secret` in the row as an older platform left it, with no code taken yet. */
    const storeAsBefore = (secret: string) =>
      db
        .updateTable('identity_factors')
        .set({ secret, last_used_step: null })
        .where('identity_id', '=', identity.id)
        .where('type', '=', 'TOTP')
        .execute();
    const signsInWithTheAuthenticator = async () => {
      const started = await login(ada.email, PASSWORD);
      expect(started.body.state).toBe('REQUIRE_MFA');
      const done = await verify('TOTP', {
        stateToken: started.body.stateToken,
        totpData: { code: totpAt(ada.secret, Date.now()) },
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.state).toBe('SUCCESS');
    };

    // kept in the clear, as before sealing: it signs in, and is sealed once used
    await storeAsBefore(ada.secret);
    await signsInWithTheAuthenticator();
    expect(await stored()).toMatch(sealedUnderSuiteKey);

    // sealed under the key the database keeps, as before CARTWHEEL_SECRET_KEY was set
    const databaseKey = sealingKey(
      (await platform.services.settings.get(IDENTITY_SETTINGS.factorSecretKey))!,
    );
    const underDatabaseKey = await new SecretBox(async () => ({
      current: databaseKey,
      known: [databaseKey],
    })).seal(ada.secret);
    expect(underDatabaseKey).not.toMatch(sealedUnderSuiteKey);
    await storeAsBefore(underDatabaseKey);
    await signsInWithTheAuthenticator();
    expect(await stored()).toMatch(sealedUnderSuiteKey);

    // a process's start seals what is left in the clear without waiting for a sign-in
    await storeAsBefore(ada.secret);
    expect(await platform.services.identity.sealFactorSecrets()).toBe(1);
    expect(await stored()).toMatch(sealedUnderSuiteKey);
    expect(await platform.services.identity.sealFactorSecrets()).toBe(0);
    await signsInWithTheAuthenticator();
  });

  it('a recovery code signs in once and asks the authenticator to be enrolled again', async () => {
    const ada = await withAuthenticator('recovery');
    const started = await login(ada.email, PASSWORD);
    const code = ada.recoveryCodes[0] as string;
    const used = await verify('TOTP', { stateToken: started.body.stateToken, recoveryCodeData: { code } });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.state).toBe('SUCCESS');
    const factors = await ada.api.get('/api/cartwheel/identity/factors');
    expect(factors.body).toEqual({
      factors: [{ factorType: 'TOTP', status: 'REQUIRE_REENROLL' }],
      recoveryCodesLeft: 9,
      requiredByStore: false,
    });
    const again = await login(ada.email, PASSWORD);
    expect(again.body.state).toBe('REQUIRE_MFA');
    const twice = await verify('TOTP', { stateToken: again.body.stateToken, recoveryCodeData: { code } });
    expect(twice.status).toBe(400);
  });

  it('remember this device: the device skips the second step, another does not', async () => {
    const ada = await withAuthenticator('device');
    const started = await login(ada.email, PASSWORD);
    const passed = await verify('TOTP', {
      stateToken: started.body.stateToken,
      rememberThisDevice: true,
      totpData: { code: totpAt(ada.secret, Date.now() + STEP_MS) },
    });
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    expect(passed.cookie).toMatch(/^cartwheel_device=[^;]+;.*HttpOnly/);
    const cookie = (passed.cookie as string).split(';')[0] as string;
    const remembered = await login(ada.email, PASSWORD, cookie);
    expect(remembered.body.state).toBe('SUCCESS');
    expect(remembered.body.sessionToken).toEqual(expect.any(String));
    expect((await login(ada.email, PASSWORD)).body.state).toBe('REQUIRE_MFA');
    expect((await login(ada.email, PASSWORD, 'cartwheel_device=forged')).body.state).toBe('REQUIRE_MFA');
  });

  it('guessing codes is throttled: past ten wrong codes even the right one is refused for a while', async () => {
    const ada = await withAuthenticator('guess');
    const started = await login(ada.email, PASSWORD);
    // ten wrong codes an hour per identity, counted before they are compared (parallel guesses
    // share them: identity-guessing.test.ts); one was spent on enrolment, so nine more are compared
    const statuses: number[] = [];
    for (const code of wrongCodes(ada.secret, 11)) {
      statuses.push(
        (await verify('TOTP', { stateToken: started.body.stateToken, totpData: { code } })).status,
      );
    }
    expect(statuses).toEqual([...Array(9).fill(400), 429, 429]);
    const right = await verify('TOTP', {
      stateToken: started.body.stateToken,
      totpData: { code: totpAt(ada.secret, Date.now() + STEP_MS) },
    });
    expect(right.status).toBe(429);
    expect(failure(right)).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      data: { reason: 'IDENTITY_CODE_ATTEMPTS' },
    });
  });

  it('codes by email: enrolled with a mailed code, then each sign-in mails one', async () => {
    const ada = await member('email-factor');
    expect((await ada.api.post('/api/cartwheel/identity/factors/EMAIL/enrol')).status).toBe(200);
    const activated = await ada.api.post('/api/cartwheel/identity/factors/EMAIL/activate', {
      code: await latestCode(platform, ada.email),
    });
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);

    const started = await login(ada.email, PASSWORD);
    expect(started.body.requireMfaData.availableFactors).toEqual([
      { factorType: 'EMAIL', factorStatus: 'ACTIVE' },
    ]);
    const code = await latestCode(platform, ada.email);
    const wrong = await verify('EMAIL', {
      stateToken: started.body.stateToken,
      emailData: { code: code === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    const right = await verify('EMAIL', { stateToken: started.body.stateToken, emailData: { code } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.state).toBe('SUCCESS');
    // the emailed code is used up with its sign-in
    const replay = await login(ada.email, PASSWORD);
    expect((await verify('EMAIL', { stateToken: replay.body.stateToken, emailData: { code } })).status).toBe(
      400,
    );
  });

  it('a factor Cartwheel does not offer is refused, and so is its data', async () => {
    const ada = await withAuthenticator('sms');
    const started = await login(ada.email, PASSWORD);
    const sms = await verify('SMS', { stateToken: started.body.stateToken, totpData: { code: '123456' } });
    expect(sms.status).toBe(400);
    expect(failure(sms).code).toBe('FACTOR_NOT_OFFERED');
    const smsData = await verify('TOTP', { stateToken: started.body.stateToken, smsData: { code: '1' } });
    expect(smsData.status).toBe(400);
    expect(smsData.body.details.validationError.fieldViolations[0].field).toBe('smsData');
  });

  it('a store that requires it of staff who move money: the owner passes a second step by email, a packer does not', async () => {
    const owner = await ownerToken(platform);
    const role = await createRole(platform, owner, 'Packer', ['orders.read', 'fulfillments.manage']);
    const packer = await staffMember(platform, owner, role, 'packer');
    const setting = (requireStaffSecondStep: boolean) =>
      as(platform, owner).patch('/api/cartwheel/identity-settings', { settings: { requireStaffSecondStep } });
    expect((await setting(true)).body.settings.requireStaffSecondStep).toBe(true);
    try {
      const ownerLogin = await login(OWNER.email, OWNER.password);
      expect(ownerLogin.body.state).toBe('REQUIRE_MFA');
      expect(ownerLogin.body.requireMfaData.availableFactors).toEqual([
        { factorType: 'EMAIL', factorStatus: 'ACTIVE' },
      ]);
      const passed = await verify('EMAIL', {
        stateToken: ownerLogin.body.stateToken,
        emailData: { code: await latestCode(platform, OWNER.email) },
      });
      expect(passed.body.state).toBe('SUCCESS');
      expect((await login(packer.email, STAFF_PASSWORD)).body.state).toBe('SUCCESS');
      // the owner is told the store requires it (the back office asks them to enrol); the packer is not
      const ownerFactors = await as(platform, owner).get('/api/cartwheel/identity/factors');
      expect(ownerFactors.body).toEqual({ factors: [], recoveryCodesLeft: 0, requiredByStore: true });
      const packerFactors = await as(platform, packer.token).get('/api/cartwheel/identity/factors');
      expect(packerFactors.body.requiredByStore).toBe(false);
    } finally {
      await setting(false);
    }
    expect((await login(OWNER.email, OWNER.password)).body.state).toBe('SUCCESS');
  });
});
