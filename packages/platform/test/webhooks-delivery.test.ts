import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookReceiver } from '@cartwheel/sdk/webhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Database, inTransaction } from '../src/db/database.ts';
import { type DomainEvent, readEvents, recordEvents } from '../src/events/outbox.ts';
import { Settings } from '../src/settings/settings.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { newId } from '../src/shared/ids.ts';
import { checkAddress, RefusedAddress } from '../src/webhooks/addresses.ts';
import { nextAttemptAt, RETRY_AFTER_MAX_MS, RETRY_HORIZON_MS } from '../src/webhooks/schedule.ts';
import { httpSender } from '../src/webhooks/sender.ts';
import { WebhookService } from '../src/webhooks/service.ts';
import { freshDatabase } from './bus-support.ts';
import { DIALECTS } from './support/platform.ts';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DAY = 24 * HOUR;
const LOOPBACK = { allowHttpLoopback: true };
/** The app under test, holding every permission (what an app may subscribe to is webhooks-http's). */
const APP = { app: 'app-under-test', holds: () => true };

/** What a receiver was sent: the body and headers of each request, in arrival order. */
interface Received {
  body: string;
  headers: http.IncomingHttpHeaders;
}

/**
 * An app's receiver on a loopback port: it answers each delivery as `answer` says (200 unless told),
 * and can go down (its port closed, so connections are refused) and come back on the same port.
 */
