import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type { OrderPaymentRow } from './tables.ts';

/**
 * Orders' payments as billing reads and moves them (a capture, a void, a refund's status, a payment
 * the merchant recorded), in the caller's transaction: the payments domain owns the table, billing
 * decides what changes.
 */

/** The payments of each order named, oldest first. */
export async function paymentsOf(executor: Kysely<Tables>, orderIds: string[]): Promise<OrderPaymentRow[]> {
  if (orderIds.length === 0) return [];
  return executor
    .selectFrom('order_payments')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The order's payments still holding the buyer's money as an authorization (captured or voided ones
 * are not AUTHORIZED any more; one being captured or voided still is, until its provider answers).
 */
export async function authorizedPaymentIds(executor: Kysely<Tables>, orderId: string): Promise<string[]> {
  const rows = await executor
    .selectFrom('order_payments')
    .select('id')
    .where('order_id', '=', orderId)
    .where('status', '=', 'AUTHORIZED')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** What billing changes of a payment: its status, its capture, its void, what a capture took. */
export type PaymentChange = Partial<
  Pick<OrderPaymentRow, 'status' | 'captures' | 'captured_amount' | 'void'>
>;

export async function updatePayment(
  executor: Kysely<Tables>,
  paymentId: string,
  change: PaymentChange,
  now: Date,
): Promise<void> {
  await executor
    .updateTable('order_payments')
    .set({ ...change, updated_at: now.toISOString() })
    .where('id', '=', paymentId)
    .execute();
}

/** A payment the merchant took outside the platform (cash, a transfer, a till); its id. */
export async function insertOfflinePayment(
  executor: Kysely<Tables>,
  orderId: string,
  payment: { amount: string; formattedAmount: string; currency: string; status: string; methodName: string },
  now: Date,
): Promise<string> {
  const id = newId();
  const at = now.toISOString();
  await executor
    .insertInto('order_payments')
    .values({
      id,
      order_id: orderId,
      amount: payment.amount,
      formatted_amount: payment.formattedAmount,
      currency: payment.currency,
      status: payment.status,
      payment_order_id: '',
      gateway_transaction_id: '',
      provider_transaction_id: '',
      method_name: payment.methodName,
      card_brand: '',
      card_last4: '',
      delayed_capture: 0,
      authorized_at: null,
      offline: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}
