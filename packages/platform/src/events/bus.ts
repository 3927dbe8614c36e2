import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { Workers } from '../workers/runtime.ts';
import { GAP_WAIT_MS, SequenceGaps } from '../workers/sequence-gaps.ts';
import type { Worker } from '../workers/worker.ts';
import {
  EVENT_ENTITIES,
  type EventEntity,
  type EventSlug,
  onEventsWritten,
  type RecordedEvent,
  recordedEvent,
} from './outbox.ts';

/** A domain's handler of some of the outbox's events, run by the bus in the background. */
export interface Subscriber {
  /** Unique in the platform: its cursor and its lease are named after it. Never rename a live one. */
  name: string;
  /** The events it handles, by entity and slug; every other event passes its cursor unread. */
  wants: Partial<Record<EventEntity, readonly EventSlug[]>>;
  /**
   * Handles one event. At least once: an event may come again (a failure after it, a process stopped
   * before its cursor was written), so what it does must be keyed by the event (its `id`) or idempotent.
   * Throwing stops this subscriber at the event, which comes again at the next tick.
   */
  handle(event: RecordedEvent): Promise<void>;
}

export interface EventBusOptions {
  /** How often each subscriber looks for events when nothing woke it. */
  everyMs?: number;
  /** Events older than this, handled by every subscriber, are deleted. */
  retentionMs: number;
  /** How long a number skipped by the sequence is waited for (a transaction still open). */
  gapWaitMs?: number;
}

const READ_EVERY_MS = 1000;
/** Events one read of a subscriber's takes at once (their sequence, entity and slug only). */
const READ_PAGE = 500;
/** A process that wrote events a subscriber wants wakes it this soon, and once more a little later. */
const WAKE_AFTER_MS = [20, 250];
const PRUNE_EVERY_MS = 10 * 60_000;
/** How long `deliverNow` waits for another process that holds a subscriber's lease, and how often it looks. */
const DELIVER_WAIT_MS = 3000;
const DELIVER_POLL_MS = 25;
/** Events one delete removes: a short statement, repeated until none are left to prune. */
const PRUNE_BATCH = 1000;

/**
 * The outbox as the platform's internal event bus. Each subscriber has a cursor (`event_cursors`: the
 * last sequence it handled) and a worker that reads on from it in sequence order, holding the
 * subscriber's lease so one process of several handles it. Over PostgreSQL a sequence number is taken
 * before its transaction commits: a reader that meets a skipped number waits for it (SequenceGaps)
 * rather than pass it. A subscriber that fails stays at its event; the others go on.
 */
export class EventBus {
  private readonly readers = new Map<
    string,
    { subscriber: Subscriber; worker: Worker; reader: SubscriberReader }
  >();
  private readonly pendingWakes = new Set<string>();
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly workers: Workers,
    private readonly options: EventBusOptions,
  ) {
    workers.add({
      name: 'event-bus:prune',
      everyMs: PRUNE_EVERY_MS,
      leased: true,
      runAtStart: true,
      run: () => this.prune().then(() => {}),
    });
  }

  /** Adds a subscriber; it reads from the events written after it was first added to this store. */
  subscribe(subscriber: Subscriber): void {
    if (this.readers.has(subscriber.name)) throw new Error(`a subscriber named ${subscriber.name} exists`);
    const reader = new SubscriberReader(this.db, subscriber, this.workers, this.options.gapWaitMs);
    const worker = this.workers.add({
      name: `event-bus:${subscriber.name}`,
      everyMs: this.options.everyMs ?? READ_EVERY_MS,
      leased: true,
      runAtStart: true,
      run: () => reader.read(),
    });
    this.readers.set(subscriber.name, { subscriber, worker, reader });
  }

  /** Wakes the subscribers soon after this process writes events they want (once committed, they read them). */
  listen(): void {
    this.stopListening ??= onEventsWritten((events) => {
      for (const { subscriber, worker } of this.readers.values()) {
        if (this.pendingWakes.has(subscriber.name)) continue;
        if (!events.some((event) => subscriber.wants[event.entity]?.includes(event.slug))) continue;
        this.pendingWakes.add(subscriber.name);
        for (const [index, ms] of WAKE_AFTER_MS.entries()) {
          this.workers.clock.after(ms, () => {
            if (index === WAKE_AFTER_MS.length - 1) this.pendingWakes.delete(subscriber.name);
            void worker.runNow();
          });
        }
      }
    });
  }

  unlisten(): void {
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /**
   * Runs now every subscriber of `entity` (all of them without one) and resolves once each has read
   * what had committed: for a change whose effect its caller shows at once (a guest's orders joining
   * the member who just signed in). When another process holds a subscriber's lease, it waits (up to
   * `DELIVER_WAIT_MS`) for that process to pass what had been written.
   */
  async deliverNow(entity?: EventEntity): Promise<void> {
    const written = await this.db
      .selectFrom('events_outbox')
      .select((eb) => eb.fn.max('sequence').as('sequence'))
      .executeTakeFirst();
    const target = Number(written?.sequence ?? 0);
    await Promise.all(
      [...this.readers.values()]
        .filter(({ subscriber }) => entity === undefined || subscriber.wants[entity] !== undefined)
        .map(async ({ worker, reader }) => {
          await worker.runNow();
          const clock = this.workers.clock;
          const until = clock.now() + DELIVER_WAIT_MS;
          while (worker.heldElsewhere && clock.now() < until && (await reader.position()) < target) {
            await new Promise<void>((resolve) => clock.after(DELIVER_POLL_MS, resolve));
          }
        }),
    );
  }

  /**
   * Deletes, in batches, the events older than the retention period that every subscriber has handled
   * (a cursor at or past them); answers how many.
   */
  async prune(): Promise<number> {
    const names = [...this.readers.keys()];
    let upTo = Number.MAX_SAFE_INTEGER;
    if (names.length > 0) {
      const cursors = await this.db
        .selectFrom('event_cursors')
        .select(['subscriber', 'sequence'])
        .where('subscriber', 'in', names)
        .execute();
      // a subscriber without a cursor yet starts after what exists: nothing older is kept for it
      for (const row of cursors) upTo = Math.min(upTo, Number(row.sequence));
    }
    const before = new Date(this.workers.clock.now() - this.options.retentionMs).toISOString();
    let pruned = 0;
    for (;;) {
      const batch = await this.db
        .selectFrom('events_outbox')
        .select('sequence')
        .where('sequence', '<=', upTo)
        .where('created_at', '<', before)
        .orderBy('sequence')
        .limit(PRUNE_BATCH)
        .execute();
      if (batch.length === 0) return pruned;
      const sequences = batch.map((row) => Number(row.sequence));
      await this.db.deleteFrom('events_outbox').where('sequence', 'in', sequences).execute();
      pruned += sequences.length;
      if (batch.length < PRUNE_BATCH) return pruned;
    }
  }
}

