import { describe, expect, it } from 'vitest';
import {
  ApiKeyStrategy,
  couponWindowStatus,
  createClient,
  storeAdmin,
  ValidationError,
} from '../src/index.ts';

/**
 * `storeAdmin`, Cartwheel's own admin calls: each method's method, path, query and body, read off what
 * reaches a recording fetch, and the platform's answer unwrapped.
 */
function recorder(answer: unknown, status = 200) {
  const calls: Array<{ method: string; url: URL; body: unknown; auth: string | null }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({
      method: init?.method ?? 'GET',
      url: new URL(String(input)),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      auth: headers.get('authorization'),
    });
    return new Response(JSON.stringify(answer), { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const client = createClient({
    host: 'http://localhost:4000',
    auth: ApiKeyStrategy({ apiKey: 'cw_key_test' }),
    modules: { storeAdmin },
    fetch,
  });
  return { client, calls };
}

describe('storeAdmin', () => {
  it('creates an API key with its name, permissions and expiry, and answers the key shown once', async () => {
    const { client, calls } = recorder({ apiKey: { id: 'k1', name: 'App' }, key: 'cw_key_abc' });
    const answer = await client.storeAdmin.createApiKey({
      name: 'App',
      permissions: ['orders.read'],
      expiresDate: '2030-01-01T00:00:00.000Z',
    });
    expect(answer.key).toBe('cw_key_abc');
    expect(calls).toEqual([
      {
        method: 'POST',
        url: new URL('http://localhost:4000/api/cartwheel/api-keys'),
        body: {
          apiKey: { name: 'App', permissions: ['orders.read'], expiresDate: '2030-01-01T00:00:00.000Z' },
        },
        auth: 'cw_key_test',
      },
    ]);
  });

  it('revokes a key, escaping its id as one path segment', async () => {
    const { client, calls } = recorder({ apiKey: { id: 'a/b' } });
    await client.storeAdmin.revokeApiKey('a/b');
    expect([calls[0]?.method, calls[0]?.url.pathname]).toEqual([
      'POST',
      '/api/cartwheel/api-keys/a%2Fb/revoke',
    ]);
  });

  it('pages the audit log with limit and before, leaving out what is not given', async () => {
    const { client, calls } = recorder({ entries: [], nextCursor: null });
    await client.storeAdmin.listAuditLog({ limit: 20, before: 'e9' });
    await client.storeAdmin.listAuditLog();
    expect(calls.map((call) => call.url.search)).toEqual(['?limit=20&before=e9', '']);
  });

  it('sets the capture mode and unwraps the answer', async () => {
    const { client, calls } = recorder({ paymentSettings: { capture: 'AUTHORIZE_ONLY' } });
    expect(await client.storeAdmin.updatePaymentSettings({ capture: 'AUTHORIZE_ONLY' })).toEqual({
      capture: 'AUTHORIZE_ONLY',
    });
    expect([calls[0]?.method, calls[0]?.url.pathname, calls[0]?.body]).toEqual([
      'PATCH',
      '/api/cartwheel/payment-settings',
      { paymentSettings: { capture: 'AUTHORIZE_ONLY' } },
    ]);
  });

  it("throws the platform's field violations as a ValidationError", async () => {
    const { client } = recorder(
      {
        message: 'invalid',
        details: {
          validationError: { fieldViolations: [{ field: 'role.name', description: 'is required' }] },
        },
      },
      400,
    );
    const refused = await client.storeAdmin
      .createRole({ name: ' ', permissions: [] })
      .catch((error) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.fieldViolations).toEqual([expect.objectContaining({ field: 'role.name' })]);
  });

  it('tells a coupon LIVE, PENDING or EXPIRED as the platform does', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(couponWindowStatus({}, now)).toBe('LIVE');
    expect(couponWindowStatus({ startTime: '2026-07-01T00:00:00Z' }, now)).toBe('PENDING');
    expect(couponWindowStatus({ expirationTime: '2026-06-01T00:00:00Z' }, now)).toBe('EXPIRED');
  });
});
