import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The current cart's operations (the hosted SDK's `currentCart` methods): always the caller's own, so
 * any token holder may call them; an admin API key acts on a visitor's cart only with their token.
 */
export const CART_OPERATIONS = operationTable('carts', {
  getCurrentCart: CALLERS.tokenHolders,
  updateCurrentCart: CALLERS.tokenHolders,
  deleteCurrentCart: CALLERS.tokenHolders,
  addToCurrentCart: CALLERS.tokenHolders,
  removeLineItemsFromCurrentCart: CALLERS.tokenHolders,
  updateCurrentCartLineItemQuantity: CALLERS.tokenHolders,
  removeCouponFromCurrentCart: CALLERS.tokenHolders,
  createCheckoutFromCurrentCart: CALLERS.tokenHolders,
  estimateCurrentCartTotals: CALLERS.tokenHolders,
});
