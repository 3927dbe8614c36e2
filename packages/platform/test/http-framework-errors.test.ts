import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, type HttpApp } from '../src/http/app.ts';
import { PublicLinks } from '../src/shared/public-links.ts';
import { startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

interface Answer {
  status: number;
  requestId: string | null;
  text: string;
  body: any;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return {
    status: response.status,
    requestId: response.headers.get('x-request-id'),
    text,
    body: JSON.parse(text),
  };
}

/** The wire's error form, and nothing of the library's: no `FST_` code, no `error`/`statusCode` keys. */
function expectWireForm(answer: Answer) {
  expect(answer.text).not.toContain('FST_');
  expect(Object.keys(answer.body).sort()).toEqual(['details', 'message']);
  expect(typeof answer.body.message).toBe('string');
  expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
}

describe('errors the framework raises answer in the wire form', () => {
  let platform: TestPlatform;
  let accessToken: string;
  beforeAll(async () => {
    platform = await startTestPlatform();
    const tokens = await fetch(`${platform.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: TEST_CLIENT_ID, grantType: 'anonymous' }),
    });
    accessToken = ((await tokens.json()) as { access_token: string }).access_token;
  });
  afterAll(() => platform?.stop());

  const addToCart = (contentType: string, body: string) =>
    fetch(`${platform.url}/ecom/v1/carts/current/add-to-cart`, {
      method: 'POST',
      headers: { 'content-type': contentType, authorization: accessToken },
      body,
    }).then(answerOf);

  it.each(['%ff', '%', 'a%zzb'])(
    'answers a path id the router cannot decode (%s) with 400 INVALID_ARGUMENT, not echoing the path',
    async (id) => {
      const answer = await fetch(`${platform.url}/ecom/v1/orders/${id}`, {
        headers: { authorization: platform.adminApiKey },
      }).then(answerOf);
      expect(answer.status).toBe(400);
      expectWireForm(answer);
      expect(answer.body.details.applicationError).toEqual({
        code: 'MALFORMED_URL',
        description: expect.stringContaining('not a valid URL'),
      });
      expect(answer.text).not.toContain(`orders/${id}`);
    },
  );

  it('answers a path id over the router limit with 400 in the wire form, as a long id within it is', async () => {
    const answer = await fetch(`${platform.url}/ecom/v1/orders/${'x'.repeat(600)}`, {
      headers: { authorization: platform.adminApiKey },
    }).then(answerOf);
    expect(answer.status).toBe(400);
    expectWireForm(answer);
    expect(answer.body.details.applicationError.code).toBe('PATH_PARAMETER_TOO_LONG');
    expect(answer.text).not.toContain('x'.repeat(100));

    // within the router's limit the route's schema refuses the same mistake with the same status
    const within = await fetch(`${platform.url}/ecom/v1/orders/${'x'.repeat(300)}`, {
      headers: { authorization: platform.adminApiKey },
    }).then(answerOf);
    expect(within.status).toBe(400);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'quantity=1'],
    [
      'multipart/form-data; boundary=b',
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n',
    ],
    ['application/vnd.api+json', '{"lineItems":[]}'],
  ])('answers a %s body to add-to-cart with 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, body) => {
    const answer = await addToCart(contentType, body);
    expect(answer.status).toBe(415);
    expectWireForm(answer);
    expect(answer.body.details.applicationError).toEqual({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      description: expect.stringContaining('application/json'),
    });
  });

  it('answers a body over the limit with 413 BODY_TOO_LARGE', async () => {
    const answer = await addToCart('application/json', `"${'x'.repeat(10 * 1024 * 1024)}"`);
    expect(answer.status).toBe(413);
    expectWireForm(answer);
    expect(answer.body.details.applicationError.code).toBe('BODY_TOO_LARGE');
  });

  it('still answers an invalid JSON body with 400 and a field violation on the body (its own parser)', async () => {
    const answer = await addToCart('application/json', '{"lineItems": [');
    expect(answer.status).toBe(400);
    expectWireForm(answer);
    expect(answer.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'body', violatedRule: 'FORMAT' }),
    ]);
  });
});

/**
 * The HTTP shell alone, with a route that parses JSON with Fastify's own parser: its refusals (which the
 * platform's parser never raises) must leave in the wire form too.
 */
describe("the HTTP shell answers Fastify's own refusals in the wire form", () => {
  let app: HttpApp;
  let url: string;
  beforeAll(async () => {
    app = createHttpApp({
      logLevel: 'silent',
      resolvePrincipal: async () => ({ kind: 'anonymous' }),
      links: new PublicLinks('http://shop.test'),
    });
    await app.register(async (child) => {
      child.removeContentTypeParser('application/json');
      child.addContentTypeParser(
        'application/json',
        { parseAs: 'string' },
        child.getDefaultJsonParser('error', 'error'),
      );
      child.post('/strict', { config: { access: 'public' } }, async () => ({}));
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  it.each([
    ['invalid', '{not json'],
    ['empty', ''],
  ])('answers an %s JSON body with 400 and our field violation, not FST_ERR_CTP_*', async (_kind, body) => {
    const answer = await fetch(`${url}/strict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }).then(answerOf);
    expect(answer.status).toBe(400);
    expectWireForm(answer);
    expect(answer.body.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'body', description: 'is not valid JSON', violatedRule: 'FORMAT' }),
    ]);
  });
});
