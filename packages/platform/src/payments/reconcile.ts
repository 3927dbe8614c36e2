import type { PaymentReconciliation, ReconciledSide, ReconciliationDifferenceKind } from '@cartwheel/sdk';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { Big } from '../shared/money.ts';
import type { ChargeState, ProviderCharge } from './provider.ts';
import type { PaymentProviders } from './providers.ts';
import type { OrderPaymentRow } from './tables.ts';

/**
 * Reconciliation (issue 32): the store's payments beside each provider's own records of its charges
 * for a period, and every difference between them. A charge the provider holds with no payment here
 * is money taken with no order to show for it; a payment here with no charge there is an order that
 * was never paid; amounts and states (held, taken, released) must agree. Read-only: nothing is changed,
 * the merchant decides what to do with each difference.
 */

type DifferenceKind = ReconciliationDifferenceKind;
type Side = ReconciledSide;
type Reconciliation = PaymentReconciliation;

/** The longest period one reconciliation reads. */
const MAX_DAYS = 366;
/**
 * Records on either side this close to the period's ends are read too, so a payment written a moment
 * after its charge (or the other way round) is matched rather than reported missing.
 */
const EDGE_MS = 60 * 60 * 1000;

/**
 * What the store's books say was refunded of each payment of these orders, by payment id (billing's
 * refunds, handed in by the caller: payments does not read billing's tables).
 */
export type RefundedByPayment = (orderIds: string[]) => Promise<Map<string, string>>;

/** The period `from`..`to` (ISO date-times, `to` excluded), checked. */
export function periodOf(input: { from: string; to: string }): { from: Date; to: Date } {
  const problems = [];
  const from = new Date(input.from);
  const to = new Date(input.to);
  if (Number.isNaN(from.getTime())) problems.push(violation('from', 'is not a date-time', 'FORMAT'));
  if (Number.isNaN(to.getTime())) problems.push(violation('to', 'is not a date-time', 'FORMAT'));
  if (problems.length === 0 && to <= from) problems.push(violation('to', 'must be after from', 'VALIDATION'));
  if (problems.length === 0 && to.getTime() - from.getTime() > MAX_DAYS * 24 * 60 * 60 * 1000)
    problems.push(violation('to', `is more than ${MAX_DAYS} days after from`, 'VALIDATION'));
  if (problems.length > 0) throw invalidArgument(problems);
  return { from, to };
}

export async function reconcilePayments(
  db: Kysely<Tables>,
  providers: PaymentProviders,
  period: { from: Date; to: Date },
  refundedByPayment: RefundedByPayment,
): Promise<Reconciliation> {
  const wideFrom = new Date(period.from.getTime() - EDGE_MS);
  const wideTo = new Date(period.to.getTime() + EDGE_MS);
  const inPeriod = (date: string) => {
    const time = Date.parse(date);
    return time >= period.from.getTime() && time < period.to.getTime();
  };
  const result: Reconciliation = {
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    providers: [],
    differences: [],
  };
  for (const provider of providers.list()) {
    const payments = await db
      .selectFrom('order_payments')
      .selectAll()
      .where('provider_id', '=', provider.id)
      .where('offline', '=', 0)
      .where('created_at', '>=', wideFrom.toISOString())
      .where('created_at', '<', wideTo.toISOString())
      .execute();
    if (!provider.charges) {
      result.providers.push({
        providerId: provider.id,
        compared: false,
        payments: payments.filter((row) => inPeriod(row.created_at)).length,
        charges: 0,
      });
      continue;
    }
    const charges = await provider.charges(wideFrom, wideTo);
    const refunded = await refundedByPayment([...new Set(payments.map((row) => row.order_id))]);
    const ourSide = (row: OrderPaymentRow) => sideOfPayment(row, refunded.get(row.id) ?? '0');
    const chargeById = new Map(charges.map((charge) => [charge.transactionId, charge]));
    const paymentById = new Map(payments.map((row) => [row.gateway_transaction_id, row]));
    result.providers.push({
      providerId: provider.id,
      compared: true,
      payments: payments.filter((row) => inPeriod(row.created_at)).length,
      charges: charges.filter((charge) => inPeriod(charge.createdAt)).length,
    });
    const differ = (
      kind: DifferenceKind,
      transactionId: string,
      payment?: OrderPaymentRow,
      charge?: ProviderCharge,
    ) =>
      result.differences.push({
        kind,
        providerId: provider.id,
        transactionId,
        orderId: payment?.order_id ?? null,
        cartwheel: payment ? ourSide(payment) : null,
        provider: charge ? sideOfCharge(charge) : null,
      });
    for (const payment of payments) {
      if (!inPeriod(payment.created_at)) continue;
      const charge = chargeById.get(payment.gateway_transaction_id);
      if (!charge) {
        differ('NOT_AT_PROVIDER', payment.gateway_transaction_id, payment);
        continue;
      }
      const ours = ourSide(payment);
      const theirs = sideOfCharge(charge);
      if (ours.currency !== theirs.currency || !new Big(ours.amount).eq(theirs.amount))
        differ('AMOUNT_DIFFERS', charge.transactionId, payment, charge);
      else if (ours.state !== theirs.state) differ('STATE_DIFFERS', charge.transactionId, payment, charge);
      else if (!new Big(ours.capturedAmount).eq(theirs.capturedAmount))
        differ('CAPTURED_DIFFERS', charge.transactionId, payment, charge);
      else if (!new Big(ours.refundedAmount).eq(theirs.refundedAmount))
        differ('REFUNDED_DIFFERS', charge.transactionId, payment, charge);
    }
    for (const charge of charges) {
      // a charge still waiting on the shopper's 3-D Secure step has no payment yet, rightly
      if (!inPeriod(charge.createdAt) || charge.state === 'PENDING' || charge.state === 'CANCELED') continue;
      if (!paymentById.has(charge.transactionId))
        differ('NOT_IN_CARTWHEEL', charge.transactionId, undefined, charge);
    }
  }
  return result;
}

/** A payment of the store in the provider's terms: held, taken or released, and what was taken. */
function sideOfPayment(row: OrderPaymentRow, refundedAmount: string): Side {
  const state: ChargeState =
    row.status === 'VOIDED' ? 'CANCELED' : row.status === 'AUTHORIZED' ? 'AUTHORIZED' : 'CAPTURED';
  const capturedAmount =
    state === 'CANCELED' ? '0' : row.delayed_capture === 1 ? (row.captured_amount ?? '0') : row.amount;
  return {
    amount: row.amount,
    currency: row.currency,
    state,
    capturedAmount,
    refundedAmount,
    createdDate: row.created_at,
  };
}

function sideOfCharge(charge: ProviderCharge): Side {
  return {
    amount: charge.amount,
    currency: charge.currency,
    state: charge.state,
    capturedAmount: charge.state === 'CANCELED' ? '0' : charge.capturedAmount,
    refundedAmount: charge.refundedAmount,
    createdDate: charge.createdAt,
  };
}
