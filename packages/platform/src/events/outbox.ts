import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { nowIso } from '../shared/clock.ts';
import { timeOrderedId } from '../shared/ids.ts';

/** The entities whose events point 4 announces, by the hosted platform's fully qualified names. */
export const EVENT_ENTITIES = {
  cart: 'wix.ecom.v1.cart',
  checkout: 'wix.ecom.v1.checkout',
  order: 'wix.ecom.v1.order',
  /** An order's fulfillments (`updated`: the whole list after any change). */
  fulfillments: 'wix.ecom.v1.fulfillments',
  orderTransactions: 'wix.ecom.v1.order_transactions',
  member: 'wix.members.v1.member',
} as const;
export type EventEntity = keyof typeof EVENT_ENTITIES;

/** Point 4's events for carts (created, updated, deleted), checkouts (+ completed) and orders (+ approved, canceled). */
export type EventSlug = 'created' | 'updated' | 'deleted' | 'completed' | 'approved' | 'canceled';

export interface DomainEvent {
  entity: EventEntity;
  slug: EventSlug;
  entityId: string;
  /**
   * The body a consumer reads: the entity after the change, or what the change was; or its JSON text,
   * when the change has it written already.
   */
  payload: Record<string, unknown> | string;
}

/**
 * Writes `events` to the outbox inside `trx`, the transaction of the change they announce: an event is
 * kept exactly when its change is (delivery reads the outbox later, in `sequence` order).
 */
export async function recordEvents(
  trx: Transaction<Tables> | Kysely<Tables>,
  events: DomainEvent[],
  now?: Date,
): Promise<void> {
  const insert = eventsInsert(trx, events, now);
  if (insert) await trx.executeQuery(insert);
}

/**
 * The one INSERT that writes `events` to the outbox, compiled for `db`'s database, for a caller that
 * runs it inside its change's transaction itself; undefined when there are none.
 */
export function eventsInsert(
  db: Transaction<Tables> | Kysely<Tables>,
  events: DomainEvent[],
  now?: Date,
): CompiledQuery | undefined {
  if (events.length === 0) return undefined;
  const createdAt = now ? now.toISOString() : nowIso();
  const parameters: unknown[] = [];
  // a loop, not flatMap, which V8 runs slowly: every cart change records an event here
  for (const event of events)
    for (const value of Object.values(outboxRow(event, createdAt))) parameters.push(value);
  return CompiledQuery.raw(insertText(db, events.length), parameters);
}

/** One event as its outbox row: the one place that names the columns. */
function outboxRow(event: DomainEvent, createdAt: string) {
  return {
    id: timeOrderedId(),
    entity_fqdn: EVENT_ENTITIES[event.entity],
    slug: event.slug,
    entity_id: event.entityId,
    payload: typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload),
    created_at: createdAt,
    delivered_at: null,
  };
}

const PLACEHOLDER: DomainEvent = { entity: 'cart', slug: 'updated', entityId: '', payload: {} };
/** The INSERT texts by dialect (its adapter) and number of rows: each cart write records an event. */
const insertTexts = new WeakMap<object, Map<number, string>>();

/**
 * The INSERT of `count` rows as Kysely compiles it for `trx`'s database, compiled once: building and
 * compiling the same statement again was a tenth of a cart write. Its parameters are `outboxRow`'s
 * values in order, as the compiled text names `outboxRow`'s columns.
 */
function insertText(trx: Transaction<Tables> | Kysely<Tables>, count: number): string {
  const adapter = trx.getExecutor().adapter;
  let texts = insertTexts.get(adapter);
  if (!texts) {
    texts = new Map();
    insertTexts.set(adapter, texts);
  }
  let text = texts.get(count);
  if (text === undefined) {
    const rows = Array.from({ length: count }, () => outboxRow(PLACEHOLDER, ''));
    text = trx.insertInto('events_outbox').values(rows).compile().sql;
    texts.set(count, text);
  }
  return text;
}

/** An event as the outbox holds it: its payload read back from its text. */
export interface RecordedEvent extends DomainEvent {
  sequence: number;
  createdDate: string;
  payload: Record<string, unknown>;
}

/** The outbox as written, oldest first: for tests and, later, delivery. */
export async function readEvents(
  db: Kysely<Tables>,
  filter: { entityId?: string; afterSequence?: number; limit?: number } = {},
): Promise<RecordedEvent[]> {
  let query = db.selectFrom('events_outbox').selectAll().orderBy('sequence', 'asc');
  if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
  if (filter.afterSequence !== undefined) query = query.where('sequence', '>', filter.afterSequence);
  const rows = await query.limit(filter.limit ?? 1000).execute();
  const byName = new Map<string, EventEntity>(
    Object.entries(EVENT_ENTITIES).map(([entity, fqdn]) => [fqdn, entity as EventEntity]),
  );
  return rows.map((row) => ({
    sequence: Number(row.sequence),
    entity: byName.get(row.entity_fqdn) as EventEntity,
    slug: row.slug as EventSlug,
    entityId: row.entity_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    createdDate: row.created_at,
  }));
}
