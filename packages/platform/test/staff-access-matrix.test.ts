import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS, type Permission, type Requirement } from '../src/shared/permissions.ts';
import { admin, visitorToken } from './catalog-http.ts';
import { placeOrder, shipToUs, stockedProduct } from './checkout-support.ts';
import {
  type Answer,
  allBut,
  as,
  createKey,
  createRole,
  newMember,
  OWNER_ENV,
  ownerToken,
  staffMember,
} from './staff-support.ts';
import { EDGE_DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The access matrix (issue 21): a sample of routes of each kind (orders read, catalog write, members
 * admin, a member's profile, settings, staff, API keys, the audit log), each called by every kind of
 * caller: nobody, a visitor, a member (on another's data), the owner, each role, an API key with and
 * without the route's permission, an expired and a revoked key, the admin key. Each cell's answer is
 * named, and a refused call changes nothing.
 */

const CALLERS = [
  'none',
  'visitor',
  'member',
  'owner',
  'Fulfilment',
  'Support',
  'Catalog',
  'key with',
  'key without',
  'expired key',
  'revoked key',
  'admin key',
] as const;
type CallerName = (typeof CALLERS)[number];

/** The answers every caller gets, but those `allowed` (200) and `otherwise` (a member-level route's own answer). */
function expected(allowed: CallerName[], otherwise: Partial<Record<CallerName, number>> = {}) {
  const statuses = {} as Record<CallerName, number>;
  for (const caller of CALLERS) {
    statuses[caller] = allowed.includes(caller)
      ? 200
      : (otherwise[caller] ?? (['none', 'expired key', 'revoked key'].includes(caller) ? 401 : 403));
  }
  return statuses;
}

interface Case {
  name: string;
  requires: Requirement;
  /** Runs before each caller's call (a fresh target to act on). */
  prepare?(): Promise<void>;
  call(auth: string | undefined, caller: CallerName): Promise<Answer>;
  /** What a refused call must leave as it was. */
  state?(): Promise<unknown>;
  statuses: Record<CallerName, number>;
}

describe.each(EDGE_DIALECTS)('the access matrix, on %s', (dialect) => {
  let platform: TestPlatform;
  const auth = {} as Record<CallerName, string | undefined>;
  let orderId: string;
  /** Member A: the order's buyer and the profile the matrix's member (B) tries to change. */
  let memberAId: string;
  const cases: Case[] = [];

  const count = async (table: 'products' | 'staff_roles' | 'api_keys') =>
    Number(
      (
        await platform.services.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const identityStatus = async (id: string) =>
    (
      await platform.services.database.db
        .selectFrom('identities')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).status;
  const memberIdOf = async (token: string) =>
    (await as(platform, token).get('/members/v1/members/my')).body.member.id;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: OWNER_ENV });
    await shipToUs(platform);
    const product = await stockedProduct(platform, 'Matrix Poster', 10, 1000);
    productId = product.id;
    const owner = await ownerToken(platform);
    const roles = {
      Fulfilment: await createRole(platform, owner, 'Fulfilment', ['orders.read', 'fulfillments.manage']),
      Support: await createRole(platform, owner, 'Support', [
        'orders.read',
        'members.read',
        'members.manage',
      ]),
      Catalog: await createRole(platform, owner, 'Catalog', ['products.manage']),
    };
    auth.none = undefined;
    auth.visitor = await visitorToken(platform);
    const memberA = await newMember(platform, 'matrix-a');
    auth.member = await newMember(platform, 'matrix-b');
    memberAId = await memberIdOf(memberA);
    auth.owner = owner;
    for (const role of ['Fulfilment', 'Support', 'Catalog'] as const) {
      auth[role] = (await staffMember(platform, owner, roles[role], role.toLowerCase())).token;
    }
    auth['admin key'] = platform.adminApiKey;
    const revoked = await createKey(platform, owner, PERMISSIONS);
    expect((await as(platform, revoked.key).get('/api/cartwheel/staff-roles')).status).toBe(200);
    expect((await as(platform, owner).post(`/api/cartwheel/api-keys/${revoked.id}/revoke`)).status).toBe(200);
    auth['revoked key'] = revoked.key;
    const expiresAt = Date.now() + 1500;
    auth['expired key'] = (
      await createKey(platform, owner, PERMISSIONS, new Date(expiresAt).toISOString())
    ).key;
    expect((await as(platform, auth['expired key']).get('/api/cartwheel/staff-roles')).status).toBe(200);
    orderId = (await placeOrder(platform, product.id, { auth: memberA })).orderId;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 50)));
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  let unique = 0;
  cases.push(
    {
      name: 'an order read (GET /ecom/v1/orders/:id)',
      requires: 'orders.read',
      call: (token) => as(platform, token).get(`/ecom/v1/orders/${orderId}`),
      // a member's own-order route: others, members and staff without the permission, are told it does not exist
      statuses: expected(['owner', 'Fulfilment', 'Support', 'key with', 'admin key'], {
        visitor: 404,
        member: 404,
        Catalog: 404,
      }),
    },
    {
      name: 'a catalog write (POST /stores/v1/products)',
      requires: 'products.manage',
      call: (token) =>
        as(platform, token).post('/stores/v1/products', {
          product: { name: `Matrix product ${unique++}`, productType: 'physical', priceData: { price: 5 } },
        }),
      state: () => count('products'),
      statuses: expected(['owner', 'Catalog', 'key with', 'admin key']),
    },
    {
      name: 'a members admin call (POST /members/v1/members/:id/block), on a fresh member each',
      requires: 'members.manage',
      prepare: async () => {
        lastTarget = await memberIdOf(await newMember(platform, 'target'));
      },
      call: (token) => as(platform, token).post(`/members/v1/members/${lastTarget}/block`, {}),
      state: () => identityStatus(lastTarget),
      statuses: expected(['owner', 'Support', 'key with', 'admin key']),
    },
    {
      name: "member B on A's profile (PATCH /members/v1/members/:id)",
      requires: 'members.manage',
      call: (token, caller) =>
        as(platform, token).patch(`/members/v1/members/${memberAId}`, {
          member: { profile: { nickname: `${caller} was here` } },
        }),
      state: async () => (await platform.services.members.document(memberAId))?.profile,
      statuses: expected(['owner', 'Support', 'key with', 'admin key']),
    },
    {
      name: 'a fulfillment (POST /ecom/v1/fulfillments/orders/:orderId/create-fulfillment), on a fresh order each',
      requires: 'fulfillments.manage',
      prepare: async () => {
        freshOrder = (await placeOrder(platform, productId)).orderId;
      },
      call: async (token) => {
        const line = (await admin(platform).get(`/ecom/v1/orders/${freshOrder}`)).body.order.lineItems[0].id;
        return as(platform, token).post(`/ecom/v1/fulfillments/orders/${freshOrder}/create-fulfillment`, {
          orderId: freshOrder,
          fulfillment: { lineItems: [{ id: line, quantity: 1 }] },
        });
      },
      state: async () => (await admin(platform).get(`/ecom/v1/fulfillments/orders/${freshOrder}`)).body,
      statuses: expected(['owner', 'Fulfilment', 'key with', 'admin key']),
    },
    {
      name: 'an order change (POST /ecom/v1/orders/:id/cancel), on a fresh order each',
      requires: 'orders.manage',
      prepare: async () => {
        freshOrder = (await placeOrder(platform, productId)).orderId;
      },
      call: (token) => as(platform, token).post(`/ecom/v1/orders/${freshOrder}/cancel`, {}),
      state: async () => (await admin(platform).get(`/ecom/v1/orders/${freshOrder}`)).body.order.status,
      statuses: expected(['owner', 'key with', 'admin key']),
    },
    {
      name: 'a settings change (PATCH /api/cartwheel/store-settings)',
      requires: 'settings.manage',
      call: async (token) => {
        const current = (await admin(platform).get('/api/cartwheel/store-settings')).body.storeSettings;
        return as(platform, token).patch('/api/cartwheel/store-settings', {
          storeSettings: { weightUnit: current.weightUnit === 'KG' ? 'LB' : 'KG' },
        });
      },
      state: async () => (await admin(platform).get('/api/cartwheel/store-settings')).body,
      statuses: expected(['owner', 'key with', 'admin key']),
    },
    {
      name: 'a staff call (POST /api/cartwheel/staff-roles)',
      requires: 'staff.manage',
      call: (token) =>
        as(platform, token).post('/api/cartwheel/staff-roles', {
          role: { name: `Role ${unique++}`, permissions: [] },
        }),
      state: () => count('staff_roles'),
      statuses: expected(['owner', 'key with', 'admin key']),
    },
    {
      name: 'an API key call (POST /api/cartwheel/api-keys)',
      requires: 'apiKeys.manage',
      call: (token) =>
        as(platform, token).post('/api/cartwheel/api-keys', { apiKey: { name: 'made', permissions: [] } }),
      state: () => count('api_keys'),
      statuses: expected(['owner', 'key with', 'admin key']),
    },
    {
      name: "the audit log (GET /api/cartwheel/audit-log): the owner's alone",
      requires: 'OWNER',
      call: (token) => as(platform, token).get('/api/cartwheel/audit-log'),
      // a key holding every permission is still not the owner
      statuses: expected(['owner', 'admin key']),
    },
  );
  let lastTarget = '';
  let freshOrder = '';
  let productId = '';

  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const owner = auth.owner!;
    const held: Permission[] = entry.requires === 'OWNER' ? [...PERMISSIONS] : [entry.requires];
    const withKey = await createKey(platform, owner, held);
    const withoutKey = await createKey(
      platform,
      owner,
      entry.requires === 'OWNER' ? [] : allBut(entry.requires),
    );
    const tokens: Record<CallerName, string | undefined> = {
      ...auth,
      'key with': withKey.key,
      'key without': withoutKey.key,
    };
    const answers = {} as Record<CallerName, number>;
    const changedByRefused: CallerName[] = [];
    for (const caller of CALLERS) {
      await entry.prepare?.();
      const before = await entry.state?.();
      const answer = await entry.call(tokens[caller], caller);
      answers[caller] = answer.status;
      if (answer.status >= 400) {
        // refused in the wire's form, and nothing changed
        expect(answer.body?.details, `${caller}: ${JSON.stringify(answer.body)}`).toBeDefined();
        if (entry.state && JSON.stringify(await entry.state()) !== JSON.stringify(before))
          changedByRefused.push(caller);
      } else if (entry.state && answer.status === 200 && entry.name.includes('POST')) {
        expect(JSON.stringify(await entry.state()), `${caller} changed nothing`).not.toBe(
          JSON.stringify(before),
        );
      }
    }
    expect(answers).toEqual(entry.statuses);
    expect(changedByRefused).toEqual([]);
  });
});