async function receiver() {
  const received: Received[] = [];
  let answer: (body: string) => { status: number; headers?: Record<string, string>; body?: string } = () => ({
    status: 200,
  });
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ body, headers: request.headers });
      const { status, headers, body: text } = answer(body);
      response.writeHead(status, headers).end(text ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers(next: typeof answer) {
      answer = next;
    },
    down: () => new Promise<void>((resolve) => server.close(() => resolve())),
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

describe.each(DIALECTS)('webhook delivery, on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let clock: ManualClock;
  let webhooks: WebhookService;
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];

  /** A process's webhooks over the store: its own connection, on the test's clock. */
  const aProcess = () => {
    const connection = dialect === 'sqlite' ? database : store.connect();
    return new WebhookService(
      connection.db,
      { settings: new Settings(connection.db) },
      { dialect, clock, policy: LOOPBACK },
    );
  };

  beforeAll(async () => {
    store = await freshDatabase(dialect);
    database = store.connect();
    // the receivers check tokens against this clock; it starts at the wall's time and moves when told
    clock = new ManualClock(Date.now());
    webhooks = aProcess();
  });
  afterEach(async () => {
    // each test's endpoints and deliveries go with it, so the next one's fan-out meets only its own
    await database.db.deleteFrom('webhook_attempts').execute();
    await database.db.deleteFrom('webhook_deliveries').execute();
    await database.db.deleteFrom('webhook_endpoints').execute();
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => {
    await store?.drop();
  });

  async function endpoint(eventTypes: string[], options: { signature?: 'JWT' | 'STANDARD' } = {}) {
    const app = await receiver();
    receivers.push(app);
    const created = await webhooks.endpoints.create(APP, { url: app.url, eventTypes, ...options });
    return { ...app, id: created.endpoint.id, secret: created.secret };
  }

  /** Records `events` (each in its own transaction, as separate changes are) and fans each out. */
  async function happen(...events: DomainEvent[]) {
    const before = await readEvents(database.db, { limit: 1_000_000 });
    const after = before.at(-1)?.sequence ?? 0;
    for (const event of events) await recordEvents(database.db, [event]);
    for (const event of await readEvents(database.db, { afterSequence: after })) {
      await webhooks.delivery.fanOut(event);
    }
  }
  const orderUpdated = (orderId: string, n: number): DomainEvent => ({
    entity: 'order',
    slug: 'updated',
    entityId: orderId,
    payload: { entity: { id: orderId, number: String(n) } },
  });

  /**
   * The domain events a receiver was sent as signed JWTs, each verified with the app's public key at
   * the time it was sent (a token lives an hour; some of these were sent days ago on the test's clock).
   */
  async function verified(app: { received: Received[] }) {
    const publicKey = await webhooks.keys.publicKey(APP.app);
    const events: { id: string; entityId: string; sequence: number; number: string }[] = [];
    for (const { body } of app.received) {
      const sentAt = claimsOf(body).iat * 1000;
      const verifier = createWebhookReceiver({ publicKey, now: () => sentAt });
      verifier.on('wix.ecom.v1.order_updated', (event) => {
        events.push({
          id: event.metadata.id ?? '',
          entityId: event.metadata.entityId ?? '',
          sequence: Number(event.metadata.entityEventSequence),
          number: event.entity.number ?? '',
        });
      });
      await verifier.process(body);
    }
    return events;
  }

  /** The clock moved by `ms` in steps, everything due sent at each. */
  async function passes(ms: number, step = 5 * 60 * SECOND) {
    for (let moved = 0; moved < ms; moved += step) {
      await clock.advance(Math.min(step, ms - moved));
      await webhooks.delivery.drain();
    }
  }

  it("numbers each entity's events 1, 2, 3... with no gap, concurrent writers and a rollback included", async () => {
    const orderId = newId();
    const writers = Array.from({ length: 12 }, (_, n) =>
      inTransaction(database.db, (trx) => recordEvents(trx, [orderUpdated(orderId, n)])),
    );
    // a change that rolls back gives its number back
    const rolledBack = inTransaction(database.db, async (trx) => {
      await recordEvents(trx, [orderUpdated(orderId, 99)]);
      throw new Error('the change failed');
    }).catch(() => 'rolled back');
    await Promise.all([...writers, rolledBack]);
    await recordEvents(database.db, [orderUpdated(orderId, 13), orderUpdated(orderId, 14)]);
    const events = (await readEvents(database.db, { entityId: orderId })).map((e) => e.entityEventSequence);
    // in the outbox's order (what the bus reads) the numbers count up
    expect(events).toEqual(Array.from({ length: 14 }, (_, n) => n + 1));
  });

  it("sends an order's events in order, signed as the hosted platform signs them, the same id on each attempt", async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const orderId = newId();
    app.answers(() => ({ status: 503 }));
    await happen(orderUpdated(orderId, 1), orderUpdated(orderId, 2));
    await webhooks.delivery.drain();
    // the first failed: the second waits behind it
    expect(app.received).toHaveLength(1);
    app.answers(() => ({ status: 200 }));
    await passes(5 * SECOND, SECOND);
    const events = await verified(app);
    expect(events.map((event) => event.number)).toEqual(['1', '1', '2']);
    expect(events[0]!.id).toBe(events[1]!.id);
    expect(events.map((event) => event.sequence)).toEqual([1, 1, 2]);
  });

  it("one entity's failing event holds up no other entity, and after three days of failing is a dead letter", async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const [stuck, flowing] = [newId(), newId()];
    app.answers((body) => ({ status: eventOf(body).entityId === stuck ? 500 : 200 }));
    await happen(
      orderUpdated(stuck, 1),
      orderUpdated(flowing, 1),
      orderUpdated(stuck, 2),
      orderUpdated(flowing, 2),
    );
    await webhooks.delivery.drain();
    const first = await verified({
      received: app.received.filter((r) => eventOf(r.body).entityId !== stuck),
    });
    expect(first.map((event) => [event.entityId, event.sequence])).toEqual([
      [flowing, 1],
      [flowing, 2],
    ]);
    // the stuck entity's first event is retried; its second is never sent before it
    await passes(RETRY_HORIZON_MS + DAY, HOUR);
    const stuckSends = app.received
      .map((r) => eventOf(r.body))
      .filter((event) => event.entityId === stuck)
      .map((event) => event.entityEventSequence);
    // its first event is tried for three days; only once that is given up does the second go
    expect(stuckSends.filter((sequence) => sequence === '1').length).toBeGreaterThan(5);
    expect(stuckSends).toEqual([...stuckSends].sort());
    expect(stuckSends).toContain('2');
    const log = await webhooks.delivery.log(app.id, {});
    const dead = log.filter((entry) => entry.status === 'DEAD');
    expect(dead).toHaveLength(1);
    expect(dead[0]!.attempts.at(-1)!.statusCode).toBe(500);
    // the endpoint answered the other entity, so it is not paused
    expect((await webhooks.endpoints.get(APP.app, app.id)).status).toBe('ACTIVE');
    expect(await webhooks.delivery.deadLetterCount(APP.app)).toBe(1);
    expect(await webhooks.delivery.deadLetterCount('another-app')).toBe(0);

    // the receiver mended, the dead letter is replayed: the same event, sent before the entity's next
    app.answers(() => ({ status: 200 }));
    const sentBefore = app.received.length;
    const replayed = await webhooks.delivery.replay(app.id, dead[0]!.id);
    expect(replayed).toMatchObject({ status: 'PENDING', eventId: dead[0]!.eventId });
    await webhooks.delivery.drain();
    const resent = app.received.slice(sentBefore).map((r) => eventOf(r.body));
    expect(resent[0]).toMatchObject({ id: dead[0]!.eventId, entityId: stuck, entityEventSequence: '1' });
    expect(await webhooks.delivery.deadLetterCount(APP.app)).toBe(0);
  });

  it('a receiver down for a day gets every event once it is back, in order per entity, with no gap', async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const orders = [newId(), newId(), newId()];
    await app.down();
    for (let n = 1; n <= 3; n++) await happen(...orders.map((orderId) => orderUpdated(orderId, n)));
    await webhooks.delivery.drain();
    await passes(DAY, HOUR);
    expect(app.received).toHaveLength(0);
    const log = await webhooks.delivery.log(app.id, {});
    expect(log.every((entry) => entry.status === 'PENDING')).toBe(true);
    expect(log.find((entry) => entry.attempts.length > 0)!.attempts[0]!.outcome).toBe('UNREACHABLE');
    await app.up();
    await passes(12 * HOUR, HOUR);
    const events = await verified(app);
    const byEntity = new Map<string, number[]>();
    for (const event of events)
      byEntity.set(event.entityId, [...(byEntity.get(event.entityId) ?? []), event.sequence]);
    for (const orderId of orders) expect(byEntity.get(orderId)).toEqual([1, 2, 3]);
    expect(new Set(events.map((event) => event.id)).size).toBe(9);
  });

  it('an endpoint that fails for three days is paused with its events kept; resumed, it gets them in order', async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const orderId = newId();
    app.answers(() => ({ status: 500 }));
    await happen(orderUpdated(orderId, 1), orderUpdated(orderId, 2));
    await webhooks.delivery.drain();
    await passes(RETRY_HORIZON_MS + DAY, 2 * HOUR);
    expect(await webhooks.endpoints.get(APP.app, app.id)).toMatchObject({
      status: 'PAUSED',
      pausedReason: 'FAILING',
    });
    const tries = app.received.length;
    await passes(DAY, 2 * HOUR);
    expect(app.received).toHaveLength(tries);
    app.answers(() => ({ status: 200 }));
    app.received.length = 0;
    await webhooks.endpoints.update(APP, app.id, { status: 'ACTIVE' });
    await webhooks.delivery.drain();
    expect((await verified(app)).map((event) => event.sequence)).toEqual([1, 2]);
  });

  it('410 pauses the endpoint at once, its deliveries kept; 429 waits as long as Retry-After says', async () => {
    const gone = await endpoint(['wix.ecom.v1.order_updated']);
    gone.answers(() => ({ status: 410 }));
    const orderId = newId();
    await happen(orderUpdated(orderId, 1));
    await webhooks.delivery.drain();
    expect(await webhooks.endpoints.get(APP.app, gone.id)).toMatchObject({
      status: 'PAUSED',
      pausedReason: 'GONE',
    });
    expect((await webhooks.delivery.log(gone.id, {}))[0]!.status).toBe('PENDING');
    await webhooks.endpoints.delete(APP.app, gone.id);

    const busy = await endpoint(['wix.ecom.v1.order_updated']);
    busy.answers(() => ({ status: 429, headers: { 'retry-after': '120' } }));
    await happen(orderUpdated(newId(), 1));
    await webhooks.delivery.drain();
    const [entry] = await webhooks.delivery.log(busy.id, {});
    expect(Date.parse(entry!.nextAttemptDate!) - clock.now()).toBe(120 * SECOND);
    busy.answers(() => ({ status: 200 }));
    await passes(60 * SECOND, 10 * SECOND);
    expect(busy.received).toHaveLength(1);
    await passes(60 * SECOND, 10 * SECOND);
    expect(busy.received).toHaveLength(2);
  });

  it('processes sharing the store send each delivery once', async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const orders = Array.from({ length: 20 }, () => newId());
    await happen(...orders.map((orderId) => orderUpdated(orderId, 1)));
    const others = [aProcess(), aProcess(), aProcess()];
    await Promise.all([webhooks, ...others].map((one) => one.delivery.drain()));
    const ids = (await verified(app)).map((event) => event.id);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
  });

  it("signs a Standard Webhooks endpoint's deliveries with its secret, which the SDK's receiver checks", async () => {
    const app = await endpoint(['wix.ecom.v1.order_created'], { signature: 'STANDARD' });
    expect(app.secret).toMatch(/^whsec_/);
    const orderId = newId();
    await happen({
      entity: 'order',
      slug: 'created',
      entityId: orderId,
      payload: { entity: { id: orderId } },
    });
    await webhooks.delivery.drain();
    const seen: string[] = [];
    const verifier = createWebhookReceiver({
      publicKey: await webhooks.keys.publicKey(APP.app),
      standardSecret: app.secret!,
      now: () => clock.now(),
    });
    verifier.on('wix.ecom.v1.order_created', (event) => {
      seen.push(event.entity.id ?? '');
    });
    const [{ body, headers }] = app.received as [Received];
    await verifier.processRequest(
      new Request('http://app.test/hooks', {
        method: 'POST',
        body,
        headers: headers as Record<string, string>,
      }),
    );
    expect(seen).toEqual([orderId]);
  });

  it('reads no more of an answer than its limit, and gives up on a receiver that never answers', async () => {
    const huge = await endpoint(['wix.ecom.v1.order_updated']);
    huge.answers(() => ({ status: 200, body: 'x'.repeat(10 * 1024 * 1024) }));
    await happen(orderUpdated(newId(), 1));
    await webhooks.delivery.drain();
    const [entry] = await webhooks.delivery.log(huge.id, {});
    expect(entry!.status).toBe('DELIVERED');
    expect(entry!.attempts[0]!.responseExcerpt!.length).toBeLessThanOrEqual(1024);

    const silent = http.createServer(() => {}); // takes the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const send = httpSender(LOOPBACK, 200);
    const started = Date.now();
    const result = await send({
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
      headers: {},
      body: 'x',
    });
    expect(result.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    silent.closeAllConnections();
    silent.close();
  });

  it('keeps a delivered event in the log for its retention, then prunes it with its attempts; dead letters stay', async () => {
    const app = await endpoint(['wix.ecom.v1.order_updated']);
    const [kept, dead] = [newId(), newId()];
    app.answers((body) => ({ status: eventOf(body).entityId === dead ? 500 : 200 }));
    await happen(orderUpdated(kept, 1), orderUpdated(dead, 1));
    await passes(4 * DAY, HOUR);
    const statuses = async () =>
      Object.fromEntries((await webhooks.delivery.log(app.id, {})).map((entry) => [entry.status, entry]));
    expect(Object.keys(await statuses()).sort()).toEqual(['DEAD', 'DELIVERED']);

    // delivered four days ago: a week's retention keeps it, three days' prunes it and its attempts
    expect(await webhooks.delivery.pruneLog(7 * DAY)).toBe(0);
    expect(await webhooks.delivery.pruneLog(3 * DAY)).toBe(1);
    expect(Object.keys(await statuses())).toEqual(['DEAD']);
    const attempts = await database.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select('webhook_deliveries.status')
      .distinct()
      .execute();
    expect(attempts).toEqual([{ status: 'DEAD' }]);
    const orphans = await database.db
      .selectFrom('webhook_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('delivery_id', 'not in', database.db.selectFrom('webhook_deliveries').select('id'))
      .executeTakeFirstOrThrow();
    expect(Number(orphans.n)).toBe(0);
  });
});

