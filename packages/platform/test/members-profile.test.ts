import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, memberTokens, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery';

/** `PATCH /members/v1/members/{id}` as the hosted client sends it. */
async function patchMember(platform: TestPlatform, id: string, member: unknown, auth: string) {
  const response = await fetch(`${platform.url}/members/v1/members/${id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({ member }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe.each(DIALECTS)("a member's own profile update on %s", (dialect) => {
  let platform: TestPlatform;
  let visitor: string;

  async function signedUpMember(label: string) {
    const email = uniqueEmail(label);
    const registered = await register(platform, visitor, email, PASSWORD, {
      profile: { firstName: 'Ada', lastName: 'Lovelace', nickname: 'Ada' },
    });
    const tokens = await memberTokens(platform, registered.body.sessionToken);
    return { id: registered.body.identity.id as string, email, token: tokens.access_token };
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  it('changes only the fields given, and the member reads the new profile back', async () => {
    const ada = await signedUpMember('ada');
    const patched = await patchMember(
      platform,
      ada.id,
      { id: ada.id, contact: { firstName: 'Augusta' }, profile: { nickname: 'Countess', slug: 'countess' } },
      ada.token,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.member).toMatchObject({
      id: ada.id,
      loginEmail: ada.email,
      contact: { firstName: 'Augusta', lastName: 'Lovelace' },
      profile: { nickname: 'Countess', slug: 'countess' },
    });
    const my = await call(platform, 'GET', '/members/v1/members/my?fieldsets=FULL', { auth: ada.token });
    expect(my.body.member.profile).toMatchObject({ nickname: 'Countess', slug: 'countess' });
    expect(my.body.member.contact).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace' });
  });

  it('keeps company, job title and birthdate, and refuses a birthdate that is not a date', async () => {
    const ada = await signedUpMember('work');
    const patched = await patchMember(
      platform,
      ada.id,
      { contact: { company: 'Analytical Engines', jobTitle: 'Programmer', birthdate: '1815-12-10' } },
      ada.token,
    );
    expect(patched.body.member.contact).toMatchObject({
      company: 'Analytical Engines',
      jobTitle: 'Programmer',
      birthdate: '1815-12-10',
    });
    const refused = await patchMember(platform, ada.id, { contact: { birthdate: 'soon' } }, ada.token);
    expect(refused.status).toBe(400);
    expect(refused.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'member.contact.birthdate',
      violatedRule: 'FORMAT',
    });
  });

  it('clears a name sent blank but refuses a blank nickname', async () => {
    const ada = await signedUpMember('blank');
    const cleared = await patchMember(platform, ada.id, { contact: { lastName: '' } }, ada.token);
    expect(cleared.body.member.contact.lastName).toBeNull();
    const refused = await patchMember(platform, ada.id, { profile: { nickname: '  ' } }, ada.token);
    expect(refused.status).toBe(400);
    expect(refused.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'member.profile.nickname', violatedRule: 'REQUIRED_FIELD' }),
    ]);
  });

  it("refuses a member who patches someone else's profile, and a visitor", async () => {
    const ada = await signedUpMember('owner');
    const eve = await signedUpMember('eve');
    const byEve = await patchMember(platform, ada.id, { profile: { nickname: 'Hacked' } }, eve.token);
    expect(byEve.status).toBe(403);
    const byVisitor = await patchMember(platform, ada.id, { profile: { nickname: 'Hacked' } }, visitor);
    expect(byVisitor.status).toBe(403);
    const my = await call(platform, 'GET', '/members/v1/members/my', { auth: ada.token });
    expect(my.body.member.profile.nickname).toBe('Ada');
  });

  it("lets an admin patch any member's profile", async () => {
    const ada = await signedUpMember('admin');
    const patched = await patchMember(
      platform,
      ada.id,
      { privacyStatus: 'PRIVATE', profile: { nickname: 'Set by the owner' } },
      platform.adminApiKey,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.member).toMatchObject({
      privacyStatus: 'PRIVATE',
      profile: { nickname: 'Set by the owner' },
    });
  });

  it("refuses another member's slug and a new login email, naming the field", async () => {
    const ada = await signedUpMember('slug-a');
    const eve = await signedUpMember('slug-e');
    await patchMember(platform, eve.id, { profile: { slug: `taken-${dialect}` } }, eve.token);
    const clash = await patchMember(platform, ada.id, { profile: { slug: `taken-${dialect}` } }, ada.token);
    expect(clash.status).toBe(409);
    expect(clash.body.details.applicationError.code).toBe('SLUG_ALREADY_EXISTS');
    const email = await patchMember(platform, ada.id, { loginEmail: 'new@example.com' }, ada.token);
    expect(email.status).toBe(400);
    expect(email.body.details.validationError.fieldViolations[0]).toMatchObject({
      field: 'member.loginEmail',
      violatedRule: 'FIELD_NOT_ALLOWED',
    });
  });

  it('answers 404 for a member that does not exist', async () => {
    const missing = await patchMember(
      platform,
      'no-such-member',
      { profile: { nickname: 'x' } },
      platform.adminApiKey,
    );
    expect(missing.status).toBe(404);
  });
});
