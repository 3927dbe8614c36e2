import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { paymentsOf } from '../payments/order-payments.ts';
import type { OrderPaymentRow } from '../payments/tables.ts';
import {
  type OrderTransactionsDocument,
  paymentWire,
  type RefundDocument,
} from '../payments/transactions.ts';
import type { OrderRefundRow } from './tables.ts';

/** The refunds of each order named, oldest first. */
export async function refundsOf(executor: Kysely<Tables>, orderIds: string[]): Promise<OrderRefundRow[]> {
  if (orderIds.length === 0) return [];
  return executor
    .selectFrom('order_refunds')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The transactions of each order named (an order with none answers empty lists), in the order asked,
 * read through `executor` (the caller's transaction, so an answer shows what it just wrote): its
 * payments (the payments domain's) and its refunds (billing's).
 */
export async function readTransactions(
  executor: Kysely<Tables>,
  orderIds: string[],
): Promise<OrderTransactionsDocument[]> {
  if (orderIds.length === 0) return [];
  const [payments, refunds] = await Promise.all([
    paymentsOf(executor, orderIds),
    refundsOf(executor, orderIds),
  ]);
  return orderIds.map((orderId) => transactionsDocument(orderId, payments, refunds));
}

/** One order's transactions, from rows already read. */
export function transactionsDocument(
  orderId: string,
  payments: OrderPaymentRow[],
  refunds: Array<Pick<OrderRefundRow, 'order_id' | 'doc' | 'created_at'>>,
): OrderTransactionsDocument {
  return {
    orderId,
    payments: payments.filter((row) => row.order_id === orderId).map(paymentWire),
    refunds: refunds
      .filter((row) => row.order_id === orderId)
      .map((row) => ({ ...(JSON.parse(row.doc) as RefundDocument), createdDate: row.created_at })),
  };
}
