import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The checkout's operations: the hosted SDK's `checkout` methods (any token holder calls them, on
 * their own checkout; anyone else is told it does not exist), and the hosted checkout page's, which
 * name their checkout by its session header instead of an access token, so anyone may call them.
 */
export const CHECKOUT_OPERATIONS = operationTable('checkouts', {
  createCheckout: CALLERS.tokenHolders,
  getCheckout: CALLERS.tokenHolders,
  getCheckoutByCartId: CALLERS.tokenHolders,
  updateCheckout: CALLERS.tokenHolders,
  addToCheckout: CALLERS.tokenHolders,
  removeLineItems: CALLERS.tokenHolders,
  updateLineItemsQuantity: CALLERS.tokenHolders,
  removeCoupon: CALLERS.tokenHolders,
  createOrder: CALLERS.tokenHolders,
  getCheckoutUrl: CALLERS.tokenHolders,
  markCheckoutAsCompleted: CALLERS.tokenHolders,
  getCheckoutPageSession: CALLERS.anyone,
  updateOnCheckoutPage: CALLERS.anyone,
  removeCouponOnCheckoutPage: CALLERS.anyone,
  payOnCheckoutPage: CALLERS.anyone,
  getPaymentAttempt: CALLERS.anyone,
  confirmPaymentAttempt: CALLERS.anyone,
});
