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
  /**
   * Cartwheel's void-and-cancel of an order holding authorizations. An operation names one permission
   * (shared/permissions.ts): this one names the money one, orders.void, as releasing the buyer's money
   * is what it adds to a cancel. It cancels only an order holding an authorization (anything else is
   * refused: cancelOrder needs orders.manage), so a role that may void cancels no order whose money a
   * void does not release.
   */
  voidAndCancelOrder: CALLERS.staff('orders.void'),
  getOrderRefundability: CALLERS.staff('orders.read'),
  calculateRefund: CALLERS.staff('orders.read'),
  refundPayments: CALLERS.staff('orders.refund'),
  addPayments: CALLERS.staff('orders.manage'),
  updatePaymentStatus: CALLERS.staff('orders.manage'),
  bulkUpdatePaymentStatuses: CALLERS.staff('orders.manage'),
});
