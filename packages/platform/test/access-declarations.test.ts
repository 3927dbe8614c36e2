import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * One access declaration (issue 21): every route the platform registers says who may call it in its
 * `config.access` (`CALLERS`, http/app.ts). A route that says nothing is still refused to everyone but
 * the admin key, but it fails here: a new route must say whom it is for.
 */
describe('access declarations', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ seedDemo: false });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('every route declares who may call it', async () => {
    const routes = await platform.declaredRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const undeclared = routes
      .filter((route) => !route.declared)
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });

  it('staff and key routes name the permission they need; admin-key-only routes are few and named', async () => {
    const routes = await platform.declaredRoutes();
    const adminKeyOnly = routes
      .filter((route) => route.access === 'admin')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    // signing a member on without a password and the OAuth client registry stay with the environment's
    // key: each is a way into every member's account (the developer mailbox is the owner's too)
    expect(adminKeyOnly).toEqual(
      [
        'GET /api/cartwheel/oauth-clients',
        'GET /api/cartwheel/oauth-clients/:id',
        'PATCH /api/cartwheel/oauth-clients/:id',
        'POST /_api/iam/authentication/v2/sign-on',
        'POST /api/cartwheel/oauth-clients',
      ].sort(),
    );
    const byRoute = new Map(routes.map((route) => [`${route.method} ${route.url}`, route.access]));
    expect(byRoute.get('POST /stores/v1/products')).toEqual({
      callers: 'admin',
      requires: 'products.manage',
    });
    expect(byRoute.get('GET /ecom/v1/orders/:id')).toEqual({ callers: 'visitor', requires: 'orders.read' });
    expect(byRoute.get('GET /api/cartwheel/audit-log')).toEqual({ callers: 'admin', requires: 'OWNER' });
    expect(byRoute.get('GET /api/cartwheel/mailbox')).toEqual({ callers: 'admin', requires: 'OWNER' });
  });
});
