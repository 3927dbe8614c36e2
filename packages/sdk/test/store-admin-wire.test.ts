import { describe, expect, it } from 'vitest';
import {
  ApiKeyStrategy,
  cartwheelMedia,
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

  it("replays an endpoint's delivery, everything since a time, and reads its log by status", async () => {
    const { client, calls } = recorder({ delivery: { id: 'd/1' }, replayed: 3, deliveries: [] });
    expect(await client.storeAdmin.replayWebhookDelivery('w1', 'd/1')).toEqual({ id: 'd/1' });
    expect(await client.storeAdmin.replayWebhookDeliveriesSince('w1', '2026-12-07T09:00:00.000Z')).toBe(3);
    expect(await client.storeAdmin.listWebhookDeliveries('w1', { status: 'DEAD', limit: 10 })).toEqual([]);
    expect(calls.map((call) => [call.method, call.url.pathname, call.url.search, call.body])).toEqual([
      ['POST', '/api/cartwheel/webhooks/w1/deliveries/d%2F1/replay', '', {}],
      ['POST', '/api/cartwheel/webhooks/w1/replay', '', { since: '2026-12-07T09:00:00.000Z' }],
      ['GET', '/api/cartwheel/webhooks/w1/deliveries', '?status=DEAD&limit=10', undefined],
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

  it('switches the staff second-step requirement, sending only the fields given, and unwraps the settings', async () => {
    const settings = {
      requireEmailVerification: false,
      requireOwnerApproval: false,
      captcha: 'off',
      requireStaffSecondStep: true,
    };
    const { client, calls } = recorder({ settings });
    expect(await client.storeAdmin.updateIdentitySettings({ requireStaffSecondStep: true })).toEqual(
      settings,
    );
    expect(await client.storeAdmin.getIdentitySettings()).toEqual(settings);
    expect(calls.map((call) => [call.method, call.url.pathname, call.body])).toEqual([
      ['PATCH', '/api/cartwheel/identity-settings', { settings: { requireStaffSecondStep: true } }],
      ['GET', '/api/cartwheel/identity-settings', undefined],
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

  it('saves the checkout settings at the hosted path: the logo with its size, the alignment on the header', async () => {
    const header = {
      logo: { image: { url: 'https://cdn.example.com/logo.png' }, size: 'LARGE' },
      alignment: 'CENTER',
    } as const;
    const answer = { status: 'ACTIVE', checkoutPolicies: {}, checkoutFields: {}, checkoutBrand: { header } };
    const { client, calls } = recorder({ checkoutSettings: answer });
    expect(await client.storeAdmin.updateCheckoutSettings({ checkoutBrand: { header } })).toEqual(answer);
    await client.storeAdmin.updateCheckoutSettings({ checkoutBrand: { header: { logo: null } } });
    expect(calls.map((call) => [call.method, call.url.pathname, call.body])).toEqual([
      ['PATCH', '/ecom/v1/checkout-settings', { checkoutSettings: { checkoutBrand: { header } } }],
      [
        'PATCH',
        '/ecom/v1/checkout-settings',
        { checkoutSettings: { checkoutBrand: { header: { logo: null } } } },
      ],
    ]);
  });

  it('lists every discount rule, following the query cursor page after page', async () => {
    const pages = [
      { discountRules: [{ id: 'r1' }], pagingMetadata: { cursors: { next: '100' }, hasNext: true } },
      { discountRules: [{ id: 'r2' }], pagingMetadata: { cursors: { next: null }, hasNext: false } },
    ];
    const bodies: unknown[] = [];
    const client = createClient({
      host: 'http://localhost:4000',
      auth: ApiKeyStrategy({ apiKey: 'cw_key_test' }),
      modules: { storeAdmin },
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        expect(new URL(String(input)).pathname).toBe('/ecom/v1/discount-rules/query');
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(JSON.stringify(pages[bodies.length - 1]), {
          headers: { 'Content-Type': 'application/json' },
        });
      }) as typeof globalThis.fetch,
    });
    expect((await client.storeAdmin.listDiscountRules()).map((rule) => rule.id)).toEqual(['r1', 'r2']);
    expect(bodies).toEqual([
      { query: { cursorPaging: { limit: 100 } } },
      { query: { cursorPaging: { limit: 100, cursor: '100' } } },
    ]);
  });

  it('changes a discount rule, a pickup location and a tax region at their record paths', async () => {
    const { client, calls } = recorder({ discountRule: {}, pickupLocation: {}, taxRegion: {} });
    await client.storeAdmin.updateDiscountRule('r/1', { name: 'Sale' });
    await client.storeAdmin.updatePickupLocation('p1', { title: 'Shop' });
    await client.storeAdmin.updateTaxRegion('t1', { rate: '0.05' });
    await client.storeAdmin.deleteDiscountRule('r1');
    expect(calls.map((call) => [call.method, call.url.pathname, call.body])).toEqual([
      ['PATCH', '/ecom/v1/discount-rules/r%2F1', { discountRule: { name: 'Sale' } }],
      ['PATCH', '/api/cartwheel/pickup-locations/p1', { pickupLocation: { title: 'Shop' } }],
      ['PATCH', '/api/cartwheel/tax-regions/t1', { taxRegion: { rate: '0.05' } }],
      ['DELETE', '/ecom/v1/discount-rules/r1', undefined],
    ]);
  });

  it("sends a product's images in their new order to Cartwheel's media order call", async () => {
    const calls: Array<[string, string, unknown]> = [];
    const client = createClient({
      host: 'http://localhost:4000',
      auth: ApiKeyStrategy({ apiKey: 'cw_key_test' }),
      modules: { cartwheelMedia },
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        calls.push([init?.method ?? 'GET', new URL(String(input)).pathname, JSON.parse(String(init?.body))]);
        return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
      }) as typeof globalThis.fetch,
    });
    await client.cartwheelMedia.reorderProductMedia('prod 1', ['m2', 'm1']);
    expect(calls).toEqual([
      ['POST', '/api/cartwheel/products/prod%201/media/order', { mediaIds: ['m2', 'm1'] }],
    ]);
  });
});
