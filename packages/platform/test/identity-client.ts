import { createHash } from 'node:crypto';
import { TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/** Plain HTTP to a test platform, as the hosted client would send it, for the identity tests. */
export interface Answer {
  status: number;
  body: Record<string, any>;
}

export async function call(
  platform: TestPlatform,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  options: { body?: unknown; auth?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.auth) headers.authorization = options.auth;
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

export async function visitorToken(platform: TestPlatform): Promise<string> {
  const { body } = await call(platform, 'POST', '/oauth2/token', {
    body: { clientId: TEST_CLIENT_ID, grantType: 'anonymous' },
  });
  return body.access_token;
}

export function register(
  platform: TestPlatform,
  visitor: string,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  return call(platform, 'POST', '/_api/iam/authentication/v2/register', {
    auth: visitor,
    body: { loginId: { email }, password, profile: { firstName: 'Ada', lastName: 'Lovelace' }, ...extra },
  });
}

export function login(
  platform: TestPlatform,
  visitor: string,
  email: string,
  password: string,
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  return call(platform, 'POST', '/_api/iam/authentication/v2/login', {
    auth: visitor,
    body: { loginId: { email }, password, ...extra },
  });
}

/** The developer mailbox's messages to `to`, newest first, read with the admin key. */
export async function mailbox(platform: TestPlatform, to: string): Promise<Array<Record<string, any>>> {
  const { status, body } = await call(
    platform,
    'GET',
    `/api/cartwheel/mailbox?to=${encodeURIComponent(to)}`,
    {
      auth: platform.adminApiKey,
    },
  );
  if (status !== 200) throw new Error(`mailbox answered ${status}`);
  return body.messages;
}

export async function latestCode(platform: TestPlatform, to: string): Promise<string> {
  const [message] = (await mailbox(platform, to)).filter((m) => m.kind === 'EMAIL_VERIFICATION_CODE');
  const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
  if (!code) throw new Error(`no verification code mailed to ${to}`);
  return code;
}

/** What the later authorization endpoint will do with a session token: trade it for member tokens. */
export function memberTokens(platform: TestPlatform, sessionToken: string, clientId = TEST_CLIENT_ID) {
  return platform.services.identity.issueMemberTokensForSession(sessionToken, clientId);
}

/** Solves a captcha challenge the way a browser widget would, by trying numbers. */
export function solveCaptcha(challenge: Record<string, any>): string {
  for (let number = 0; number <= challenge.maxnumber; number += 1) {
    const hash = createHash('sha256').update(`${challenge.salt}${number}`).digest('hex');
    if (hash === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(
        JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }),
      ).toString('base64');
    }
  }
  throw new Error('captcha has no solution');
}

let counter = 0;
/** A fresh address per test, so tests on one platform never meet. */
export const uniqueEmail = (label: string) =>
  `${label}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;
