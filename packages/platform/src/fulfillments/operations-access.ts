import { CALLERS, operationTable } from '../shared/access.ts';

/** Who may change fulfillments (issue 21): the admin key, staff and API keys holding fulfillments.manage. */
const FULFILLERS = CALLERS.staff('fulfillments.manage');

/**
 * The hosted SDK's `orderFulfillments` operations: staff and keys change them; a buyer reads their
 * own order's (a member their own, a visitor what they placed), never another's.
 */
export const FULFILLMENT_OPERATIONS = operationTable('fulfillments', {
  listFulfillmentsForSingleOrder: CALLERS.tokenHoldersOrStaff('orders.read'),
  listFulfillmentsForMultipleOrders: CALLERS.tokenHoldersOrStaff('orders.read'),
  createFulfillment: FULFILLERS,
  updateFulfillment: FULFILLERS,
  deleteFulfillment: FULFILLERS,
  bulkCreateFulfillment: FULFILLERS,
});
