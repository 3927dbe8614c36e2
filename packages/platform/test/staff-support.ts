import { expect } from 'vitest';
import { PERMISSIONS, type Permission } from '../src/shared/permissions.ts';
import { signUpFrom } from './cart-calls.ts';
import { type Answer, call, visitorToken } from './catalog-http.ts';
import { login, mailbox, memberTokens, uniqueEmail } from './identity-client.ts';
import type { TestPlatform } from './support/platform.ts';

/** The owner's login every staff test starts its platform with. */
export const OWNER = { email: 'owner@shop.test', password: 'the owner password 1' };
export const OWNER_ENV = { CARTWHEEL_OWNER_EMAIL: OWNER.email, CARTWHEEL_OWNER_PASSWORD: OWNER.password };
export const STAFF_PASSWORD = 'a staff password 1';

export const as = (platform: TestPlatform, auth: string | undefined) => ({
  get: (path: string) => call(platform, 'GET', path, undefined, auth),
  post: (path: string, body: unknown = {}) => call(platform, 'POST', path, body, auth),
  patch: (path: string, body: unknown) => call(platform, 'PATCH', path, body, auth),
  delete: (path: string) => call(platform, 'DELETE', path, undefined, auth),
});

/** Signs in with email and password as the hosted login page does, and trades the session for tokens. */
export async function signIn(platform: TestPlatform, email: string, password: string): Promise<string> {
  const visitor = await visitorToken(platform);
  const answer = await login(platform, visitor, email, password);
  if (answer.body.state !== 'SUCCESS') throw new Error(`login answered ${JSON.stringify(answer.body)}`);
  return (await memberTokens(platform, answer.body.sessionToken)).access_token;
}

/** The claims of an access token (unverified: what an app reads from it). */
export const claimsOf = (token: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

export const ownerToken = (platform: TestPlatform) => signIn(platform, OWNER.email, OWNER.password);

export async function createRole(
  platform: TestPlatform,
  auth: string,
  name: string,
  permissions: Permission[],
): Promise<string> {
  const answer = await as(platform, auth).post('/api/cartwheel/staff-roles', { role: { name, permissions } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.role.id;
}

/** The invitation's token, from the link in the newest invitation mailed to `email`. */
export async function invitationToken(platform: TestPlatform, email: string): Promise<string> {
  const [message] = (await mailbox(platform, email)).filter((m) => m.kind === 'STAFF_INVITATION');
  const token = /[?&]token=([^\s&"<]+)/.exec(message?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return decodeURIComponent(token);
}

/** Invites a new staff member with a role, accepts with a password, signs them in: their token and row. */
export async function staffMember(
  platform: TestPlatform,
  auth: string,
  roleId: string,
  label: string,
): Promise<{ token: string; id: string; email: string }> {
  const email = uniqueEmail(label);
  const invited = await as(platform, auth).post('/api/cartwheel/staff/invitations', { email, roleId });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  const accepted = await as(platform, undefined).post('/api/cartwheel/staff/invitations/accept', {
    token: await invitationToken(platform, email),
    password: STAFF_PASSWORD,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { token: await signIn(platform, email, STAFF_PASSWORD), id: invited.body.staffMember.id, email };
}

export async function createKey(
  platform: TestPlatform,
  auth: string,
  permissions: readonly Permission[],
  expiresDate?: string,
): Promise<{ key: string; id: string }> {
  const answer = await as(platform, auth).post('/api/cartwheel/api-keys', {
    apiKey: {
      name: `key ${permissions.join(' ')}`.slice(0, 100),
      permissions,
      ...(expiresDate ? { expiresDate } : {}),
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { key: answer.body.key, id: answer.body.apiKey.id };
}

export const allBut = (permission: Permission | undefined): Permission[] =>
  PERMISSIONS.filter((candidate) => candidate !== permission);

export const newMember = async (platform: TestPlatform, label: string) =>
  signUpFrom(platform, await visitorToken(platform), uniqueEmail(label));

export type { Answer };
