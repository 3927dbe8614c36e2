import type { Kysely, Transaction } from 'kysely';
import type { CatalogService, StockItem } from '../catalog/service.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import type { FulfillmentRecords } from '../fulfillments/records.ts';
import { documentOf, type OrderService } from '../orders/service.ts';
import type { OrderRow } from '../orders/tables.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import type { OrderPaymentRow } from '../payments/tables.ts';
import {
  type CaptureDocument,
  type OrderTransactionsDocument,
  type PaymentDocument,
  paymentWire,
  type RefundDocument,
  type VoidDocument,
} from '../payments/transactions.ts';
import { type Big, type Currency, currencyOf, decimal, maxBig } from '../pricing/money.ts';
import {
  applicationError,
  DomainError,
  type DomainErrorKind,
  invalidArgument,
  notFound,
  violation,
} from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import {
  big,
  type CountedRefund,
  capturedOf,
  derivePaymentStatus,
  priceOf,
  refundedOf,
  refundedPaymentStatus,
} from './amounts.ts';
import { insertRecordedPayment } from './recorded-payments.ts';
import {
  calculateRefund,
  type RefundItemsInput,
  refundability,
  refundedSoFar,
  type SoldOrder,
} from './refund-calculation.ts';
import { refundEmail } from './refund-email.ts';

/**
 * What billing needs of the other domains: the payment provider, the catalog's stock, the outbox,
 * and the fulfillment status's rule (a refunded unshipped line no longer waits to ship).
 */
export interface BillingDependencies {
  /** The payment provider, read at each call (a test may replace it). */
  payments: { readonly provider: PaymentProvider };
  catalog: Pick<CatalogService, 'returnStock'>;
  fulfillments: Pick<FulfillmentRecords, 'statusAfterRefund'>;
  mailer: Pick<Mailer, 'queue'>;
  /** A recorded order waiting for its payment is approved once paid (OrderService.approveRecorded). */
  orders: Pick<OrderService, 'approveRecorded'>;
}

export interface BillingOptions {
  publicUrl: string;
  storeName: string;
}

/** A payment named for capture: all of it unless `amount` says less. */
export interface CaptureInput {
  paymentId?: string | undefined;
  amount?: { amount?: string | undefined } | undefined;
}

export interface RefundRequest {
  paymentRefunds: Array<{
    paymentId?: string | undefined;
    amount?: { amount?: string | undefined } | undefined;
    externalRefund?: boolean | undefined;
  }>;
  refundItems?: RefundItemsInput | undefined;
  sideEffects?:
    | {
        restock?: {
          lineItems?: Array<{ lineItemId?: string | undefined; quantity?: number | undefined }> | undefined;
        };
        notifications?: {
          sendCustomerEmail?: boolean | undefined;
          customMessage?: string | null | undefined;
        };
      }
    | undefined;
  customerReason?: string | null | undefined;
}

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

/** An order's money as one transaction sees it, the order row held. */
interface Ledger {
  row: OrderRow;
  order: SoldOrder & { buyerInfo?: { email?: string | null }; activities?: unknown[] };
  currency: Currency;
  total: Big;
  payments: OrderPaymentRow[];
  refunds: Array<CountedRefund & { id: string; createdAt: string }>;
}

/** A money call's outcome as its request row keeps it: a retry with the same key answers it again. */
type Outcome<Answer> =
  | { ok: Answer }
  | { error: { kind: DomainErrorKind; code: string; description: string; data?: Record<string, unknown> } };

interface CapturePlan {
  captures: Array<{ paymentId: string; amount: string; transactionId: string }>;
}
interface VoidPlan {
  voids: Array<{ paymentId: string; transactionId: string }>;
}
interface RefundPlan {
  refundId: string;
  /** The online payments the provider is asked to refund, with their gateway transactions. */
  gateway: Array<{ paymentId: string; amount: string; transactionId: string }>;
  /** What goes back on the shelf, by line: at finish, never more than the line has left to restock. */
  restock: Array<StockItem & { lineItemId: string }>;
  notify: { sendCustomerEmail: boolean; customMessage?: string | null | undefined };
}
type ProviderResults = Record<string, { status: 'SUCCEEDED' | 'FAILED'; reason?: string; refundId?: string }>;

/**
 * Capture, void and refund of orders' payments, the payments a merchant records, and what an order
 * can still collect or refund. Each money call runs in two transactions around the provider's network
 * call: the first holds the order row, checks the call against what the transactions say, and writes
 * what it will do (so a concurrent call on any process sees that money as spoken for); the second
 * writes the provider's answer. An idempotency key makes a retry answer the first call's outcome, or
 * finish a call whose process stopped between the two.
 */
