import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { Mailer } from '../src/email/mailer.ts';
import { EventBus, type Subscriber } from '../src/events/bus.ts';
import { type DomainEvent, type RecordedEvent, readEvents, recordEvents } from '../src/events/outbox.ts';
import { orderConfirmationEmails } from '../src/orders/subscribers.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { Workers } from '../src/workers/runtime.ts';
import { freshDatabase, gate } from './bus-support.ts';
import { DIALECTS } from './support/platform.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const cartEvent = (id: string): DomainEvent => ({
  entity: 'cart',
  slug: 'updated',
  entityId: id,
  payload: { id },
});

/** A subscriber that keeps the carts it was told of, and fails on the ones `failOn` names while it does. */
function keeper(name: string, failOn = new Set<string>()) {
  const seen: string[] = [];
  const subscriber: Subscriber = {
    name,
    wants: { cart: ['updated'] },
    async handle(event: RecordedEvent) {
      if (failOn.has(event.entityId)) throw new Error(`${name} cannot handle ${event.entityId}`);
      seen.push(event.entityId);
    },
  };
  return { subscriber, seen, failOn };
}

describe.each(DIALECTS)('the event bus, on %s', (dialect) => {
  let store: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let clock: ManualClock;
  const runtimes: Workers[] = [];

  /** A process's bus over the store: its own connection, runtime and subscribers. */
  function bus(subscribers: Subscriber[], options: { gapWaitMs?: number; retentionMs?: number } = {}) {
    const connection = store.connect();
    const workers = new Workers(connection.db, { clock });
    runtimes.push(workers);
    const events = new EventBus(connection.db, workers, {
      retentionMs: options.retentionMs ?? 30 * DAY_MS,
      ...(options.gapWaitMs !== undefined ? { gapWaitMs: options.gapWaitMs } : {}),
    });
    for (const subscriber of subscribers) events.subscribe(subscriber);
    workers.start();
    return { workers, events };
  }
  const write = (...ids: string[]) => recordEvents(database.db, ids.map(cartEvent));

  beforeEach(async () => {
    store = await freshDatabase(dialect);
    database = store.connect();
    clock = new ManualClock();
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((workers) => workers.stop()));
    await store.drop();
  });

  it('hands each subscriber the events written after it joined, in sequence order, and the others none', async () => {
    await write('before');
    const carts = keeper('carts');
    const { events } = bus([carts.subscriber]);
    await events.deliverNow();
    await write('a', 'b');
    await recordEvents(database.db, [{ entity: 'order', slug: 'created', entityId: 'o', payload: {} }]);
    await write('c');
    await events.deliverNow();
    expect(carts.seen).toEqual(['a', 'b', 'c']);
  });

  it('retries a failing subscriber from the event it failed on, without holding up another', async () => {
    const failing = keeper('failing', new Set(['b']));
    const healthy = keeper('healthy');
    const { events, workers } = bus([failing.subscriber, healthy.subscriber]);
    const failures: string[] = [];
    workers.onError = (error) => failures.push((error as Error).message);
    await events.deliverNow();
    await write('a', 'b', 'c');
    await events.deliverNow();
    expect(healthy.seen).toEqual(['a', 'b', 'c']);
    expect(failing.seen).toEqual(['a']);
    expect(failures).toEqual(['failing cannot handle b']);

    failing.failOn.clear();
    await clock.advance(1000); // its next tick
    await workers.get('event-bus:failing')!.idle();
    expect(failing.seen).toEqual(['a', 'b', 'c']);
    expect(healthy.seen).toEqual(['a', 'b', 'c']);
  });

  it('keeps each subscriber’s cursor across a restart: a new process goes on where the last stopped', async () => {
    const first = keeper('resuming');
    const before = bus([first.subscriber]);
    await before.events.deliverNow();
    await write('a', 'b');
    await before.events.deliverNow();
    await before.workers.stop();
    await write('c');

    const second = keeper('resuming');
    const after = bus([second.subscriber]);
    await after.events.deliverNow();
    expect(first.seen).toEqual(['a', 'b']);
    expect(second.seen).toEqual(['c']);
  });

  it('waits for a number skipped by the sequence, then gives it up once the wait has passed on the clock', async () => {
    const carts = keeper('gaps');
    const { events } = bus([carts.subscriber], { gapWaitMs: 60_000 });
    await events.deliverNow();
    await write('a', 'lost', 'c');
    const [, lost] = await readEvents(database.db);
    // a number whose row never commits (its transaction rolled back) looks like this to a reader
    await database.db.deleteFrom('events_outbox').where('sequence', '=', lost!.sequence).execute();
    await events.deliverNow();
    expect(carts.seen).toEqual(['a']);
    await clock.advance(30_000);
    await events.deliverNow();
    expect(carts.seen).toEqual(['a']);
    await clock.advance(31_000);
    await events.deliverNow();
    expect(carts.seen).toEqual(['a', 'c']);
  });

  it('prunes events past the retention period once every subscriber has handled them, in batches', async () => {
    const ahead = keeper('ahead');
    const behind = keeper('behind', new Set(['old-2']));
    const { events } = bus([ahead.subscriber, behind.subscriber], { retentionMs: 30 * DAY_MS });
    await events.deliverNow();
    const old = new Date(clock.now() - 31 * DAY_MS);
    const oldIds = Array.from({ length: 1203 }, (_, index) => `old-${index}`);
    await recordEvents(database.db, oldIds.map(cartEvent), old);
    await write('recent');
    await events.deliverNow();
    expect(behind.seen).toEqual(['old-0', 'old-1']);

    // `behind` has handled two of the old events: only they may go
    expect(await events.prune()).toBe(2);
    behind.failOn.clear();
    await events.deliverNow();
    expect(await events.prune()).toBe(1201);
    const left = await readEvents(database.db);
    expect(left.map((event) => event.entityId)).toEqual(['recent']);
  });

  it('mails an order’s confirmation once though its approved event is handled twice', async () => {
    const mailer = new Mailer(database.db, { logLevel: 'silent' });
    const confirmations = orderConfirmationEmails(mailer, {
      publicUrl: 'http://shop.test',
      storeName: 'Test Shop',
    });
    const order = {
      id: 'order-1',
      number: '10001',
      createdDate: new Date(clock.now()).toISOString(),
      lineItems: [],
      buyerInfo: { email: 'buyer@shop.test' },
      priceSummary: Object.fromEntries(
        ['subtotal', 'shipping', 'tax', 'discount', 'total'].map((key) => [
          key,
          { amount: '0', formattedAmount: '$0.00' },
        ]),
      ),
    };
    await recordEvents(database.db, [
      { entity: 'order', slug: 'approved', entityId: order.id, payload: { entity: order } },
    ]);
    const [approved] = await readEvents(database.db);
    await confirmations.handle(approved!);
    await confirmations.handle(approved!);
    const mailed = await mailer.recent({ to: 'buyer@shop.test' });
    expect(mailed.map((message) => message.kind)).toEqual(['ORDER_CONFIRMATION']);
  });
});

