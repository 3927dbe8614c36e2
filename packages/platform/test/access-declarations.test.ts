import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../src/http/app.ts';
import { OPERATION_TABLES } from '../src/operations.ts';
import { type OperationTable, operationTable } from '../src/shared/access.ts';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * What is wrong with the routes' operations, one line each: a route that serves no operation, or one
 * no table declares, or whose access is not its operation's; an operation two tables declare; an
 * operation no route serves (a stale entry), but those `mayBeUnserved` names.
 */
function operationProblems(
  routes: Pick<DeclaredRoute, 'method' | 'url' | 'access' | 'operation'>[],
  tables: readonly OperationTable[],
  mayBeUnserved: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  const declared = new Map<string, unknown>();
  for (const entry of tables.flatMap((table) => Object.values(table))) {
    if (declared.has(entry.operation)) problems.push(`${entry.operation} is declared twice`);
    declared.set(entry.operation, entry.access);
  }
  const served = new Set<string>();
  for (const route of routes) {
    const name = `${route.method} ${route.url}`;
    if (route.operation === undefined) {
      problems.push(`${name} serves no operation`);
      continue;
    }
    served.add(route.operation);
    if (!declared.has(route.operation))
      problems.push(`${name} serves ${route.operation}, which no table declares`);
    else if (JSON.stringify(declared.get(route.operation)) !== JSON.stringify(route.access))
      problems.push(`${name} is not called as its operation ${route.operation} says`);
  }
  for (const operation of declared.keys())
    if (!served.has(operation) && !mayBeUnserved.includes(operation))
      problems.push(`no route serves ${operation}`);
  return problems;
}

/**
 * One access declaration (issue 21), kept with the operation (issue 37): every route the platform
 * registers serves an operation of its domain's table (`operations-access.ts`) and takes that entry
 * as its `config`, which says who may call it. A route that says nothing is still refused to everyone
 * but the admin key, but it fails here: a new route must say which operation it serves.
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

  it("every route serves an operation of a domain's table, called as the table says", async () => {
    // the apps' files are routes only where the apps are built (as in CI)
    const routes = await platform.declaredRoutes();
    expect(operationProblems(routes, OPERATION_TABLES, ['platform.getAppFile'])).toEqual([]);
  });

  it('finds a route without an operation, a name two tables declare and an access that differs', () => {
    const orders = operationTable('orders', { cancelOrder: { callers: 'admin', requires: 'orders.manage' } });
    const copy = operationTable('orders', { cancelOrder: 'public' });
    const route = { method: 'POST', url: '/orders/:id/cancel', ...orders.cancelOrder };
    expect(operationProblems([route], [orders])).toEqual([]);
    expect(operationProblems([{ ...route, operation: undefined }], [orders])).toEqual([
      'POST /orders/:id/cancel serves no operation',
      'no route serves orders.cancelOrder',
    ]);
    expect(operationProblems([route], [orders, copy])).toEqual([
      'orders.cancelOrder is declared twice',
      'POST /orders/:id/cancel is not called as its operation orders.cancelOrder says',
    ]);
    expect(operationProblems([{ ...route, access: 'admin' }], [orders])).toEqual([
      'POST /orders/:id/cancel is not called as its operation orders.cancelOrder says',
    ]);
    expect(operationProblems([{ ...route, operation: 'orders.cancel' }], [orders])).toEqual([
      'POST /orders/:id/cancel serves orders.cancel, which no table declares',
      'no route serves orders.cancelOrder',
    ]);
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

  it('routes that serve one operation share its name: hosted and own paths, GET and POST forms', async () => {
    const operationOf = new Map(
      (await platform.declaredRoutes()).map((route) => [`${route.method} ${route.url}`, route.operation]),
    );
    expect(operationOf.get('POST /ecom/v1/orders/:id/cancel')).toBe('orders.cancelOrder');
    expect(operationOf.get('POST /ecom/v1/order-billing/capture-authorized-payments')).toBe(
      'billing.captureAuthorizedPayments',
    );
    expect(
      operationOf.get('POST /ecom/v1/payments-collector/orders/:ecomOrderId/capture-authorized-payments'),
    ).toBe('billing.captureAuthorizedPayments');
    expect(operationOf.get('GET /stores-reader/v1/products/query')).toBe('catalog.queryProducts');
    expect(operationOf.get('POST /stores-reader/v1/products/query-platformized')).toBe(
      'catalog.queryProducts',
    );
    expect(operationOf.get('GET /v2/collections/:id')).toBe('catalog.getCollection');
    expect(operationOf.get('GET /stores-reader/v1/collections/:id')).toBe('catalog.getCollection');
  });
});
