import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { DomainEvent } from '../events/outbox.ts';
import type { OrderWrites } from '../orders/writes.ts';
import { insertOfflinePayment, updatePayment } from '../payments/order-payments.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { currencyOf, decimal, maxBig } from '../shared/money.ts';
import { big, refundedOf } from './amounts.ts';
import { balance, type Ledger, reread, settle } from './ledger.ts';
import type { BillingRequests } from './requests.ts';
import { readTransactions } from './transactions.ts';

/**
 * Payments the merchant took outside the platform (cash, a transfer, a till), as the order's
 * transactions keep them: recorded (`addPayments`, or `createOrder` for the payment an order is
 * recorded with) and their status changed (a cheque cleared), never through a payment provider.
 */

/** A payment taken outside the platform (cash, a transfer), as `addPayments` records it. */
export interface RecordedPaymentInput {
  amount?: { amount?: string | undefined } | undefined;
  status?: string | undefined;
  regularPaymentDetails?:
    | {
        paymentMethod?: string | undefined;
        offlinePayment?: boolean | undefined;
        status?: string | undefined;
      }
    | undefined;
}

/** Statuses a recorded (offline) payment may be given by the merchant. */
const RECORDED_STATUSES = ['APPROVED', 'PENDING', 'CANCELED', 'DECLINED'];

export class RecordedPayments {
  constructor(
    private readonly requests: Pick<BillingRequests, 'once'>,
    private readonly orders: Pick<OrderWrites, 'settlePayment'>,
  ) {}

  /** `addPayments`: payments taken outside the platform (cash, a transfer), at most what is owed. */
  async addPayments(orderId: string, inputs: RecordedPaymentInput[], key?: string) {
    return this.requests.once('add-payments', orderId, key, async (trx, ledger, now) => {
      // a checkout's order waiting for its page's payment is paid there; a recorded one waiting for
      // its payment is paid here, and approved once it is (settle)
      if (ledger.locked.row.status === 'INITIALIZED' && ledger.locked.row.checkout_id !== null)
        throw applicationError(
          'FAILED_PRECONDITION',
          'ORDER_STATUS_IS_NOT_SUPPORTED',
          'the order is waiting for its checkout to be paid',
        );
      // the hosted platform's refusal of a payment for a canceled order (recordManuallyCollectedPayment)
      if (ledger.locked.row.status === 'CANCELED')
        throw applicationError(
          'FAILED_PRECONDITION',
          'ORDER_CANCELED',
          'the order was canceled: it collects no payment',
        );
      let owed = balance(ledger);
      const ids: string[] = [];
      for (const [index, input] of inputs.entries()) {
        const amount = decimal(input.amount?.amount);
        if (!amount || amount.lte(0) || !ledger.currency.round(amount).eq(amount))
          throw invalidArgument([
            violation(`payments[${index}].amount.amount`, 'must be an amount above 0', 'FORMAT'),
          ]);
        const status = input.status ?? input.regularPaymentDetails?.status ?? 'APPROVED';
        if (!['APPROVED', 'PENDING'].includes(status))
          throw invalidArgument([
            violation(
              `payments[${index}].status`,
              'a recorded payment is APPROVED or PENDING',
              'INVALID_ENUM_VALUE',
            ),
          ]);
        if (amount.gt(owed))
          throw applicationError(
            'INVALID_ARGUMENT',
            'AMOUNTS_DO_NOT_ADD_UP',
            `the order owes ${ledger.currency.text(maxBig(owed, big('0')))}; payments[${index}] is ${ledger.currency.text(amount)}`,
          );
        owed = owed.minus(amount);
        ids.push(
          await insertOfflinePayment(
            trx,
            orderId,
            {
              amount: ledger.currency.text(amount),
              formattedAmount: ledger.currency.format(amount),
              currency: ledger.currency.code,
              status,
              methodName: input.regularPaymentDetails?.paymentMethod ?? 'Offline',
            },
            now,
          ),
        );
      }
      await reread(trx, ledger);
      const orderTransactions = await settle(trx, this.orders, ledger, [], now);
      return { orderTransactions, paymentsIds: ids };
    });
  }