describe('the retry schedule', () => {
  const start = Date.UTC(2026, 0, 1);

  it('tries again within 5 s, backs off with jitter, and goes on for at least three days', () => {
    for (const random of [() => 0, () => 0.999]) {
      const first = nextAttemptAt({ failures: 1, firstFailedAt: start, now: start, random })!;
      expect(first - start).toBeGreaterThanOrEqual(4 * SECOND);
      expect(first - start).toBeLessThanOrEqual(5 * SECOND);
      let now = start;
      let failures = 0;
      const waits: number[] = [];
      for (;;) {
        failures++;
        const next = nextAttemptAt({ failures, firstFailedAt: start, now, random });
        if (next === undefined) break;
        waits.push(next - now);
        now = next;
      }
      // every wait at least as long as the one before, until the 12-hour ceiling
      expect(waits.slice(0, 6)).toEqual([...waits.slice(0, 6)].sort((a, b) => a - b));
      expect(Math.max(...waits)).toBeLessThanOrEqual(12 * HOUR);
      // the last try was three days or more after the first failure
      expect(now - start).toBeGreaterThanOrEqual(RETRY_HORIZON_MS);
    }
  });

  it('honours Retry-After, in seconds or as a date, up to a day', () => {
    const base = { failures: 1, firstFailedAt: start, now: start, random: () => 0 };
    expect(nextAttemptAt({ ...base, retryAfter: '120' })! - start).toBe(120 * SECOND);
    const date = new Date(start + HOUR).toUTCString();
    expect(nextAttemptAt({ ...base, retryAfter: date })! - start).toBe(HOUR);
    expect(nextAttemptAt({ ...base, retryAfter: String(30 * 24 * 3600) })! - start).toBe(RETRY_AFTER_MAX_MS);
    // a Retry-After shorter than the schedule's wait does not hurry it
    expect(nextAttemptAt({ ...base, failures: 3, retryAfter: '1' })! - start).toBe(30 * 60 * SECOND);
  });
});

