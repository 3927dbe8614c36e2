import { CALLERS, operationTable } from '../shared/access.ts';

/** The admin key, staff and API keys holding settings.manage: who makes and changes templates. */
const TEMPLATE_MANAGERS = CALLERS.staff('settings.manage');

/**
 * The hosted SDK's `checkoutTemplates` operations. The merchant manages templates; using one (a
 * checkout from it) is what a buy link in an email does, so any caller may, a visitor or member owning
 * the checkout it makes; the redirect is opened by a shopper's browser with no token at all.
 */
export const CHECKOUT_TEMPLATE_OPERATIONS = operationTable('checkoutTemplates', {
  createCheckoutTemplate: TEMPLATE_MANAGERS,
  getCheckoutTemplate: TEMPLATE_MANAGERS,
  updateCheckoutTemplate: TEMPLATE_MANAGERS,
  deleteCheckoutTemplate: TEMPLATE_MANAGERS,
  queryCheckoutTemplates: TEMPLATE_MANAGERS,
  createCheckoutFromTemplate: CALLERS.anyone,
  createAndRedirectToCheckout: CALLERS.anyone,
});
