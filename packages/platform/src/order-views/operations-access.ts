import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The back office's saved views of the orders table (issue 22), shared with staff: those who may read
 * orders list them; those who may manage orders save and delete them.
 */
export const ORDER_VIEW_OPERATIONS = operationTable('orderViews', {
  listOrderViews: CALLERS.staff('orders.read'),
  saveOrderView: CALLERS.staff('orders.manage'),
  deleteOrderView: CALLERS.staff('orders.manage'),
});