/** One subscriber's reading of the outbox from its cursor, in sequence order. */
class SubscriberReader {
  private readonly gaps: SequenceGaps;
  private readonly clock: Workers['clock'];
  /** `<entity fqdn> <slug>` of each event it handles. */
  private readonly wanted: Set<string>;
  private cursorMade = false;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly subscriber: Subscriber,
    workers: Workers,
    gapWaitMs = GAP_WAIT_MS,
  ) {
    this.gaps = new SequenceGaps(workers.clock, gapWaitMs);
    this.wanted = new Set(
      Object.entries(subscriber.wants).flatMap(([entity, slugs]) =>
        (slugs ?? []).map((slug) => `${EVENT_ENTITIES[entity as EventEntity]} ${slug}`),
      ),
    );
    this.clock = workers.clock;
  }

  /** Handles the events after the cursor until none are left, a skipped number holds it back, or one fails. */
  async read(): Promise<void> {
    const start = await this.cursor();
    let handled = start;
    try {
      for (;;) {
        const page = await this.db
          .selectFrom('events_outbox')
          .select(['sequence', 'entity_fqdn', 'slug'])
          .where('sequence', '>', handled)
          .orderBy('sequence')
          .limit(READ_PAGE)
          .execute();
        const wanted = page
          .filter((row) => this.wanted.has(`${row.entity_fqdn} ${row.slug}`))
          .map((row) => Number(row.sequence));
        const events = new Map<number, RecordedEvent>();
        if (wanted.length > 0) {
          const rows = await this.db
            .selectFrom('events_outbox')
            .selectAll()
            .where('sequence', 'in', wanted)
            .execute();
          for (const row of rows) events.set(Number(row.sequence), recordedEvent(row));
        }
        for (const row of page) {
          const sequence = Number(row.sequence);
          if (sequence > handled + 1) {
            this.gaps.skipped(handled, sequence);
            if (this.gaps.holdsBack(sequence)) return; // a transaction still open holds a number before it
            handled = sequence - 1; // the skipped numbers were given up: their transactions rolled back
          }
          const event = events.get(sequence);
          if (event) await this.subscriber.handle(event);
          handled = sequence;
        }
        if (page.length < READ_PAGE) return;
      }
    } finally {
      if (handled !== start) await this.save(handled);
    }
  }

  /** The last sequence the subscriber has handled, in whichever process handled it. */
  async position(): Promise<number> {
    const row = await this.db
      .selectFrom('event_cursors')
      .select('sequence')
      .where('subscriber', '=', this.subscriber.name)
      .executeTakeFirst();
    return Number(row?.sequence ?? 0);
  }

  /** The subscriber's cursor, made at the outbox's end the first time (it handles what comes after). */
  private async cursor(): Promise<number> {
    if (!this.cursorMade) {
      const last = await this.db
        .selectFrom('events_outbox')
        .select((eb) => eb.fn.max('sequence').as('sequence'))
        .executeTakeFirst();
      await this.db
        .insertInto('event_cursors')
        .values({
          subscriber: this.subscriber.name,
          sequence: Number(last?.sequence ?? 0),
          updated_at: new Date(this.clock.now()).toISOString(),
        })
        .onConflict((conflict) => conflict.column('subscriber').doNothing())
        .execute();
      this.cursorMade = true;
    }
    const row = await this.db
      .selectFrom('event_cursors')
      .select('sequence')
      .where('subscriber', '=', this.subscriber.name)
      .executeTakeFirstOrThrow();
    return Number(row.sequence);
  }

  private async save(sequence: number): Promise<void> {
    await this.db
      .updateTable('event_cursors')
      .set({ sequence, updated_at: new Date(this.clock.now()).toISOString() })
      .where('subscriber', '=', this.subscriber.name)
      .where('sequence', '<', sequence)
      .execute();
  }
}