describe('the event bus over PostgreSQL, where a sequence number is taken before its transaction commits', () => {
  let store: Awaited<ReturnType<typeof freshDatabase>>;
  let database: Database;
  let workers: Workers;
  const write = (...ids: string[]) => recordEvents(database.db, ids.map(cartEvent));
  function bus(subscribers: Subscriber[]) {
    const connection = store.connect();
    workers = new Workers(connection.db, { clock: new ManualClock() });
    const events = new EventBus(connection.db, workers, { retentionMs: 30 * DAY_MS });
    for (const subscriber of subscribers) events.subscribe(subscriber);
    workers.start();
    return { events };
  }

  beforeEach(async () => {
    store = await freshDatabase('postgres');
    database = store.connect();
  });
  afterEach(async () => {
    await workers?.stop();
    await store.drop();
  });

  it('delivers in sequence order though a later number commits first: it waits for the open transaction', async () => {
    const carts = keeper('commit-order');
    const { events } = bus([carts.subscriber]);
    await events.deliverNow();
    const open = gate();
    const numbered = gate();
    const slow = database.db.transaction().execute(async (trx) => {
      await recordEvents(trx, [cartEvent('first-numbered')]);
      numbered.open();
      await open.promise;
    });
    await numbered.promise;
    await write('committed-first');
    await events.deliverNow();
    expect(carts.seen).toEqual([]);
    open.open();
    await slow;
    await events.deliverNow();
    expect(carts.seen).toEqual(['first-numbered', 'committed-first']);
  });
});
