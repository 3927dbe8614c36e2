import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The hosted SDK's `backInStockNotifications` and `backInStockSettings` operations. A shopper (visitor
 * or member) asks, as they add to a cart; a request holds the shopper's email, so staff who read
 * orders see them and staff who manage orders delete them or send them. Whether the store takes
 * requests is no secret (the storefront shows the form by it); changing it is a store setting.
 */
export const BACK_IN_STOCK_OPERATIONS = operationTable('backInStockNotifications', {
  createBackInStockNotificationRequest: CALLERS.tokenHolders,
  getBackInStockNotificationRequest: CALLERS.staff('orders.read'),
  queryBackInStockNotificationRequests: CALLERS.staff('orders.read'),
  getBackInStockNotificationRequestsCountByCatalogReferences: CALLERS.staff('orders.read'),
  deleteBackInStockNotificationRequest: CALLERS.staff('orders.manage'),
  markAsNotificationSent: CALLERS.staff('orders.manage'),
  reportItemsBackInStock: CALLERS.staff('orders.manage'),
});

export const BACK_IN_STOCK_SETTINGS_OPERATIONS = operationTable('backInStockSettings', {
  getSettings: CALLERS.tokenHoldersOrStaff('settings.manage'),
  startCollectingRequests: CALLERS.staff('settings.manage'),
  stopCollectingRequests: CALLERS.staff('settings.manage'),
});
