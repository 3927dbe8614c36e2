import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * Orders' transactions (the hosted SDK's `orderTransactions` reads), for whoever may read the order,
 * and the store's payment settings, for staff who manage settings.
 */
export const PAYMENT_OPERATIONS = operationTable('payments', {
  listTransactionsForSingleOrder: CALLERS.tokenHoldersOrStaff('orders.read'),
  listTransactionsForMultipleOrders: CALLERS.tokenHoldersOrStaff('orders.read'),
  getPaymentSettings: CALLERS.staff('settings.manage'),
  updatePaymentSettings: CALLERS.staff('settings.manage'),
});
