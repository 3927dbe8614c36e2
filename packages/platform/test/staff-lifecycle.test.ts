import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { verifyPassword } from '../src/identity/passwords.ts';
import { openServices } from '../src/platform.ts';
import { PERMISSIONS } from '../src/shared/permissions.ts';
import { DEFAULT_OWNER_EMAIL } from '../src/staff/service.ts';
import {
  as,
  claimsOf,
  createKey,
  createRole,
  invitationToken,
  newMember,
  OWNER,
  OWNER_ENV,
  ownerToken,
  signIn,
  staffMember,
} from './staff-support.ts';
import { DIALECTS, POSTGRES_ADMIN_URL, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The owner, staff and API keys over their lives: the owner made once however many processes start,
 * invitations accepted once, what nobody may grant, suspension and revocation reaching a second
 * process within a second, keys' last use, and the audit log of what staff and keys changed.
 */
describe.each(DIALECTS)('staff and keys, on %s, with a second process', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform;
  let owner: string;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect, env: OWNER_ENV });
    second = await startTestPlatform({ dialect, env: OWNER_ENV, sharing: first });
    owner = await ownerToken(first);
  }, 60_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  /** Polls until `check` holds, for at most `ms`: how long a change may take to reach another process. */
  async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Date.now() - started;
  }

  it('the owner is one, signs in with the environment password and holds every permission', async () => {
    const owners = await first.services.database.db
      .selectFrom('staff')
      .select(['email', 'status'])
      .where('owner_slot', '=', 'OWNER')
      .execute();
    expect(owners).toEqual([{ email: OWNER.email, status: 'ACTIVE' }]);
    const me = await as(second, owner).get('/api/cartwheel/staff/me');
    expect(me.status).toBe(200);
    expect(me.body.staffMember).toMatchObject({
      email: OWNER.email,
      role: 'OWNER',
      permissions: [...PERMISSIONS],
    });
    // a member who is not staff is told so
    const shopper = await as(first, await newMember(first, 'shopper')).get('/api/cartwheel/staff/me');
    expect(shopper.status).toBe(404);
    expect(shopper.body.details.applicationError.code).toBe('NOT_STAFF');
  });

  it('an invitation is accepted once; a used or unknown token is refused with a clear error', async () => {
    const role = await createRole(first, owner, 'Packers', ['orders.read']);
    const email = `packer.${Date.now()}@example.com`;
    expect(
      (await as(first, owner).post('/api/cartwheel/staff/invitations', { email, roleId: role })).status,
    ).toBe(200);
    const token = await invitationToken(first, email);
    const accepted = await as(second, undefined).post('/api/cartwheel/staff/invitations/accept', {
      token,
      password: 'a packer password 1',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.staffMember).toMatchObject({
      email,
      status: 'ACTIVE',
      role: { id: role, name: 'Packers' },
    });
    const again = await as(first, undefined).post('/api/cartwheel/staff/invitations/accept', {
      token,
      password: 'a packer password 1',
    });
    expect(again.status).toBe(428);
    expect(again.body.details.applicationError.code).toBe('INVITATION_NOT_VALID');
    const weak = await as(first, undefined).post('/api/cartwheel/staff/invitations/accept', {
      token: 'x',
      password: '1',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.details.validationError.fieldViolations[0].field).toBe('password');
    // staff again: refused
    const twice = await as(first, owner).post('/api/cartwheel/staff/invitations', { email, roleId: role });
    expect(twice.status).toBe(409);
    expect(twice.body.details.applicationError.code).toBe('STAFF_ALREADY_EXISTS');
  });

  it('nobody grants what they do not hold, and the owner cannot be suspended', async () => {
    const managers = await createRole(first, owner, 'Staff managers', [
      'staff.manage',
      'apiKeys.manage',
      'orders.read',
    ]);
    const manager = await staffMember(first, owner, managers, 'manager');
    const greedy = await as(first, manager.token).post('/api/cartwheel/staff-roles', {
      role: { name: 'Everything', permissions: ['orders.refund'] },
    });
    expect(greedy.status).toBe(403);
    expect(greedy.body.details.applicationError.code).toBe('PERMISSION_NOT_HELD');
    const greedyKey = await as(first, manager.token).post('/api/cartwheel/api-keys', {
      apiKey: { name: 'refunder', permissions: ['orders.refund'] },
    });
    expect(greedyKey.status).toBe(403);
    expect((await createKey(first, manager.token, ['orders.read'])).key).toMatch(/^cw_key_/);
    const ownerRow = (await first.services.staff.list()).find((row) => row.role === 'OWNER')!;
    const suspendOwner = await as(first, manager.token).post(`/api/cartwheel/staff/${ownerRow.id}/suspend`);
    expect(suspendOwner.status).toBe(403);
    expect(suspendOwner.body.details.applicationError.code).toBe('OWNER_IS_PERMANENT');
    const unknownPermission = await as(first, owner).post('/api/cartwheel/staff-roles', {
      role: { name: 'Odd', permissions: ['orders.everything'] },
    });
    expect(unknownPermission.status).toBe(400);
    const inUse = await as(first, owner).delete(`/api/cartwheel/staff-roles/${managers}`);
    expect(inUse.status).toBe(428);
    expect(inUse.body.details.applicationError.code).toBe('ROLE_IN_USE');
  });

  it("a suspended staff member's sign-ins end within a second on the other process too", async () => {
    const role = await createRole(first, owner, 'Readers', ['orders.read', 'members.read']);
    const reader = await staffMember(first, owner, role, 'reader');
    // the tokens carry the staff role, for apps to read
    expect(claimsOf(reader.token).staff_role).toBe('Readers');
    const readOrders = (platform: TestPlatform) =>
      as(platform, reader.token).post('/ecom/v1/orders/search', {});
    expect((await readOrders(first)).status).toBe(200);
    expect((await readOrders(second)).status).toBe(200);
    const suspended = await as(first, owner).post(`/api/cartwheel/staff/${reader.id}/suspend`);
    expect(suspended.body.staffMember.status).toBe('SUSPENDED');
    expect((await readOrders(first)).status).toBe(401);
    await within(1000, async () => (await readOrders(second)).status === 401);
    // signed in again, they are a member, not staff: the staff calls refuse them
    const again = await signIn(second, reader.email, 'a staff password 1');
    expect(claimsOf(again).staff_role).toBeUndefined();
    expect((await as(second, again).get('/api/cartwheel/staff/me')).status).toBe(404);
    const all = await as(second, again).post('/members/v1/members/x/block', {});
    expect(all.status).toBe(403);
    const reinstated = await as(second, owner).post(`/api/cartwheel/staff/${reader.id}/reinstate`);
    expect(reinstated.body.staffMember.status).toBe('ACTIVE');
    await within(1000, async () => (await as(first, again).get('/api/cartwheel/staff/me')).status === 200);
  });

  it('a revoked key is refused within a second on every process; keys list their last use, never the key', async () => {
    const { key, id } = await createKey(first, owner, ['orders.read']);
    const search = (platform: TestPlatform) => as(platform, key).post('/ecom/v1/orders/search', {});
    expect((await search(first)).status).toBe(200);
    expect((await search(second)).status).toBe(200);
    const listed = (await as(first, owner).get('/api/cartwheel/api-keys')).body.apiKeys.find(
      (entry: { id: string }) => entry.id === id,
    );
    expect(listed).toMatchObject({ id, permissions: ['orders.read'], revokedDate: null });
    expect(listed.lastUsedDate).toEqual(expect.any(String));
    expect(JSON.stringify(listed)).not.toContain(key);
    const stored = await first.services.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key);

    expect((await as(second, owner).post(`/api/cartwheel/api-keys/${id}/revoke`)).status).toBe(200);
    expect((await search(second)).status).toBe(401);
    const took = await within(1000, async () => (await search(first)).status === 401);
    expect(took).toBeLessThan(1000);
    // a key that was never made, or one with a typo, is refused, never taken for a visitor
    expect((await as(first, `${key}x`).post('/ecom/v1/orders/search', {})).status).toBe(401);
  });

  it('the audit log names who made which operation, when and from where; refusals and reads are not in it', async () => {
    const role = await createRole(first, owner, 'Cataloguers', ['products.manage']);
    const cataloguer = await staffMember(first, owner, role, 'cataloguer');
    const { key } = await createKey(first, owner, ['products.manage']);
    const product = { product: { name: 'Audited', productType: 'physical', priceData: { price: 3 } } };
    expect((await as(first, cataloguer.token).post('/stores/v1/products', product)).status).toBe(200);
    expect((await as(second, key).post('/stores/v1/products', product)).status).toBe(200);
    expect(
      (
        await as(first, cataloguer.token).patch('/api/cartwheel/store-settings', {
          storeSettings: { weightUnit: 'LB' },
        })
      ).status,
    ).toBe(403);
    expect((await as(first, cataloguer.token).get('/stores-reader/v1/products/query')).status).toBeLessThan(
      500,
    );

    const log = await as(second, owner).get('/api/cartwheel/audit-log?limit=100');
    expect(log.status).toBe(200);
    const byCataloguer = log.body.entries.filter((entry: any) => entry.actor.name === cataloguer.email);
    expect(byCataloguer).toEqual([
      expect.objectContaining({
        actor: { type: 'STAFF', id: expect.any(String), name: cataloguer.email },
        operation: 'catalog.createProduct',
        method: 'POST',
        route: '/stores/v1/products',
        path: '/stores/v1/products',
        status: 200,
        address: expect.stringContaining('127.0.0.1'),
        date: expect.any(String),
      }),
    ]);
    const byKey = log.body.entries.filter(
      (entry: any) => entry.actor.type === 'API_KEY' && entry.operation === 'catalog.createProduct',
    );
    expect(byKey).toEqual([expect.objectContaining({ route: '/stores/v1/products' })]);
    // the owner's own changes are there too (the role and the invitation they made)
    const byOwner = log.body.entries.filter((entry: any) => entry.actor.name === OWNER.email);
    expect(byOwner.map((entry: any) => entry.operation)).toEqual(
      expect.arrayContaining(['staff.createRole', 'staff.inviteStaffMember']),
    );
    // paging: newest first, the cursor goes on from the last entry
    const page = await as(first, owner).get('/api/cartwheel/audit-log?limit=2');
    expect(page.body.entries).toHaveLength(2);
    const next = await as(first, owner).get(
      `/api/cartwheel/audit-log?limit=2&before=${page.body.nextCursor}`,
    );
    expect(next.body.entries[0].id < page.body.entries[1].id).toBe(true);
  });
});

