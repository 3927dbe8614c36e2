import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * Billing's operations and who may call them: the merchant's money calls, for the admin API key and
 * for staff and app keys holding the matching permission. Capture, void and refund are separate
 * permissions, as on the hosted platform; a visitor or member can do none.
 */
export const BILLING_OPERATIONS = operationTable('billing', {
  preparePaymentCollection: CALLERS.staff('orders.manage'),
  getPaymentCollectabilityStatus: CALLERS.staff('orders.read'),
  /** The payments collector's path and order billing's both serve it. */
  captureAuthorizedPayments: CALLERS.staff('orders.capture'),
  /** The payments collector's path and order billing's both serve it. */
  voidAuthorizedPayments: CALLERS.staff('orders.void'),
  getOrderRefundability: CALLERS.staff('orders.read'),
  calculateRefund: CALLERS.staff('orders.read'),
  refundPayments: CALLERS.staff('orders.refund'),
  addPayments: CALLERS.staff('orders.manage'),
  updatePaymentStatus: CALLERS.staff('orders.manage'),
  bulkUpdatePaymentStatuses: CALLERS.staff('orders.manage'),
});
