import Type from 'typebox';
import { Id, Ids, OneOf } from '../http/input.ts';

/** Orders one list-by-ids call reads the transactions of. */
export const MAX_TRANSACTION_ORDERS = 100;

export const OrderTransactionsParams = Type.Object({ orderId: Id() });
export const ListByIdsBody = Type.Object({ orderIds: Ids(MAX_TRANSACTION_ORDERS) });

/** The store's payment settings an admin may change. */
export const PaymentSettingsBody = Type.Object({
  paymentSettings: Type.Object({ capture: OneOf(['IMMEDIATE', 'AUTHORIZE_ONLY']) }),
});

/** The most a Stripe webhook delivery may carry (Stripe's events are a few kilobytes). */
export const MAX_STRIPE_EVENT_BYTES = 512 * 1024;

/** A Stripe webhook delivery, read as its exact text: its signature is over those bytes. */
export const StripeWebhookBody = Type.String({ maxLength: MAX_STRIPE_EVENT_BYTES });

/** A period to reconcile: ISO date-times, `to` excluded (payments/reconcile.ts checks the rest). */
export const ReconcileBody = Type.Object({
  from: Type.String({ minLength: 1, maxLength: 40 }),
  to: Type.String({ minLength: 1, maxLength: 40 }),
});
