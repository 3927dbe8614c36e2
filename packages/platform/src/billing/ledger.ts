import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { DomainEvent } from '../events/outbox.ts';
import type { LockedOrder, OrderWrites } from '../orders/writes.ts';
import { paymentsOf } from '../payments/order-payments.ts';
import type { OrderPaymentRow } from '../payments/tables.ts';
import type {
  CaptureDocument,
  OrderTransactionsDocument,
  RefundDocument,
  VoidDocument,
} from '../payments/transactions.ts';
import { applicationError, type DomainErrorKind, invalidArgument, violation } from '../shared/errors.ts';
import { type Big, type Currency, currencyOf, maxBig } from '../shared/money.ts';
import { big, type CountedRefund, capturedOf, derivePaymentStatus, refundedOf } from './amounts.ts';
import type { SoldOrder } from './refund-calculation.ts';
import { refundsOf, transactionsDocument } from './transactions.ts';

/** An order's money as one transaction sees it, the order held (or only read, for an answer). */
export interface Ledger {
  locked: LockedOrder;
  /** The order's document (the locked one: what a call changes on it, the order's save writes). */
  order: SoldOrder & { buyerInfo?: { email?: string | null }; activities?: unknown[] };
  currency: Currency;
  total: Big;
  payments: OrderPaymentRow[];
  refunds: Array<CountedRefund & { id: string; createdAt: string }>;
}

/** A money call's outcome as its request row keeps it: a retry with the same key answers it again. */
export type Outcome<Answer> =
  | { ok: Answer }
  | { error: { kind: DomainErrorKind; code: string; description: string; data?: Record<string, unknown> } };

/** What the provider answered for each payment of a call, by payment id. */
export type ProviderResults = Record<
  string,
  { status: 'SUCCEEDED' | 'FAILED'; reason?: string; refundId?: string }
>;

export type Activity = { type: string } & Record<string, unknown>;

/**
 * The order with its payments and refunds, in `trx`; with `hold`, its row locked (the orders domain's
 * lock), so a money call on any process waits for this one's transaction before reading.
 */
export async function readLedger(
  trx: Transaction<Tables>,
  orders: Pick<OrderWrites, 'lock'>,
  orderId: string,
  hold: boolean,
): Promise<Ledger> {
  const locked = await orders.lock(trx, orderId, { hold });
  const order = locked.doc as Ledger['order'];
  const ledger: Ledger = {
    locked,
    order,
    currency: currencyOf(order.currency ?? 'USD'),
    total: big(order.priceSummary?.total?.amount),
    payments: [],
    refunds: [],
  };
  return reread(trx, ledger);
}

/** The ledger's payments and refunds read again (after a write to them in `trx`). */
export async function reread(executor: Kysely<Tables>, ledger: Ledger): Promise<Ledger> {
  const orderId = ledger.locked.row.id;
  const [payments, refunds] = await Promise.all([
    paymentsOf(executor, [orderId]),
    refundsOf(executor, [orderId]),
  ]);
  ledger.payments = payments;
  ledger.refunds = refunds.map((refund) => ({
    id: refund.id,
    status: refund.status,
    createdAt: refund.created_at,
    doc: JSON.parse(refund.doc) as RefundDocument,
  }));
  return ledger;
}

/** The order's transactions as the ledger holds them (not read again). */
export function transactionsOf(ledger: Ledger): OrderTransactionsDocument {
  const orderId = ledger.locked.row.id;
  return transactionsDocument(
    orderId,
    ledger.payments,
    ledger.refunds.map((refund) => ({
      order_id: orderId,
      doc: JSON.stringify(refund.doc),
      created_at: refund.createdAt,
    })),
  );
}

/**
 * The order's payment status derived again from its transactions, `activities` on its timeline, and
 * the events of the change (its transactions updated, the order's own), written through the orders
 * domain's one save, in `trx`. A recorded order waiting for its payment is approved there once paid.
 */
export async function settle(
  trx: Transaction<Tables>,
  orders: Pick<OrderWrites, 'settlePayment'>,
  ledger: Ledger,
  activities: Activity[],
  now: Date,
  fulfillmentStatus?: string,
): Promise<OrderTransactionsDocument> {
  const { row } = ledger.locked;
  const paymentStatus = derivePaymentStatus(
    row.payment_status,
    ledger.total,
    ledger.payments,
    ledger.refunds,
  );
  const timeline = [...activities];
  if (paymentStatus !== row.payment_status) {
    if (paymentStatus === 'PAID') timeline.push({ type: 'ORDER_PAID' });
    if (paymentStatus === 'PARTIALLY_PAID') timeline.push({ type: 'ORDER_PARTIALLY_PAID' });
  }
  const orderTransactions = transactionsOf(ledger);
  const transactionsEvent: DomainEvent = {
    entity: 'orderTransactions',
    slug: 'updated',
    entityId: row.id,
    payload: { entity: orderTransactions },
  };
  await orders.settlePayment(
    trx,
    ledger.locked,
    { paymentStatus, fulfillmentStatus, activities: timeline, transactionsEvent },
    now,
  );
  return orderTransactions;
}

