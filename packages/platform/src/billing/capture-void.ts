import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { OrderWrites } from '../orders/writes.ts';
import { updatePayment } from '../payments/order-payments.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { CaptureDocument, OrderTransactionsDocument, VoidDocument } from '../payments/transactions.ts';
import { applicationError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { decimal } from '../shared/money.ts';
import { big, priceOf } from './amounts.ts';
import { type Activity, authorizedPayment, type Ledger, named, reread, settle } from './ledger.ts';
import { askCaptures, askVoids, providerIdOf } from './provider-calls.ts';
import type { ProviderStep } from './requests.ts';

/** A payment named for capture: all of it unless `amount` says less. */
export interface CaptureInput {
  paymentId?: string | undefined;
  amount?: { amount?: string | undefined } | undefined;
}

export interface CapturePlan {
  captures: Array<{ paymentId: string; amount: string; transactionId: string; providerId?: string }>;
}
export interface VoidPlan {
  voids: Array<{ paymentId: string; transactionId: string; providerId?: string }>;
}
export type OrderTransactionsAnswer = { orderTransactions: OrderTransactionsDocument };

/** What capture and void need: the provider (read at each call) and the orders domain's save. */
export interface CaptureVoidDependencies {
  /** The payment providers: each payment's money calls go to the one that took it. */
  payments: { readonly providers: PaymentProviders };
  orders: Pick<OrderWrites, 'settlePayment'>;
}

/**
 * `captureAuthorizedPayments`' plan: all or part of each authorization, each marked with a pending
 * capture (so a second capture of it is refused while the provider is asked).
 */
export async function planCapture(
  providers: PaymentProviders,
  trx: Transaction<Tables>,
  ledger: Ledger,
  captures: CaptureInput[],
  now: Date,
): Promise<CapturePlan> {
  if (ledger.locked.row.status === 'CANCELED')
    throw applicationError('FAILED_PRECONDITION', 'ORDER_STATUS_IS_NOT_SUPPORTED', 'the order is canceled');
  named(
    captures.map((capture) => capture.paymentId ?? ''),
    'payments',
  );
  const plan: CapturePlan = { captures: [] };
  for (const capture of captures) {
    const payment = authorizedPayment(ledger, capture.paymentId ?? '', 'capture');
    const asked = capture.amount?.amount === undefined ? big(payment.amount) : decimal(capture.amount.amount);
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
      providerId: providerIdOf(providers, payment),
    });
    const pending: CaptureDocument = {
      id: newId(),
      status: 'PENDING',
      amount: priceOf(ledger.currency, asked),
      createdDate: now.toISOString(),
    };
    await updatePayment(trx, payment.id, { captures: JSON.stringify([pending]) }, now);
  }
  return plan;
}

/** `voidAuthorizedPayments`' plan: each authorization named, marked with a pending void. */
export async function planVoid(
  providers: PaymentProviders,
  trx: Transaction<Tables>,
  ledger: Ledger,
  paymentIds: string[],
  now: Date,
): Promise<VoidPlan> {
  named(paymentIds, 'paymentIds');
  const plan: VoidPlan = { voids: [] };
  for (const paymentId of paymentIds) {
    const payment = authorizedPayment(ledger, paymentId, 'void');
    plan.voids.push({
      paymentId,
      transactionId: payment.gateway_transaction_id,
      providerId: providerIdOf(providers, payment),
    });
    const pending: VoidDocument = { status: 'PENDING', voidedDate: now.toISOString(), reason: 'MANUAL' };
    await updatePayment(trx, paymentId, { void: JSON.stringify(pending) }, now);
  }
  return plan;
}

/** The capture's provider step: each capture asked, then its answer on the payment and the timeline. */
export function captureStep(
  deps: CaptureVoidDependencies,
): ProviderStep<CapturePlan, OrderTransactionsAnswer> {
  return {
    perform: (plan, requestKey) => askCaptures(deps.payments.providers, plan.captures, requestKey),
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
        await updatePayment(
          trx,
          payment.id,
          {
            captures: JSON.stringify([done]),
            ...(result.status === 'SUCCEEDED' ? { status: 'APPROVED', captured_amount: capture.amount } : {}),
          },
          now,
        );
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
      await reread(trx, ledger);
      return { ok: { orderTransactions: await settle(trx, deps.orders, ledger, activities, now) } };
    },
  };
}

/** The void's provider step: each void asked, then its answer on the payment and the timeline. */
export function voidStep(deps: CaptureVoidDependencies): ProviderStep<VoidPlan, OrderTransactionsAnswer> {
  return {
    perform: (plan, requestKey) => askVoids(deps.payments.providers, plan.voids, requestKey),
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
        await updatePayment(
          trx,
          payment.id,
          { void: JSON.stringify(done), ...(result.status === 'SUCCEEDED' ? { status: 'VOIDED' } : {}) },
          now,
        );
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
      await reread(trx, ledger);
      return { ok: { orderTransactions: await settle(trx, deps.orders, ledger, activities, now) } };
    },
  };
}