export class BillingService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: BillingDependencies,
    private readonly options: BillingOptions,
  ) {}

  // ---- reads ----

  /** `getOrderRefundability`: per payment (refundable, manually, or not and why), per line, shipping. */
  async refundability(orderId: string) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId, false);
      const { currency } = ledger;
      let paid = big('0');
      let refunded = big('0');
      let pending = big('0');
      const payments = ledger.payments.map((payment) => {
        const state = paymentRefundability(ledger, payment);
        paid = paid.plus(state.paid);
        refunded = refunded.plus(state.refunded);
        pending = pending.plus(state.pending);
        const wire = paymentWire(payment);
        return {
          ...(state.refundable
            ? { refundable: true }
            : state.manual
              ? { refundable: false, manuallyRefundable: { reason: state.manual } }
              : { refundable: false, nonRefundable: { reason: state.reason } }),
          payment: {
            paymentId: payment.id,
            monetary: {
              paid: priceOf(currency, state.paid),
              refunded: priceOf(currency, state.refunded),
              refundPending: priceOf(currency, state.pending),
              maxRefund: priceOf(currency, state.max),
            },
            paymentMethod: payment.method_name,
            offlinePayment: Number(payment.offline) === 1,
            ...(wire.regularPaymentDetails.creditCardDetails
              ? {
                  creditCardDetails: {
                    lastFourDigits: payment.card_last4,
                    brand: payment.card_brand,
                  },
                }
              : {}),
          },
        };
      });
      return {
        payments,
        paymentsSummary: {
          monetary: {
            paid: priceOf(currency, paid),
            refunded: priceOf(currency, refunded),
            refundPending: priceOf(currency, pending),
            maxRefund: priceOf(currency, paid.minus(refunded)),
          },
        },
        ...refundability(ledger.order, currency, ledger.refunds),
      };
    });
  }

  /** `calculateRefund`: what refunding these lines, this shipping and these fees comes to. */
  async calculate(orderId: string, items: RefundItemsInput = {}) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId, false);
      const calculation = calculateRefund(ledger.order, ledger.currency, ledger.refunds, items);
      if (calculation.errors.length > 0) {
        return {
          available: false,
          notAvailable: { errors: calculation.errors },
          calculatedRefundItems: calculation.calculatedRefundItems,
        };
      }
      return {
        available: true,
        summary: calculation.summary,
        calculatedRefundItems: calculation.calculatedRefundItems,
      };
    });
  }

  /** `getPaymentCollectabilityStatus`: whether the order can be paid now, and how much is left. */
  async collectability(orderId: string) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId, false);
      const balance = this.balance(ledger);
      return {
        status: collectabilityOf(ledger, balance),
        amount: priceOf(ledger.currency, maxBig(balance, big('0'))),
      };
    });
  }

  /**
   * `preparePaymentCollection`: a payment gateway order for (part of) what the order still owes. The
   * order itself is the gateway order a checkout's page pays, as create-order answers it. An order the
   * merchant recorded has no checkout, so no page can pay it online: it is refused with the hosted
   * call's `PAYMENT_METHODS_NOT_FOUND`, and its payment is recorded with `addPayments` instead.
   */
  async prepareCollection(orderId: string, amount: string | undefined) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId, false);
      const balance = this.balance(ledger);
      const status = collectabilityOf(ledger, balance);
      if (status !== 'COLLECTABLE')
        throw applicationError(
          'FAILED_PRECONDITION',
          status,
          `the order cannot collect a payment: ${status}`,
        );
      if (ledger.row.checkout_id === null)
        throw applicationError(
          'FAILED_PRECONDITION',
          'PAYMENT_METHODS_NOT_FOUND',
          'the order was recorded by the merchant and has no checkout page to be paid on: record the payment taken with addPayments',
          { orderId },
        );
      const asked = decimal(amount);
      if (!asked || asked.lte(0) || asked.gt(balance) || !ledger.currency.round(asked).eq(asked)) {
        throw invalidArgument([
          violation(
            'amount.amount',
            `must be more than 0 and at most ${ledger.currency.text(balance)}`,
            'FORMAT',
          ),
        ]);
      }
      return { paymentGatewayOrderId: orderId };
    });
  }

  // ---- capture and void ----

  /** `captureAuthorizedPayments`: all or part of each authorization; what is not captured is released. */
  async capture(orderId: string, captures: CaptureInput[], key?: string): Promise<OrderTransactionsAnswer> {
    return this.twoPhase<CapturePlan, OrderTransactionsAnswer>('capture', orderId, key, {
      plan: async (trx, ledger, now) => {
        if (ledger.row.status === 'CANCELED')
          throw applicationError(
            'FAILED_PRECONDITION',
            'ORDER_STATUS_IS_NOT_SUPPORTED',
            'the order is canceled',
          );
        named(
          captures.map((capture) => capture.paymentId ?? ''),
          'payments',
        );
        const plan: CapturePlan = { captures: [] };
        for (const capture of captures) {
          const payment = authorizedPayment(ledger, capture.paymentId ?? '', 'capture');
          const asked =
            capture.amount?.amount === undefined ? big(payment.amount) : decimal(capture.amount.amount);
          if (!asked || asked.lte(0) || asked.gt(payment.amount) || !ledger.currency.round(asked).eq(asked)) {
            throw applicationError(
              'INVALID_ARGUMENT',
              'INVALID_AMOUNT',
              `a capture of payment ${payment.id} must be more than 0 and at most ${payment.amount}`,
              { paymentId: payment.id, amount: capture.amount },
            );
          }
          const amount = ledger.currency.text(asked);
          plan.captures.push({
            paymentId: payment.id,
            amount,
            transactionId: payment.gateway_transaction_id,
          });
          const pending: CaptureDocument = {
            id: newId(),
            status: 'PENDING',
            amount: priceOf(ledger.currency, asked),
            createdDate: now.toISOString(),
          };
          await trx
            .updateTable('order_payments')
            .set({ captures: JSON.stringify([pending]), updated_at: now.toISOString() })
            .where('id', '=', payment.id)
            .execute();
        }
        return plan;
      },
      perform: async (plan, requestKey) => {
        const results: ProviderResults = {};
        for (const capture of plan.captures) {
          results[capture.paymentId] = await this.deps.payments.provider.capture({
            idempotencyKey: `${requestKey}:${capture.paymentId}`,
            transactionId: capture.transactionId,
            amount: capture.amount,
          });
        }
        return results;
      },
      finish: async (trx, ledger, plan, results, now) => {
        const activities: Activity[] = [];
        for (const capture of plan.captures) {
          const payment = ledger.payments.find((row) => row.id === capture.paymentId)!;
          const result = results[capture.paymentId]!;
          const [pending] = JSON.parse(payment.captures ?? '[]') as CaptureDocument[];
          const done: CaptureDocument = {
            ...pending!,
            status: result.status,
            ...(result.status === 'FAILED'
              ? { failureDetails: { failureCode: result.reason ?? 'FAILED' } }
              : {}),
          };
          await trx
            .updateTable('order_payments')
            .set({
              captures: JSON.stringify([done]),
              updated_at: now.toISOString(),
              ...(result.status === 'SUCCEEDED'
                ? { status: 'APPROVED', captured_amount: capture.amount }
                : {}),
            })
            .where('id', '=', payment.id)
            .execute();
          if (result.status === 'SUCCEEDED') {
            activities.push({
              type: 'AUTHORIZED_PAYMENT_CAPTURED',
              authorizedPaymentCaptured: {
                paymentId: payment.id,
                amount: priceOf(ledger.currency, big(capture.amount)),
                lastFourDigits: payment.card_last4,
                brand: payment.card_brand,
              },
            });
          }
        }
        return { ok: { orderTransactions: await this.settle(trx, ledger.row.id, activities, now) } };
      },
    });
  }

  /** `voidAuthorizedPayments`: releases authorizations never captured. */
  async void(orderId: string, paymentIds: string[], key?: string): Promise<OrderTransactionsAnswer> {
    return this.twoPhase<VoidPlan, OrderTransactionsAnswer>('void', orderId, key, {
      plan: async (trx, ledger, now) => {
        named(paymentIds, 'paymentIds');
        const plan: VoidPlan = { voids: [] };
        for (const paymentId of paymentIds) {
          const payment = authorizedPayment(ledger, paymentId, 'void');
          plan.voids.push({ paymentId, transactionId: payment.gateway_transaction_id });
          const pending: VoidDocument = {
            status: 'PENDING',
            voidedDate: now.toISOString(),
            reason: 'MANUAL',
          };
          await trx
            .updateTable('order_payments')
            .set({ void: JSON.stringify(pending), updated_at: now.toISOString() })
            .where('id', '=', paymentId)
            .execute();
        }
        return plan;
      },
      perform: async (plan, requestKey) => {
        const results: ProviderResults = {};
        for (const voiding of plan.voids) {
          results[voiding.paymentId] = await this.deps.payments.provider.void({
            idempotencyKey: `${requestKey}:${voiding.paymentId}`,
            transactionId: voiding.transactionId,
          });
        }
        return results;
      },
      finish: async (trx, ledger, plan, results, now) => {
        const activities: Activity[] = [];
        for (const voiding of plan.voids) {
          const payment = ledger.payments.find((row) => row.id === voiding.paymentId)!;
          const result = results[voiding.paymentId]!;
          const done: VoidDocument = {
            ...(JSON.parse(payment.void ?? '{}') as VoidDocument),
            status: result.status,
            voidedDate: now.toISOString(),
            ...(result.status === 'FAILED'
              ? { failureDetails: { failureCode: result.reason ?? 'FAILED' } }
              : {}),
          };
          await trx
            .updateTable('order_payments')
            .set({
              void: JSON.stringify(done),
              updated_at: now.toISOString(),
              ...(result.status === 'SUCCEEDED' ? { status: 'VOIDED' } : {}),
            })
            .where('id', '=', payment.id)
            .execute();
          if (result.status === 'SUCCEEDED') {
            activities.push({
              type: 'AUTHORIZED_PAYMENT_VOIDED',
              authorizedPaymentVoided: {
                paymentId: payment.id,
                amount: priceOf(ledger.currency, big(payment.amount)),
                lastFourDigits: payment.card_last4,
                brand: payment.card_brand,
              },
            });
          }
        }
        return { ok: { orderTransactions: await this.settle(trx, ledger.row.id, activities, now) } };
      },
    });
  }

  // ---- refunds ----

  /**
   * `refundPayments`: each payment named gives back its amount (or, when none is named, its share of
   * what the refunded items come to); never more than it took less what was refunded; the lines named
   * are restocked as asked and the buyer is mailed when asked. A declined provider leaves all as it was.
   */
  async refund(orderId: string, request: RefundRequest, key?: string) {
    return this.twoPhase<
      RefundPlan,
      { refund: RefundDocument; orderTransactions: OrderTransactionsDocument }
    >('refund', orderId, key, {
      plan: (trx, ledger, now) => this.planRefund(trx, ledger, request, now),
      perform: async (plan, requestKey) => {
        const results: ProviderResults = {};
        for (const transaction of plan.gateway) {
          results[transaction.paymentId] = await this.deps.payments.provider.refund({
            idempotencyKey: `${requestKey}:${transaction.paymentId}`,
            transactionId: transaction.transactionId,
            amount: transaction.amount,
          });
        }
        return results;
      },
      finish: (trx, ledger, plan, results, now) => this.finishRefund(trx, ledger, plan, results, now),
    });
  }

  private async planRefund(
    trx: Transaction<Tables>,
    ledger: Ledger,
    request: RefundRequest,
    now: Date,
  ): Promise<RefundPlan> {
    const { currency } = ledger;
    const items = request.refundItems;
    const itemsNamed =
      (items?.lineItems?.length ?? 0) > 0 ||
      (items?.additionalFees?.length ?? 0) > 0 ||
      items?.shipping !== undefined;
    const calculation = calculateRefund(ledger.order, currency, ledger.refunds, items ?? {});
    const [first] = calculation.errors;
    if (first) {
      const code = first.error.applicationError.code;
      throw applicationError(
        code.endsWith('NOT_FOUND') ? 'NOT_FOUND' : 'INVALID_ARGUMENT',
        code,
        first.error.applicationError.description,
        (first.lineItem ?? first.additionalFee ?? first.shipping) as Record<string, unknown>,
      );
    }
    named(
      request.paymentRefunds.map((refund) => refund.paymentId ?? ''),
      'paymentRefunds',
    );
    // each payment's amount: as named, else its share of what the items come to, first payment first
    let unassigned = calculation.total;
    const transactions: RefundDocument['transactions'] = [];
    const gateway: RefundPlan['gateway'] = [];
    for (const [index, asked] of request.paymentRefunds.entries()) {
      const payment = ledger.payments.find((row) => row.id === asked.paymentId);
      if (!payment)
        throw applicationError(
          'NOT_FOUND',
          'PAYMENT_NOT_FOUND',
          `the order has no payment ${asked.paymentId}`,
          {
            paymentId: asked.paymentId,
          },
        );
      const state = paymentRefundability(ledger, payment);
      if (!state.refundable && !state.manual) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'PAYMENT_NOT_REFUNDABLE',
          `payment ${payment.id} cannot be refunded: ${state.reason}`,
          { paymentId: payment.id, nonRefundableReason: state.reason },
        );
      }
      const external = asked.externalRefund === true;
      if (state.manual && !external) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'EXTERNAL_REFUND_EXPECTED',
          `payment ${payment.id} was taken outside the platform: refund it there and record it with externalRefund`,
          { paymentId: payment.id },
        );
      }
      let amount: Big | null;
      if (asked.amount?.amount !== undefined) amount = decimal(asked.amount.amount);
      else amount = itemsNamed ? (unassigned.lt(state.max) ? unassigned : state.max) : null;
      if (!amount || amount.lte(0) || amount.gt(state.max) || !currency.round(amount).eq(amount)) {
        throw applicationError(
          'INVALID_ARGUMENT',
          'INVALID_PAYMENT_REFUND_AMOUNT',
          amount === null
            ? `paymentRefunds[${index}] names no amount and the refund names no items`
            : `payment ${payment.id} can be refunded more than 0 and at most ${currency.text(state.max)}`,
          { paymentId: payment.id, amount: asked.amount },
        );
      }
      unassigned = unassigned.minus(amount);
      transactions.push({
        paymentId: payment.id,
        amount: priceOf(currency, amount),
        refundStatus: 'STARTED',
        externalRefund: external,
      });
      if (!external)
        gateway.push({
          paymentId: payment.id,
          amount: currency.text(amount),
          transactionId: payment.gateway_transaction_id,
        });
    }
    // the items bound the money: a refund of these lines never gives back more than they cost
    if (itemsNamed && unassigned.lt(0)) {
      throw applicationError(
        'INVALID_ARGUMENT',
        'INVALID_PAYMENT_REFUND_AMOUNT',
        `the refunded items come to ${currency.text(calculation.total)}; the payments name ${currency.text(calculation.total.minus(unassigned))}`,
        { total: priceOf(currency, calculation.total) },
      );
    }

    const restock: RefundPlan['restock'] = [];
    for (const [index, line] of (request.sideEffects?.restock?.lineItems ?? []).entries()) {
      const refunded = calculation.lineItems
        .filter((item) => item.lineItemId === line.lineItemId)
        .reduce((sum, item) => sum + item.quantity, 0);
      const quantity = line.quantity ?? 0;
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > refunded) {
        throw applicationError(
          'INVALID_ARGUMENT',
          'INVALID_LINE_ITEM_RESTOCK_QUANTITY',
          `sideEffects.restock.lineItems[${index}]: at most the ${refunded} refunded of line item ${line.lineItemId} can be restocked`,
          { lineItemId: line.lineItemId, quantity },
        );
      }
      const sold = ledger.order.lineItems?.find((item) => item.id === line.lineItemId);
      // a cancel with restock (or an earlier refund) may have put this line back already
      const left = (sold?.quantity ?? 0) - (Number(sold?.restockedQuantity) || 0);
      if (quantity > left) {
        throw applicationError(
          'INVALID_ARGUMENT',
          'INVALID_LINE_ITEM_RESTOCK_QUANTITY',
          `sideEffects.restock.lineItems[${index}]: line item ${line.lineItemId} has ${Math.max(0, left)} left to restock`,
          { lineItemId: line.lineItemId, quantity },
        );
      }
      const reference = sold?.catalogReference;
      if (!reference?.catalogItemId) continue; // a custom line: nothing in stock to put back
      const options = reference.options ?? {};
      restock.push({
        lineItemId: line.lineItemId ?? '',
        productId: reference.catalogItemId,
        quantity,
        ...(typeof options.variantId === 'string' ? { variantId: options.variantId } : {}),
        ...(options.options && typeof options.options === 'object'
          ? { choices: options.options as Record<string, string> }
          : {}),
      });
    }

    const refundId = newId();
    const lineItems = calculation.lineItems.map(({ lineItemId, quantity }) => ({ lineItemId, quantity }));
    const amountOf = transactions.reduce((sum, transaction) => sum.plus(transaction.amount.amount), big('0'));
    const doc: Omit<RefundDocument, 'createdDate'> = {
      id: refundId,
      transactions,
      details: {
        items: lineItems,
        lineItems,
        additionalFees: [],
        shippingIncluded: calculation.shipping.gt(0),
        ...(calculation.shipping.gt(0)
          ? { shipping: { amount: priceOf(currency, calculation.shipping) } }
          : {}),
        ...(request.customerReason ? { reason: request.customerReason } : {}),
      },
      summary: {
        requestedRefund: priceOf(currency, amountOf),
        pendingRefund: priceOf(currency, amountOf),
        refunded: priceOf(currency, big('0')),
        pending: true,
        breakdown: {
          lineItems: calculation.lineItems.map((line) => ({
            lineItemId: line.lineItemId,
            totalRefundedAmount: priceOf(currency, line.total),
          })),
        },
      },
    };
    // written now, so a refund asked for meanwhile (on any process) counts this money as taken
    await trx
      .insertInto('order_refunds')
      .values({
        id: refundId,
        order_id: ledger.row.id,
        status: 'STARTED',
        doc: JSON.stringify(doc),
        created_at: now.toISOString(),
      })
      .execute();
    return {
      refundId,
      gateway,
      restock,
      notify: {
        sendCustomerEmail: request.sideEffects?.notifications?.sendCustomerEmail === true,
        customMessage: request.sideEffects?.notifications?.customMessage,
      },
    };
  }

  private async finishRefund(
    trx: Transaction<Tables>,
    ledger: Ledger,
    plan: RefundPlan,
    results: ProviderResults,
    now: Date,
  ): Promise<Outcome<{ refund: RefundDocument; orderTransactions: OrderTransactionsDocument }>> {
    const { currency } = ledger;
    const refund = ledger.refunds.find((row) => row.id === plan.refundId)!;
    const doc = refund.doc;
    const failed = plan.gateway.filter(
      (transaction) => results[transaction.paymentId]?.status !== 'SUCCEEDED',
    );
    if (failed.length > 0 && failed.length === plan.gateway.length) {
      // the provider refunded nothing: the refund is undone as if never asked
      await trx.deleteFrom('order_refunds').where('id', '=', plan.refundId).execute();
      const reason = results[failed[0]!.paymentId]?.reason ?? 'the payment provider declined the refund';
      return {
        error: {
          kind: 'FAILED_PRECONDITION',
          code: 'REFUND_DECLINED',
          description: `the payment provider declined the refund: ${reason}`,
          data: { paymentId: failed[0]!.paymentId },
        },
      };
    }
    let refunded = big('0');
    doc.transactions = doc.transactions.map((transaction) => {
      const result = results[transaction.paymentId];
      const succeeded = transaction.externalRefund || result?.status === 'SUCCEEDED';
      if (succeeded) refunded = refunded.plus(transaction.amount.amount);
      return {
        ...transaction,
        refundStatus: succeeded ? 'SUCCEEDED' : 'FAILED',
        ...(result?.refundId ? { providerRefundId: result.refundId } : {}),
        ...(!succeeded && result?.reason ? { refundStatusInfo: { description: result.reason } } : {}),
      };
    });
    doc.summary = {
      ...doc.summary,
      pendingRefund: priceOf(currency, big('0')),
      refunded: priceOf(currency, refunded),
      pending: false,
    };
    await trx
      .updateTable('order_refunds')
      .set({ status: 'SUCCEEDED', doc: JSON.stringify({ ...doc, createdDate: undefined }) })
      .where('id', '=', plan.refundId)
      .execute();
    refund.status = 'SUCCEEDED';
    // each write below is mirrored on the ledger, which `settle` then reads instead of the tables
    for (const payment of ledger.payments) {
      if (!doc.transactions.some((transaction) => transaction.paymentId === payment.id)) continue;
      payment.status = refundedPaymentStatus(payment, ledger.refunds);
      payment.updated_at = now.toISOString();
      await trx
        .updateTable('order_payments')
        .set({ status: payment.status, updated_at: payment.updated_at })
        .where('id', '=', payment.id)
        .execute();
    }
    await this.restock(trx, ledger, plan.restock);
    const fulfillmentStatus = await this.deps.fulfillments.statusAfterRefund(
      trx,
      ledger.row,
      refundedSoFar(ledger.refunds).lines,
    );
    const orderNumber = ledger.row.number === null ? ledger.row.id : String(ledger.row.number);
    const to = ledger.order.buyerInfo?.email;
    if (plan.notify.sendCustomerEmail && to) {
      await this.deps.mailer.queue(
        trx,
        refundEmail({
          to,
          storeName: this.options.storeName,
          orderNumber,
          orderUrl: `${this.options.publicUrl}/account/orders/${encodeURIComponent(ledger.row.id)}`,
          total: currency.format(refunded),
          payments: doc.transactions
            .filter((transaction) => transaction.refundStatus === 'SUCCEEDED')
            .map((transaction) => ({
              method:
                ledger.payments.find((payment) => payment.id === transaction.paymentId)?.method_name ??
                'payment',
              amount: transaction.amount.formattedAmount,
            })),
          customMessage: plan.notify.customMessage,
        }),
      );
    }
    const orderTransactions = await this.settle(
      trx,
      ledger,
      [
        {
          type: 'ORDER_REFUNDED',
          orderRefunded: {
            refundId: plan.refundId,
            amount: priceOf(currency, refunded),
            ...(doc.details.reason ? { reason: doc.details.reason } : {}),
            restocked: plan.restock.map((item) => ({ productId: item.productId, quantity: item.quantity })),
          },
        },
        ...(fulfillmentStatus === 'FULFILLED' && ledger.row.fulfillment_status !== 'FULFILLED'
          ? [{ type: 'ORDER_FULFILLED' }]
          : []),
      ],
      now,
      fulfillmentStatus,
    );
    return {
      ok: { refund: { ...doc, createdDate: now.toISOString() }, orderTransactions },
    };
  }

  /**
   * Puts the refunded lines back on the shelf and counts them on the order's lines
   * (`restockedQuantity`, which a cancel with restock reads too), so no unit goes back twice: a line
   * restocked meanwhile (a cancel, another refund) is given back only what it has left. The order's
   * document is changed on the ledger: `settle` writes it, in the same transaction.
   */
  private async restock(
    trx: Transaction<Tables>,
    ledger: Ledger,
    items: RefundPlan['restock'],
  ): Promise<void> {
    if (items.length === 0) return;
    const doc = JSON.parse(ledger.row.doc) as {
      lineItems?: Array<{ id: string; quantity: number; restockedQuantity?: number }>;
    };
    const stock: StockItem[] = [];
    for (const { lineItemId, ...item } of items) {
      const line = doc.lineItems?.find((candidate) => candidate.id === lineItemId);
      if (!line) continue;
      const quantity = Math.min(item.quantity, line.quantity - (Number(line.restockedQuantity) || 0));
      if (quantity <= 0) continue;
      line.restockedQuantity = (Number(line.restockedQuantity) || 0) + quantity;
      stock.push({ ...item, quantity });
    }
    if (stock.length === 0) return;
    ledger.row.doc = JSON.stringify(doc);
    await this.deps.catalog.returnStock(trx, stock);
  }

  // ---- payments recorded by the merchant ----

  /** `addPayments`: payments taken outside the platform (cash, a transfer), at most what is owed. */
  async addPayments(orderId: string, inputs: RecordedPaymentInput[], key?: string) {
    return this.once('add-payments', orderId, key, async (trx, ledger, now) => {
      // a checkout's order waiting for its page's payment is paid there; a recorded one waiting for
      // its payment is paid here, and approved once it is (settle)
      if (ledger.row.status === 'INITIALIZED' && ledger.row.checkout_id !== null)
        throw applicationError(
          'FAILED_PRECONDITION',
          'ORDER_STATUS_IS_NOT_SUPPORTED',
          'the order is waiting for its checkout to be paid',
        );
      // the hosted platform's refusal of a payment for a canceled order (recordManuallyCollectedPayment)
      if (ledger.row.status === 'CANCELED')
        throw applicationError(
          'FAILED_PRECONDITION',
          'ORDER_CANCELED',
          'the order was canceled: it collects no payment',
        );
      let owed = this.balance(ledger);
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
          await insertRecordedPayment(trx, orderId, {
            amount,
            currency: ledger.currency,
            status,
            methodName: input.regularPaymentDetails?.paymentMethod ?? 'Offline',
            now,
          }),
        );
      }
      const orderTransactions = await this.settle(trx, orderId, [], now);
      return { orderTransactions, paymentsIds: ids };
    });
  }

  /** `updatePaymentStatus`: a recorded payment's status (a cheque cleared, a transfer bounced). */
  async updatePaymentStatus(orderId: string, paymentId: string, status: string | undefined, key?: string) {
    return this.once(`payment-status:${paymentId}`, orderId, key, async (trx, ledger, now) => {
      await this.changeStatus(trx, ledger, paymentId, status, now);
      return { orderTransactions: await this.settle(trx, orderId, [], now) };
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
      const owed = this.balance(ledger);
      if (big(payment.amount).gt(owed))
        throw applicationError(
          'INVALID_ARGUMENT',
          'AMOUNTS_DO_NOT_ADD_UP',
          'the payment is more than the order owes',
        );
    }
    await trx
      .updateTable('order_payments')
      .set({ status, updated_at: now.toISOString() })
      .where('id', '=', paymentId)
      .execute();
  }

  // ---- internals ----

  /** What the order still owes: its total less what was taken and what authorizations still hold. */
  private balance(ledger: Ledger): Big {
    let covered = big('0');
    for (const payment of ledger.payments) {
      covered = covered.plus(capturedOf(payment));
      if (payment.status === 'AUTHORIZED') covered = covered.plus(payment.amount);
    }
    return ledger.total.minus(covered);
  }

  /**
   * The order with its payments and refunds, in `trx`; with `hold`, its row is written first, so a
   * money call on any process waits for this one's transaction (on both databases) before reading.
   */
  private async ledger(trx: Transaction<Tables>, orderId: string, hold = true): Promise<Ledger> {
    // holding the order is writing its row: the write that locks it answers the row too (one query)
    const row = hold
      ? await trx
          .updateTable('orders')
          .set((eb) => ({ updated_at: eb.ref('updated_at') }))
          .where('id', '=', orderId)
          .returningAll()
          .executeTakeFirst()
      : await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
    if (!row || row.number === null) throw notFound('order', orderId);
    const order = JSON.parse(row.doc) as Ledger['order'];
    const currency = currencyOf(order.currency ?? 'USD');
    const [payments, refunds] = await Promise.all([
      trx
        .selectFrom('order_payments')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
      trx
        .selectFrom('order_refunds')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    return {
      row,
      order,
      currency,
      total: big(order.priceSummary?.total?.amount),
      payments,
      refunds: refunds.map((refund) => ({
        id: refund.id,
        status: refund.status,
        createdAt: refund.created_at,
        doc: JSON.parse(refund.doc) as RefundDocument,
      })),
    };
  }

  /**
   * The order's payment status derived again from its transactions, `activities` on its timeline, and
   * the events of the change (order updated, its transactions updated), all in `trx`.
   */
  private async settle(
    trx: Transaction<Tables>,
    current: Ledger | string,
    activities: Activity[],
    now: Date,
    fulfillmentStatus?: string,
  ): Promise<OrderTransactionsDocument> {
    // the ledger as the caller kept it true of its writes, or the order's id to read it afresh
    const ledger = typeof current === 'string' ? await this.ledger(trx, current, false) : current;
    const orderId = ledger.row.id;
    const paymentStatus = derivePaymentStatus(
      ledger.row.payment_status,
      ledger.total,
      ledger.payments,
      ledger.refunds,
    );
    const at = now.toISOString();
    const timeline = [...activities];
    if (paymentStatus !== ledger.row.payment_status) {
      if (paymentStatus === 'PAID') timeline.push({ type: 'ORDER_PAID' });
      if (paymentStatus === 'PARTIALLY_PAID') timeline.push({ type: 'ORDER_PARTIALLY_PAID' });
    }
    const doc = JSON.parse(ledger.row.doc) as { activities?: unknown[] };
    doc.activities = [
      ...(doc.activities ?? []),
      ...timeline.map((activity) => ({ id: newId(), createdDate: at, ...activity })),
    ];
    let row = await trx
      .updateTable('orders')
      .set({
        payment_status: paymentStatus,
        ...(fulfillmentStatus ? { fulfillment_status: fulfillmentStatus } : {}),
        doc: JSON.stringify(doc),
        updated_at: at,
      })
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    // a recorded order waiting for its payment (its approval strategy) is approved once paid
    const approved =
      row.status === 'INITIALIZED' && row.checkout_id === null && paymentStatus === 'PAID'
        ? await this.deps.orders.approveRecorded(trx, orderId, now)
        : undefined;
    if (approved)
      row = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    // the transactions as just read, not read again
    const orderTransactions: OrderTransactionsDocument = {
      orderId,
      payments: ledger.payments.map(paymentWire),
      refunds: ledger.refunds.map((refund) => ({ ...refund.doc, createdDate: refund.createdAt })),
    };
    const events: DomainEvent[] = [
      {
        entity: 'orderTransactions',
        slug: 'updated',
        entityId: orderId,
        payload: { entity: orderTransactions },
      },
      { entity: 'order', slug: 'updated', entityId: orderId, payload: { entity: documentOf(row) } },
    ];
    if (approved) events.push(approved);
    await recordEvents(trx, events, now);
    return orderTransactions;
  }

  /** A money call without a provider step, once per idempotency key. */
  private async once<Answer>(
    operation: string,
    orderId: string,
    key: string | undefined,
    change: (trx: Transaction<Tables>, ledger: Ledger, now: Date) => Promise<Answer>,
  ): Promise<Answer> {
    const requestKey = `${operation}:${orderId}:${key ?? newId()}`;
    return inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId);
      const existing = await trx
        .selectFrom('billing_requests')
        .selectAll()
        .where('key', '=', requestKey)
        .executeTakeFirst();
      if (existing?.answer) return JSON.parse(existing.answer) as Answer;
      const now = new Date();
      const answer = await change(trx, ledger, now);
      if (key !== undefined) {
        await trx
          .insertInto('billing_requests')
          .values({
            key: requestKey,
            order_id: orderId,
            status: 'DONE',
            plan: '{}',
            answer: JSON.stringify(answer),
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .execute();
      }
      return answer;
    });
  }

  /**
   * A money call around the provider: `plan` (the order held) checks it and writes what it will do;
   * `perform` asks the provider, outside any transaction, with keys derived from the call's; `finish`
   * (the order held again) writes the answer. The same idempotency key answers the first outcome, and
   * finishes a call whose process stopped after its plan was written.
   */
  private async twoPhase<Plan, Answer>(
    operation: string,
    orderId: string,
    key: string | undefined,
    steps: {
      plan: (trx: Transaction<Tables>, ledger: Ledger, now: Date) => Promise<Plan>;
      perform: (plan: Plan, requestKey: string) => Promise<ProviderResults>;
      finish: (
        trx: Transaction<Tables>,
        ledger: Ledger,
        plan: Plan,
        results: ProviderResults,
        now: Date,
      ) => Promise<Outcome<Answer>>;
    },
  ): Promise<Answer> {
    const callKey = key ?? newId();
    const requestKey = `${operation}:${orderId}:${callKey}`;
    const started = await inTransaction(this.db, async (trx) => {
      const ledger = await this.ledger(trx, orderId);
      const existing = await trx
        .selectFrom('billing_requests')
        .selectAll()
        .where('key', '=', requestKey)
        .executeTakeFirst();
      if (existing?.answer) return { outcome: JSON.parse(existing.answer) as Outcome<Answer> };
      if (existing) return { plan: JSON.parse(existing.plan) as Plan };
      const now = new Date();
      const plan = await steps.plan(trx, ledger, now);
      await trx
        .insertInto('billing_requests')
        .values({
          key: requestKey,
          order_id: orderId,
          status: 'STARTED',
          plan: JSON.stringify(plan),
          answer: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
      return { plan };
    });
    let outcome: Outcome<Answer>;
    if (started.outcome) outcome = started.outcome;
    else {
      const plan = started.plan as Plan;
      let results: ProviderResults;
      try {
        results = await steps.perform(plan, requestKey);
      } catch {
        // the provider's answer never came: the call stays started, and the same key finishes it
        throw applicationError(
          'ABORTED',
          'PAYMENT_PROVIDER_UNAVAILABLE',
          'the payment provider did not answer: make the same call again with this Idempotency-Key',
          { idempotencyKey: callKey },
        );
      }
      outcome = await inTransaction(this.db, async (trx) => {
        const ledger = await this.ledger(trx, orderId);
        const existing = await trx
          .selectFrom('billing_requests')
          .select(['answer'])
          .where('key', '=', requestKey)
          .executeTakeFirstOrThrow();
        if (existing.answer) return JSON.parse(existing.answer) as Outcome<Answer>;
        const now = new Date();
        const finished = await steps.finish(trx, ledger, plan, results, now);
        await trx
          .updateTable('billing_requests')
          .set({ status: 'DONE', answer: JSON.stringify(finished), updated_at: now.toISOString() })
          .where('key', '=', requestKey)
          .execute();
        return finished;
      });
    }
    if ('error' in outcome) {
      const { kind, code, description, data } = outcome.error;
      throw applicationError(kind, code, description, data);
    }
    return outcome.ok;
  }
}

type Activity = { type: string } & Record<string, unknown>;
type OrderTransactionsAnswer = { orderTransactions: OrderTransactionsDocument };

/** Refuses a list naming one payment twice. */
function named(ids: string[], field: string): void {
  const seen = new Set<string>();
  for (const [index, id] of ids.entries()) {
    if (seen.has(id))
      throw invalidArgument([violation(`${field}[${index}]`, 'names a payment twice', 'VALIDATION')]);
    seen.add(id);
  }
}

/** The payment a capture or void acts on: an authorization nothing was done with yet. */
function authorizedPayment(ledger: Ledger, paymentId: string, action: 'capture' | 'void'): OrderPaymentRow {
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
function paymentRefundability(ledger: Ledger, payment: OrderPaymentRow) {
  const paid = capturedOf(payment);
  const refunded = refundedOf(payment.id, ledger.refunds, 'SUCCEEDED');
  const taken = refundedOf(payment.id, ledger.refunds);
  const pending = taken.minus(refunded);
  const max = maxBig(paid.minus(taken), big('0'));
  const figures = { paid, refunded, pending, max };
  const no = (reason: string) => ({ ...figures, refundable: false, manual: undefined, reason });
  if (ledger.row.status === 'PENDING') return no('ORDER_IS_PENDING');
  if (ledger.row.status === 'REJECTED') return no('ORDER_IS_REJECTED');
  if (paid.lte(0)) return no(big(payment.amount).lte(0) ? 'ZERO_PRICE' : 'NOT_PAID');
  if (pending.gt(0)) return no('PENDING_REFUND');
  if (max.lte(0)) return no('ALREADY_REFUNDED');
  if (Number(payment.offline) === 1)
    return { ...figures, refundable: false, manual: 'OFFLINE', reason: undefined };
  return { ...figures, refundable: true, manual: undefined, reason: undefined };
}

/** Point 4's collectability: COLLECTABLE, or why not. */

function collectabilityOf(ledger: Ledger, balance: Big): string {
  switch (ledger.row.status) {
    case 'CANCELED':
      return 'NONCOLLECTABLE_ORDER_IS_CANCELLED';
    case 'PENDING':
      return 'NONCOLLECTABLE_ORDER_IS_PENDING';
    case 'REJECTED':
      return 'NONCOLLECTABLE_ORDER_IS_REJECTED';
  }
  return balance.gt(0) ? 'COLLECTABLE' : 'NONCOLLECTABLE_ORDER_IS_PAID';
}

export type { PaymentDocument };