/** What the order still owes: its total less what was taken and what authorizations still hold. */
export function balance(ledger: Ledger): Big {
  let covered = big('0');
  for (const payment of ledger.payments) {
    covered = covered.plus(capturedOf(payment));
    if (payment.status === 'AUTHORIZED') covered = covered.plus(payment.amount);
  }
  return ledger.total.minus(covered);
}

/** Refuses a list naming one payment twice. */
export function named(ids: string[], field: string): void {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id))
      throw invalidArgument([violation(`${field}[${index}]`, 'names a payment twice', 'VALIDATION')]);
    seen.add(id);
  }
}

/** The payment a capture or void acts on: an authorization nothing was done with yet. */
export function authorizedPayment(
  ledger: Ledger,
  paymentId: string,
  action: 'capture' | 'void',
): OrderPaymentRow {
  const payment = ledger.payments.find((row) => row.id === paymentId);
  const refuse = (code: string, description: string) =>
    applicationError(code === 'PAYMENT_NOT_FOUND' ? 'NOT_FOUND' : 'FAILED_PRECONDITION', code, description, {
      paymentId,
    });
  if (!payment) throw refuse('PAYMENT_NOT_FOUND', `the order has no payment ${paymentId}`);
  const capture = (JSON.parse(payment.captures ?? '[]') as CaptureDocument[])[0];
  const voiding = payment.void ? (JSON.parse(payment.void) as VoidDocument) : undefined;
  if (payment.status === 'VOIDED' || voiding?.status === 'PENDING')
    throw refuse('PAYMENT_ALREADY_VOIDED', `payment ${paymentId} was voided`);
  if (Number(payment.delayed_capture) !== 1)
    throw refuse(
      'PAYMENT_NOT_AUTHORIZED',
      `payment ${paymentId} was not an authorization (${payment.status})`,
    );
  if (capture?.status === 'PENDING')
    throw refuse(
      action === 'capture' ? 'PAYMENT_HAS_PENDING_CAPTURE' : 'PAYMENT_ALREADY_CAPTURED',
      `payment ${paymentId} is being captured`,
    );
  if (capturedOf(payment).gt(0) || capture?.status === 'SUCCEEDED')
    throw refuse('PAYMENT_ALREADY_CAPTURED', `payment ${paymentId} was captured already`);
  if (payment.status !== 'AUTHORIZED')
    throw refuse(
      'PAYMENT_NOT_AUTHORIZED',
      `payment ${paymentId} is not an authorization (${payment.status})`,
    );
  return payment;
}

/** Whether (and how) a payment can be refunded, with its figures: point 8's refund-disabled reasons. */
export function paymentRefundability(ledger: Ledger, payment: OrderPaymentRow) {
  const paid = capturedOf(payment);
  const refunded = refundedOf(payment.id, ledger.refunds, 'SUCCEEDED');
  const taken = refundedOf(payment.id, ledger.refunds);
  const pending = taken.minus(refunded);
  const max = maxBig(paid.minus(taken), big('0'));
  const figures = { paid, refunded, pending, max };
  const no = (reason: string) => ({ ...figures, refundable: false, manual: undefined, reason });
  const { status } = ledger.locked.row;
  if (status === 'PENDING') return no('ORDER_IS_PENDING');
  if (status === 'REJECTED') return no('ORDER_IS_REJECTED');
  if (paid.lte(0)) return no(big(payment.amount).lte(0) ? 'ZERO_PRICE' : 'NOT_PAID');
  if (pending.gt(0)) return no('PENDING_REFUND');
  if (max.lte(0)) return no('ALREADY_REFUNDED');
  if (Number(payment.offline) === 1)
    return { ...figures, refundable: false, manual: 'OFFLINE', reason: undefined };
  return { ...figures, refundable: true, manual: undefined, reason: undefined };
}

/** Point 4's collectability: COLLECTABLE, or why not. */
export function collectabilityOf(ledger: Ledger, owed: Big): string {
  switch (ledger.locked.row.status) {
    case 'CANCELED':
      return 'NONCOLLECTABLE_ORDER_IS_CANCELLED';
    case 'PENDING':
      return 'NONCOLLECTABLE_ORDER_IS_PENDING';
    case 'REJECTED':
      return 'NONCOLLECTABLE_ORDER_IS_REJECTED';
  }
  return owed.gt(0) ? 'COLLECTABLE' : 'NONCOLLECTABLE_ORDER_IS_PAID';
}