describe('where webhooks may go', () => {
  it('refuses private, link-local, metadata and reserved addresses, and loopback unless allowed', () => {
    const closed = { allowHttpLoopback: false };
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::ffff:10.0.0.1',
      'fd00:ec2::254',
      'fe80::1',
      '::',
    ]) {
      expect(() => checkAddress(address, 'https:', LOOPBACK), address).toThrow(RefusedAddress);
    }
    expect(() => checkAddress('127.0.0.1', 'https:', closed)).toThrow(/loopback/);
    expect(() => checkAddress('::1', 'http:', closed)).toThrow(/loopback/);
    expect(() => checkAddress('127.0.0.1', 'http:', LOOPBACK)).not.toThrow();
    expect(() => checkAddress('93.184.216.34', 'https:', closed)).not.toThrow();
    expect(() => checkAddress('93.184.216.34', 'http:', LOOPBACK)).toThrow(/https/);
  });

  it('does not follow a redirect: a 3xx is an answer that acknowledges nothing', async () => {
    let hits = 0;
    const server = http.createServer((_, response) => {
      hits++;
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const result = await httpSender(LOOPBACK)({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      headers: {},
      body: '{}',
    });
    expect(result).toMatchObject({ kind: 'answered', statusCode: 302 });
    expect(hits).toBe(1);
    server.close();
  });
});

/** A JWT delivery's claims, read without verifying. */
function claimsOf(body: string): { data: string; iat: number; exp: number } {
  return JSON.parse(Buffer.from(body.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

/** The domain event a JWT delivery carries, read without verifying: to tell deliveries apart. */
function eventOf(body: string): { entityId: string; entityEventSequence: string } {
  return JSON.parse(JSON.parse(claimsOf(body).data).data);
}
