import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The hosted SDK's `abandonedCheckouts` operations: staff who read orders see them, who manage orders
 * delete them. The recovery link and the unsubscribe link are opened by the buyer's browser from the
 * email, with no token: each names an abandoned checkout by its unguessable id.
 */
export const ABANDONED_CHECKOUT_OPERATIONS = operationTable('abandonedCheckouts', {
  getAbandonedCheckout: CALLERS.staff('orders.read'),
  queryAbandonedCheckouts: CALLERS.staff('orders.read'),
  deleteAbandonedCheckout: CALLERS.staff('orders.manage'),
  redirectToCheckout: CALLERS.anyone,
  unsubscribeFromRecoveryEmails: CALLERS.anyone,
});
