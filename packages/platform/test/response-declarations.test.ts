import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileValidator } from '../src/http/input.ts';
import { compileSerializer } from '../src/http/serializers.ts';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * One contract per wire shape (issue 37): every route that answers JSON declares its success answer's
 * shape as a response schema (`schema.response[200]` or another 2xx), which Fastify compiles into its
 * serializer and which documents the answer. Error answers are left undeclared (the error handler,
 * http/errors.ts, writes the wire's error form for all of them alike), but for the bodies a route writes
 * itself: the OAuth endpoints' RFC 6749 refusals and a missing image's 404.
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
      // the built apps' files (the storefront's, the back office's, the hosted pages'), each a route of its own
      .filter((route) => !APP_FILE.test(route.url))
      .map((route) => `${route.method} ${route.url}`)
      .filter((route) => !NOT_JSON.has(route));
    expect(undeclared).toEqual([]);
  });

  // The platform compiles a route's schemas at its first call (http/serializers.ts): a schema that
  // cannot compile would fail that call, not the start, so every one is compiled here.
  it("every route's input checks and answer serializers compile", async () => {
    const failures: string[] = [];
    let compiled = 0;
    for (const route of await platform.declaredRoutes()) {
      const { response, ...declared } = route.schema ?? {};
      // what Fastify checks: a static file route's schema says only `hide`
      const input = Object.entries(declared).filter(([part]) => INPUT_PARTS.has(part));
      const parts = input.map(
        ([part, schema]) =>
          [
            part,
            () =>
              compileValidator({
                schema: schema as TSchema,
                method: route.method,
                url: route.url,
                httpPart: part,
              }),
          ] as const,
      );
      const answers = Object.entries(response ?? {}).map(
        ([httpStatus, schema]) =>
          [
            httpStatus,
            () => compileSerializer({ schema, method: route.method, url: route.url, httpStatus }),
          ] as const,
      );
      for (const [what, compile] of [...parts, ...answers]) {
        try {
          compile();
          compiled++;
        } catch (error) {
          failures.push(`${route.method} ${route.url} ${what}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(compiled).toBeGreaterThan(200);
    // every route's schemas, compiled one after another: some 20 s alone, longer beside other files
  }, 90_000);

  it('the routes named as answering no JSON exist', async () => {
    const routes = new Set((await platform.declaredRoutes()).map((route) => `${route.method} ${route.url}`));
    expect([...NOT_JSON].filter((route) => !routes.has(route))).toEqual([]);
  });
});

/** The parts of a request a route's schema may check. */
const INPUT_PARTS = new Set(['body', 'querystring', 'params', 'headers']);

/** A file of a built app (`/admin/assets/index-1a2b.js`), served as it is. */
const APP_FILE = /^\/[^:*]*\.(html|js|css|svg|png|ico|webmanifest|txt|map|woff2?)$/;

/** Routes whose answer is a page, a file or a redirect, not a JSON document. */
const NOT_JSON = new Set<string>([
  'GET /api/cartwheel/orders/export.csv',
  // a logout only redirects (302) or refuses in the OAuth form (its 400 is declared)
  'GET /oauth2/logout',
  'GET /_api/iam/authentication/v1/logout',
  // a checkout template's buy link only redirects (302) to the hosted checkout page
  'GET /ecom/v1/checkout-templates/:checkoutTemplateId/create-and-redirect-to-checkout',
  // the recovery email's links: one redirects to the hosted checkout page, one answers a short page
  'GET /ecom/v1/abandoned-checkout/:abandonedCheckoutId/redirect-to-checkout',
  'GET /api/cartwheel/abandoned-checkouts/:abandonedCheckoutId/unsubscribe',
]);
