import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * One contract per wire shape (issue 37): every route that answers JSON declares its success answer's
 * shape as a response schema (`schema.response[200]` or another 2xx), which Fastify compiles into its
 * serializer and which documents the answer. Error answers are left undeclared on every route: the
 * error handler (http/errors.ts) writes the wire's error form for all of them alike.
 */
describe('response declarations', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: false });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('every JSON route declares the shape of its success answer', async () => {
    const routes = await platform.declaredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const undeclared = routes
      .filter(
        (route) => !Object.keys(route.schema?.response ?? {}).some((status) => /^2(\d\d|xx)$/.test(status)),
      )
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => !NOT_JSON.has(route))
      .filter((route) => !NOT_YET_DECLARED.some((prefix) => route.split(' ')[1]!.startsWith(prefix)));
    expect(undeclared).toEqual([]);
  });

  it('the routes named as answering no JSON exist', async () => {
    const routes = new Set((await platform.declaredRoutes()).map((route) => `${route.method} ${route.url}`));
    expect([...NOT_JSON].filter((route) => !routes.has(route))).toEqual([]);
  });
});

/** Routes whose answer is a page, a file or a redirect, not a JSON document. */
const NOT_JSON = new Set<string>(['GET /api/cartwheel/orders/export.csv']);

/**
 * Domains whose routes get their response schemas in a branch of their own (issue 37, responses-b):
 * emptied when it is merged.
 */
const NOT_YET_DECLARED: string[] = [
  '/api/cartwheel/config',
  '/oauth2/',
  '/_api/iam/',
  '/_api/redirects-api/',
  '/api/cartwheel/oauth-clients',
  '/stores-reader/',
  '/v2/collections',
  '/stores/v1/',
  '/api/cartwheel/products/',
  '/api/cartwheel/media',
  '/media/',
  '/members/v1/',
  '/api/cartwheel/identity-settings',
  '/api/cartwheel/captcha',
  '/api/cartwheel/mailbox',
  '/api/cartwheel/store-settings',
  '/ecom/v1/checkout-settings',
  '/api/cartwheel/tax-regions',
  '/api/cartwheel/shipping-regions',
  '/api/cartwheel/pickup-locations',
  '/api/cartwheel/coupons',
  '/ecom/v1/discount-rules',
  '/api/cartwheel/permissions',
  '/api/cartwheel/staff',
  '/api/cartwheel/api-keys',
  '/api/cartwheel/audit-log',
];
