import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ClientError,
  createTransport,
  emptyTokens,
  everyHost,
  OAuthStrategy,
  type RequestSpec,
} from '../src/index.ts';
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from './support/loopback-server.ts';

const server: LoopbackServer = await startLoopbackServer();
afterAll(() => server.close());

let issued = 0;
/** A token endpoint that hands out numbered tokens and refuses refresh tokens marked "stale". */
function tokenEndpoint(request: RecordedRequest) {
  const body = request.body as Record<string, string>;
  if (body.grantType === 'refresh_token' && body.refreshToken?.startsWith('stale'))
    return { status: 401, body: {} };
  issued++;
  return { body: { access_token: `access-${issued}`, expires_in: 3600, refresh_token: `refresh-${issued}` } };
}

beforeEach(() => {
  issued = 0;
  server.requests.length = 0;
  server.respond = (request) => (request.path === '/oauth2/token' ? tokenEndpoint(request) : { body: {} });
});

const call: RequestSpec = {
  method: 'GET',
  path: '/v1/carts/current',
  mapping: everyHost(['/v1/carts', '/ecom/v1/carts']),
  trace: { package: '@cartwheel/sdk', method: 'test', entity: 'cart' },
};
const tokenRequests = () => server.requests.filter((r) => r.path === '/oauth2/token');

describe('visitor tokens (point 4)', () => {
  it('starts with empty tokens of role none', () => {
    const auth = OAuthStrategy({ clientId: 'client-1' });
    expect(auth.getTokens()).toEqual(emptyTokens());
    expect(auth.getTokens().refreshToken.role).toBe('none');
    expect(auth.loggedIn()).toBe(false);
  });

  it('makes exactly one token request for 50 calls started at once with no tokens', async () => {
    const auth = OAuthStrategy({ clientId: 'client-1' });
    const transport = createTransport({ host: server.url, auth });
    await Promise.all(Array.from({ length: 50 }, () => transport.request(call)));
    expect(tokenRequests()).toHaveLength(1);
    expect(tokenRequests()[0]?.body).toEqual({ clientId: 'client-1', grantType: 'anonymous' });
    const apiCalls = server.requests.filter((r) => r.path !== '/oauth2/token');
    expect(apiCalls).toHaveLength(50);
    expect(new Set(apiCalls.map((r) => r.headers.authorization))).toEqual(new Set(['access-1']));
  });

  it('stores the access token expiry as now plus expires_in, in epoch seconds, with role visitor', async () => {
    const auth = OAuthStrategy({ clientId: 'client-1' });
    const before = Math.floor(Date.now() / 1000);
    await createTransport({ host: server.url, auth }).request(call);
    const tokens = auth.getTokens();
    expect(tokens.accessToken.expiresAt).toBeGreaterThanOrEqual(before + 3600);
    expect(tokens.accessToken.expiresAt).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
    expect(tokens.refreshToken).toEqual({ value: 'refresh-1', role: 'visitor' });
  });

  it('renews an expired access token with the refresh token first', async () => {
    const auth = OAuthStrategy({
      clientId: 'client-1',
      tokens: {
        accessToken: { value: 'old', expiresAt: 1 },
        refreshToken: { value: 'good-refresh', role: 'visitor' },
      },
    });
    await createTransport({ host: server.url, auth }).request(call);
    expect(tokenRequests().map((r) => r.body)).toEqual([
      { clientId: 'client-1', grantType: 'refresh_token', refreshToken: 'good-refresh' },
    ]);
    expect(auth.getTokens().accessToken.value).toBe('access-1');
  });

  it('falls back to anonymous visitor tokens when the refresh token is refused', async () => {
    const auth = OAuthStrategy({
      clientId: 'client-1',
      tokens: {
        accessToken: { value: '', expiresAt: 0 },
        refreshToken: { value: 'stale-refresh', role: 'visitor' },
      },
    });
    await createTransport({ host: server.url, auth }).request(call);
    expect(tokenRequests().map((r) => (r.body as { grantType: string }).grantType)).toEqual([
      'refresh_token',
      'anonymous',
    ]);
    expect(auth.getTokens().refreshToken).toEqual({ value: 'refresh-1', role: 'visitor' });
  });

  it('renews once and tries again when the platform no longer honours the access token', async () => {
    const auth = OAuthStrategy({
      clientId: 'client-1',
      tokens: {
        accessToken: { value: 'revoked', expiresAt: 9_999_999_999 },
        refreshToken: { value: 'r0', role: 'visitor' },
      },
    });
    server.respond = (request) => {
      if (request.path === '/oauth2/token') return tokenEndpoint(request);
      return request.headers.authorization === 'revoked' ? { status: 401, body: {} } : { body: { ok: true } };
    };
    await expect(createTransport({ host: server.url, auth }).request(call)).resolves.toEqual({ ok: true });
    expect(tokenRequests()).toHaveLength(1);
  });

  it("fails with 'something went wrong' when the token endpoint answers anything but 200", async () => {
    server.respond = () => ({ status: 500, body: { message: 'down' } });
    const auth = OAuthStrategy({ clientId: 'client-1' });
    const failure = createTransport({ host: server.url, auth }).request(call);
    await expect(failure).rejects.toBeInstanceOf(ClientError);
    await expect(failure).rejects.toThrow(/^something went wrong$/);
  });
});
