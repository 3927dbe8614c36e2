/** The outbox: every domain event, written in the same transaction as the change it announces. */
export interface EventTables {
  events_outbox: EventRow;
  event_cursors: EventCursorRow;
  event_entity_sequences: EntitySequenceRow;
}

/** The last `entityEventSequence` each entity's events took: the next event of it takes one more. */
export interface EntitySequenceRow {
  entity_fqdn: string;
  entity_id: string;
  sequence: number;
}

/** How far each subscriber of the bus has handled the outbox (events/bus.ts). */
export interface EventCursorRow {
  /** The subscriber's name: `order-adoption`, `order-confirmation-email`, ... */
  subscriber: string;
  /** The last sequence it handled: every event up to it was handled or was not its to handle. */
  sequence: number;
  updated_at: string;
}

export interface EventRow {
  /** Sorts in the order events were written within one process; `sequence` orders them across processes. */
  id: string;
  /** Grows by one per event (autoincrement): a consumer resumes after the last sequence it handled. */
  sequence?: number;
  /** The entity's fully qualified name: `wix.ecom.v1.cart`, `wix.ecom.v1.checkout`, `wix.ecom.v1.order`. */
  entity_fqdn: string;
  /** What happened: `created`, `updated`, `deleted`, `completed`, `approved`, `canceled`. */
  slug: string;
  entity_id: string;
  /** 1, 2, 3... per entity (`entity_fqdn`, `entity_id`), no gap; null on events written before 0044. */
  entity_sequence: number | null;
  /** The event's body as JSON text (`{ entity }` for created/updated, `{ entityId }` for deleted, ...). */
  payload: string;
  created_at: string;
  /** Who caused it (shared/actor.ts): `VISITOR`, `MEMBER`, `STAFF`, `API_KEY`, `ADMIN_KEY`, `ANONYMOUS`, `PLATFORM`. */
  actor_type: string;
  /** The visitor, member, staff identity or API key id; null for the others. */
  actor_id: string | null;
}
