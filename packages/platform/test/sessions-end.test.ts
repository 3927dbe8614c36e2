import { OAuthStrategy } from '@cartwheel/sdk';
import { decodeJwt, SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_SIGN_IN_MS } from '../src/identity/service.ts';
import { REVOCATIONS_LISTENER } from '../src/oauth/revocations.ts';
import { mailbox, uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * Sessions that end: after a logout, a password change or reset, a block or delete, and a reused
 * refresh token or authorization code, the access tokens they cover are refused at once by the process
 * that ended them and within a second by another process over the same database.
 */
const PASSWORD = 'correct horse battery staple';
/** The issue's promise: every process refuses an ended session within this. */
const WITHIN_MS = 1000;
const delays: Record<string, number[]> = {};

interface Answer {
  status: number;
  body: Record<string, any>;
}

async function send(
  platform: TestPlatform,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { auth?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.auth) headers.authorization = options.auth;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

const myMember = (platform: TestPlatform, accessToken: string) =>
  send(platform, 'GET', '/members/v1/members/my', { auth: accessToken });

const refresh = (platform: TestPlatform, refreshToken: string) =>
  send(platform, 'POST', '/oauth2/token', {
    body: { clientId: TEST_CLIENT_ID, grantType: 'refresh_token', refreshToken },
  });

/**
 * How long `platform` took to refuse the token (401), asking every 20 ms for up to 1.5 s; fails if it
 * never did. The delays are printed at the end.
 */
async function refusalDelay(platform: TestPlatform, accessToken: string, label: string): Promise<number> {
  const start = performance.now();
  for (;;) {
    const { status } = await myMember(platform, accessToken);
    const elapsed = performance.now() - start;
    if (status === 401) {
      delays[label] = [...(delays[label] ?? []), Math.round(elapsed)];
      return elapsed;
    }
    expect([200, 404]).toContain(status); // still accepted (a deleted member is not found)
    if (elapsed > 1500) throw new Error(`${label}: still accepted after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(DIALECTS)('sessions that end, on %s', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect });
    second = await startTestPlatform({ dialect, sharing: first });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  const strategy = () =>
    OAuthStrategy({ clientId: TEST_CLIENT_ID, host: first.url, redirectUri: `${first.url}/auth/callback` });

  /** A new member, registered through the SDK, and their id; `signIn` opens one more session of theirs. */
  async function newMember(label: string) {
    const email = uniqueEmail(label);
    const registered = await strategy().register({ email, password: PASSWORD });
    expect(registered.loginState).toBe('SUCCESS');
    const { access } = await signIn(email);
    const id = (await myMember(first, access)).body.member.id as string;
    expect(id).toEqual(expect.any(String));
    return { email, id };
  }

  /** One sign-in (email and password, then the code flow with PKCE), its tokens used on both processes. */
  async function signIn(email: string, password = PASSWORD) {
    const auth = strategy();
    const login = await auth.login({ email, password });
    expect(login.loginState).toBe('SUCCESS');
    const tokens = await auth.getMemberTokensForDirectLogin(
      (login as { data: { sessionToken: string } }).data.sessionToken,
    );
    auth.setTokens(tokens);
    const access = tokens.accessToken.value;
    // both processes have checked the token once: the refusal must reach their remembered checks too
    expect((await myMember(first, access)).status).toBe(200);
    expect((await myMember(second, access)).status).toBe(200);
    return { auth, access, refresh: tokens.refreshToken.value };
  }

  /** Refused at once where it ended, within a second on the other process. */
  async function expectEnded(accessToken: string, label: string, where = first, other = second) {
    expect((await myMember(where, accessToken)).status).toBe(401);
    expect(await refusalDelay(other, accessToken, `${dialect} ${label}`)).toBeLessThan(WITHIN_MS);
  }

  it('logout ends the sign-in: its access token is refused on both processes, its refresh token renews nothing', async () => {
    const { email } = await newMember('logout');
    const kept = await signIn(email);
    const session = await signIn(email);
    const { logoutUrl } = await session.auth.logout(`${first.url}/`);
    expect(logoutUrl).toContain('/oauth2/logout');
    await expectEnded(session.access, 'logout');
    expect((await refresh(second, session.refresh)).status).toBe(401);
    // another sign-in of the member (another browser) goes on
    expect((await myMember(second, kept.access)).status).toBe(200);
  });

  it('a logout made on the second process reaches the first', async () => {
    const { email } = await newMember('logout2');
    const session = await signIn(email);
    const answer = await send(second, 'POST', '/_api/redirects-api/v1/redirect-session', {
      auth: session.access,
      body: { logout: { clientId: TEST_CLIENT_ID } },
    });
    expect(answer.status).toBe(200);
    await expectEnded(session.access, 'logout from the second', second, first);
  });

  for (const [path, clientParam, targetParam] of [
    ['/oauth2/logout', 'client_id', 'post_logout_redirect_uri'],
    ['/_api/iam/authentication/v1/logout', 'clientId', 'postLogoutRedirectUri'],
  ] as const) {
    it(`${path} called with the member's access token ends that sign-in, and sends them only to a registered page`, async () => {
      const { email } = await newMember('api-logout');
      const kept = await signIn(email);
      const session = await signIn(email);
      const registered = `${first.url}/`;
      const query = (target: string) =>
        `${path}?${clientParam}=${TEST_CLIENT_ID}&${targetParam}=${encodeURIComponent(target)}`;
      const logout = (target: string) =>
        fetch(`${first.url}${query(target)}`, {
          headers: { authorization: session.access },
          redirect: 'manual',
        });
      // a page the client never registered: refused, sent nowhere, and the sign-in goes on
      const elsewhere = await logout('https://elsewhere.example/');
      expect(elsewhere.status).toBe(400);
      expect(elsewhere.headers.get('location')).toBeNull();
      expect((await myMember(second, session.access)).status).toBe(200);
      const answer = await logout(registered);
      expect(answer.status).toBe(302);
      expect(answer.headers.get('location')).toBe(registered);
      await expectEnded(session.access, `${path} with a token`);
      expect((await refresh(second, session.refresh)).status).toBe(401);
      // the member's other sign-in goes on
      expect((await myMember(second, kept.access)).status).toBe(200);
    });
  }

  it('a reused refresh token ends its family: the access tokens it and its successor bought are refused', async () => {
    const { email } = await newMember('reuse');
    const session = await signIn(email);
    const renewed = await refresh(first, session.refresh);
    expect(renewed.status).toBe(200);
    const successor = renewed.body.access_token as string;
    expect((await myMember(second, successor)).status).toBe(200);

    const replay = await refresh(first, session.refresh);
    expect(replay.status).toBe(401);
    await expectEnded(successor, 'refresh reuse');
    await expectEnded(session.access, 'refresh reuse (first token)');
    expect((await refresh(first, renewed.body.refresh_token)).status).toBe(401);
  });

  it('a reused authorization code ends the family of the tokens its first exchange handed out', async () => {
    const { email } = await newMember('code');
    const auth = strategy();
    const login = await auth.login({ email, password: PASSWORD });
    const oauthData = await auth.generateOAuthData(`${first.url}/auth/callback`);
    const { authUrl } = await auth.getAuthUrl(oauthData, {
      prompt: 'none',
      responseMode: 'query',
      sessionToken: (login as { data: { sessionToken: string } }).data.sessionToken,
    });
    const location = (await fetch(authUrl, { redirect: 'manual' })).headers.get('location')!;
    const { code } = auth.parseFromUrl(location, 'query');
    const exchange = () =>
      send(first, 'POST', '/oauth2/token', {
        body: {
          clientId: TEST_CLIENT_ID,
          grantType: 'authorization_code',
          code,
          codeVerifier: oauthData.codeVerifier,
          redirectUri: oauthData.redirectUri,
        },
      });
    const exchanged = await exchange();
    expect(exchanged.status).toBe(200);
    const access = exchanged.body.access_token as string;
    expect((await myMember(second, access)).status).toBe(200);

    const again = await exchange();
    expect(again.status).toBe(401);
    expect(again.body.details.applicationError.code).toBe('invalid_grant');
    await expectEnded(access, 'code reuse');
    expect((await refresh(second, exchanged.body.refresh_token)).status).toBe(401);
  });

  it('a password change keeps the caller signed in, ends every other session, and mails a notice', async () => {
    const { email } = await newMember('change');
    const caller = await signIn(email);
    const elsewhere = await signIn(email);
    const changed = await send(first, 'POST', '/_api/iam/authentication/v2/change-password', {
      auth: caller.access,
      body: { newPassword: 'a new and better password' },
    });
    expect(changed.status).toBe(200);

    await expectEnded(elsewhere.access, 'password change');
    expect((await refresh(first, elsewhere.refresh)).status).toBe(401);
    // the caller's own session goes on, on both processes, and still renews
    expect((await myMember(first, caller.access)).status).toBe(200);
    expect((await myMember(second, caller.access)).status).toBe(200);
    const renewed = await refresh(second, caller.refresh);
    expect(renewed.status).toBe(200);
    expect((await myMember(second, renewed.body.access_token)).status).toBe(200);

    const notices = (await mailbox(first, email)).filter((message) => message.kind === 'PASSWORD_CHANGED');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('/auth/forgot-password');
    expect((await strategy().login({ email, password: 'a new and better password' })).loginState).toBe(
      'SUCCESS',
    );
  });

  it('refuses a password change from a sign-in older than the limit, even through a fresh refresh', async () => {
    const { email, id } = await newMember('stale');
    const session = await signIn(email);
    // the sign-in is now older than the limit, as if the member had stayed signed in since: its
    // family's sign-in time, and an access token handed out at that sign-in
    const signedInAt = Date.now() - RECENT_SIGN_IN_MS - 60_000;
    const { fam: family, sub: visitorId } = decodeJwt(session.access) as { fam: string; sub: string };
    await first.services.database.db
      .updateTable('refresh_tokens')
      .set({ signed_in_at: new Date(signedInAt).toISOString() })
      .where('family_id', '=', family)
      .execute();
    const issuedThen = await first.services.tokens.issueMemberTokens(
      { clientId: TEST_CLIENT_ID, visitorId, memberId: id, signedInAt },
      family,
    );
    const renewed = await refresh(first, session.refresh);
    expect(renewed.status).toBe(200);
    for (const token of [issuedThen.access_token, renewed.body.access_token as string]) {
      const refused = await send(first, 'POST', '/_api/iam/authentication/v2/change-password', {
        auth: token,
        body: { newPassword: 'a password a thief chose' },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.details.applicationError).toMatchObject({
        code: 'RECENT_SIGN_IN_REQUIRED',
        description: 'sign in again to change your password',
      });
    }
    // signing in again is what it takes
    const fresh = await signIn(email);
    const changed = await send(first, 'POST', '/_api/iam/authentication/v2/change-password', {
      auth: fresh.access,
      body: { newPassword: 'a password the owner chose' },
    });
    expect(changed.status).toBe(200);
    expect((await strategy().login({ email, password: PASSWORD })).loginState).not.toBe('SUCCESS');
  });

  it('a password reset ends every session of the member and mails a notice', async () => {
    const { email } = await newMember('reset');
    const one = await signIn(email);
    const two = await signIn(email);
    const visitor = await send(first, 'POST', '/oauth2/token', {
      body: { clientId: TEST_CLIENT_ID, grantType: 'anonymous' },
    });
    await send(second, 'POST', '/_api/iam/recovery/v1/send-email', {
      auth: visitor.body.access_token,
      body: { email },
    });
    const [reset] = await mailbox(first, email);
    expect(reset?.kind).toBe('PASSWORD_RESET');
    const recoveryToken = new URL(/https?:\/\/\S+/.exec(reset?.text)?.[0] ?? '').searchParams.get('token');
    const recovered = await send(first, 'POST', '/_api/iam/recovery/v1/recover', {
      body: { recoveryToken, password: 'a password after the reset' },
    });
    expect(recovered.status).toBe(200);
    expect(recovered.body.state).toBe('SUCCESS');

    await expectEnded(one.access, 'password reset');
    await expectEnded(two.access, 'password reset (second session)');
    expect((await refresh(second, one.refresh)).status).toBe(401);
    expect((await refresh(first, two.refresh)).status).toBe(401);
    expect((await mailbox(first, email)).map((message) => message.kind)).toContain('PASSWORD_CHANGED');
    await signIn(email, 'a password after the reset');
  });

  it('blocking a member ends all their sessions; approving lets them sign in again', async () => {
    const { email, id } = await newMember('block');
    const one = await signIn(email);
    const two = await signIn(email);
    const blocked = await send(first, 'POST', `/members/v1/members/${id}/block`, {
      auth: first.adminApiKey,
      body: { id },
    });
    expect(blocked.status).toBe(200);
    expect(blocked.body.member).toMatchObject({ id, status: 'BLOCKED' });

    await expectEnded(one.access, 'block');
    await expectEnded(two.access, 'block (second session)');
    expect((await refresh(second, one.refresh)).status).toBe(401);
    expect((await strategy().login({ email, password: PASSWORD })).loginState).not.toBe('SUCCESS');

    const approved = await send(second, 'POST', `/members/v1/members/${id}/approve`, {
      auth: first.adminApiKey,
      body: { id },
    });
    expect(approved.status).toBe(200);
    expect(approved.body.member.status).toBe('APPROVED');
    await signIn(email);
  });

  it('deleting a member ends all their sessions and the member is gone', async () => {
    const { email, id } = await newMember('delete');
    const session = await signIn(email);
    const deleted = await send(second, 'DELETE', `/members/v1/members/${id}?id=${id}`, {
      auth: first.adminApiKey,
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});

    await expectEnded(session.access, 'delete', second, first);
    expect((await refresh(first, session.refresh)).status).toBe(401);
    expect((await strategy().login({ email, password: PASSWORD })).loginState).not.toBe('SUCCESS');
    const again = await send(first, 'DELETE', `/members/v1/members/${id}`, { auth: first.adminApiKey });
    expect(again.status).toBe(404);
  });

  it('a sign-in at the same moment as a block ends with the others: no session outlives the block', async () => {
    const { email, id } = await newMember('block-race');
    // session tokens of finished logins, each about to be traded for member tokens as the block lands
    const sessionTokens: string[] = [];
    for (let index = 0; index < 9; index++) {
      const login = await strategy().login({ email, password: PASSWORD });
      sessionTokens.push((login as { data: { sessionToken: string } }).data.sessionToken);
    }
    // traded through each process's own HTTP calls, half on each: the platforms race, not two views of
    // the store inside this test's process (which on SQLite would wait on each other's write lock)
    const platforms = [first, second];
    const trade = (token: string, on: TestPlatform) =>
      OAuthStrategy({ clientId: TEST_CLIENT_ID, host: on.url, redirectUri: `${first.url}/auth/callback` })
        .getMemberTokensForDirectLogin(token)
        .then((tokens) => tokens.accessToken.value);
    // one traded before the block, on the other process: the trade itself works, and the block ends it
    // (the store's redirect address is its public one, first's, whichever process is asked)
    const before = await trade(sessionTokens.pop()!, second);
    const trades = sessionTokens.map(
      (token, index) => trade(token, platforms[index % 2]!).catch(() => undefined), // refused: the block came first
    );
    const blocked = send(first, 'POST', `/members/v1/members/${id}/block`, { auth: first.adminApiKey });
    const [answer, ...issued] = await Promise.all([blocked, ...trades]);
    expect(answer.status).toBe(200);
    for (const access of [before, ...issued.filter((token): token is string => token !== undefined)]) {
      await expectEnded(access, 'sign-in racing a block');
    }
  });

  it('refuses a refresh for a blocked member even when no revocation reached the token', async () => {
    const { email, id } = await newMember('blocked-refresh');
    const session = await signIn(email);
    // as an older version left it: blocked in the table, its tokens never revoked
    await first.services.database.db
      .updateTable('identities')
      .set({ status: 'BLOCKED' })
      .where('id', '=', id)
      .execute();
    const refused = await refresh(second, session.refresh);
    expect(refused.status).toBe(401);
    expect(refused.body.details.applicationError.code).toBe('invalid_grant');
  });

  it('a process started after a revocation refuses the token from its first request', async () => {
    const { email } = await newMember('late');
    const session = await signIn(email);
    await session.auth.logout(`${first.url}/`);
    const late = await startTestPlatform({ dialect, sharing: first });
    try {
      expect((await myMember(late, session.access)).status).toBe(401);
    } finally {
      await late.stop();
    }
  });

  it('refuses a token that names no sign-in (signed before families were named), so its holder renews', async () => {
    const secret = (await first.services.settings.get('oauth.signing_secret')) as string;
    const { email, id } = await newMember('legacy');
    const legacy = await new SignJWT({ cid: TEST_CLIENT_ID, mid: id })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('cartwheel')
      .setSubject('a-visitor')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    const refused = await myMember(second, legacy);
    expect(refused.status).toBe(401);
    expect((await signIn(email)).access).not.toBe(legacy);
  });

  it('member administration is for admins, and checks its input', async () => {
    const { email, id } = await newMember('admin-only');
    const session = await signIn(email);
    const byMember = await send(first, 'POST', `/members/v1/members/${id}/block`, {
      auth: session.access,
      body: { id },
    });
    expect(byMember.status).toBe(403);
    expect((await send(first, 'DELETE', `/members/v1/members/${id}`, { auth: session.access })).status).toBe(
      403,
    );
    const unknown = await send(first, 'POST', '/members/v1/members/no-such-member/block', {
      auth: first.adminApiKey,
      body: {},
    });
    expect(unknown.status).toBe(404);
    const wrongBody = await send(first, 'POST', `/members/v1/members/${id}/block`, {
      auth: first.adminApiKey,
      body: { id: 42 },
    });
    expect(wrongBody.status).toBe(400);
    expect(wrongBody.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'id',
      violatedRule: 'FORMAT',
    });
    const longId = await send(first, 'POST', `/members/v1/members/${'x'.repeat(300)}/block`, {
      auth: first.adminApiKey,
      body: {},
    });
    expect(longId.status).toBe(400);
    expect(longId.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'id',
      violatedRule: 'MAX_LENGTH',
    });
    expect((await myMember(first, session.access)).status).toBe(200);
  });
});

