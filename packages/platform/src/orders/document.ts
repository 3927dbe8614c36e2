import type {
  FulfillmentStatus,
  Order,
  OrderLineItem,
  OrderPaymentStatus,
  OrderStatus,
} from '@cartwheel/sdk';
import type { WireJson } from '../shared/wire-json.ts';
import type { OrderRow } from './tables.ts';

/** The wire order's fields that the row's columns hold, not the stored document. */
type RowFields =
  | 'id'
  | 'number'
  | 'status'
  | 'paymentStatus'
  | 'fulfillmentStatus'
  | 'createdDate'
  | 'updatedDate'
  | 'purchasedDate';

/**
 * The order's document as `orders.doc` stores it: the SDK's wire order (dates as text) less what the
 * row's columns hold, and the two fields the platform keeps for itself and never answers.
 */
export type StoredOrder = Omit<WireJson<Order>, RowFields | 'lineItems'> & {
  lineItems?: StoredOrderLine[];
  /** Whether anything of it ships: what a new order's fulfillment status starts from. */
  shippable?: boolean;
  /** A recorded order that is not approved yet: whether its approval mails the buyer. */
  confirmOnApproval?: boolean;
  /**
   * How many of each line's units (by line id) its checkout took as preorders, the variant out of
   * stock (catalog/stock.ts notes them): a restock gives those back to the preorder count, not to stock.
   */
  preorderedUnits?: Record<string, number>;
};

/** An order's line as stored: every line, a checkout's or a recorded order's, is made with its id and quantity. */
export type StoredOrderLine = WireJson<OrderLineItem> & { id: string; quantity: number };

/** The wire order as the platform answers it: the stored document with the row's columns. */
export type OrderDocument = WireJson<Order> & { id: string; status: OrderStatus };

/**
 * What a restock of `quantity` units of `line` gives back as preorders: its preordered units not
 * given back yet, first (a preorder is a unit the shelf never held), then its units from stock.
 */
export function preorderedInRestock(doc: StoredOrder, line: StoredOrderLine, quantity: number): number {
  const preordered = doc.preorderedUnits?.[line.id] ?? 0;
  const restocked = Number(line.restockedQuantity) || 0;
  return Math.max(0, Math.min(quantity, preordered - restocked));
}

/** The wire order: the stored document with the row's id, number, statuses and dates. */
export function documentOf(row: OrderRow): OrderDocument {
  const {
    shippable: _,
    confirmOnApproval: __,
    preorderedUnits: ___,
    ...doc
  } = JSON.parse(row.doc) as StoredOrder;
  return {
    id: row.id,
    ...(row.number !== null ? { number: String(row.number) } : {}),
    ...doc,
    // the columns hold only the wire's statuses (status.ts's transitions, billing's settlements)
    status: row.status as OrderStatus,
    paymentStatus: row.payment_status as OrderPaymentStatus,
    fulfillmentStatus: row.fulfillment_status as FulfillmentStatus,
    createdDate: row.created_at,
    updatedDate: row.updated_at,
    purchasedDate: row.created_at,
  };
}
