/** The outbox: every domain event, written in the same transaction as the change it announces. */
export interface EventTables {
  events_outbox: EventRow;
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
  /** The event's body as JSON text (`{ entity }` for created/updated, `{ entityId }` for deleted, ...). */
  payload: string;
  created_at: string;
  /** When delivery handled it; null until then (delivery comes later). */
  delivered_at: string | null;
}
