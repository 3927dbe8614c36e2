import type { OrderStatus } from '@cartwheel/sdk';
import type { OrderRow } from './tables.ts';

/** What changes an order's status. */
export type OrderAction = 'approve' | 'cancel' | 'cancelUnpaid' | 'discard';

/**
 * Every change of an order's status, as the statuses it may start from and where it leads; each path
 * that moves one (a checkout's payment, a recorded order paid since, the merchant's cancel, a
 * checkout changed under its waiting order, a failed payment's order removed) asks this table.
 * `recordedFrom`: statuses allowed only to an order the merchant recorded (no checkout), since a
 * checkout's order waiting for its payment is the buyer's to pay.
 */
export const ORDER_TRANSITIONS: Record<
  OrderAction,
  { from: readonly OrderStatus[]; recordedFrom?: readonly OrderStatus[]; to: OrderStatus | 'REMOVED' }
> = {
  /** Its payment went through, or it needs none (a checkout's order; a recorded one paid since). */
  approve: { from: ['INITIALIZED'], to: 'APPROVED' },
  /**
   * The merchant cancels a placed order, or a recorded one still waiting for its payment; a PENDING or
   * REJECTED one is refused with the hosted call's ORDER_IS_PENDING / ORDER_IS_REJECTED.
   */
  cancel: { from: ['APPROVED'], recordedFrom: ['INITIALIZED'], to: 'CANCELED' },
  /** Its checkout changed: an order waiting for its payment will never be paid as it is. */
  cancelUnpaid: { from: ['INITIALIZED'], to: 'CANCELED' },
  /** Its payment failed before it was numbered or announced: it is removed. */
  discard: { from: ['INITIALIZED'], to: 'REMOVED' },
};

/** Where `action` takes the order, or undefined when its status does not allow it. */
export function transition(
  action: OrderAction,
  row: Pick<OrderRow, 'status' | 'checkout_id'>,
): OrderStatus | 'REMOVED' | undefined {
  const rule = ORDER_TRANSITIONS[action];
  const status = row.status as OrderStatus;
  if (rule.from.includes(status)) return rule.to;
  if (row.checkout_id === null && rule.recordedFrom?.includes(status)) return rule.to;
  return undefined;
}

/** The statuses `action` may start from, for a query that moves orders only from them. */
export const statusesBefore = (action: OrderAction): readonly OrderStatus[] => ORDER_TRANSITIONS[action].from;
