import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { type Answer, login, memberTokens, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Member administration (issue 21, point 7) over HTTP as the hosted client sends it: reads with
 * fieldsets for staff, the member and strangers; point 4's transitions, legal and illegal; slugs; the
 * community; create, update and the contact parts; deletes; bulk calls and their jobs; bad input.
 */
const PASSWORD = 'correct horse battery';
const M = '/members/v1/members';

async function send(
  platform: TestPlatform,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
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

/** A GET whose input travels as the `.r` query parameter (base64 JSON), as the hosted client sends lists. */
const withR = (path: string, input: unknown) =>
  `${path}?.r=${encodeURIComponent(Buffer.from(JSON.stringify(input)).toString('base64'))}`;

function expectViolation(answer: Answer, field: string, rule?: string) {
  expect(answer.status).toBe(400);
  const violations = answer.body.details.validationError.fieldViolations as Array<Record<string, string>>;
  expect(violations.map((v) => v.field)).toContain(field);
  if (rule) expect(violations.find((v) => v.field === field)?.violatedRule).toBe(rule);
}

function expectTransitionRefused(answer: Answer, action: string, status: string) {
  expect(answer.status).toBe(428);
  expect(answer.body.details.applicationError).toMatchObject({
    code: 'MEMBER_STATUS_TRANSITION_NOT_ALLOWED',
    data: { action, status },
  });
}

describe.each(DIALECTS)('member administration on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  let admin: string;
  /** Everyone this file registers shares a tag in their last name, so a query can find just them. */
  const tag = `T${Date.now().toString(36)}${dialect}`;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    admin = platform.adminApiKey;
  });
  afterAll(() => platform?.stop());
  beforeEach(async () => {
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    await platform.services.settings.set(IDENTITY_SETTINGS.requireEmailVerification, 'false');
  });

  /** A member signed up through the identity calls, with their access token when they may sign in. */
  async function newMember(label: string, profile: Record<string, unknown> = {}) {
    const email = uniqueEmail(label);
    const registered = await register(platform, visitor, email, PASSWORD, {
      profile: { firstName: 'Ada', lastName: `${tag} ${label}`, nickname: label, ...profile },
    });
    expect(registered.status).toBe(200);
    const id = registered.body.identity.id as string;
    const token = registered.body.sessionToken
      ? ((await memberTokens(platform, registered.body.sessionToken)).access_token as string)
      : undefined;
    return { id, email, token };
  }

  async function pendingMember(label: string) {
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'true');
    const member = await newMember(label);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    return member;
  }

  const act = (id: string, action: string, auth = admin) =>
    send(platform, 'POST', `${M}/${id}/${action}`, { auth, body: { id } });

  it('approve moves a pending member to APPROVED and lets them sign in; a second approve is refused', async () => {
    const { id, email } = await pendingMember('approve');
    expect((await login(platform, visitor, email, PASSWORD)).body.state).toBe('REQUIRE_OWNER_APPROVAL');
    const read = await send(platform, 'GET', `${M}/${id}?fieldsets=FULL`, { auth: admin });
    expect(read.body.member.status).toBe('PENDING');

    const approved = await act(id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body.member).toMatchObject({ id, status: 'APPROVED' });
    expect((await login(platform, visitor, email, PASSWORD)).body.state).toBe('SUCCESS');

    expectTransitionRefused(await act(id, 'approve'), 'approve', 'APPROVED');
  });

  it('block shuts a member out and a second block is refused; approve lets them back', async () => {
    const { id, email, token } = await newMember('block');
    const blocked = await act(id, 'block');
    expect(blocked.body.member.status).toBe('BLOCKED');
    expect((await send(platform, 'GET', `${M}/my`, { auth: token })).status).toBe(401);
    expect((await login(platform, visitor, email, PASSWORD)).body.state).not.toBe('SUCCESS');
    expectTransitionRefused(await act(id, 'block'), 'block', 'BLOCKED');
    expectTransitionRefused(await act(id, 'disconnect'), 'disconnect', 'BLOCKED');
    expect((await act(id, 'approve')).body.member.status).toBe('APPROVED');
    expect((await login(platform, visitor, email, PASSWORD)).body.state).toBe('SUCCESS');
  });

  it('disconnect ends the sign-ins and keeps the member, OFFLINE; approve reconnects them', async () => {
    const { id, email, token } = await newMember('disconnect');
    const disconnected = await act(id, 'disconnect');
    expect(disconnected.status).toBe(200);
    expect(disconnected.body.member).toMatchObject({ id, status: 'OFFLINE' });
    expect((await send(platform, 'GET', `${M}/my`, { auth: token })).status).toBe(401);
    expect((await login(platform, visitor, email, PASSWORD)).body.state).not.toBe('SUCCESS');
    // still a member: staff read them
    expect(
      (await send(platform, 'GET', `${M}/${id}?fieldsets=FULL`, { auth: admin })).body.member.status,
    ).toBe('OFFLINE');
    expectTransitionRefused(await act(id, 'disconnect'), 'disconnect', 'OFFLINE');
    expect((await act(id, 'block')).body.member.status).toBe('BLOCKED');
    expect((await act(id, 'approve')).body.member.status).toBe('APPROVED');
  });

  it('mute and unmute change the activity status only, each refused twice in a row', async () => {
    const { id, token } = await newMember('mute');
    const muted = await act(id, 'mute');
    expect(muted.body.member).toMatchObject({ activityStatus: 'MUTED', status: 'APPROVED' });
    expectTransitionRefused(await act(id, 'mute'), 'mute', 'MUTED');
    expect((await send(platform, 'GET', `${M}/my`, { auth: token })).status).toBe(200);
    expect((await act(id, 'unmute')).body.member.activityStatus).toBe('ACTIVE');
    expectTransitionRefused(await act(id, 'unmute'), 'unmute', 'ACTIVE');
  });

  it('staff acting at once: of five blocks one passes and the others are refused; one approve wins too', async () => {
    const { id } = await newMember('race-block');
    const blocks = await Promise.all(Array.from({ length: 5 }, () => act(id, 'block')));
    expect(blocks.map((answer) => answer.status).sort()).toEqual([200, 428, 428, 428, 428]);
    const approves = await Promise.all(Array.from({ length: 5 }, () => act(id, 'approve')));
    expect(approves.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(approves.every((answer) => answer.status === 200 || answer.status === 428)).toBe(true);
  });

  it('two members claiming one slug in different cases at once: exactly one gets it', async () => {
    const ada = await newMember('race-slug-a');
    const bea = await newMember('race-slug-b');
    const slug = `race-${tag}`;
    const [first, second] = await Promise.all([
      send(platform, 'POST', `${M}/my/slug`, { auth: ada.token, body: { slug } }),
      send(platform, 'POST', `${M}/my/slug`, { auth: bea.token, body: { slug: slug.toUpperCase() } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.body.details.applicationError.code).toBe('SLUG_ALREADY_EXISTS');
  });

  it("announces the member's creation, each change and the deletion, in the change's transaction", async () => {
    const { id, token } = await newMember('events');
    await act(id, 'mute');
    expectTransitionRefused(await act(id, 'mute'), 'mute', 'MUTED');
    await send(platform, 'POST', `${M}/leave-community`, { auth: token, body: {} });
    await act(id, 'block');
    await send(platform, 'DELETE', `${M}/${id}`, { auth: admin });
    // the member's own events (their identity, of the same id, announces its sign-in too)
    const events = (await readEvents(platform.services.database.db, { entityId: id })).filter(
      (event) => event.entity === 'member',
    );
    expect(events.map((event) => [event.entity, event.slug, event.payload.change ?? null])).toEqual([
      ['member', 'created', null],
      ['member', 'updated', 'mute'],
      ['member', 'updated', 'privacy'],
      ['member', 'updated', 'block'],
      ['member', 'deleted', null],
    ]);
    // each but the deletion carries the member as the change left it: the hosted event's entity
    const members = events.map((event) => event.payload.member as Record<string, unknown> | undefined);
    expect(members[0]).toMatchObject({ id, status: 'APPROVED', activityStatus: 'ACTIVE' });
    expect(members[1]).toMatchObject({ id, activityStatus: 'MUTED' });
    expect(members[2]).toMatchObject({ id, privacyStatus: 'PRIVATE' });
    expect(members[3]).toMatchObject({ id, status: 'BLOCKED' });
    expect(members[4]).toBeUndefined();
  });

  it('the actions are for staff: a member or a visitor is refused and nothing changes', async () => {
    const target = await newMember('target');
    const other = await newMember('other');
    for (const action of ['approve', 'block', 'disconnect', 'mute', 'unmute']) {
      expect((await act(target.id, action, other.token)).status).toBe(403);
      expect((await act(target.id, action, visitor)).status).toBe(403);
    }
    expect((await send(platform, 'DELETE', `${M}/${target.id}`, { auth: other.token })).status).toBe(403);
    expect(
      (
        await send(platform, 'POST', `${M}/bulk/delete`, {
          auth: other.token,
          body: { memberIds: [target.id] },
        })
      ).status,
    ).toBe(403);
    const read = await send(platform, 'GET', `${M}/${target.id}?fieldsets=FULL`, { auth: admin });
    expect(read.body.member).toMatchObject({ status: 'APPROVED', activityStatus: 'ACTIVE' });
    expect((await act('no-such-member', 'block')).body.details.applicationError.code).toBe(
      'MEMBER_NOT_FOUND',
    );
  });

  it('FULL is for staff and the member themselves; a stranger gets PUBLIC, and of a private member almost nothing', async () => {
    const open = await newMember('open-profile');
    const shy = await newMember('shy-profile', { privacyStatus: 'PRIVATE' });
    const staffView = await send(platform, 'GET', `${M}/${open.id}?fieldsets=FULL`, { auth: admin });
    expect(staffView.body.member).toMatchObject({
      id: open.id,
      loginEmail: open.email,
      status: 'APPROVED',
      contact: { firstName: 'Ada' },
    });
    const own = await send(platform, 'GET', `${M}/${open.id}?fieldsets=FULL`, { auth: open.token });
    expect(own.body.member.loginEmail).toBe(open.email);

    // a stranger asking FULL gets the public profile: no email, no contact, no status
    const stranger = await send(platform, 'GET', `${M}/${open.id}?fieldsets=FULL`, { auth: shy.token });
    expect(stranger.status).toBe(200);
    expect(Object.keys(stranger.body.member).sort()).toEqual(
      ['activityStatus', 'createdDate', 'id', 'privacyStatus', 'profile'].sort(),
    );
    expect(stranger.body.member.profile).toMatchObject({ nickname: 'open-profile' });
    const byVisitor = await send(platform, 'GET', `${M}/${shy.id}`, { auth: visitor });
    expect(byVisitor.body.member).toEqual({ id: shy.id, privacyStatus: 'PRIVATE' });
    // the private member reads themself in full
    expect((await send(platform, 'GET', `${M}/my`, { auth: shy.token })).body.member.loginEmail).toBe(
      shy.email,
    );
    expect(
      (await send(platform, 'GET', `${M}/my?fieldsets=PUBLIC`, { auth: shy.token })).body.member,
    ).toEqual({
      id: shy.id,
      privacyStatus: 'PRIVATE',
    });
    // a member who is not approved does not exist for strangers
    const waiting = await pendingMember('waiting-profile');
    expect((await send(platform, 'GET', `${M}/${waiting.id}`, { auth: visitor })).status).toBe(404);
    expect((await send(platform, 'GET', `${M}/${waiting.id}`, { auth: admin })).status).toBe(200);
    // no token at all: refused
    expect((await send(platform, 'GET', `${M}/${open.id}`)).status).toBe(401);
  });

  it('lists and queries with paging, sorting and filters; strangers see approved public members only', async () => {
    const ids: string[] = [];
    for (const label of ['list-c', 'list-a', 'list-b']) ids.push((await newMember(label)).id);
    const hidden = await newMember('list-private', { privacyStatus: 'PRIVATE' });
    const blocked = await newMember('list-blocked');
    await act(blocked.id, 'block');
    const mine = { 'contact.lastName': { $startsWith: `${tag} list-` } };

    const query = (body: unknown, auth = admin) => send(platform, 'POST', `${M}/query`, { auth, body });
    const all = await query({
      query: { filter: mine, sorting: [{ fieldName: 'profile.nickname', order: 'ASC' }] },
      fieldsets: ['FULL'],
    });
    expect(all.status).toBe(200);
    expect(all.body.members.map((m: any) => m.profile.nickname)).toEqual([
      'list-a',
      'list-b',
      'list-blocked',
      'list-c',
      'list-private',
    ]);
    expect(all.body.metadata).toMatchObject({ count: 5, offset: 0, total: 5, tooManyToCount: false });
    expect(all.body.members[0].loginEmail).toEqual(expect.any(String));

    const paged = await query({
      query: { filter: mine, paging: { limit: 2, offset: 2 }, sorting: [{ fieldName: 'profile.nickname' }] },
    });
    expect(paged.body.members.map((m: any) => m.profile.nickname)).toEqual(['list-blocked', 'list-c']);
    expect(paged.body.metadata).toMatchObject({ count: 2, offset: 2, total: 5 });
    // PUBLIC is the default fieldset, for staff too
    expect(paged.body.members[0].loginEmail).toBeUndefined();

    const byStatus = await query({ query: { filter: { $and: [mine, { status: 'BLOCKED' }] } } });
    expect(byStatus.body.members.map((m: any) => m.id)).toEqual([blocked.id]);
    const searched = await query({ query: { filter: mine }, search: { expression: 'LIST-B' } });
    expect(searched.body.members.map((m: any) => m.profile.nickname).sort()).toEqual([
      'list-b',
      'list-blocked',
    ]);

    // a visitor: approved public members only, and only public fields to filter on
    const nicknames = { 'profile.nickname': { $startsWith: 'list-' } };
    const seen = await query({ query: { filter: nicknames }, fieldsets: ['FULL'] }, visitor);
    const seenIds = seen.body.members.map((m: any) => m.id);
    for (const id of ids) expect(seenIds).toContain(id);
    expect(seenIds).not.toContain(hidden.id);
    expect(seenIds).not.toContain(blocked.id);
    expect(seen.body.members[0].loginEmail).toBeUndefined();
    expectViolation(
      await query({ query: { filter: { loginEmail: 'x@example.com' } } }, visitor),
      'query.filter.loginEmail',
      'FIELD_NOT_ALLOWED',
    );

    // the list, as the hosted client sends it (`.r`)
    const listed = await send(
      platform,
      'GET',
      withR(M, {
        paging: { limit: 2, offset: 0 },
        fieldsets: ['FULL'],
        sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      }),
      { auth: admin },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.members).toHaveLength(2);
    expect(listed.body.members[0].loginEmail).toEqual(expect.any(String));
    expect(Date.parse(listed.body.members[0].createdDate)).toBeGreaterThanOrEqual(
      Date.parse(listed.body.members[1].createdDate),
    );
  });

  it('answers bad list and query input with field violations, never a 500', async () => {
    const query = (body: unknown) => send(platform, 'POST', `${M}/query`, { auth: admin, body });
    expectViolation(await query({ query: { paging: { limit: 1000 } } }), 'query.paging.limit');
    expectViolation(await query({ query: { paging: { offset: -1 } } }), 'query.paging.offset');
    expectViolation(
      await query({ query: { sorting: [{ fieldName: 'password' }] } }),
      'query.sorting[0].fieldName',
      'FIELD_NOT_ALLOWED',
    );
    expectViolation(
      await query({ query: { filter: { status: { $regex: 'x' } } } }),
      'query.filter.status.$regex',
    );
    expectViolation(
      await query({ query: { filter: { status: 'ZOMBIE' } } }),
      'query.filter.status',
      'INVALID_ENUM_VALUE',
    );
    expectViolation(
      await query({ query: { filter: { createdDate: { $gt: 'yesterday' } } } }),
      'query.filter.createdDate.$gt',
    );
    expectViolation(await query({ query: { filter: { $or: [] } } }), 'query.filter.$or');
    expectViolation(await query({ query: { filter: { id: { $in: 'x' } } } }), 'query.filter.id.$in');
    expectViolation(await query({ fieldsets: ['EVERYTHING'] }), 'fieldsets[0]');
    expect((await query({ query: { filter: { 'profile.nickname': { $startsWith: '%_\\' } } } })).status).toBe(
      200,
    );
    const list = await send(platform, 'GET', `${M}?fieldsets=NONE`, { auth: admin });
    expect(list.status).toBe(400);
    const bulk = await send(platform, 'POST', `${M}/bulk/delete`, {
      auth: admin,
      body: { memberIds: Array.from({ length: 101 }, (_, i) => `m${i}`) },
    });
    expectViolation(bulk, 'memberIds', 'MAX_SIZE');
    expectViolation(
      await send(platform, 'POST', `${M}/bulk/block-by-filter`, { auth: admin, body: {} }),
      'filter',
      'REQUIRED_FIELD',
    );
    expectViolation(
      await send(platform, 'POST', `${M}/bulk/approve-by-filter`, {
        auth: admin,
        body: { filter: { nope: 1 } },
      }),
      'filter.nope',
      'FIELD_NOT_ALLOWED',
    );
    expectViolation(
      await send(platform, 'POST', M, { auth: admin, body: { member: { loginEmail: 'not-an-email' } } }),
      'member.loginEmail',
    );
  });

  it('slugs are unique whatever their case, with a clear error; staff set any, a member only their own', async () => {
    const ada = await newMember('slug-ada');
    const bob = await newMember('slug-bob');
    const slug = `Ada-${tag}`;
    const mine = await send(platform, 'POST', `${M}/my/slug`, { auth: ada.token, body: { slug } });
    expect(mine.body.member.profile.slug).toBe(slug);
    const taken = await send(platform, 'POST', `${M}/my/slug`, {
      auth: bob.token,
      body: { slug: slug.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.details.applicationError).toMatchObject({ code: 'SLUG_ALREADY_EXISTS' });
    // the holder may change its case
    expect(
      (await send(platform, 'POST', `${M}/my/slug`, { auth: ada.token, body: { slug: slug.toLowerCase() } }))
        .status,
    ).toBe(200);
    const byStaff = await send(platform, 'POST', `${M}/${bob.id}/slug`, {
      auth: admin,
      body: { id: bob.id, slug: `bob-${tag}` },
    });
    expect(byStaff.body.member.profile.slug).toBe(`bob-${tag}`);
    const byOther = await send(platform, 'POST', `${M}/${bob.id}/slug`, {
      auth: ada.token,
      body: { id: bob.id, slug: 'mine' },
    });
    expect(byOther.status).toBe(403);
    expectViolation(
      await send(platform, 'POST', `${M}/${bob.id}/slug`, { auth: admin, body: { slug: '-bad slug' } }),
      'slug',
      'FORMAT',
    );
  });

  it('join and leave the community set the privacy the reads follow', async () => {
    const member = await newMember('community');
    const left = await send(platform, 'POST', `${M}/leave-community`, { auth: member.token, body: {} });
    expect(left.body.member.privacyStatus).toBe('PRIVATE');
    expect((await send(platform, 'GET', `${M}/${member.id}`, { auth: visitor })).body.member).toEqual({
      id: member.id,
      privacyStatus: 'PRIVATE',
    });
    const joined = await send(platform, 'POST', `${M}/join-community`, { auth: member.token, body: {} });
    expect(joined.body.member.privacyStatus).toBe('PUBLIC');
    expect(
      (await send(platform, 'GET', `${M}/${member.id}`, { auth: visitor })).body.member.profile.nickname,
    ).toBe('community');
    expect((await send(platform, 'POST', `${M}/join-community`, { auth: visitor, body: {} })).status).toBe(
      403,
    );
  });

  it('creates a member, updates their contact, and deletes their phones, emails and addresses', async () => {
    const email = uniqueEmail('created');
    const created = await send(platform, 'POST', M, {
      auth: admin,
      body: {
        member: {
          loginEmail: email,
          profile: { nickname: 'Created' },
          contact: { firstName: 'Cee', phones: ['+1 555 0100'], emails: ['cee@work.example'] },
        },
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.member.id;
    expect(created.body.member).toMatchObject({
      loginEmail: email,
      status: 'APPROVED',
      profile: { nickname: 'Created' },
      contact: { firstName: 'Cee', phones: ['+1 555 0100'], emails: [email, 'cee@work.example'] },
    });
    const again = await send(platform, 'POST', M, { auth: admin, body: { member: { loginEmail: email } } });
    expect(again.status).toBe(409);

    const updated = await send(platform, 'PATCH', `${M}/${id}`, {
      auth: admin,
      body: {
        member: { id, contact: { addresses: [{ city: 'London', country: 'GB', addressLine: '1 Street' }] } },
      },
    });
    expect(updated.body.member.contact.addresses).toEqual([
      { city: 'London', country: 'GB', addressLine: '1 Street' },
    ]);

    const noPhones = await send(platform, 'DELETE', `${M}/${id}/phones?id=${id}`, { auth: admin });
    expect(noPhones.body.member.contact.phones).toEqual([]);
    const noEmails = await send(platform, 'DELETE', `${M}/${id}/emails?id=${id}`, { auth: admin });
    expect(noEmails.body.member.contact.emails).toEqual([email]);
    const noAddresses = await send(platform, 'DELETE', `${M}/${id}/addresses?id=${id}`, { auth: admin });
    expect(noAddresses.body.member.contact.addresses).toEqual([]);
    expect(noAddresses.body.member.contact.firstName).toBe('Cee');
  });

  it('deletes a member and my member, giving the content to another member; the slug is free again', async () => {
    const keeper = await newMember('keeper');
    const leaver = await newMember('leaver');
    const slug = `leaver-${tag}`;
    await send(platform, 'POST', `${M}/my/slug`, { auth: leaver.token, body: { slug } });
    expectViolation(
      await send(platform, 'DELETE', `${M}/my?contentAssigneeId=${leaver.id}`, { auth: leaver.token }),
      'contentAssigneeId',
    );
    expectViolation(
      await send(platform, 'DELETE', `${M}/my?contentAssigneeId=nobody`, { auth: leaver.token }),
      'contentAssigneeId',
    );
    const gone = await send(platform, 'DELETE', `${M}/my?contentAssigneeId=${keeper.id}`, {
      auth: leaver.token,
    });
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual({});
    expect((await send(platform, 'GET', `${M}/my`, { auth: leaver.token })).status).toBe(401);
    expect((await send(platform, 'GET', `${M}/${leaver.id}`, { auth: admin })).status).toBe(404);
    const row = await platform.services.members.row(leaver.id);
    expect(row?.content_assignee_id).toBe(keeper.id);
    // the slug is someone else's to take
    expect(
      (await send(platform, 'POST', `${M}/my/slug`, { auth: keeper.token, body: { slug } })).status,
    ).toBe(200);

    expect((await send(platform, 'DELETE', `${M}/${keeper.id}`, { auth: admin })).status).toBe(200);
    expect((await send(platform, 'DELETE', `${M}/${keeper.id}`, { auth: admin })).status).toBe(404);
  });

  it('bulk delete answers a result per member, with the reason of each failure', async () => {
    const one = await newMember('bulk-one');
    const two = await newMember('bulk-two');
    const answer = await send(platform, 'POST', `${M}/bulk/delete`, {
      auth: admin,
      body: { memberIds: [one.id, 'no-such-member', two.id] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.bulkActionMetadata).toEqual({
      totalSuccesses: 2,
      totalFailures: 1,
      undetailedFailures: 0,
    });
    expect(
      answer.body.results.map((r: any) => [
        r.itemMetadata.id,
        r.itemMetadata.originalIndex,
        r.itemMetadata.success,
      ]),
    ).toEqual([
      [one.id, 0, true],
      ['no-such-member', 1, false],
      [two.id, 2, true],
    ]);
    expect(answer.body.results[1].itemMetadata.error.code).toBe('MEMBER_NOT_FOUND');
  });

  async function finished(jobId: string) {
    for (let tries = 0; tries < 200; tries++) {
      const read = await send(platform, 'GET', `${M}/jobs/${jobId}`, { auth: admin });
      expect(read.status).toBe(200);
      if (read.body.job.status === 'FINISHED') return read.body.job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} never finished`);
  }

  it('approve, block and delete by filter run as jobs whose progress and failures can be read', async () => {
    const label = `jobs-${tag}`;
    const waiting = [await pendingMember(`${label}-w1`), await pendingMember(`${label}-w2`)];
    const active = await newMember(`${label}-a1`);
    const filter = { 'profile.nickname': { $startsWith: label } };

    const approving = await send(platform, 'POST', `${M}/bulk/approve-by-filter`, {
      auth: admin,
      body: { filter },
    });
    expect(approving.status).toBe(200);
    expect(approving.body.jobId).toEqual(expect.any(String));
    const approved = await finished(approving.body.jobId);
    // the active member cannot be approved again: a failure with its reason, the others succeed
    expect(approved.bulkActionMetadata).toEqual({
      totalSuccesses: 2,
      totalFailures: 1,
      undetailedFailures: 0,
    });
    expect(approved.results).toEqual([
      {
        itemMetadata: {
          id: active.id,
          success: false,
          error: { code: 'MEMBER_STATUS_TRANSITION_NOT_ALLOWED', description: expect.any(String) },
        },
      },
    ]);
    for (const member of waiting)
      expect((await login(platform, visitor, member.email, PASSWORD)).body.state).toBe('SUCCESS');

    const blocking = await send(platform, 'POST', `${M}/bulk/block-by-filter`, {
      auth: admin,
      body: { filter },
    });
    const blocked = await finished(blocking.body.jobId);
    expect(blocked.bulkActionMetadata.totalSuccesses).toBe(3);
    expect((await send(platform, 'GET', `${M}/my`, { auth: active.token })).status).toBe(401);

    // the member who receives the content matches the filter too: kept, a failure with its reason
    const keeper = await newMember(`${label}-keeper`);
    const deleting = await send(platform, 'POST', `${M}/bulk/delete-by-filter`, {
      auth: admin,
      body: { filter, contentAssigneeId: keeper.id },
    });
    const deleted = await finished(deleting.body.jobId);
    expect(deleted.bulkActionMetadata).toEqual({
      totalSuccesses: 3,
      totalFailures: 1,
      undetailedFailures: 0,
    });
    expect(deleted.results[0].itemMetadata).toMatchObject({
      id: keeper.id,
      error: { code: 'CONTENT_ASSIGNEE_NOT_DELETED' },
    });
    const left = await send(platform, 'POST', `${M}/query`, { auth: admin, body: { query: { filter } } });
    expect(left.body.members.map((member: any) => member.id)).toEqual([keeper.id]);
    expect((await send(platform, 'GET', `${M}/jobs/no-such-job`, { auth: admin })).status).toBe(404);
    expect(
      (await send(platform, 'GET', `${M}/jobs/${deleting.body.jobId}`, { auth: keeper.token })).status,
    ).toBe(403);
  });

  it('a job works in batches: more members than one batch all get their result', async () => {
    const label = `batch-${tag}`;
    const count = 130; // more than one batch of 100
    const now = new Date().toISOString();
    const db = platform.services.database.db;
    const rows = Array.from({ length: count }, (_, i) => ({ id: `${label}-${String(i).padStart(4, '0')}` }));
    await db
      .insertInto('identities')
      .values(
        rows.map(({ id }) => ({
          id,
          email: `${id}@example.com`.toLowerCase(),
          email_verified: 1,
          status: 'PENDING' as const,
          pending_reason: 'PENDING_ADMIN_APPROVAL_REQUIRED' as const,
          password_hash: null,
          must_reset_password: 0,
          profile: JSON.stringify({ nickname: id }),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('members')
      .values(
        rows.map(({ id }) => ({
          id,
          contact_id: `c-${id}`,
          slug: id,
          privacy_status: 'PUBLIC' as const,
          activity_status: 'ACTIVE' as const,
          created_at: now,
          updated_at: now,
          last_login_at: null,
        })),
      )
      .execute();
    const started = await send(platform, 'POST', `${M}/bulk/approve-by-filter`, {
      auth: admin,
      body: { filter: { 'profile.slug': { $startsWith: label } } },
    });
    const job = await finished(started.body.jobId);
    expect(job.bulkActionMetadata).toEqual({
      totalSuccesses: count,
      totalFailures: 0,
      undetailedFailures: 0,
    });
    const pending = await send(platform, 'POST', `${M}/query`, {
      auth: admin,
      body: { query: { filter: { 'profile.slug': { $startsWith: label }, status: 'PENDING' } } },
    });
    expect(pending.body.metadata.total).toBe(0);
  });
});
