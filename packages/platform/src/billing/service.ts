import type { Kysely } from 'kysely';
import type { CatalogService } from '../catalog/service.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import type { CancelOptions, OrderOperations } from '../orders/operations.ts';
import type { OrderWrites } from '../orders/writes.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { OrderTransactionsDocument, PaymentDocument, RefundDocument } from '../payments/transactions.ts';
import { paymentWire } from '../payments/transactions.ts';
import { applicationError, invalidArgument, violation } from '../shared/errors.ts';
import { type Big, decimal, maxBig } from '../shared/money.ts';
import { big, priceOf } from './amounts.ts';
import {
  type CaptureInput,
  type CapturePlan,
  captureStep,
  type OrderTransactionsAnswer,
  planCapture,
  planVoid,
  type VoidPlan,
  voidStep,
} from './capture-void.ts';
import { balance, collectabilityOf, paymentRefundability, readLedger } from './ledger.ts';
import { askRefundability } from './provider-calls.ts';
import { type RecordedPaymentInput, RecordedPayments } from './recorded-payments.ts';
import { calculateRefund, type RefundItemsInput, refundability } from './refund-calculation.ts';
import {
  planRefund,
  type RefundAnswer,
  type RefundDependencies,
  type RefundPlan,
  type RefundRequest,
  refundStep,
} from './refunds.ts';
import { BillingRequests } from './requests.ts';
import { readTransactions, refundsOf } from './transactions.ts';
import { type VoidAndCancelAnswer, voidAndCancel } from './void-and-cancel.ts';

export type { CaptureInput, RecordedPaymentInput, RefundRequest };

/** `preparePaymentCollection`'s hosted codes for an order that cannot collect, by its collectability. */
const PREPARE_REFUSALS: Record<string, string> = {
  NONCOLLECTABLE_ORDER_IS_CANCELLED: 'ORDER_CANCELED',
  NONCOLLECTABLE_ORDER_IS_PAID: 'ORDER_ALREADY_PAID',
};

/**
 * What billing needs of the other domains: the payment providers, the catalog's stock, the fulfillment
 * status's rule (a refunded unshipped line no longer waits to ship), the mailer, and the orders
 * domain's one lock-and-save, through which every change billing makes to an order goes.
 */
export interface BillingDependencies {
  /** The payment providers: each payment's money calls go to the one that took it (a test may replace one). */
  payments: { readonly providers: PaymentProviders };
  catalog: Pick<CatalogService, 'returnStock'>;
  fulfillments: RefundDependencies['fulfillments'];
  mailer: Pick<Mailer, 'queue'>;
  orders: Pick<OrderWrites, 'lock' | 'settlePayment'>;
  /** The orders domain's cancel, which void-and-cancel runs once the authorizations are voided. */
  cancels: Pick<OrderOperations, 'cancel' | 'checkCancel'>;
}

export interface BillingOptions {
  publicUrl: string;
  storeName: string;
}

/**
 * Capture, void and refund of orders' payments, the payments a merchant records, and what an order
 * can still collect or refund. Each money call runs in two transactions around the provider's network
 * call (requests.ts): the first holds the order, checks the call against what the transactions say,
 * and writes what it will do (so a concurrent call on any process sees that money as spoken for); the
 * second writes the provider's answer. An idempotency key makes a retry answer the first call's
 * outcome, or finish a call whose process stopped between the two; `sweepStarted` finishes the ones no
 * one retries. The operations live by kind: capture-void.ts, refunds.ts, recorded-payments.ts.
 */