  /** `updatePaymentStatus`: a recorded payment's status (a cheque cleared, a transfer bounced). */
  async updatePaymentStatus(orderId: string, paymentId: string, status: string | undefined, key?: string) {
    return this.requests.once(`payment-status:${paymentId}`, orderId, key, async (trx, ledger, now) => {
      await this.changeStatus(trx, ledger, paymentId, status, now);
      await reread(trx, ledger);
      return { orderTransactions: await settle(trx, this.orders, ledger, [], now) };
    });
  }

  /** `bulkUpdatePaymentStatuses`: each payment on its own; a refusal is that item's error. */
  async bulkUpdatePaymentStatuses(
    items: Array<{ orderId?: string | undefined; paymentId?: string | undefined }>,
    status: string | undefined,
    returnFullEntity: boolean,
  ) {
    const results = [];
    let failures = 0;
    for (const [index, item] of items.entries()) {
      try {
        const answer = await this.updatePaymentStatus(item.orderId ?? '', item.paymentId ?? '', status);
        const payment = answer.orderTransactions.payments.find((row) => row.id === item.paymentId);
        results.push({
          itemMetadata: { id: item.paymentId, originalIndex: index, success: true },
          ...(returnFullEntity && payment ? { item: payment } : {}),
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        failures++;
        results.push({
          itemMetadata: {
            id: item.paymentId,
            originalIndex: index,
            success: false,
            error: {
              code: error.application?.code ?? error.kind,
              description: error.application?.description ?? error.message,
            },
          },
        });
      }
    }
    return {
      results,
      bulkActionMetadata: {
        totalSuccesses: items.length - failures,
        totalFailures: failures,
        undetailedFailures: 0,
      },
    };
  }

  private async changeStatus(
    trx: Transaction<Tables>,
    ledger: Ledger,
    paymentId: string,
    status: string | undefined,
    now: Date,
  ): Promise<void> {
    const payment = ledger.payments.find((row) => row.id === paymentId);
    if (!payment) throw notFound('payment', paymentId);
    if (!status || !RECORDED_STATUSES.includes(status))
      throw invalidArgument([
        violation('status', `is one of ${RECORDED_STATUSES.join(', ')}`, 'INVALID_ENUM_VALUE'),
      ]);
    if (Number(payment.offline) !== 1)
      throw applicationError(
        'FAILED_PRECONDITION',
        'PAYMENT_STATUS_NOT_UPDATABLE',
        'only a payment recorded by the merchant changes status this way; capture, void or refund the others',
      );
    if (refundedOf(payment.id, ledger.refunds).gt(0))
      throw applicationError(
        'FAILED_PRECONDITION',
        'PAYMENT_STATUS_NOT_UPDATABLE',
        'the payment has refunds',
      );
    if (status === 'APPROVED' && payment.status !== 'APPROVED') {
      const owed = balance(ledger);
      if (big(payment.amount).gt(owed))
        throw applicationError(
          'INVALID_ARGUMENT',
          'AMOUNTS_DO_NOT_ADD_UP',
          'the payment is more than the order owes',
        );
    }
    await updatePayment(trx, paymentId, { status }, now);
  }
}

/**
 * The payment an order was recorded with by `createOrder` (its total, paid or pending), in the
 * order's own transaction: kept as a payment recorded by the merchant, refunded, listed and counted
 * as one. Answers the order's transactions `updated` event, for the caller to record with the order's
 * own (as every later payment is told, billing/ledger.ts `settle`).
 */
export async function recordOrderPayment(
  trx: Transaction<Tables>,
  orderId: string,
  payment: { amount: string; currency: string; status: 'APPROVED' | 'PENDING' },
  now: Date,
): Promise<DomainEvent> {
  const currency = currencyOf(payment.currency);
  const amount = big(payment.amount);
  await insertOfflinePayment(
    trx,
    orderId,
    {
      amount: currency.text(amount),
      formattedAmount: currency.format(amount),
      currency: currency.code,
      status: payment.status,
      methodName: 'Offline',
    },
    now,
  );
  const [transactions] = await readTransactions(trx, [orderId]);
  return {
    entity: 'orderTransactions',
    slug: 'updated',
    entityId: orderId,
    payload: { entity: transactions! },
  };
}
