import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * Orders' transactions (the hosted SDK's `orderTransactions` reads), for whoever may read the order,
 * the store's payment settings, for staff who manage settings, and Stripe's signed webhook deliveries.
 */
export const PAYMENT_OPERATIONS = operationTable('payments', {
  listTransactionsForSingleOrder: CALLERS.tokenHoldersOrStaff('orders.read'),
  listTransactionsForMultipleOrders: CALLERS.tokenHoldersOrStaff('orders.read'),
  getPaymentSettings: CALLERS.staff('settings.manage'),
  updatePaymentSettings: CALLERS.staff('settings.manage'),
  // reads every provider's charges for a period: the store's money, as its settings are
  reconcilePayments: CALLERS.staff('settings.manage'),
  // Stripe calls it; its signature (STRIPE_WEBHOOK_SECRET) is what admits a delivery
  receiveStripeWebhook: CALLERS.anyone,
});
