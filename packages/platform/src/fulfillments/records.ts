import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { OrderFulfillmentRow } from './tables.ts';
import type { TrackingInfo } from './tracking.ts';

/** A fulfillment as the wire has it. */
export interface Fulfillment {
  id: string;
  createdDate: string;
  lineItems: Array<{ id: string; quantity: number }>;
  trackingInfo?: TrackingInfo;
  customInfo?: { fieldsData?: Record<string, string> };
  status?: string | null;
  completed?: boolean | null;
}

/** A line of an order as fulfillment reads it. */
export interface OrderLine {
  id: string;
  quantity: number;
  physicalProperties?: { shippable?: boolean };
}

/**
 * What an order shipped, read inside the caller's transaction, and the fulfillment status that follows:
 * what the orders' cancel (nothing shipped may be canceled) and billing's refunds (the status after one)
 * ask of this domain. It stands apart from `FulfillmentService`, which changes fulfillments through the
 * order operations, so order operations are built from it before fulfillments are built from them.
 */
export class FulfillmentRecords {
  /** The fulfillments of `orderId`, oldest first. */
  async read(db: Transaction<Tables> | Kysely<Tables>, orderId: string): Promise<Fulfillment[]> {
    const rows = await db
      .selectFrom('order_fulfillments')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fulfillmentOf);
  }

  /** Quantities fulfilled per line of `orderId`, inside `trx`; empty when it has no fulfillment. */
  async fulfilledQuantities(
    trx: Transaction<Tables> | Kysely<Tables>,
    orderId: string,
  ): Promise<Map<string, number>> {
    const fulfilled = new Map<string, number>();
    for (const fulfillment of await this.read(trx, orderId))
      for (const line of fulfillment.lineItems)
        fulfilled.set(line.id, (fulfilled.get(line.id) ?? 0) + line.quantity);
    return fulfilled;
  }

  /**
   * The status `order` has once its refunded units are `refunded` (a refund calls this with the
   * refunds it just counted), inside the transaction that holds the order. An order with nothing
   * shipped stays NOT_FULFILLED whatever is refunded: its fulfillments are not read.
   */
  async statusAfterRefund(
    trx: Transaction<Tables>,
    order: { id: string; doc: string; fulfillment_status: string },
    refunded: Map<string, number>,
  ): Promise<string> {
    if (order.fulfillment_status === 'NOT_FULFILLED') return order.fulfillment_status;
    const doc = JSON.parse(order.doc) as { lineItems?: OrderLine[] };
    return fulfillmentStatus(
      Array.isArray(doc.lineItems) ? doc.lineItems : [],
      await this.fulfilledQuantities(trx, order.id),
      refunded,
      order.fulfillment_status,
    );
  }
}

/**
 * Units of `line` that can ship at all: what was bought less what was refunded (a cancel is of the
 * whole order, which then ships nothing).
 */
export function fulfillable(line: OrderLine, refunded: Map<string, number>): number {
  return Math.max(0, line.quantity - (refunded.get(line.id) ?? 0));
}

/**
 * The order's fulfillment status, the one place it is derived: the lines that ship count (all lines
 * when none ships); a line is done when its fulfillments reach what can ship of it (bought less
 * refunded), so a refunded unshipped line never holds the order at PARTIALLY_FULFILLED. Nothing
 * shipped stays NOT_FULFILLED even when all was refunded; an order with nothing to ship that was
 * FULFILLED on approval stays so.
 */
export function fulfillmentStatus(
  orderLines: OrderLine[],
  fulfilled: Map<string, number>,
  refunded: Map<string, number>,
  current: string,
): string {
  const shipped = orderLines.filter((line) => line.physicalProperties?.shippable);
  const counted = shipped.length > 0 ? shipped : orderLines;
  if (shipped.length === 0 && current === 'FULFILLED' && fulfilled.size === 0) return current;
  const any = [...fulfilled.values()].some((quantity) => quantity > 0);
  if (!any) return 'NOT_FULFILLED';
  const done = counted.every((line) => (fulfilled.get(line.id) ?? 0) >= fulfillable(line, refunded));
  return counted.length > 0 && done ? 'FULFILLED' : 'PARTIALLY_FULFILLED';
}

export function fulfillmentOf(row: OrderFulfillmentRow): Fulfillment {
  return {
    id: row.id,
    createdDate: row.created_at,
    ...(JSON.parse(row.doc) as Omit<Fulfillment, 'id' | 'createdDate'>),
  };
}
