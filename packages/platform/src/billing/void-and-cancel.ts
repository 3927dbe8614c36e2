import type { Kysely } from 'kysely';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { documentOf, type OrderDocument } from '../orders/document.ts';
import type { CancelOptions, OrderOperations } from '../orders/operations.ts';
import type { OrderWrites } from '../orders/writes.ts';
import { authorizedPaymentIds } from '../payments/order-payments.ts';
import type { OrderTransactionsDocument } from '../payments/transactions.ts';
import { applicationError, DomainError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { OrderTransactionsAnswer } from './capture-void.ts';
import { readTransactions } from './transactions.ts';

/** What void-and-cancel needs: billing's own void, and the orders domain's cancel and its checks. */
export interface VoidAndCancelDependencies {
  orders: Pick<OrderWrites, 'lock'>;
  cancels: Pick<OrderOperations, 'cancel' | 'checkCancel'>;
  void(orderId: string, paymentIds: string[], key?: string): Promise<OrderTransactionsAnswer>;
}

export interface VoidAndCancelAnswer {
  order: OrderDocument;
  orderTransactions: OrderTransactionsDocument;
}

/**
 * Cartwheel's `voidAndCancel` (issue 32): an order holding authorizations is canceled without leaving
 * the buyer's money held. Its authorizations are voided at their provider first (billing's own void,
 * under a key derived from the call's), and only once every void succeeded is the order canceled (as
 * `cancelOrder`, restock and email as asked): a void the provider refuses or never answers cancels
 * nothing. The cancel's checks run before any void, so no money is released for an order that could
 * not be canceled. A retry is safe: voided payments are not asked again, and an order already canceled
 * with nothing held answers as it is (no second restock or email). An order neither canceled nor
 * holding an authorization is refused (ORDER_HAS_NO_AUTHORIZED_TRANSACTION): the call needs the void
 * permission only (billing/operations-access.ts), so it cancels nothing a void does not release.
 */
export async function voidAndCancel(
  db: Kysely<Tables>,
  deps: VoidAndCancelDependencies,
  orderId: string,
  options: CancelOptions,
  key: string | undefined,
): Promise<VoidAndCancelAnswer> {
  const before = await inTransaction(db, async (trx) => {
    const { row } = await deps.orders.lock(trx, orderId, { hold: false });
    return { status: row.status, held: await authorizedPaymentIds(trx, orderId) };
  });
  if (before.status !== 'CANCELED') {
    // the call needs orders.void, not orders.manage: it cancels only what a void releases
    if (before.held.length === 0)
      throw applicationError(
        'FAILED_PRECONDITION',
        'ORDER_HAS_NO_AUTHORIZED_TRANSACTION',
        'the order holds no authorized payment to void: cancel it with cancelOrder',
        { orderId },
      );
    await deps.cancels.checkCancel(orderId, false);
  }
  if (before.held.length > 0) {
    const callKey = key ?? newId();
    let voided: OrderTransactionsAnswer;
    try {
      voided = await deps.void(orderId, before.held, `void-and-cancel:${callKey}`);
    } catch (error) {
      // the provider did not answer: the same call with this key finishes the void, then cancels
      if (error instanceof DomainError && error.application?.code === 'PAYMENT_PROVIDER_UNAVAILABLE')
        throw applicationError('ABORTED', 'PAYMENT_PROVIDER_UNAVAILABLE', error.application.description, {
          idempotencyKey: callKey,
        });
      throw error;
    }
    const failed = voided.orderTransactions.payments.filter(
      (payment) => before.held.includes(payment.id) && payment.status !== 'VOIDED',
    );
    if (failed.length > 0)
      throw applicationError(
        'FAILED_PRECONDITION',
        'PAYMENT_VOID_FAILED',
        `the payment provider did not void ${failed.length === 1 ? 'the authorization' : 'every authorization'}: the order was not canceled (a retry asks the provider again, under a new Idempotency-Key if one was sent)`,
        {
          orderId,
          paymentIds: failed.map((payment) => payment.id),
          failureCodes: failed.map(
            (payment) =>
              payment.regularPaymentDetails?.authorizationDetails?.void?.failureDetails?.failureCode ?? null,
          ),
        },
      );
  }
  const order =
    before.status === 'CANCELED'
      ? await inTransaction(db, async (trx) =>
          documentOf((await deps.orders.lock(trx, orderId, { hold: false })).row),
        )
      : await deps.cancels.cancel(orderId, options);
  const [orderTransactions] = await readTransactions(db, [orderId]);
  return { order, orderTransactions: orderTransactions! };
}
