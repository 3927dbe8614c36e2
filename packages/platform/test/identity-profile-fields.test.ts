import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, memberTokens, register, uniqueEmail, visitorToken } from './identity-client.ts';
import { as, createRole, OWNER, OWNER_ENV, ownerToken, staffMember } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const PASSWORD = 'correct horse battery';

/** Point 3's identity profile, every field of it, as the hosted client sends it to register. */
const FULL_PROFILE = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  nickname: 'Countess',
  company: 'Analytical Engines',
  position: 'Programmer',
  birthdate: '1815-12-10',
  language: 'en',
  vatId: 'GB123',
  customFields: [
    { name: 'shoeSize', value: { numValue: 38.5 } },
    { name: 'favouriteEngine', value: { strValue: 'Difference' } },
    { name: 'memberSince', value: { dateValue: '2020-02-29T12:00:00.000Z' } },
  ],
  secondaryEmails: [{ email: 'ada.work@example.com', tag: 'WORK' }],
  phonesV2: [
    { countryCode: 'GB', phone: '+44 20 7946 0000', tag: 'MOBILE' },
    { phone: '+44 20 7946 0001', tag: 'FAX' },
  ],
  addresses: [
    {
      tag: 'SHIPPING',
      address: {
        country: 'GB',
        city: 'London',
        postalCode: 'W1',
        addressLine1: '12 St James Square',
        addressLine2: 'Floor 2',
        streetAddress: { name: 'St James Square', number: '12' },
        geocode: { latitude: 51.507, longitude: -0.134 },
      },
    },
    { tag: 'BILLING', address: { country: 'GB', city: 'Ockham' } },
  ],
};

const failure = (body: Record<string, any>) => body.details?.validationError?.fieldViolations ?? [];

/**
 * Every profile field point 3 names is kept: given at registration (or sign-on), read back from the
 * identity and from the member, changed by a member update, and read again, on both databases. A
 * field the specification does not know is refused with a field violation, never dropped.
 */