describe('sessions that end, on postgres, while a listening connection is cut', () => {
  let first: TestPlatform;
  let second: TestPlatform;

  /** A new member signed in through `first`, the access token already accepted by `second`. */
  const session = async (label: string) => {
    const email = uniqueEmail(label);
    const auth = OAuthStrategy({
      clientId: TEST_CLIENT_ID,
      host: first.url,
      redirectUri: `${first.url}/auth/callback`,
    });
    await auth.register({ email, password: PASSWORD });
    const login = await auth.login({ email, password: PASSWORD });
    const tokens = await auth.getMemberTokensForDirectLogin(
      (login as { data: { sessionToken: string } }).data.sessionToken,
    );
    auth.setTokens(tokens);
    expect((await myMember(second, tokens.accessToken.value)).status).toBe(200);
    return { auth, access: tokens.accessToken.value };
  };

  beforeAll(async () => {
    first = await startTestPlatform({ dialect: 'postgres' });
    second = await startTestPlatform({ dialect: 'postgres', sharing: first });
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it('keeps following when its listening connection is cut, and listens again', async () => {
    const { auth, access } = await session('listener');

    const database = new URL(first.database.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: first.database.databaseUrl });
    await admin.connect();
    const listeners = async () =>
      (
        await admin.query('select pid from pg_stat_activity where datname = $1 and application_name = $2', [
          database,
          REVOCATIONS_LISTENER,
        ])
      ).rows.map((row) => row.pid as number);
    try {
      // one a process: the two platforms, and each test's own view of the store beside them
      const following = (await listeners()).length;
      expect(following).toBe(4);
      for (const pid of await listeners()) await admin.query('select pg_terminate_backend($1)', [pid]);
      await auth.logout(`${first.url}/`);
      expect((await myMember(first, access)).status).toBe(401);
      expect(await refusalDelay(second, access, 'postgres logout while not listening')).toBeLessThan(
        WITHIN_MS,
      );
      await expect.poll(async () => (await listeners()).length, { timeout: 10_000 }).toBe(following);
    } finally {
      await admin.end();
    }
  });

  it('reads a revocation whose transaction commits after a later one was read', async () => {
    const slow = await session('order');
    const quick = await session('order');
    // a revoking transaction takes its number, then stays open while another revokes and commits
    const open = new pg.Client({ connectionString: first.database.databaseUrl });
    await open.connect();
    try {
      await open.query('begin');
      await open.query(
        `insert into token_revocations (family_id, member_id, reason, revoked_at) values ($1, null, 'LOGOUT', $2)`,
        [decodeJwt(slow.access).fam, new Date().toISOString()],
      );
      await quick.auth.logout(`${first.url}/`);
      await refusalDelay(second, quick.access, 'postgres the later revocation');
      expect((await myMember(second, slow.access)).status).toBe(200);
      await open.query('commit');
    } finally {
      await open.end();
    }
    expect(
      await refusalDelay(second, slow.access, 'postgres the earlier number, committed later'),
    ).toBeLessThan(WITHIN_MS);
  });
});

afterAll(() => {
  // the measured delay of each refusal on the process that did not end the session
  console.log('refusal delays (ms):', JSON.stringify(delays));
});
