import { CompiledQuery, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { inTransaction, type SqliteConnection } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { currentActor, type EventActor } from '../shared/actor.ts';
import { nowIso } from '../shared/clock.ts';
import { timeOrderedId } from '../shared/ids.ts';
import type { EventRow } from './tables.ts';

/** The entities whose events point 4 announces, by the hosted platform's fully qualified names. */
export const EVENT_ENTITIES = {
  cart: 'wix.ecom.v1.cart',
  checkout: 'wix.ecom.v1.checkout',
  order: 'wix.ecom.v1.order',
  /** An order's fulfillments (`updated`: the whole list after any change). */
  fulfillments: 'wix.ecom.v1.fulfillments',
  orderTransactions: 'wix.ecom.v1.order_transactions',
  member: 'wix.members.v1.member',
  /** A catalog product; `variants_changed` when its variants' prices, stock or options change. */
  product: 'wix.stores.catalog.v1.product',
  collection: 'wix.stores.catalog.v1.collection',
  /** A product's stock (its variants' quantities and in-stock flags): `updated`. */
  inventory: 'wix.stores.v2.inventory',
  /** A variant's v3 inventory item (catalog/v3-inventory.ts): `updated` whenever its stock or preorder moves. */
  inventoryItem: 'wix.stores.catalog.v3.inventory_item',
  /** The v3 catalog's brands, ribbons, info sections and customizations (catalog/v3-entities.ts). */
  brand: 'wix.stores.catalog.v3.brand',
  ribbon: 'wix.stores.catalog.v3.ribbon',
  infoSection: 'wix.stores.catalog.v3.info_section',
  customization: 'wix.stores.catalog.v3.customization',
  checkoutSettings: 'wix.ecom.v1.checkout_settings',
  discountRule: 'wix.ecom.discounts.v1.discount_rule',
  /** A merchant's checkout template (checkout-templates/); `used` when a checkout is made of it. */
  checkoutTemplate: 'wix.ecom.v1.checkout_template',
  /** A checkout left unfinished (abandoned-checkouts/); `recovered` when its buyer completes it. */
  abandonedCheckout: 'wix.ecom.v1.abandoned_checkout',
  /** A member's subscription contract (subscriptions/): `created`, then `updated` by each renewal and change. */
  subscriptionContract: 'wix.ecom.subscription_contracts.v1.subscription_contract',
  /** A shopper's request to hear when an item is back (back-in-stock/): `updated` as its status moves. */
  backInStockRequest: 'wix.ecom.v1.back_in_stock_notification_request',
  /**
   * A shopper's login identity (identity/): `email_verified`, `signed_in`, `contact_merged`. The hosted wire announces
   * none, so the name is Cartwheel's own, in the hosted form.
   */
  identity: 'wix.iam.identity.v1.identity',
  /** A redirect session (oauth/redirect-sessions.ts): `created`. */
  redirectSession: 'wix.headless.v1.redirect_session',
} as const;
export type EventEntity = keyof typeof EVENT_ENTITIES;

/** Point 4's events for carts (created, updated, deleted), checkouts (+ completed) and orders (+ approved, canceled). */
export type EventSlug =
  | 'created'
  | 'updated'
  | 'deleted'
  | 'completed'
  | 'approved'
  | 'canceled'
  | 'variants_changed'
  | 'used'
  | 'recovered'
  | 'email_verified'
  | 'signed_in'
  | 'contact_merged';

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
 * kept exactly when its change is (delivery reads the outbox later, in `sequence` order). Each event
 * takes the next number of its entity (`entityEventSequence`) in the same transaction.
 */
export async function recordEvents(
  trx: Transaction<Tables> | Kysely<Tables>,
  events: DomainEvent[],
  now?: Date,
): Promise<void> {
  if (events.length === 0) return;
  // the counters and the events commit together, or a rollback would leave a number used and no event
  if (!trx.isTransaction) return inTransaction(trx, (inner) => recordEvents(inner, events, now));
  const counters = entityCounters(trx, events);
  const numbers = counters.numbers((await trx.executeQuery(counters.upsert)).rows);
  await trx.executeQuery(eventsInsert(trx, events, numbers, now));
}

/**
 * `recordEvents` on SQLite's connection, synchronously, for a caller that holds it inside its
 * change's transaction (the cart's shared commits).
 */
export function recordEventsOn(
  sqlite: SqliteConnection,
  db: Kysely<Tables>,
  events: DomainEvent[],
  now?: Date,
): void {
  if (events.length === 0) return;
  const counters = entityCounters(db, events);
  sqlite.run(eventsInsert(db, events, counters.numbers(sqlite.all(counters.upsert)), now));
}

/**
 * Each entity's event numbers: one upsert of its counter (`event_entity_sequences`) by the number of
 * its events, answering the last number taken. On PostgreSQL the counter's row stays locked until the
 * transaction ends, so a concurrent writer of the same entity waits and takes the numbers after, and
 * its outbox `sequence` comes after too (the bus reads an entity's events in their numbers' order). A
 * transaction that rolls back gives its numbers back: no gap. Entities in one order, so two writers of
 * the same two entities cannot lock them crosswise.
 */
function entityCounters(db: Transaction<Tables> | Kysely<Tables>, events: DomainEvent[]) {
  const counts = new Map<string, number>();
  for (const event of events) {
    const key = `${EVENT_ENTITIES[event.entity]}\u0000${event.entityId}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const keys = [...counts.keys()].sort();
  const parameters: unknown[] = [];
  for (const key of keys) {
    const [fqdn, id] = key.split('\u0000');
    parameters.push(fqdn, id, counts.get(key));
  }
  return {
    upsert: CompiledQuery.raw(counterText(db, keys.length), parameters),
    /** The events' numbers, in the events' order, from the upsert's rows. */
    numbers(rows: readonly unknown[]): number[] {
      const next = new Map<string, number>();
      for (const row of rows as { entity_fqdn: string; entity_id: string; sequence: number | string }[]) {
        const key = `${row.entity_fqdn}\u0000${row.entity_id}`;
        next.set(key, Number(row.sequence) - (counts.get(key) ?? 0) + 1);
      }
      return events.map((event) => {
        const key = `${EVENT_ENTITIES[event.entity]}\u0000${event.entityId}`;
        const number = next.get(key) as number;
        next.set(key, number + 1);
        return number;
      });
    },
  };
}

/** The counters' upsert texts by dialect (its adapter) and number of entities. */
const counterTexts = new WeakMap<object, Map<number, string>>();

function counterText(db: Transaction<Tables> | Kysely<Tables>, count: number): string {
  const adapter = db.getExecutor().adapter;
  let texts = counterTexts.get(adapter);
  if (!texts) {
    texts = new Map();
    counterTexts.set(adapter, texts);
  }
  let text = texts.get(count);
  if (text === undefined) {
    text = db
      .insertInto('event_entity_sequences')
      .values(Array.from({ length: count }, () => ({ entity_fqdn: '', entity_id: '', sequence: 0 })))
      .onConflict((conflict) =>
        conflict
          .columns(['entity_fqdn', 'entity_id'])
          .doUpdateSet({ sequence: sql<number>`event_entity_sequences.sequence + excluded.sequence` }),
      )
      .returning(['entity_fqdn', 'entity_id', 'sequence'])
      .compile().sql;
    texts.set(count, text);
  }
  return text;
}

/** The one INSERT that writes `events` to the outbox with their entities' numbers, compiled for `db`'s database. */
function eventsInsert(
  db: Transaction<Tables> | Kysely<Tables>,
  events: DomainEvent[],
  numbers: readonly number[],
  now?: Date,
): CompiledQuery {
  const createdAt = now ? now.toISOString() : nowIso();
  const actor = currentActor();
  const parameters: unknown[] = [];
  // a loop, not flatMap, which V8 runs slowly: every cart change records an event here
  for (const [index, event] of events.entries())
    for (const value of Object.values(outboxRow(event, numbers[index] as number, createdAt, actor)))
      parameters.push(value);
  for (const listener of written) listener(events);
  return CompiledQuery.raw(insertText(db, events.length), parameters);
}

/** One event as its outbox row: the one place that names the columns. */
function outboxRow(event: DomainEvent, entitySequence: number, createdAt: string, actor: EventActor) {
  return {
    id: timeOrderedId(),
    entity_fqdn: EVENT_ENTITIES[event.entity],
    slug: event.slug,
    entity_id: event.entityId,
    entity_sequence: entitySequence,
    payload: typeof event.payload === 'string' ? event.payload : JSON.stringify(event.payload),
    created_at: createdAt,
    actor_type: actor.type,
    actor_id: actor.id,
  };
}

/** Who hears that this process is writing events (the bus, to wake its readers once they commit). */
const written = new Set<(events: readonly DomainEvent[]) => void>();

/** Calls `listener` with the events of each outbox insert this process builds; answers how to stop. */
export function onEventsWritten(listener: (events: readonly DomainEvent[]) => void): () => void {
  written.add(listener);
  return () => written.delete(listener);
}

const PLACEHOLDER: DomainEvent = { entity: 'cart', slug: 'updated', entityId: '', payload: {} };
const NO_ACTOR: EventActor = { type: 'PLATFORM', id: null };
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
    const rows = Array.from({ length: count }, () => outboxRow(PLACEHOLDER, 0, '', NO_ACTOR));
    text = trx.insertInto('events_outbox').values(rows).compile().sql;
    texts.set(count, text);
  }
  return text;
}

/** An event as the outbox holds it: its payload read back from its text. */
export interface RecordedEvent extends DomainEvent {
  sequence: number;
  /** Unique and stable: what a subscriber keys what it does once per event by. */
  id: string;
  createdDate: string;
  payload: Record<string, unknown>;
  actor: EventActor;
  /** 1, 2, 3... per entity with no gap (`entityEventSequence`); undefined for events written before 0044. */
  entityEventSequence: number | undefined;
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
  return rows.map(recordedEvent);
}

const ENTITY_OF_FQDN = new Map<string, EventEntity>(
  Object.entries(EVENT_ENTITIES).map(([entity, fqdn]) => [fqdn, entity as EventEntity]),
);

/** The entity an outbox row's fully qualified name stands for. */
export const entityOf = (fqdn: string): EventEntity | undefined => ENTITY_OF_FQDN.get(fqdn);

/** An outbox row as a subscriber reads it. */
export function recordedEvent(row: Selectable<EventRow>): RecordedEvent {
  return {
    sequence: Number(row.sequence),
    id: row.id,
    entity: entityOf(row.entity_fqdn) as EventEntity,
    slug: row.slug as EventSlug,
    entityId: row.entity_id,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    createdDate: row.created_at,
    actor: { type: row.actor_type as EventActor['type'], id: row.actor_id },
    entityEventSequence: row.entity_sequence == null ? undefined : Number(row.entity_sequence),
  };
}
