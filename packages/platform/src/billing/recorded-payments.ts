import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { DomainEvent } from '../events/outbox.ts';
import { readTransactions } from '../payments/transactions.ts';
import { type Big, type Currency, currencyOf } from '../pricing/money.ts';
import { newId } from '../shared/ids.ts';
import { big } from './amounts.ts';

/**
 * Payments the merchant took outside the platform (cash, a transfer, a till), as the order's
 * transactions keep them: written in the transaction of whatever records them (`addPayments`, or
 * `createOrder` for the payment an order is recorded with), never through a payment provider.
 */

/** A payment the merchant took outside the platform, as `addPayments` keeps it; its id. */
export async function insertRecordedPayment(
  trx: Transaction<Tables>,
  orderId: string,
  payment: { amount: Big; currency: Currency; status: string; methodName: string; now: Date },
): Promise<string> {
  const id = newId();
  const at = payment.now.toISOString();
  await trx
    .insertInto('order_payments')
    .values({
      id,
      order_id: orderId,
      amount: payment.currency.text(payment.amount),
      formatted_amount: payment.currency.format(payment.amount),
      currency: payment.currency.code,
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

/**
 * The payment an order was recorded with by `createOrder` (its total, paid or pending), in the
 * order's own transaction: kept as a payment recorded by the merchant, refunded, listed and counted
 * as one. Answers the order's transactions `updated` event, for the caller to record with the order's
 * own (as every later payment is told, billing/service.ts `settle`).
 */
export async function recordOrderPayment(
  trx: Transaction<Tables>,
  orderId: string,
  payment: { amount: string; currency: string; status: 'APPROVED' | 'PENDING' },
  now: Date,
): Promise<DomainEvent> {
  await insertRecordedPayment(trx, orderId, {
    amount: big(payment.amount),
    currency: currencyOf(payment.currency),
    status: payment.status,
    methodName: 'Offline',
    now,
  });
  const [transactions] = await readTransactions(trx, [orderId]);
  return {
    entity: 'orderTransactions',
    slug: 'updated',
    entityId: orderId,
    payload: { entity: transactions! },
  };
}
