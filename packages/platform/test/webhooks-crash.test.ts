import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../src/db/database.ts';
import { EventBus } from '../src/events/bus.ts';
import { Settings } from '../src/settings/settings.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { WebhookService } from '../src/webhooks/service.ts';
import { Workers } from '../src/workers/runtime.ts';
import { admin } from './catalog-http.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const EVENT_TYPES = ['wix.ecom.v1.order_created', 'wix.ecom.v1.order_updated'];
const ORDERS = 8;
/** Long enough for every lease and claim a killed process held to lapse (claims last 30 s, leases 30 s). */
const AFTER_THE_CRASH_MS = 5 * 60_000;

/**
 * A receiver that, until `release`, keeps every request open without answering (deliveries in flight
 * when the platform dies), then answers everything 200. It keeps each body in arrival order.
 */
async function holdingReceiver() {
  const bodies: string[] = [];
  const held: http.ServerResponse[] = [];
  let holding = true;
  let firstArrived = () => {};
  const arrived = new Promise<void>((resolve) => {
    firstArrived = resolve;
  });
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      bodies.push(body);
      firstArrived();
      if (holding) held.push(response);
      else response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    arrived,
    release() {
      holding = false;
      for (const response of held.splice(0)) if (!response.destroyed) response.writeHead(200).end('ok');
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The domain event a JWT delivery carries, read without verifying (the compatibility test verifies). */
function eventOf(body: string): { id: string; entityId: string; entityEventSequence: string } {
  const claims = JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return JSON.parse(JSON.parse(claims.data).data);
}

/** A till's sale: a recorded order, whose change later writes `order_updated`. */
const recordedOrder = () => ({
  order: {
    lineItems: [
      {
        productName: { original: 'Espresso Beans 1kg' },
        catalogReference: { catalogItemId: 'till-beans', appId: 'till' },
        quantity: 1,
        price: { amount: '18.50' },
        itemType: { preset: 'PHYSICAL' },
      },
    ],
    buyerInfo: { email: uniqueEmail('crash-buyer') },
    channelInfo: { type: 'POS' },
    priceSummary: {
      subtotal: { amount: '18.50' },
      shipping: { amount: '0' },
      tax: { amount: '0' },
      discount: { amount: '0' },
      total: { amount: '18.50' },
    },
  },
});

/**
 * The store's next process after a crash, in the test's process on a clock the test moves: the same
 * bus subscriber and delivery worker every platform process runs, over the store's database.
 */
function survivor(database: Database, dialect: (typeof DIALECTS)[number]) {
  const clock = new ManualClock(Date.now());
  const workers = new Workers(database.db, { clock });
  const bus = new EventBus(database.db, workers, { retentionMs: 30 * 24 * 60 * 60_000 });
  const webhooks = new WebhookService(
    database.db,
    { settings: new Settings(database.db) },
    { dialect, clock, policy: { allowHttpLoopback: true } },
  );
  bus.subscribe(webhooks.fanOut());
  webhooks.deliverOn(workers);
  return {
    async finish() {
      await clock.advance(AFTER_THE_CRASH_MS);
      await bus.deliverNow();
      await webhooks.delivery.drain();
    },
    stop: () => workers.stop(),
  };
}

/**
 * Issue 31: a platform process killed (SIGKILL) while its deliveries are in flight loses none of
 * them. The store's database keeps every event, its fan-out cursor and each delivery's claim; once the
 * dead process's claims lapse, another process sends what it had taken, in order per entity. On
 * PostgreSQL a second platform process goes on serving the store through the crash.
 */
describe.each(DIALECTS)('a platform process killed mid-delivery, on %s', (dialect) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('loses no event: afterwards each one reaches the receiver, in order per entity, with no gap', async () => {
    const receiver = await holdingReceiver();
    cleanup.push(receiver.close);
    const env = { CARTWHEEL_WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' };
    const first = await startTestPlatform({ dialect, env });
    cleanup.push(first.stop);
    let second: TestPlatform | undefined;
    if (dialect === 'postgres') {
      second = await startTestPlatform({ dialect, env, sharing: first });
      cleanup.push(second.stop);
    }
    const created = await admin(first).post('/api/cartwheel/webhooks', {
      webhook: { url: receiver.url, eventTypes: EVENT_TYPES },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    // orders made on both processes, each changed twice: three events per order
    const processes = [first, second ?? first];
    const orderIds: string[] = [];
    for (let n = 0; n < ORDERS; n++) {
      const on = processes[n % processes.length]!;
      const placed = await admin(on).post('/ecom/v1/orders', recordedOrder());
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      orderIds.push(placed.body.order.id);
    }
    await receiver.arrived;
    for (const [n, id] of orderIds.entries()) {
      const on = processes[n % processes.length]!;
      for (const seen of [true, false]) {
        const changed = await admin(on).patch(`/ecom/v1/orders/${id}`, { order: { id, seenByAHuman: seen } });
        expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      }
    }
    // the first process dies with deliveries in flight (the receiver answers none of them yet)
    await first.kill();
    receiver.release();

    const database = connectDatabase(first.database);
    cleanup.push(() => database.close());
    const next = survivor(database, dialect);
    cleanup.push(next.stop);
    // on PostgreSQL the second process sends too: a delivery it holds (its claim, or an earlier event of
    // the same order in flight there) is sent by whichever of the two gets to it, so look again until none waits
    const waiting = () =>
      database.db
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'status'])
        .where('status', '!=', 'DELIVERED')
        .execute();
    await expect
      .poll(
        async () => {
          await next.finish();
          return waiting();
        },
        { timeout: 20_000, interval: 200 },
      )
      .toEqual([]);

    const events = await database.db
      .selectFrom('events_outbox')
      .select(['id', 'entity_id'])
      .where('entity_fqdn', '=', 'wix.ecom.v1.order')
      .where('slug', 'in', ['created', 'updated'])
      .execute();
    const expected = new Set(events.map((event) => event.id));
    expect(expected.size).toBeGreaterThanOrEqual(ORDERS * 3);

    // de-duplicated by event id (at least once: a delivery in flight at the crash may come twice)
    const firsts = new Map<string, ReturnType<typeof eventOf>>();
    for (const body of receiver.bodies) {
      const event = eventOf(body);
      if (!firsts.has(event.id)) firsts.set(event.id, event);
    }
    expect(new Set(firsts.keys())).toEqual(expected);
    const sequences = new Map<string, number[]>();
    for (const event of firsts.values()) {
      sequences.set(event.entityId, [
        ...(sequences.get(event.entityId) ?? []),
        Number(event.entityEventSequence),
      ]);
    }
    for (const id of orderIds) {
      const seen = sequences.get(id) ?? [];
      expect(seen, id).toEqual(seen.map((_, index) => index + 1));
      expect(seen.length, id).toBeGreaterThanOrEqual(3);
    }
  });
});