describe.each(DIALECTS)('profile fields kept, on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  it('round-trips every field through register, read, member update and read', async () => {
    const email = uniqueEmail('profile');
    const registered = await register(platform, visitor, email, PASSWORD, { profile: FULL_PROFILE });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const profile = registered.body.identity.identityProfile;
    expect(profile).toMatchObject({
      firstName: 'Ada',
      company: 'Analytical Engines',
      vatId: 'GB123',
      customFields: FULL_PROFILE.customFields,
      secondaryEmails: [{ email: 'ada.work@example.com', tag: 'WORK' }],
      phonesV2: FULL_PROFILE.phonesV2,
      emails: ['ada.work@example.com'],
      phones: ['+44 20 7946 0000', '+44 20 7946 0001'],
    });
    expect(profile.addresses).toEqual([
      {
        tag: 'SHIPPING',
        address: {
          country: 'GB',
          city: 'London',
          postalCode: 'W1',
          addressLine: '12 St James Square',
          addressLine2: 'Floor 2',
          streetAddress: { name: 'St James Square', number: '12' },
          geocode: { latitude: 51.507, longitude: -0.134 },
        },
      },
      { tag: 'BILLING', address: { country: 'GB', city: 'Ockham' } },
    ]);

    const token = (await memberTokens(platform, registered.body.sessionToken)).access_token;
    const my = await call(platform, 'GET', '/members/v1/members/my?fieldsets=FULL', { auth: token });
    expect(my.body.member.role).toBe('MEMBER');
    expect(my.body.member.contact).toMatchObject({
      firstName: 'Ada',
      company: 'Analytical Engines',
      jobTitle: 'Programmer',
      birthdate: '1815-12-10',
      emails: [email, 'ada.work@example.com'],
      phones: ['+44 20 7946 0000', '+44 20 7946 0001'],
      addresses: [
        { city: 'London', addressLine: '12 St James Square', streetAddress: { number: '12' } },
        { city: 'Ockham' },
      ],
      customFields: {
        shoeSize: { name: 'shoeSize', value: { numValue: 38.5 } },
        favouriteEngine: { name: 'favouriteEngine', value: { strValue: 'Difference' } },
        memberSince: { name: 'memberSince', value: { dateValue: '2020-02-29T12:00:00.000Z' } },
      },
    });

    // a phone kept keeps its tag, a new one is untagged; an address keeps its place's tag
    const patched = await call(platform, 'PATCH', `/members/v1/members/${registered.body.identity.id}`, {
      auth: token,
      body: {
        member: {
          contact: {
            phones: ['+44 20 7946 0001', '+1 555 0100'],
            addresses: [{ city: 'Marylebone', country: 'GB' }],
            customFields: {
              shoeSize: { value: 39 },
              favouriteEngine: null,
              firstComputer: { name: 'firstComputer', value: { dateValue: '1843-09-01T00:00:00.000Z' } },
            },
          },
        },
      },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.member.contact.customFields).toEqual({
      shoeSize: { name: 'shoeSize', value: { numValue: 39 } },
      memberSince: { name: 'memberSince', value: { dateValue: '2020-02-29T12:00:00.000Z' } },
      firstComputer: { name: 'firstComputer', value: { dateValue: '1843-09-01T00:00:00.000Z' } },
    });

    const again = await login(platform, visitor, email, PASSWORD);
    const after = again.body.identity.identityProfile;
    expect(after.phonesV2).toEqual([
      { phone: '+44 20 7946 0001', tag: 'FAX' },
      { phone: '+1 555 0100', tag: 'UNTAGGED' },
    ]);
    expect(after.addresses).toEqual([{ tag: 'SHIPPING', address: { city: 'Marylebone', country: 'GB' } }]);
    expect(after.secondaryEmails).toEqual([{ email: 'ada.work@example.com', tag: 'WORK' }]);
    expect(after.customFields).toEqual([
      { name: 'shoeSize', value: { numValue: 39 } },
      { name: 'memberSince', value: { dateValue: '2020-02-29T12:00:00.000Z' } },
      { name: 'firstComputer', value: { dateValue: '1843-09-01T00:00:00.000Z' } },
    ]);

    const byAdmin = await call(
      platform,
      'GET',
      `/members/v1/members/${registered.body.identity.id}?fieldsets=FULL`,
      {
        auth: platform.adminApiKey,
      },
    );
    expect(byAdmin.body.member.contact.phones).toEqual(['+44 20 7946 0001', '+1 555 0100']);
  });

  it('keeps the profile an app signs a member on with', async () => {
    const email = uniqueEmail('sign-on');
    const signedOn = await call(platform, 'POST', '/_api/iam/authentication/v2/sign-on', {
      auth: platform.adminApiKey,
      body: {
        loginId: { email },
        profile: { customFields: [{ name: 'tier', value: { strValue: 'gold' } }] },
      },
    });
    expect(signedOn.status, JSON.stringify(signedOn.body)).toBe(200);
    expect(signedOn.body.identity.identityProfile.customFields).toEqual([
      { name: 'tier', value: { strValue: 'gold' } },
    ]);
  });

  it('refuses a field point 3 does not know, a value of another type, and a date that is none', async () => {
    const refused = async (profile: Record<string, unknown>) => {
      const answer = await register(platform, visitor, uniqueEmail('refused'), PASSWORD, { profile });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      return failure(answer.body).map((item: { field: string }) => item.field);
    };
    expect(await refused({ favouriteColour: 'blue' })).toEqual(['profile.favouriteColour']);
    expect(await refused({ customFields: [{ name: 'vip', value: { boolValue: true } }] })).toEqual([
      'profile.customFields[0].value.boolValue',
    ]);
    expect(await refused({ customFields: [{ name: 'since', value: { dateValue: 'not a date' } }] })).toEqual([
      'profile.customFields[0]',
    ]);
    expect(await refused({ phonesV2: [{ phone: '1', tag: 'PAGER' }] })).toEqual(['profile.phonesV2[0].tag']);

    const member = await register(platform, visitor, uniqueEmail('patch-refused'), PASSWORD);
    const token = (await memberTokens(platform, member.body.sessionToken)).access_token;
    const patched = await call(platform, 'PATCH', `/members/v1/members/${member.body.identity.id}`, {
      auth: token,
      body: { member: { contact: { customFields: { since: { value: { dateValue: 'soon' } } } } } },
    });
    expect(patched.status).toBe(400);
    expect(failure(patched.body)[0]).toMatchObject({ field: 'member.contact.customFields.since' });
  });

  it("reports the store's owner as OWNER and its staff as CONTRIBUTOR", async () => {
    const owner = await ownerToken(platform);
    const role = await createRole(platform, owner, 'Packer', ['orders.read']);
    const staff = await staffMember(platform, owner, role, 'packer');
    const mine = await call(platform, 'GET', '/members/v1/members/my?fieldsets=FULL', { auth: staff.token });
    expect(mine.body.member.role).toBe('CONTRIBUTOR');

    const listed = await as(platform, platform.adminApiKey).post('/members/v1/members/query', {
      query: { filter: { loginEmail: { $in: [OWNER.email, staff.email] } } },
      fieldsets: ['FULL'],
    });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const roles = Object.fromEntries(
      listed.body.members.map((member: { loginEmail: string; role: string }) => [
        member.loginEmail,
        member.role,
      ]),
    );
    expect(roles).toEqual({ [OWNER.email]: 'OWNER', [staff.email]: 'CONTRIBUTOR' });
  });
});
