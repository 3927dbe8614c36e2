import { CALLERS, operationTable } from '../shared/access.ts';

/** Who may change orders (issue 21): the admin key, staff and API keys holding orders.manage. */
const MANAGERS = CALLERS.staff('orders.manage');

/**
 * The orders domain's operations (the hosted SDK's `orders` methods, and Cartwheel's CSV export). A
 * buyer reads their own orders (a member theirs, a visitor those placed as that visitor) and anyone
 * else is told an order does not exist; staff and keys holding the permission read and change them.
 */
export const ORDER_OPERATIONS = operationTable('orders', {
  getOrder: CALLERS.tokenHoldersOrStaff('orders.read'),
  searchOrders: CALLERS.tokenHoldersOrStaff('orders.read'),
  /** An order the merchant or an app records (a till). */
  createOrder: MANAGERS,
  updateOrder: MANAGERS,
  bulkUpdateOrders: MANAGERS,
  cancelOrder: MANAGERS,
  bulkUpdateOrderTags: MANAGERS,
  addActivities: MANAGERS,
  deleteActivity: MANAGERS,
  aggregateOrders: CALLERS.staff('orders.read'),
  exportOrdersCsv: CALLERS.staff('orders.read'),
});
