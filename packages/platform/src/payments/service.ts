import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { recordEvents } from '../events/outbox.ts';
import type { Settings } from '../settings/settings.ts';
import { newId } from '../shared/ids.ts';
import { paymentsOf } from './order-payments.ts';
import type { ChargedCard } from './provider.ts';
import type { PaymentProviders } from './providers.ts';
import { paymentWire } from './transactions.ts';

export type { OrderTransactionsDocument, PaymentDocument } from './transactions.ts';

/** The store setting that chooses whether a paid checkout is captured at once or only authorized. */
export const CAPTURE_SETTING = 'payments.capture';
export type CaptureMode = 'IMMEDIATE' | 'AUTHORIZE_ONLY';

/** An approved charge, as an order's transactions record it. */
export interface ApprovedPayment {
  orderId: string;
  /** The checkout attempt that paid: the payment's `paymentOrderId`. */
  attemptId: string;
  amount: string;
  formattedAmount: string;
  currency: string;
  /** The provider that took it (PaymentProviders): its later money calls go there. */
  providerId: string;
  transactionId: string;
  providerTransactionId: string;
  card: ChargedCard;
  /** True when the store only authorized the charge. */
  authorizeOnly: boolean;
}

/** The store's payment providers by id, the capture setting, and the charges they approved. */
export class PaymentService {
  constructor(
    private readonly settings: Settings,
    /** The store's providers, as config.ts registers them (openPaymentProviders). */
    readonly providers: PaymentProviders,
  ) {}

  /** Capture at once (the default) or authorize only, as the store's setting says. */
  async captureMode(): Promise<CaptureMode> {
    return (await this.settings.get(CAPTURE_SETTING)) === 'AUTHORIZE_ONLY' ? 'AUTHORIZE_ONLY' : 'IMMEDIATE';
  }

  async setCaptureMode(mode: CaptureMode): Promise<void> {
    await this.settings.set(CAPTURE_SETTING, mode);
  }

  /** Writes an approved charge into its order's transactions, inside the order's approving `trx`. */
  async recordPayment(trx: Transaction<Tables>, payment: ApprovedPayment, now: Date): Promise<void> {
    const at = now.toISOString();
    await trx
      .insertInto('order_payments')
      .values({
        id: newId(),
        order_id: payment.orderId,
        amount: payment.amount,
        formatted_amount: payment.formattedAmount,
        currency: payment.currency,
        status: payment.authorizeOnly ? 'AUTHORIZED' : 'APPROVED',
        payment_order_id: payment.attemptId,
        gateway_transaction_id: payment.transactionId,
        provider_transaction_id: payment.providerTransactionId,
        method_name: this.providers.get(payment.providerId).methodName,
        provider_id: payment.providerId,
        card_brand: payment.card.brand,
        card_last4: payment.card.last4,
        delayed_capture: payment.authorizeOnly ? 1 : 0,
        authorized_at: payment.authorizeOnly ? at : null,
        offline: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    // the order's transactions as an app hears of them, as a recorded payment announces its own; an
    // order paid at checkout has no refunds yet
    const payments = await paymentsOf(trx, [payment.orderId]);
    await recordEvents(
      trx,
      [
        {
          entity: 'orderTransactions',
          slug: 'updated',
          entityId: payment.orderId,
          payload: {
            entity: { orderId: payment.orderId, payments: payments.map(paymentWire), refunds: [] },
          },
        },
      ],
      now,
    );
  }
}
