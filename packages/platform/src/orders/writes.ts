import type { Transaction } from 'kysely';
import type { DialectName } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer, OutgoingEmail } from '../email/mailer.ts';
import { type DomainEvent, type EventSlug, recordEvents } from '../events/outbox.ts';
import { notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { documentOf, type OrderDocument, type StoredOrder } from './document.ts';
import { searchColumns, tagsOf, writeTags } from './search.ts';
import { transition } from './status.ts';
import type { OrderRow } from './tables.ts';

export type { StoredOrder } from './document.ts';

export interface LockedOrder {
  row: OrderRow;
  /** The stored document, parsed: free to change before `save`. */
  doc: StoredOrder;
}

/** An activity as the order's timeline holds it (`{id, createdDate}` are added when saved). */
export type NewActivity = { type: string } & Record<string, unknown>;

export interface OrderChange {
  columns?: Partial<
    Pick<OrderRow, 'number' | 'status' | 'payment_status' | 'fulfillment_status' | 'holds_stock'>
  >;
  activities?: NewActivity[];
  /** Events besides the order's `updated` (`canceled`). */
  slugs?: EventSlug[];
  /**
   * An order approved here that was recorded not to mail its buyer: its `approved` event says so, and
   * the confirmation's subscriber (orders/subscribers.ts) sends none.
   */
  notifyBuyer?: false;
  /** The order's tags changed: its tag rows are written again. */
  tags?: boolean;
  /** Emails to the buyer, queued in the change's transaction. */
  emails?: Array<OutgoingEmail | undefined>;
  /** More events of the same transaction (a fulfillment's), told after the order's own. */
  events?: DomainEvent[];
  /** Events of the same transaction told before the order's own (billing: its transactions updated). */
  before?: DomainEvent[];
  /**
   * False: the caller tells the order's events itself (an order being placed is announced `created`
   * and `approved` by OrderService, not `updated`); `before`, `slugs` and `events` are then not told.
   */
  announce?: false;
}

/** A payment change as billing settles it: the statuses it derived, what the timeline tells, its event. */
export interface PaymentSettlement {
  paymentStatus: string;
  fulfillmentStatus?: string | undefined;
  activities: NewActivity[];
  /** The order's transactions `updated`, told before the order's own events. */
  transactionsEvent: DomainEvent;
}

/**
 * The one way an order is written once placed: `lock` holds its row for the transaction, `save`
 * writes the change with its activities, search columns, tags, events and emails, so the merchant's
 * operations, fulfillments and billing all leave an order the same way.
 */
export class OrderWrites {
  constructor(
    private readonly deps: { mailer: Pick<Mailer, 'queue'> },
    private readonly options: { dialect: DialectName; publicUrl: string; storeName: string },
  ) {}

  /**
   * The order's row, locked until `trx` ends, so a change on any process waits for this one: the row
   * lock on PostgreSQL, the write lock on SQLite (a write that changes nothing takes it and answers the
   * row in one query). With `hold` false only read, for an answer that changes nothing; with
   * `unplaced`, an order still waiting for its checkout's payment (no number yet) is found too.
   */
  async lock(
    trx: Transaction<Tables>,
    orderId: string,
    { hold = true, unplaced = false }: { hold?: boolean; unplaced?: boolean } = {},
  ): Promise<LockedOrder> {
    const row =
      hold && this.options.dialect === 'sqlite'
        ? await trx
            .updateTable('orders')
            .set((eb) => ({ updated_at: eb.ref('updated_at') }))
            .where('id', '=', orderId)
            .returningAll()
            .executeTakeFirst()
        : await trx
            .selectFrom('orders')
            .selectAll()
            .where('id', '=', orderId)
            .$if(hold, (query) => query.forUpdate())
            .executeTakeFirst();
    // an order still waiting for its checkout's payment is not the merchant's yet
    if (!row || (row.number === null && !unplaced)) throw notFound('order', orderId);
    return { row, doc: JSON.parse(row.doc) as StoredOrder };
  }

  /** Writes a locked order's change: its document, columns, activities, tags, events and emails. */
  async save(
    trx: Transaction<Tables>,
    locked: LockedOrder,
    change: OrderChange,
    now: Date,
  ): Promise<OrderDocument> {
    const { row, doc } = locked;
    const at = now.toISOString();
    if (change.activities?.length) {
      doc.activities = [
        ...(Array.isArray(doc.activities) ? doc.activities : []),
        ...change.activities.map((activity) => ({ id: newId(), createdDate: at, ...activity })),
      ];
    }
    const next: OrderRow = {
      ...row,
      ...change.columns,
      ...searchColumns(doc),
      doc: JSON.stringify(doc),
      updated_at: at,
    };
    await trx
      .updateTable('orders')
      .set({
        ...change.columns,
        ...searchColumns(doc),
        doc: next.doc,
        updated_at: at,
      })
      .where('id', '=', row.id)
      .execute();
    if (change.tags) await writeTags(trx, row, tagsOf(doc));
    const order = documentOf(next);
    locked.row = next;
    if (change.announce === false) return order;
    const events: DomainEvent[] = [
      ...(change.before ?? []),
      { entity: 'order', slug: 'updated', entityId: row.id, payload: { entity: order } },
      ...(change.slugs ?? []).map((slug) => ({
        entity: 'order' as const,
        slug,
        entityId: row.id,
        payload:
          slug === 'approved' && change.notifyBuyer === false
            ? { entity: order, notifyBuyer: false }
            : { entity: order },
      })),
      ...(change.events ?? []),
    ];
    await recordEvents(trx, events, now);
    for (const email of change.emails ?? []) if (email) await this.deps.mailer.queue(trx, email);
    return order;
  }

  /**
   * Billing's change of an order's money: its payment and fulfillment statuses, the activities, and its
   * transactions' event first. A recorded order waiting for its payment (`INITIALIZED`, no checkout) is
   * approved once paid; its `approved` event sends the buyer the confirmation it was recorded to get.
   */
  async settlePayment(
    trx: Transaction<Tables>,
    locked: LockedOrder,
    settlement: PaymentSettlement,
    now: Date,
  ): Promise<OrderDocument> {
    const { row, doc } = locked;
    const approving =
      settlement.paymentStatus === 'PAID' &&
      row.checkout_id === null &&
      transition('approve', row) !== undefined;
    const confirm = approving && doc.confirmOnApproval !== false;
    if (approving) delete doc.confirmOnApproval;
    return this.save(
      trx,
      locked,
      {
        columns: {
          payment_status: settlement.paymentStatus,
          ...(settlement.fulfillmentStatus ? { fulfillment_status: settlement.fulfillmentStatus } : {}),
          ...(approving ? { status: 'APPROVED' } : {}),
        },
        activities: settlement.activities,
        before: [settlement.transactionsEvent],
        ...(approving ? { slugs: ['approved' as const] } : {}),
        ...(approving && !confirm ? { notifyBuyer: false as const } : {}),
      },
      now,
    );
  }
}
