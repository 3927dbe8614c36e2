import type { OrderPaymentRow } from '../payments/tables.ts';
import type { RefundDocument } from '../payments/transactions.ts';
import { Big, type Currency } from '../shared/money.ts';

/** The wire's price: a decimal string with the currency's decimals, and as a shopper reads it. */
export const priceOf = (currency: Currency, amount: Big) => ({
  amount: currency.text(amount),
  formattedAmount: currency.format(amount),
});

export const big = (text: string | undefined | null): Big => new Big(text && text !== '' ? text : '0');

/** A refund row as the money rules read it: its document and whether it still counts. */
export interface CountedRefund {
  status: string;
  doc: RefundDocument;
}

/**
 * What a payment took: a delayed capture what was captured; a sale or a recorded payment its amount
 * once approved (a refunded one took it too); nothing while authorized, pending, voided or declined.
 */
export function capturedOf(payment: OrderPaymentRow): Big {
  if (Number(payment.delayed_capture) === 1) return big(payment.captured_amount);
  return ['APPROVED', 'REFUNDED', 'PARTIALLY_REFUNDED'].includes(payment.status)
    ? big(payment.amount)
    : big('0');
}

/** What refunds took (or are taking: `STARTED`) from a payment; failed refund transactions take nothing. */
export function refundedOf(paymentId: string, refunds: CountedRefund[], only?: 'SUCCEEDED'): Big {
  let sum = big('0');
  for (const refund of refunds) {
    if (only && refund.status !== only) continue;
    for (const transaction of refund.doc.transactions) {
      if (transaction.paymentId === paymentId && transaction.refundStatus !== 'FAILED')
        sum = sum.plus(transaction.amount.amount);
    }
  }
  return sum;
}

/**
 * The order's payment status, derived from its transactions (point 4): refunds first, then what was
 * captured against the total, then authorizations and recorded payments still pending; an order whose
 * authorizations were voided and nothing taken or pending is `CANCELED`. With no payments at all the status is left as it is.
 */
export function derivePaymentStatus(
  current: string,
  total: Big,
  payments: OrderPaymentRow[],
  refunds: CountedRefund[],
): string {
  if (payments.length === 0) return current;
  let paid = big('0');
  let refunded = big('0');
  let authorized = big('0');
  for (const payment of payments) {
    paid = paid.plus(capturedOf(payment));
    refunded = refunded.plus(refundedOf(payment.id, refunds, 'SUCCEEDED'));
    if (payment.status === 'AUTHORIZED') authorized = authorized.plus(payment.amount);
  }
  if (paid.gt(0) && refunded.gte(paid)) return 'FULLY_REFUNDED';
  if (refunded.gt(0)) return 'PARTIALLY_REFUNDED';
  if (paid.gt(0) && paid.gte(total)) return 'PAID';
  if (authorized.gt(0)) return 'PENDING';
  if (paid.gt(0)) return 'PARTIALLY_PAID';
  if (payments.some((payment) => payment.status === 'PENDING')) return 'PENDING';
  if (payments.some((payment) => payment.status === 'VOIDED')) return 'CANCELED';
  return 'NOT_PAID';
}

/** A payment's own status after refunds: `REFUNDED` when all it took went back. */
export function refundedPaymentStatus(payment: OrderPaymentRow, refunds: CountedRefund[]): string {
  const refunded = refundedOf(payment.id, refunds, 'SUCCEEDED');
  if (refunded.lte(0)) return payment.status;
  return refunded.gte(capturedOf(payment)) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
}

/**
 * The share of `full` that `count` more of `of` come to after `before` were taken: the difference of
 * two cumulative roundings, so however an amount is taken in parts, the parts add up to it exactly.
 */
export function shareOf(currency: Currency, full: Big, before: Big, count: Big, of: Big): Big {
  if (of.lte(0)) return big('0');
  const upTo = (taken: Big) => currency.round(full.times(taken).div(of));
  return upTo(before.plus(count)).minus(upTo(before));
}
