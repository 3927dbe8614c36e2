import type { Transaction } from 'kysely';
import type { CatalogService, StockItem } from '../catalog/service.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { preorderedInRestock } from '../orders/document.ts';
import type { OrderRow } from '../orders/tables.ts';
import type { OrderWrites } from '../orders/writes.ts';
import { updatePayment } from '../payments/order-payments.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { OrderTransactionsDocument, RefundDocument } from '../payments/transactions.ts';
import { applicationError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { type Big, decimal } from '../shared/money.ts';
import { big, priceOf, refundedPaymentStatus } from './amounts.ts';
import {
  type Ledger,
  named,
  type Outcome,
  type ProviderResults,
  paymentRefundability,
  settle,
} from './ledger.ts';
import { askRefunds, providerIdOf } from './provider-calls.ts';
import { calculateRefund, type RefundItemsInput, refundedSoFar } from './refund-calculation.ts';
import { refundEmail } from './refund-email.ts';
import type { ProviderStep } from './requests.ts';

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

export interface RefundPlan {
  refundId: string;
  /** The online payments the provider is asked to refund, with their gateway transactions. */
  gateway: Array<{ paymentId: string; amount: string; transactionId: string; providerId?: string }>;
  /** What goes back on the shelf, by line: at finish, never more than the line has left to restock. */
  restock: Array<StockItem & { lineItemId: string }>;
  notify: { sendCustomerEmail: boolean; customMessage?: string | null | undefined };
}

export type RefundAnswer = { refund: RefundDocument; orderTransactions: OrderTransactionsDocument };

/**
 * What a refund needs of the other domains: the provider (read at each call), stock to put back, the
 * fulfillment status after it (named by shape: fulfillments reads billing's refunds, so billing does
 * not import fulfillments), the buyer's email, the orders domain's save, and the store's name and
 * address for that email.
 */
export interface RefundDependencies {
  /** The payment providers: each payment's refund goes to the one that took it. */
  payments: { readonly providers: PaymentProviders };
  catalog: Pick<CatalogService, 'returnStock'>;
  fulfillments: {
    statusAfterRefund(
      trx: Transaction<Tables>,
      order: Pick<OrderRow, 'id' | 'doc' | 'fulfillment_status'>,
      refunded: Map<string, number>,
    ): Promise<string>;
  };
  mailer: Pick<Mailer, 'queue'>;
  orders: Pick<OrderWrites, 'settlePayment'>;
  options: { publicUrl: string; storeName: string };
}

/** The refund's provider step: each online payment's refund asked, then the answer written. */
export function refundStep(deps: RefundDependencies): ProviderStep<RefundPlan, RefundAnswer> {
  return {
    perform: (plan, requestKey) => askRefunds(deps.payments.providers, plan.gateway, requestKey),
    finish: (trx, ledger, plan, results, now) => finishRefund(deps, trx, ledger, plan, results, now),
  };
}

/**
 * `refundPayments`' plan: each payment named gives back its amount (or, when none is named, its share
 * of what the refunded items come to); never more than it took less what was refunded; the lines
 * named are restocked as asked. The refund is written `STARTED` at once, so its money counts as taken.
 */
export async function planRefund(
  providers: PaymentProviders,
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
        providerId: providerIdOf(providers, payment),
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
      order_id: ledger.locked.row.id,
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

async function finishRefund(
  deps: RefundDependencies,
  trx: Transaction<Tables>,
  ledger: Ledger,
  plan: RefundPlan,
  results: ProviderResults,
  now: Date,
): Promise<Outcome<{ refund: RefundDocument; orderTransactions: OrderTransactionsDocument }>> {
  const { currency } = ledger;
  const refund = ledger.refunds.find((row) => row.id === plan.refundId)!;
  const doc = refund.doc;
  const failed = plan.gateway.filter((transaction) => results[transaction.paymentId]?.status !== 'SUCCEEDED');
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
    await updatePayment(trx, payment.id, { status: payment.status }, now);
  }
  await restock(deps, trx, ledger, plan.restock);
  const { row } = ledger.locked;
  const fulfillmentStatus = await deps.fulfillments.statusAfterRefund(
    trx,
    { ...row, doc: JSON.stringify(ledger.locked.doc) },
    refundedSoFar(ledger.refunds).lines,
  );
  const orderNumber = row.number === null ? row.id : String(row.number);
  const to = ledger.order.buyerInfo?.email;
  if (plan.notify.sendCustomerEmail && to) {
    await deps.mailer.queue(
      trx,
      refundEmail({
        to,
        storeName: deps.options.storeName,
        orderNumber,
        orderUrl: `${deps.options.publicUrl}/account/orders/${encodeURIComponent(row.id)}`,
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
  const orderTransactions = await settle(
    trx,
    deps.orders,
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
      ...(fulfillmentStatus === 'FULFILLED' && row.fulfillment_status !== 'FULFILLED'
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
 * document is changed on the ledger's locked order: `settle` saves it, in the same transaction.
 */
async function restock(
  deps: RefundDependencies,
  trx: Transaction<Tables>,
  ledger: Ledger,
  items: RefundPlan['restock'],
): Promise<void> {
  if (items.length === 0) return;
  const doc = ledger.locked.doc;
  const stock: StockItem[] = [];
  for (const { lineItemId, ...item } of items) {
    const line = doc.lineItems?.find((candidate) => candidate.id === lineItemId);
    if (!line) continue;
    const quantity = Math.min(item.quantity, line.quantity - (Number(line.restockedQuantity) || 0));
    if (quantity <= 0) continue;
    const preordered = preorderedInRestock(doc, line, quantity);
    line.restockedQuantity = (Number(line.restockedQuantity) || 0) + quantity;
    stock.push({ ...item, quantity, ...(preordered > 0 ? { preordered } : {}) });
  }
  if (stock.length === 0) return;
  await deps.catalog.returnStock(trx, stock);
}
