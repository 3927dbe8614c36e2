import { encodeStructuredParam } from '@cartwheel/sdk/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { CAPTCHA_AFTER_ADDRESS_FAILURES } from '../src/identity/throttle.ts';
import { startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

describe('the platform speaks the wire on every answer', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  it('answers an unknown call with a 404 in the wire error form and a request id', async () => {
    const response = await fetch(`${platform.url}/no/such/call`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await response.json()) as any;
    expect(body.message).toContain('GET /no/such/call');
    expect(body.details.applicationError.code).toBe('NOT_FOUND');
  });

  it('refuses a malformed .r parameter with a field violation', async () => {
    const response = await fetch(`${platform.url}/api/cartwheel/config?.r=%%%`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as any;
    expect(body.details.validationError.fieldViolations[0].field).toBe('.r');
  });

  it('decodes a well-formed .r parameter before the route sees it', async () => {
    const response = await fetch(
      `${platform.url}/api/cartwheel/config?.r=${encodeStructuredParam({ a: 1 })}`,
    );
    expect(response.status).toBe(200);
  });

  it('refuses a body that is not JSON with a field violation, and accepts an empty JSON body', async () => {
    const bad = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).details.validationError.fieldViolations[0].field).toBe('body');

    const empty = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as any).details.validationError.fieldViolations[0].field).toBe('grantType');
  });

  it('tells the bundled apps the demo client id and store name', async () => {
    const response = await fetch(`${platform.url}/api/cartwheel/config`);
    expect(await response.json()).toEqual({
      clientId: TEST_CLIENT_ID,
      storeName: 'Cartwheel Demo Store',
      captcha: expect.objectContaining({ required: false, challengeUrl: '/api/cartwheel/captcha/challenge' }),
    });
  });
});

describe('the platform serves its three apps', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  const page = async (pathname: string) => {
    const response = await fetch(`${platform.url}${pathname}`, { headers: { accept: 'text/html' } });
    return { status: response.status, html: await response.text() };
  };

  it.each([
    ['/', '<title>Cartwheel storefront</title>'],
    ['/collections/t-shirts?page=2', '<title>Cartwheel storefront</title>'],
    ['/admin', '<title>Cartwheel back office</title>'],
    ['/admin/orders/123', '<title>Cartwheel back office</title>'],
    ['/auth/login', '/auth/assets/'],
  ])('answers a page request for %s with the right app', async (pathname, marker) => {
    const { status, html } = await page(pathname);
    expect(status).toBe(200);
    expect(html).toContain(marker);
  });
});

describe('a request that does not ask for HTML', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(() => platform?.stop());

  it.each([
    ['/', '<title>Cartwheel storefront</title>'],
    ['/admin', '<title>Cartwheel back office</title>'],
  ])('a plain GET %s (as `curl` sends it) answers the app, not a 404', async (pathname, marker) => {
    const plain: Record<string, string>[] = [{}, { accept: '*/*' }];
    for (const headers of plain) {
      const response = await fetch(`${platform.url}${pathname}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain(marker);
    }
  });

  it('any other unknown path without text/html is an API call: 404 JSON naming it', async () => {
    const response = await fetch(`${platform.url}/products`, { headers: { accept: '*/*' } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toBe('no such call: GET /products');
  });
});

describe('behind a load balancer', () => {
  it('reads configuration for which proxies to believe', () => {
    expect(configFromEnv({}).trustProxy).toBe(false);
    expect(configFromEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(configFromEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configFromEnv({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
  });

  it("counts failed logins by the shopper's address from X-Forwarded-For when told to trust the proxy", async () => {
    const platform = await startTestPlatform({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const { body: tokens } = await (
        await fetch(`${platform.url}/oauth2/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: TEST_CLIENT_ID, grantType: 'anonymous' }),
        })
      )
        .json()
        .then((body) => ({ body: body as { access_token: string } }));
      const loginFrom = (address: string, attempt: number) =>
        fetch(`${platform.url}/_api/iam/authentication/v2/login`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: tokens.access_token,
            'x-forwarded-for': address,
          },
          body: JSON.stringify({
            loginId: { email: `nobody-${attempt}@example.com` },
            password: 'not the password',
          }),
        });
      const failures = CAPTCHA_AFTER_ADDRESS_FAILURES;
      for (let attempt = 0; attempt < failures; attempt++) await loginFrom('203.0.113.9', attempt);
      // past its failures, that address must solve a captcha (-19971) before a password is checked
      const guessing = await loginFrom('203.0.113.9', failures);
      expect(guessing.status).toBe(400);
      expect(((await guessing.json()) as any).details.applicationError.code).toBe('-19971');
      // another shopper behind the same load balancer is not asked for it: their unknown email is heard
      const other = await loginFrom('198.51.100.7', failures + 1);
      expect(((await other.json()) as any).details.applicationError.code).toBe('-19999');
    } finally {
      await platform.stop();
    }
  });
});
