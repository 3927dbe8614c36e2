import { performance } from 'node:perf_hooks';
import { standardSignature } from '@cartwheel/sdk/webhooks';
import { type Kysely, type Selectable, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { EVENT_ENTITIES, type RecordedEvent } from '../events/outbox.ts';
import type { EventActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Worker } from '../workers/worker.ts';
import { sampleEventOf, webhookEventsOf } from './event-types.ts';
import type { AppKeys } from './keys.ts';
import { nextAttemptAt } from './schedule.ts';
import { ATTEMPT_TIMEOUT_MS, type AttemptResult, type OutgoingDelivery, type Send } from './sender.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './tables.ts';

/** Deliveries one process sends at once. */
const IN_FLIGHT_MAX = 16;
/** Deliveries one statement of the log's pruning deletes. */
const PRUNE_BATCH = 500;
/** How long a claim holds a delivery: an attempt's timeout and room to write its outcome. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS + 20_000;

type Delivery = Selectable<WebhookDeliveryRow>;

/** A delivery written `now` and not yet tried: due at once. The fan-out's and a test event's alike. */
const unsent = (now: string) =>
  ({
    status: 'PENDING',
    attempts: 0,
    failures: 0,
    next_attempt_at: now,
    first_failed_at: null,
    claimed_until: null,
    last_status_code: null,
    created_at: now,
    delivered_at: null,
  }) as const;
type UpdateDeliveries = UpdateQueryBuilder<Tables, 'webhook_deliveries', 'webhook_deliveries', UpdateResult>;

/** One delivery as its app's log shows it. */
export interface DeliveryLogEntry {
  id: string;
  eventId: string;
  eventType: string;
  entityEventSequence: string | null;
  status: WebhookDeliveryRow['status'];
  /** A test event sent from the back office or `POST .../test`, about no real entity. */
  test: boolean;
  /** The event as the receiver gets it: the hosted domain event, or a plain event's data. */
  payload: Record<string, unknown>;
  attempts: {
    attempt: number;
    date: string;
    outcome: string;
    statusCode: number | null;
    durationMs: number;
    responseExcerpt: string | null;
  }[];
  nextAttemptDate: string | null;
  createdDate: string;
  deliveredDate: string | null;
}
type Endpoint = Selectable<WebhookEndpointRow>;

/** How a test event's id starts: the receiver and the log tell it from the store's own events. */
export const TEST_EVENT_PREFIX = 'test-';

export interface DeliveryOptions {
  dialect: DialectName;
  clock: Clock;
  keys: AppKeys;
  send: Send;
  /** The store's instance id, as every delivery names it. */
  instanceId: () => Promise<string>;
  /** A delivery's attempt failed in a way no receiver causes (the database); it is tried again. */
  onError?: (error: unknown) => void;
}

/**
 * Sending events to the endpoints that take them. The fan-out (a subscriber of the event bus) writes
 * one delivery per event and endpoint; the sender claims due deliveries and sends each, one process at
 * a time (a claim is a short transaction: `FOR UPDATE SKIP LOCKED` on PostgreSQL, SQLite's one writer
 * otherwise, then `claimed_until`), and writes what each attempt met. An entity's deliveries to one
 * endpoint go in order: one is claimable only when no earlier one of the same entity waits, so event
 * N+1 is never sent before N is acknowledged, and one entity's failing event holds up no other entity.
 */
export class WebhookDelivery {
  private readonly inFlight = new Set<Promise<void>>();
  private worker: Worker | undefined;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly options: DeliveryOptions,
  ) {}

  /** The worker that runs `pump` (workers/): woken when deliveries are written or an attempt ends. */
  runOn(worker: Worker): void {
    this.worker = worker;
  }

  /**
   * Writes a delivery of `event` for each endpoint whose event types take it, paused ones included
   * (their events wait for them). Once per endpoint and event, however often the bus hands it over.
   */
  async fanOut(event: RecordedEvent): Promise<number> {
    const made = webhookEventsOf(event);
    if (made.length === 0) return 0;
    const endpoints = await this.db.selectFrom('webhook_endpoints').select(['id', 'event_types']).execute();
    const now = new Date(this.options.clock.now()).toISOString();
    const rows: WebhookDeliveryRow[] = [];
    for (const endpoint of endpoints) {
      const types = JSON.parse(endpoint.event_types) as string[];
      for (const [index, webhook] of made.entries()) {
        if (!types.includes(webhook.eventType)) continue;
        rows.push({
          id: newId(),
          endpoint_id: endpoint.id,
          // a plain v1 catalog event comes from the same outbox event as its domain event
          event_id: index === 0 ? event.id : `${event.id}-${index}`,
          event_sequence: event.sequence,
          entity_key: `${EVENT_ENTITIES[event.entity]} ${event.entityId}`,
          event_type: webhook.eventType,
          data: JSON.stringify(webhook.data),
          identity: JSON.stringify(webhook.identity),
          event_time: event.createdDate,
          ...unsent(now),
        });
      }
    }
    if (rows.length === 0) return 0;
    await this.db
      .insertInto('webhook_deliveries')
      .values(rows)
      .onConflict((conflict) => conflict.columns(['endpoint_id', 'event_id']).doNothing())
      .execute();
    void this.worker?.runNow();
    return rows.length;
  }

  /** Claims what is due, as many as this process has room for, and starts sending them; answers how many. */
  async pump(): Promise<number> {
    const room = IN_FLIGHT_MAX - this.inFlight.size;
    if (room <= 0) return 0;
    const claimed = await this.claim(room);
    if (claimed.length === 0) return 0;
    const endpoints = new Map(
      (
        await this.db
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', 'in', [...new Set(claimed.map((delivery) => delivery.endpoint_id))])
          .execute()
      ).map((endpoint) => [endpoint.id, endpoint]),
    );
    for (const delivery of claimed) {
      const endpoint = endpoints.get(delivery.endpoint_id);
      if (!endpoint) continue; // deleted since: its deliveries went with it
      const attempt: Promise<void> = this.attempt(delivery, endpoint)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.inFlight.delete(attempt);
          void this.worker?.runNow();
        });
      this.inFlight.add(attempt);
    }
    return claimed.length;
  }

  /** Resolves once every attempt under way has ended (a clean stop; tests). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Sends everything due now, and what becomes due as those are acknowledged, until nothing is (tests). */
  async drain(): Promise<void> {
    for (;;) {
      const started = await this.pump();
      await this.settled();
      if (started === 0) return;
    }
  }

  /**
   * Sends `endpoint` a test event now, through the same claims, signing and log as any delivery: a
   * sample of its first event type (event-types.ts `sampleEventOf` says why not a made-up type).
   */
  async sendTest(
    endpoint: { id: string; eventTypes: string[] },
    actor: EventActor,
  ): Promise<DeliveryLogEntry> {
    const type = endpoint.eventTypes[0];
    const eventId = `${TEST_EVENT_PREFIX}${newId()}`;
    const entityId = newId();
    const now = new Date(this.options.clock.now()).toISOString();
    const sample = type ? sampleEventOf(type, { eventId, entityId, time: now, actor }) : undefined;
    if (!sample) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'NO_EVENT_TYPE',
        'the endpoint takes no event type to test',
      );
    }
    // listed with the endpoint's latest events (the log is in event order); its own entity holds up nothing
    const latest = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.max('event_sequence').as('sequence'))
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirst();
    const id = newId();
    await this.db
      .insertInto('webhook_deliveries')
      .values({
        id,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event_sequence: Number(latest?.sequence ?? 0),
        entity_key: `${TEST_EVENT_PREFIX}${type} ${entityId}`,
        event_type: sample.eventType,
        data: JSON.stringify(sample.data),
        identity: JSON.stringify(sample.identity),
        event_time: now,
        ...unsent(now),
      })
      .execute();
    void this.worker?.runNow();
    const [entry] = await this.log(endpoint.id, { id });
    if (!entry) throw notFound('delivery', id);
    return entry;
  }

  /**
   * Sends a delivered or dead delivery again, with the same event id and a fresh retry schedule (its
   * earlier attempts stay in the log). One still being sent is refused: it goes again on its own.
   */
  async replay(endpointId: string, deliveryId: string): Promise<DeliveryLogEntry> {
    const replayed = await this.again(endpointId, (qb) => qb.where('id', '=', deliveryId));
    if (replayed === 0) {
      const [entry] = await this.log(endpointId, { id: deliveryId });
      if (!entry) throw notFound('delivery', deliveryId);
      throw applicationError(
        'FAILED_PRECONDITION',
        'DELIVERY_PENDING',
        'the delivery is still being sent; it is tried again on its own',
        { id: deliveryId },
      );
    }
    const [entry] = await this.log(endpointId, { id: deliveryId });
    if (!entry) throw notFound('delivery', deliveryId);
    return entry;
  }

  /**
   * Sends again every delivered or dead delivery the endpoint was given since `since` (ISO date-time),
   * in their events' order (an entity's still one at a time); answers how many.
   */
  async replaySince(endpointId: string, since: string): Promise<number> {
    const instant = Date.parse(since);
    if (Number.isNaN(instant) || !/^\d{4}-\d{2}-\d{2}T/.test(since)) {
      throw invalidArgument([violation('since', 'is not an ISO date-time (2026-12-07T09:00:00Z)', 'FORMAT')]);
    }
    const from = new Date(instant).toISOString();
    return this.again(endpointId, (qb) => qb.where('created_at', '>=', from));
  }

  /** Dead letters of `appId`'s endpoints: the back office home's work queue. */
  async deadLetterCount(appId: string): Promise<number> {
    const row = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('e.app_id', '=', appId)
      .where('d.status', '=', 'DEAD')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Deletes, in short batches, the delivered deliveries (and their attempts) acknowledged more than
   * `retentionMs` ago: the log keeps successes for that long. Pending deliveries and dead letters stay,
   * whatever their age: they are work not yet done. Returns how many deliveries went.
   */
  async pruneLog(retentionMs: number): Promise<number> {
    const before = new Date(this.options.clock.now() - retentionMs).toISOString();
    let pruned = 0;
    for (;;) {
      const batch = await this.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('delivered_at', '<', before)
        .where('status', '=', 'DELIVERED')
        .orderBy('delivered_at')
        .limit(PRUNE_BATCH)
        .execute();
      if (batch.length === 0) return pruned;
      const ids = batch.map((row) => row.id);
      await inTransaction(this.db, async (trx) => {
        // one a replay made pending again in between stays, with the attempts it had
        const gone = await trx
          .deleteFrom('webhook_deliveries')
          .where('id', 'in', ids)
          .where('status', '=', 'DELIVERED')
          .returning('id')
          .execute();
        if (gone.length === 0) return;
        await trx
          .deleteFrom('webhook_attempts')
          .where(
            'delivery_id',
            'in',
            gone.map((row) => row.id),
          )
          .execute();
      });
      pruned += ids.length;
      if (batch.length < PRUNE_BATCH) return pruned;
    }
  }

  /** Makes the endpoint's delivered or dead deliveries `which` picks due now, from a fresh schedule. */
  private async again(
    endpointId: string,
    which: (qb: UpdateDeliveries) => UpdateDeliveries,
  ): Promise<number> {
    const now = new Date(this.options.clock.now()).toISOString();
    const result = await which(
      this.db
        .updateTable('webhook_deliveries')
        .set({
          status: 'PENDING',
          next_attempt_at: now,
          failures: 0,
          first_failed_at: null,
          claimed_until: null,
          delivered_at: null,
        })
        .where('endpoint_id', '=', endpointId)
        .where('status', 'in', ['DELIVERED', 'DEAD']),
    ).executeTakeFirst();
    const count = Number(result.numUpdatedRows);
    if (count > 0) void this.worker?.runNow();
    return count;
  }

  /** An endpoint's deliveries, newest first, with every attempt: its delivery log. */
  async log(
    endpointId: string,
    filter: { status?: string; limit?: number; id?: string },
  ): Promise<DeliveryLogEntry[]> {
    const deliveries = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .$if(filter.id !== undefined, (qb) => qb.where('id', '=', filter.id as string))
      .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status as never))
      .orderBy('event_sequence', 'desc')
      .orderBy('event_id', 'desc')
      .limit(filter.limit ?? 50)
      .execute();
    const ids = deliveries.map((delivery) => delivery.id);
    const attempts =
      ids.length === 0
        ? []
        : await this.db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where('delivery_id', 'in', ids)
            .orderBy('attempt')
            .execute();
    return deliveries.map((delivery) => {
      const data = JSON.parse(delivery.data) as { entityEventSequence?: string };
      return {
        id: delivery.id,
        eventId: delivery.event_id,
        eventType: delivery.event_type,
        entityEventSequence: data.entityEventSequence ?? null,
        status: delivery.status,
        test: delivery.event_id.startsWith(TEST_EVENT_PREFIX),
        payload: data,
        attempts: attempts
          .filter((attempt) => attempt.delivery_id === delivery.id)
          .map((attempt) => ({
            attempt: attempt.attempt,
            date: attempt.at,
            outcome: attempt.outcome,
            statusCode: attempt.status_code,
            durationMs: attempt.duration_ms,
            responseExcerpt: attempt.response_excerpt,
          })),
        nextAttemptDate: delivery.status === 'PENDING' ? delivery.next_attempt_at : null,
        createdDate: delivery.created_at,
        deliveredDate: delivery.delivered_at,
      };
    });
  }

  /**
   * Takes up to `limit` due deliveries, each the earliest waiting one of its entity for its endpoint,
   * of active endpoints, not claimed by a process that is still within its claim.
   */
  private async claim(limit: number): Promise<Delivery[]> {
    const now = this.options.clock.now();
    const nowText = new Date(now).toISOString();
    return inTransaction(this.db, async (trx) => {
      const due = await trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select('d.id')
        .where('d.status', '=', 'PENDING')
        .where('e.status', '=', 'ACTIVE')
        .where('d.next_attempt_at', '<=', nowText)
        .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<=', nowText)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as p')
                .select('p.id')
                .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
                .whereRef('p.entity_key', '=', 'd.entity_key')
                .where('p.status', '=', 'PENDING')
                .whereRef('p.event_sequence', '<', 'd.event_sequence'),
            ),
          ),
        )
        .orderBy('d.next_attempt_at')
        .orderBy('d.event_sequence')
        .limit(limit)
        .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate('d').skipLocked())
        .execute();
      if (due.length === 0) return [];
      return trx
        .updateTable('webhook_deliveries')
        .set({
          claimed_until: new Date(now + CLAIM_MS).toISOString(),
          attempts: sql<number>`attempts + 1`,
        })
        .where(
          'id',
          'in',
          due.map((row) => row.id),
        )
        .returningAll()
        .execute();
    });
  }

  /** One attempt: the request as the endpoint's scheme signs it, sent, and its outcome written. */
  private async attempt(delivery: Delivery, endpoint: Endpoint): Promise<void> {
    const started = performance.now();
    const result = await this.options.send({
      url: endpoint.url,
      ...(await this.request(delivery, endpoint)),
    });
    await this.record(delivery, endpoint, result, Math.round(performance.now() - started));
  }

  /** The body and headers: an RS256 JWT as the hosted platform sends, or Standard Webhooks' signed JSON. */
  private async request(delivery: Delivery, endpoint: Endpoint): Promise<Omit<OutgoingDelivery, 'url'>> {
    const instanceId = await this.options.instanceId();
    if (endpoint.signature === 'STANDARD') {
      const body = JSON.stringify({
        type: delivery.event_type,
        timestamp: delivery.event_time,
        instanceId,
        identity: JSON.parse(delivery.identity),
        data: JSON.parse(delivery.data),
      });
      const timestamp = String(Math.floor(this.options.clock.now() / 1000));
      const signature = await standardSignature(endpoint.secret ?? '', delivery.event_id, timestamp, body);
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': delivery.event_id,
          'webhook-timestamp': timestamp,
          'webhook-signature': signature,
        },
      };
    }
    const data = JSON.stringify({
      eventType: delivery.event_type,
      instanceId,
      data: delivery.data,
      identity: delivery.identity,
    });
    return {
      body: await this.options.keys.sign(endpoint.app_id, data),
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    };
  }

  /**
   * Writes the attempt to the log and moves the delivery on: acknowledged (2xx) it is delivered; 410
   * pauses its endpoint (kept, the delivery waiting); any other failure schedules the next try, and
   * once tries are used up either pauses the endpoint (it failed throughout: its events are kept) or
   * gives the delivery up as a dead letter (the endpoint works, this event alone keeps failing).
   */
  private async record(
    delivery: Delivery,
    endpoint: Endpoint,
    result: AttemptResult,
    durationMs: number,
  ): Promise<void> {
    const now = this.options.clock.now();
    const nowText = new Date(now).toISOString();
    const statusCode = result.kind === 'answered' ? result.statusCode : null;
    const outcome = outcomeOf(result);
    await inTransaction(this.db, async (trx) => {
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId(),
          delivery_id: delivery.id,
          endpoint_id: endpoint.id,
          attempt: delivery.attempts,
          at: nowText,
          outcome,
          status_code: statusCode,
          duration_ms: durationMs,
          response_excerpt: result.kind === 'answered' ? result.excerpt : result.detail,
        })
        .execute();
      const deliveries = trx.updateTable('webhook_deliveries').where('id', '=', delivery.id);
      const endpoints = trx.updateTable('webhook_endpoints').where('id', '=', endpoint.id);
      if (outcome === 'DELIVERED') {
        await deliveries
          .set({
            status: 'DELIVERED',
            delivered_at: nowText,
            claimed_until: null,
            last_status_code: statusCode,
          })
          .execute();
        return;
      }
      if (outcome === 'GONE') {
        // the receiver says it is gone for good: nothing more is sent until its app resumes it
        await deliveries
          .set({ claimed_until: null, next_attempt_at: nowText, last_status_code: statusCode })
          .execute();
        await endpoints.set({ status: 'PAUSED', paused_reason: 'GONE', updated_at: nowText }).execute();
        return;
      }
      const firstFailedAt = delivery.first_failed_at ? Date.parse(delivery.first_failed_at) : now;
      const next = nextAttemptAt({
        failures: delivery.failures + 1,
        firstFailedAt,
        now,
        retryAfter: result.kind === 'answered' ? result.retryAfter : undefined,
      });
      if (next !== undefined) {
        await deliveries
          .set({
            failures: delivery.failures + 1,
            first_failed_at: new Date(firstFailedAt).toISOString(),
            next_attempt_at: new Date(next).toISOString(),
            claimed_until: null,
            last_status_code: statusCode,
          })
          .execute();
        return;
      }
      // has the endpoint acknowledged anything since this delivery first failed?
      const answeredSince = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpoint.id)
        .where('status', '=', 'DELIVERED')
        .where('delivered_at', '>=', new Date(firstFailedAt).toISOString())
        .limit(1)
        .executeTakeFirst();
      const failingThroughout = answeredSince === undefined;
      if (failingThroughout) {
        // not one answer since this delivery first failed: the endpoint is down, its events wait for it
        await deliveries
          .set({ claimed_until: null, next_attempt_at: nowText, last_status_code: statusCode })
          .execute();
        await endpoints.set({ status: 'PAUSED', paused_reason: 'FAILING', updated_at: nowText }).execute();
      } else {
        await deliveries.set({ status: 'DEAD', claimed_until: null, last_status_code: statusCode }).execute();
      }
    });
  }
}

function outcomeOf(result: AttemptResult): string {
  switch (result.kind) {
    case 'answered':
      if (result.statusCode >= 200 && result.statusCode < 300) return 'DELIVERED';
      return result.statusCode === 410 ? 'GONE' : 'FAILED';
    case 'timeout':
      return 'TIMEOUT';
    case 'unreachable':
      return 'UNREACHABLE';
    case 'refused-address':
      return 'REFUSED_ADDRESS';
  }
}