describe('the owner on a store several processes start at once', () => {
  it('is made once, over PostgreSQL', async () => {
    const name = `cartwheel_owner_race_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    try {
      // first, the schema: processes starting at once each wait for the migration lock, then race for the owner
      const config = {
        ...configFromEnv({
          DATABASE_URL: url.toString(),
          LOG_LEVEL: 'silent',
          CARTWHEEL_SEED_DEMO: 'false',
          ...OWNER_ENV,
        }),
      };
      const opened = await Promise.all([0, 1, 2, 3].map(() => openServices(config)));
      try {
        expect(opened.filter((entry) => entry.owner !== undefined)).toHaveLength(1);
        const rows = await opened[0]!.services.database.db.selectFrom('staff').select('email').execute();
        expect(rows).toEqual([{ email: OWNER.email }]);
        const identities = await opened[0]!.services.database.db
          .selectFrom('identities')
          .select('id')
          .where('email', '=', OWNER.email)
          .execute();
        expect(identities).toHaveLength(1);
      } finally {
        for (const entry of opened) await entry.close();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});

describe('the owner of a store started without an owner password', () => {
  it('gets a password made once and shown once; it is the one stored, and a later start makes no other', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cartwheel-owner-'));
    try {
      const config = configFromEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CARTWHEEL_SEED_DEMO: 'false' });
      const firstStart = await openServices(config);
      let storedHash: string | null;
      try {
        expect(firstStart.owner?.email).toBe(DEFAULT_OWNER_EMAIL);
        const password = firstStart.owner!.password!;
        expect(password.length).toBeGreaterThanOrEqual(20);
        const identity = await firstStart.services.database.db
          .selectFrom('identities')
          .select(['password_hash', 'email_verified', 'status'])
          .where('email', '=', DEFAULT_OWNER_EMAIL)
          .executeTakeFirstOrThrow();
        expect(identity).toMatchObject({ email_verified: 1, status: 'ACTIVE' });
        storedHash = identity.password_hash;
        expect(await verifyPassword(password, storedHash!)).toBe(true);
      } finally {
        await firstStart.close();
      }
      const laterStart = await openServices(config);
      try {
        expect(laterStart.owner).toBeUndefined();
        const identity = await laterStart.services.database.db
          .selectFrom('identities')
          .select('password_hash')
          .where('email', '=', DEFAULT_OWNER_EMAIL)
          .executeTakeFirstOrThrow();
        expect(identity.password_hash).toBe(storedHash);
      } finally {
        await laterStart.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
