import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * Subscription contracts: a signed-in member reads, pauses, resumes and cancels their own (the service
 * shows no one else's); staff and apps who read orders read them all, who manage orders change them.
 * A visitor's token reads an empty list.
 */
export const SUBSCRIPTION_CONTRACT_OPERATIONS = operationTable('subscriptionContracts', {
  getSubscriptionContract: CALLERS.tokenHoldersOrStaff('orders.read'),
  querySubscriptionContracts: CALLERS.tokenHoldersOrStaff('orders.read'),
  cancelSubscriptionContract: CALLERS.tokenHoldersOrStaff('orders.manage'),
  pauseSubscriptionContract: CALLERS.tokenHoldersOrStaff('orders.manage'),
  resumeSubscriptionContract: CALLERS.tokenHoldersOrStaff('orders.manage'),
});