export class BillingService {
  private readonly requests: BillingRequests;
  private readonly recorded: RecordedPayments;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: BillingDependencies,
    options: BillingOptions,
  ) {
    const stepDeps = { ...deps, options };
    this.requests = new BillingRequests(db, deps.orders, {
      capture: captureStep(stepDeps),
      void: voidStep(stepDeps),
      refund: refundStep(stepDeps),
    });
    this.recorded = new RecordedPayments(this.requests, deps.orders);
  }

  // ---- reads ----

  /** The transactions of each order named (an order with none answers empty lists), in the order asked. */
  async transactionsOf(orderIds: string[]): Promise<OrderTransactionsDocument[]> {
    return readTransactions(this.db, orderIds);
  }

  /**
   * What was refunded of each payment of these orders (refunds done, recorded ones included), by
   * payment id: reconciliation's side of the refunds a provider lists.
   */
  async refundedByPayment(orderIds: string[]): Promise<Map<string, string>> {
    const refunds = (await refundsOf(this.db, orderIds)).map((row) => ({
      status: row.status,
      doc: JSON.parse(row.doc) as RefundDocument,
    }));
    const sums = new Map<string, Big>();
    for (const refund of refunds) {
      if (refund.status !== 'SUCCEEDED') continue;
      for (const transaction of refund.doc.transactions) {
        if (transaction.refundStatus === 'FAILED') continue;
        const sum = sums.get(transaction.paymentId) ?? big('0');
        sums.set(transaction.paymentId, sum.plus(transaction.amount.amount));
      }
    }
    return new Map([...sums].map(([paymentId, sum]) => [paymentId, sum.toFixed()]));
  }

  /**
   * `getOrderRefundability`: per payment (refundable, manually, or not and why), per line, shipping. A
   * payment the books find refundable is then asked of its provider (`askProviders`, outside the
   * transaction: a network call), whose refusal is the payment's reason (provider-calls.ts).
   */
  async refundability(orderId: string, options: { askProviders: boolean } = { askProviders: true }) {
    const books = await this.refundabilityInBooks(orderId);
    if (!options.askProviders) return books;
    const blocks = await askRefundability(
      this.deps.payments.providers,
      books.payments.filter((entry) => entry.refundable).map((entry) => entry.row),
    );
    return {
      ...books,
      payments: books.payments.map(({ row, ...entry }) => {
        const reason = blocks[row.id];
        return reason ? { ...entry, refundable: false, nonRefundable: { reason } } : entry;
      }),
    };
  }

  /** What Cartwheel's own books say an order can refund, each payment with its row. */
  private async refundabilityInBooks(orderId: string) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await readLedger(trx, this.deps.orders, orderId, false);
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
          row: payment,
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
      const ledger = await readLedger(trx, this.deps.orders, orderId, false);
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
      const ledger = await readLedger(trx, this.deps.orders, orderId, false);
      const owed = balance(ledger);
      return {
        status: collectabilityOf(ledger, owed),
        amount: priceOf(ledger.currency, maxBig(owed, big('0'))),
      };
    });
  }

  /**
   * `preparePaymentCollection`: a payment gateway order for (part of) what the order still owes. The
   * order itself is the gateway order a checkout's page pays, as create-order answers it. An order the
   * merchant recorded has no checkout, so no page can pay it online: it is refused with the hosted
   * call's `PAYMENT_METHODS_NOT_FOUND`, and its payment is recorded with `addPayments` instead. A
   * canceled order is refused with the hosted call's `ORDER_CANCELED`, a paid one with
   * `ORDER_ALREADY_PAID`; another that cannot collect, with its collectability status.
   */
  async prepareCollection(orderId: string, amount: string | undefined) {
    return inTransaction(this.db, async (trx) => {
      const ledger = await readLedger(trx, this.deps.orders, orderId, false);
      const owed = balance(ledger);
      const status = collectabilityOf(ledger, owed);
      if (status !== 'COLLECTABLE')
        throw applicationError(
          'FAILED_PRECONDITION',
          PREPARE_REFUSALS[status] ?? status,
          `the order cannot collect a payment: ${status}`,
          { orderId, collectabilityStatus: status },
        );
      if (ledger.locked.row.checkout_id === null)
        throw applicationError(
          'FAILED_PRECONDITION',
          'PAYMENT_METHODS_NOT_FOUND',
          'the order was recorded by the merchant and has no checkout page to be paid on: record the payment taken with addPayments',
          { orderId },
        );
      const asked = decimal(amount);
      if (!asked || asked.lte(0) || asked.gt(owed) || !ledger.currency.round(asked).eq(asked)) {
        throw invalidArgument([
          violation(
            'amount.amount',
            `must be more than 0 and at most ${ledger.currency.text(owed)}`,
            'FORMAT',
          ),
        ]);
      }
      return { paymentGatewayOrderId: orderId };
    });
  }

  // ---- money calls ----

  /** `captureAuthorizedPayments`: all or part of each authorization; what is not captured is released. */
  capture(orderId: string, captures: CaptureInput[], key?: string): Promise<OrderTransactionsAnswer> {
    return this.requests.twoPhase<CapturePlan, OrderTransactionsAnswer>(
      'capture',
      orderId,
      key,
      (trx, ledger, now) => planCapture(this.deps.payments.providers, trx, ledger, captures, now),
    );
  }

  /** `voidAuthorizedPayments`: releases authorizations never captured. */
  void(orderId: string, paymentIds: string[], key?: string): Promise<OrderTransactionsAnswer> {
    return this.requests.twoPhase<VoidPlan, OrderTransactionsAnswer>(
      'void',
      orderId,
      key,
      (trx, ledger, now) => planVoid(this.deps.payments.providers, trx, ledger, paymentIds, now),
    );
  }

  /**
   * Cartwheel's void-and-cancel: every authorization the order holds voided at its provider, then the
   * order canceled; a void that fails cancels nothing (void-and-cancel.ts).
   */
  voidAndCancel(orderId: string, options: CancelOptions, key?: string): Promise<VoidAndCancelAnswer> {
    return voidAndCancel(
      this.db,
      { orders: this.deps.orders, cancels: this.deps.cancels, void: (id, ids, k) => this.void(id, ids, k) },
      orderId,
      options,
      key,
    );
  }

  /**
   * `refundPayments`: each payment named gives back its amount (or its share of what the refunded items
   * come to); the lines named are restocked as asked and the buyer is mailed when asked. A declined
   * provider leaves all as it was.
   */
  refund(orderId: string, request: RefundRequest, key?: string): Promise<RefundAnswer> {
    return this.requests.twoPhase<RefundPlan, RefundAnswer>('refund', orderId, key, (trx, ledger, now) =>
      planRefund(this.deps.payments.providers, trx, ledger, request, now),
    );
  }

  /** `addPayments`: payments taken outside the platform (cash, a transfer), at most what is owed. */
  addPayments(orderId: string, inputs: RecordedPaymentInput[], key?: string) {
    return this.recorded.addPayments(orderId, inputs, key);
  }

  /** `updatePaymentStatus`: a recorded payment's status (a cheque cleared, a transfer bounced). */
  updatePaymentStatus(orderId: string, paymentId: string, status: string | undefined, key?: string) {
    return this.recorded.updatePaymentStatus(orderId, paymentId, status, key);
  }

  /** `bulkUpdatePaymentStatuses`: each payment on its own; a refusal is that item's error. */
  bulkUpdatePaymentStatuses(
    items: Array<{ orderId?: string | undefined; paymentId?: string | undefined }>,
    status: string | undefined,
    returnFullEntity: boolean,
  ) {
    return this.recorded.bulkUpdatePaymentStatuses(items, status, returnFullEntity);
  }

  /**
   * Finishes the captures, voids and refunds left `STARTED` (their money marked as taken) whose caller
   * never came back, as a retry of their key would; run on a timer (platform.ts). Answers how many.
   */
  sweepStarted(now = new Date()): Promise<number> {
    return this.requests.sweepStarted(now);
  }
}

export type { PaymentDocument };
