import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../src/http/app.ts';
import { PERMISSIONS, type Requirement } from '../src/shared/permissions.ts';
import { type Access, levelOf, requirementOf } from '../src/shared/principal.ts';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { type Answer, call, visitorToken } from './catalog-http.ts';
import {
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  pageCalls,
  placeOrder,
  shipToUs,
  stockedProduct,
} from './checkout-support.ts';
import {
  allBut,
  as,
  createKey,
  createRole,
  newMember,
  OWNER_ENV,
  ownerToken,
  STAFF_PASSWORD,
  signIn,
  staffMember,
} from './staff-support.ts';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The access matrix, every cell (issue 21): every route the platform registers, called by every kind
 * of caller: nobody, a made-up token, a visitor, member A (on member B's data), staff whose role holds
 * exactly the route's permission and staff whose role holds every other one, the owner, an API key
 * with the permission and one without, an expired and a revoked key, the admin key. What each cell
 * answers comes from the caller levels below (anonymous < visitor < member < staff and keys by
 * permission < the admin key) over the route's declaration, and the sensitive routes' declarations are
 * stated here too, so a wrong declaration fails as surely as a check that does not enforce it. Every
 * refused call answers 401 (no one, or a credential naming no one) or 403 (someone without the right)
 * in the wire's error form, and the refused calls together, with member A's calls on B's data, leave
 * every row of the database as it was. No allowed caller is refused 401 or 403.
 */

const CALLERS = [
  'none',
  'made-up token',
  'visitor',
  'member',
  'staff with',
  'staff without',
  'owner',
  'key with',
  'key without',
  'expired key',
  'revoked key',
  'admin key',
] as const;
type CallerKind = (typeof CALLERS)[number];

/** What a cell must answer: refused with 401 or 403, or let through (any answer but those). */
type Cell = 401 | 403 | 'allowed' | 'nothing of its own';

/**
 * Calls about the caller's own member or cart: the admin key has neither, so its call fails (403, or
 * 400 where the input is read first) and changes nothing, though the access check lets the key by.
 */
const hasNothingOfItsOwn = (url: string, access: Access) =>
  levelOf(access) === 'member' || url.startsWith('/ecom/v1/carts/current');

/**
 * The caller levels, as the issue states them. Token holders without the route's permission call as
 * themselves (a visitor-level route that names a permission serves their own orders, their own
 * profile); staff and keys holding it, the owner, and the admin key call as the store.
 */
function expectedCell(url: string, access: Access, caller: CallerKind): Cell {
  const level = levelOf(access);
  if (caller === 'admin key' && hasNothingOfItsOwn(url, access)) return 'nothing of its own';
  if (actsAsStore(access, caller)) return 'allowed';
  switch (caller) {
    case 'made-up token':
    case 'expired key':
    case 'revoked key':
      return 401; // a credential that names no one is refused even where nobody is welcome
    case 'none':
      return level === 'public' ? 'allowed' : 401;
    case 'key with':
    case 'key without':
      // a key without the route's permission is no one's token: on a public route it calls as nobody
      return level === 'public' ? 'allowed' : 403;
    case 'visitor':
      return level === 'public' || level === 'visitor' ? 'allowed' : 403;
    default:
      // member A, staff lacking the permission, the owner on a route naming none: members, as themselves
      return level === 'admin' ? 403 : 'allowed';
  }
}

/** Whether the caller gets the store's (admin's) view of the route, not their own. */
function actsAsStore(access: Access, caller: CallerKind): boolean {
  const requires = requirementOf(access);
  switch (caller) {
    case 'admin key':
      return true;
    case 'owner':
      return requires !== undefined;
    case 'staff with':
    case 'key with':
      return requires !== undefined && requires !== 'OWNER';
    default:
      return false;
  }
}

/**
 * The routes whose declaration a mistake would make dangerous, stated here and not read from the
 * platform: money (capture, void, refund), staff and keys, the audit log, deleting members, the OAuth
 * client registry, the developer mailbox and signing on without a password.
 */
const staffNeeding = (requires: Requirement): Access => ({ callers: 'admin', requires });
const SENSITIVE: Record<string, Access> = {
  'POST /ecom/v1/order-billing/capture-authorized-payments': staffNeeding('orders.capture'),
  'POST /ecom/v1/payments-collector/orders/:ecomOrderId/capture-authorized-payments':
    staffNeeding('orders.capture'),
  'POST /ecom/v1/order-billing/void-authorized-payments': staffNeeding('orders.void'),
  'POST /ecom/v1/payments-collector/orders/:ecomOrderId/void-authorized-payments':
    staffNeeding('orders.void'),
  // it releases the buyer's money, then cancels only an order whose authorizations it voided
  'POST /api/cartwheel/orders/:orderId/void-and-cancel': staffNeeding('orders.void'),
  'POST /ecom/v1/order-billing/refund-payments': staffNeeding('orders.refund'),
  'POST /ecom/v1/order-billing/calculate-refund': staffNeeding('orders.read'),
  'POST /ecom/v1/order-billing/get-order-refundability': staffNeeding('orders.read'),
  'POST /ecom/v1/payments/orders/:orderId/add-payment': staffNeeding('orders.manage'),
  'POST /ecom/v1/payments/:paymentId/orders/:orderId/update-payment-transaction-status':
    staffNeeding('orders.manage'),
  'POST /ecom/v1/bulk/payments/update-payment-transaction-status': staffNeeding('orders.manage'),
  'GET /api/cartwheel/payment-settings': staffNeeding('settings.manage'),
  'PATCH /api/cartwheel/payment-settings': staffNeeding('settings.manage'),
  'GET /api/cartwheel/staff': staffNeeding('staff.manage'),
  'GET /api/cartwheel/staff/:id': staffNeeding('staff.manage'),
  'PATCH /api/cartwheel/staff/:id': staffNeeding('staff.manage'),
  'DELETE /api/cartwheel/staff/:id': staffNeeding('staff.manage'),
  'POST /api/cartwheel/staff/:id/suspend': staffNeeding('staff.manage'),
  'POST /api/cartwheel/staff/:id/reinstate': staffNeeding('staff.manage'),
  'POST /api/cartwheel/staff/invitations': staffNeeding('staff.manage'),
  'POST /api/cartwheel/staff/invitations/accept': 'public',
  'GET /api/cartwheel/staff/me': 'member',
  'GET /api/cartwheel/staff-roles': staffNeeding('staff.manage'),
  'POST /api/cartwheel/staff-roles': staffNeeding('staff.manage'),
  'PATCH /api/cartwheel/staff-roles/:id': staffNeeding('staff.manage'),
  'DELETE /api/cartwheel/staff-roles/:id': staffNeeding('staff.manage'),
  'GET /api/cartwheel/permissions': staffNeeding('staff.manage'),
  'GET /api/cartwheel/api-keys': staffNeeding('apiKeys.manage'),
  'POST /api/cartwheel/api-keys': staffNeeding('apiKeys.manage'),
  'POST /api/cartwheel/api-keys/:id/revoke': staffNeeding('apiKeys.manage'),
  'GET /api/cartwheel/audit-log': staffNeeding('OWNER'),
  'GET /api/cartwheel/mailbox': staffNeeding('OWNER'),
  'DELETE /members/v1/members/:id': staffNeeding('members.manage'),
  'POST /members/v1/members/bulk/delete': staffNeeding('members.manage'),
  'POST /members/v1/members/bulk/delete-by-filter': staffNeeding('members.manage'),
  'POST /members/v1/members/bulk/block-by-filter': staffNeeding('members.manage'),
  'POST /members/v1/members/:id/block': staffNeeding('members.manage'),
  'POST /members/v1/members/:id/disconnect': staffNeeding('members.manage'),
  'DELETE /members/v1/members/my': 'member',
  'GET /api/cartwheel/oauth-clients': 'admin',
  'GET /api/cartwheel/oauth-clients/:id': 'admin',
  'POST /api/cartwheel/oauth-clients': 'admin',
  'PATCH /api/cartwheel/oauth-clients/:id': 'admin',
  'POST /_api/iam/authentication/v2/sign-on': 'admin',
};
/** Paths of routes that belong in `SENSITIVE`: a new one fails until its declaration is stated there. */
const LOOKS_SENSITIVE =
  /refund|capture|void|add-payment|transaction-status|payment-settings|\/staff|api-keys|audit|oauth-clients|mailbox|sign-on|\/block|\/disconnect|bulk\/delete|^DELETE \/members\/v1\/members\/(:id|my)$/;

const keyOf = (route: Pick<DeclaredRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** Calls that end the caller's own sign-in when allowed: made after every other allowed call. */
const ENDS_THE_CALLERS_SIGN_IN = new Set([
  'DELETE /members/v1/members/my',
  'GET /oauth2/logout',
  'GET /_api/iam/authentication/v1/logout',
]);

/** A phase's thousand-odd calls take seconds; on a machine busy with other work, far more. */
const CALLS_TIMEOUT_MS = 180_000;

/** An id no row has: what allowed callers' writes name, so the matrix deletes and changes nothing real. */
const MADE_UP = 'matrix-made-up-id';

describe('the access matrix: every route, every kind of caller', () => {
  let platform: TestPlatform;
  let routes: DeclaredRoute[];
  /** The Authorization each caller sends; per permission for staff and keys. */
  const fixed = {} as Record<
    Exclude<CallerKind, 'staff with' | 'staff without' | 'key with' | 'key without'>,
    string | undefined
  >;
  const staffWith = new Map<Requirement | 'none', { token: string; email: string }>();
  const staffWithout = new Map<Requirement | 'none', { token: string; email: string }>();
  const keyWith = new Map<Requirement | 'none', string>();
  const keyWithout = new Map<Requirement | 'none', string>();
  /** Member B's rows (and the store's): `[route path pattern, parameter, id]`, what refused callers name. */
  const realIds: Array<[RegExp, string, string]> = [];

  function authOf(caller: CallerKind, access: Access): string | undefined {
    const requires = requirementOf(access) ?? 'none';
    switch (caller) {
      case 'staff with':
        return staffWith.get(requires)?.token;
      case 'staff without':
        return staffWithout.get(requires)?.token;
      case 'key with':
        return keyWith.get(requires);
      case 'key without':
        return keyWithout.get(requires);
      default:
        return fixed[caller];
    }
  }

  /**
   * A sign-in of the caller's kind of its own, for a call that ends the caller's sign-in (a logout,
   * deleting one's own member): the matrix's other calls keep theirs.
   */
  async function freshAuthOf(caller: CallerKind, access: Access): Promise<string | undefined> {
    const requires = requirementOf(access) ?? 'none';
    switch (caller) {
      case 'visitor':
        return visitorToken(platform);
      case 'member':
        return newMember(platform, 'matrix-a-again');
      case 'owner':
        return ownerToken(platform);
      case 'staff with':
      case 'staff without': {
        const staff = (caller === 'staff with' ? staffWith : staffWithout).get(requires)!;
        return signIn(platform, staff.email, STAFF_PASSWORD);
      }
      default:
        return authOf(caller, access);
    }
  }

  /** The route's path with its parameters filled: member B's ids, or ids no row has. */
  function pathOf(route: DeclaredRoute, real: boolean): string {
    return route.url.replace(/:(\w+)/g, (_whole, name: string) => {
      if (!real) return MADE_UP;
      const found = realIds.find(([pattern, param]) => param === name && pattern.test(route.url));
      return encodeURIComponent(found?.[2] ?? MADE_UP);
    });
  }

  /** One call; a body that is not JSON (the orders' CSV export) is kept as text. */
  async function send(route: DeclaredRoute, path: string, auth: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = auth ? { authorization: auth } : {};
    const body = route.method === 'GET' ? undefined : '{}';
    if (body) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.url}${path}`, {
      method: route.method,
      headers,
      body,
      redirect: 'manual',
    });
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('application/json');
    return { status: response.status, body: json && text ? JSON.parse(text) : text };
  }

  /** Every row of every table, as one hash per table: what "nothing changed" compares. */
  async function snapshot(): Promise<Record<string, string>> {
    const db = platform.services.database.db;
    const tables = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name
    `.execute(db);
    const hashes: Record<string, string> = {};
    for (const { name } of tables.rows) {
      // the background workers' own progress moves with time, not with calls: their leases are renewed
      // and the bus's subscribers read on through events written before the snapshot
      if (name === 'worker_leases' || name === 'event_cursors') continue;
      const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)).rows;
      const kept = rows.map((row) => {
        // a key's last use is written when it is presented, allowed or not: "last used" says who tried
        if (name === 'api_keys') return { ...row, last_used_at: null };
        return row;
      });
      const lines = kept.map((row) => JSON.stringify(row)).sort();
      hashes[name] = `${lines.length}:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
    }
    return hashes;
  }

  /** Runs the calls a few at a time over keep-alive connections, answers in order. */
  async function inBatches<T>(work: Array<() => Promise<T>>, size = 12): Promise<T[]> {
    const answers: T[] = [];
    for (let start = 0; start < work.length; start += size) {
      answers.push(...(await Promise.all(work.slice(start, start + size).map((run) => run()))));
    }
    return answers;
  }

  beforeAll(async () => {
    platform = await startTestPlatform({ env: OWNER_ENV });
    routes = await platform.declaredRoutes();
    await shipToUs(platform);
    const product = await stockedProduct(platform, 'Matrix Lamp', 20, 1500);
    const owner = await ownerToken(platform);

    // member A calls; member B owns an order, a checkout and a cart
    const memberA = await newMember(platform, 'matrix-a');
    const memberB = await newMember(platform, 'matrix-b');
    const memberBId = (await as(platform, memberB).get('/members/v1/members/my')).body.member.id;
    const order = await placeOrder(platform, product.id, { auth: memberB });
    const subscriptionContractId = await subscribe(platform, memberB);
    const added = await cartCalls(platform, memberB).add({ lineItems: [catalogLine(product.id, 1)] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const cartId = added.body.cart.id as string;

    // one staff member and one key per permission, and one of each holding every other permission
    const requirements: Array<Requirement | 'none'> = [...PERMISSIONS, 'OWNER', 'none'];
    const everyone = await staffMember(
      platform,
      owner,
      await createRole(platform, owner, 'Every permission', [...PERMISSIONS]),
      'matrix-all',
    );
    const nobody = await staffMember(
      platform,
      owner,
      await createRole(platform, owner, 'No permission', []),
      'matrix-none',
    );
    const everyKey = (await createKey(platform, owner, PERMISSIONS)).key;
    const noKey = (await createKey(platform, owner, [])).key;
    // the permissions side by side: each one's roles, staff and keys are independent of the others'
    await Promise.all(
      PERMISSIONS.map(async (permission) => {
        const [only, others] = await Promise.all([
          createRole(platform, owner, `Only ${permission}`, [permission]),
          createRole(platform, owner, `All but ${permission}`, allBut(permission)),
        ]);
        const [withIt, withoutIt, keyWithIt, keyWithoutIt] = await Promise.all([
          staffMember(platform, owner, only, `with-${permission}`),
          staffMember(platform, owner, others, `without-${permission}`),
          createKey(platform, owner, [permission]),
          createKey(platform, owner, allBut(permission)),
        ]);
        staffWith.set(permission, withIt);
        staffWithout.set(permission, withoutIt);
        keyWith.set(permission, keyWithIt.key);
        keyWithout.set(permission, keyWithoutIt.key);
      }),
    );
    // the owner's own calls: nobody else holds them, whatever their role or key holds
    for (const requirement of ['OWNER', 'none'] as const) {
      staffWith.set(requirement, everyone);
      staffWithout.set(requirement, nobody);
      keyWith.set(requirement, everyKey);
      keyWithout.set(requirement, noKey);
    }
    expect([...staffWith.keys()].sort()).toEqual([...requirements].sort());

    const revoked = await createKey(platform, owner, PERMISSIONS);
    expect((await as(platform, owner).post(`/api/cartwheel/api-keys/${revoked.id}/revoke`)).status).toBe(200);
    const expiresAt = Date.now() + 2000;
    const expiring = await createKey(platform, owner, PERMISSIONS, new Date(expiresAt).toISOString());
    expect((await as(platform, expiring.key).get('/api/cartwheel/staff-roles')).status).toBe(200);

    Object.assign(fixed, {
      none: undefined,
      'made-up token': 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJub2JvZHkifQ.bm90IGEgc2lnbmF0dXJl',
      visitor: await visitorToken(platform),
      member: memberA,
      owner,
      'expired key': expiring.key,
      'revoked key': revoked.key,
      'admin key': platform.adminApiKey,
    });

    const staffRow = (await as(platform, owner).get('/api/cartwheel/staff')).body.staff.find(
      (row: { email: string }) => row.email === nobody.email,
    );
    const roleId = (await as(platform, owner).get('/api/cartwheel/staff-roles')).body.roles[0].id;
    const keyId = (await as(platform, owner).get('/api/cartwheel/api-keys')).body.apiKeys[0].id;
    const clientId = (await as(platform, platform.adminApiKey).get('/api/cartwheel/oauth-clients')).body
      .clients[0].id;
    const paymentId = (await as(platform, owner).get(`/ecom/v1/payments/orders/${order.orderId}`)).body
      .orderTransactions.payments[0].id;
    realIds.push(
      [/^\/members\/v1\/members\//, 'id', memberBId],
      [/orders\/:(ecomOrderId|orderId)/, 'orderId', order.orderId],
      [/orders\/:(ecomOrderId|orderId)/, 'ecomOrderId', order.orderId],
      [/^\/ecom\/v1\/orders\/:id/, 'id', order.orderId],
      [/^\/ecom\/v1\/payments\/:paymentId/, 'paymentId', paymentId],
      [/^\/ecom\/v1\/checkouts\/:id/, 'id', order.checkoutId],
      [/by-cart-id/, 'cartId', cartId],
      [/^\/stores(-reader)?\/v1\/products\/:id/, 'id', product.id],
      [/^\/api\/cartwheel\/staff\/:id/, 'id', staffRow.id],
      [/^\/api\/cartwheel\/staff-roles\/:id/, 'id', roleId],
      [/^\/api\/cartwheel\/api-keys\/:id/, 'id', keyId],
      [/^\/api\/cartwheel\/oauth-clients\/:id/, 'id', clientId],
      [/subscription-contracts\/:subscriptionContractId/, 'subscriptionContractId', subscriptionContractId],
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 50)));
  }, 180_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('the sensitive routes are declared as stated here, and every route that looks sensitive is stated', () => {
    const byKey = new Map(routes.map((route) => [keyOf(route), route.access]));
    const declared = Object.fromEntries(Object.keys(SENSITIVE).map((key) => [key, byKey.get(key)]));
    expect(declared).toEqual(SENSITIVE);
    const unstated = routes
      .filter((route) => LOOKS_SENSITIVE.test(keyOf(route)) && !(keyOf(route) in SENSITIVE))
      .map(keyOf);
    expect(unstated).toEqual([]);
  });

  it(
    'every refused cell answers 401 or 403 in the wire’s form, and refused calls and member A’s calls on B’s data change nothing',
    async () => {
      const before = await snapshot();
      const refused: Array<{ cell: string; expected: Cell; run: () => Promise<Answer> }> = [];
      const asThemselves: Array<{ cell: string; hidden: boolean; run: () => Promise<Answer> }> = [];
      for (const route of routes) {
        const access = SENSITIVE[keyOf(route)] ?? route.access;
        const path = pathOf(route, true);
        for (const caller of CALLERS) {
          const expected = expectedCell(route.url, access, caller);
          const cell = `${caller} → ${keyOf(route)}`;
          const run = () => send(route, path, authOf(caller, access));
          if (expected !== 'allowed') refused.push({ cell, expected, run });
          else if (route.url.includes('/:') && !actsAsStore(access, caller)) {
            // B's checkout, cart, order, its payments and fulfillments are nobody else's to read or change
            asThemselves.push({ cell, hidden: route.url.startsWith('/ecom/'), run });
          }
        }
      }
      const answers = await inBatches(refused.map((entry) => entry.run));
      const wrong = refused
        .map((entry, index) => ({ ...entry, answer: answers[index]! }))
        .filter(
          ({ expected, answer }) =>
            (expected === 'nothing of its own'
              ? answer.status !== 403 && answer.status !== 400
              : answer.status !== expected) ||
            typeof answer.body?.message !== 'string' ||
            typeof answer.body?.details !== 'object',
        )
        .map(
          ({ cell, expected, answer }) =>
            `${cell}: expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body)}`,
        );
      expect(wrong).toEqual([]);
      const crossAnswers = await inBatches(asThemselves.map((entry) => entry.run));
      const shown = asThemselves
        .map((entry, index) => ({ ...entry, answer: crossAnswers[index]! }))
        .filter(({ hidden, answer }) => hidden && answer.status < 400)
        .map(({ cell, answer }) => `${cell}: ${answer.status}`);
      expect(shown).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect(Object.keys(before).length).toBeGreaterThan(20);
      // every cell, not a sample: 12 callers on every route
      expect(refused.length).toBeGreaterThan(routes.length * 4);
      expect(asThemselves.length).toBeGreaterThan(50);
    },
    CALLS_TIMEOUT_MS,
  );

  it(
    'no allowed cell is refused 401 or 403; the store’s callers read member B’s order, payments, fulfillments and member',
    async () => {
      const allowed: Array<{ cell: string; last: boolean; storeRead: boolean; run: () => Promise<Answer> }> =
        [];
      for (const route of routes) {
        const access = SENSITIVE[keyOf(route)] ?? route.access;
        // reads name B's real rows; writes name none, so an allowed delete or revoke takes nothing away
        const reads = route.method === 'GET';
        const path = pathOf(route, reads);
        for (const caller of CALLERS) {
          if (expectedCell(route.url, access, caller) !== 'allowed') continue;
          // a write as themselves on a row named in the path: member A on B's data, the test above
          if (!reads && route.url.includes('/:') && !actsAsStore(access, caller)) continue;
          allowed.push({
            cell: `${caller} → ${keyOf(route)}`,
            last: ENDS_THE_CALLERS_SIGN_IN.has(keyOf(route)),
            // a route that serves token holders their own and the store everything: the store sees B's
            storeRead:
              reads &&
              route.url.includes('/:') &&
              levelOf(access) === 'visitor' &&
              requirementOf(access) !== undefined &&
              actsAsStore(access, caller),
            run: ENDS_THE_CALLERS_SIGN_IN.has(keyOf(route))
              ? async () => send(route, path, await freshAuthOf(caller, access))
              : () => send(route, path, authOf(caller, access)),
          });
        }
      }
      const ordered = [...allowed.filter((entry) => !entry.last), ...allowed.filter((entry) => entry.last)];
      const before = await snapshot();
      const answers = await inBatches(ordered.map((entry) => entry.run));
      // the snapshot sees what allowed calls change (a member joins the community, a cart is made)
      expect(await snapshot()).not.toEqual(before);
      const answered = ordered.map((entry, index) => ({ ...entry, answer: answers[index]! }));
      const refused = answered
        .filter(({ answer }) => answer.status === 401 || answer.status === 403)
        .map(({ cell, answer }) => `${cell}: ${answer.status} ${JSON.stringify(answer.body)}`);
      expect(refused).toEqual([]);
      const storeReads = answered.filter((entry) => entry.storeRead);
      expect(storeReads.length).toBeGreaterThan(10);
      expect(
        storeReads
          .filter(({ answer }) => answer.status !== 200)
          .map(({ cell, answer }) => `${cell}: ${answer.status}`),
      ).toEqual([]);
    },
    CALLS_TIMEOUT_MS,
  );
});

/** `auth`'s member buys a product by subscription on the hosted page: the contract its order starts. */
async function subscribe(platform: TestPlatform, auth: string): Promise<string> {
  const made = await call(
    platform,
    'POST',
    '/stores/v3/products',
    {
      product: {
        name: 'Matrix Tea',
        productType: 'PHYSICAL',
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '9' } } }] },
        subscriptionDetails: { subscriptions: [{ title: 'Weekly', frequency: 'WEEK', autoRenewal: true }] },
      },
    },
    platform.adminApiKey,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const options = { subscriptionOptionId: made.body.product.subscriptionDetails.subscriptions[0].id };
  const cart = cartCalls(platform, auth);
  expect((await cart.add({ lineItems: [catalogLine(made.body.product.id, 1, options)] })).status).toBe(200);
  const checkoutId = (await cart.createCheckout({ channelType: 'WEB' })).body.checkoutId as string;
  expect((await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails())).status).toBe(200);
  const paid = await pageCalls(platform, await checkoutSession(platform, auth, checkoutId)).pay(
    `matrix-${checkoutId}`,
    CARDS.approved,
  );
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
  const contract = await platform.services.database.db
    .selectFrom('subscription_contracts')
    .select('id')
    .where('first_order_id', '=', paid.body.orderId)
    .executeTakeFirstOrThrow();
  return contract.id;
}
