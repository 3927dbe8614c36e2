/** The ecom modules: `createClient({ auth, modules: { currentCart, checkout, orders } })`. */
export type { AddressInput } from './addresses.ts';
export {
  BACK_IN_STOCK,
  type BackInStockRequestsPage,
  type BackInStockRequestsQuery,
  backInStockNotifications,
} from './back-in-stock.ts';
export { checkout } from './checkout.ts';
export { currentCart } from './current-cart.ts';
export {
  CHECKOUTS,
  CURRENT_CART,
  ORDER_FULFILLMENTS,
  ORDER_TRANSACTIONS,
  ORDERS,
  PAYMENTS_COLLECTOR,
} from './domains.ts';
export { ORDER_BILLING, orderBilling } from './order-billing.ts';
export { orderFulfillments } from './order-fulfillments.ts';
export { orderTransactions } from './order-transactions.ts';
export { orders } from './orders.ts';
export { paymentsCollector } from './payments-collector.ts';
export { SUBSCRIPTION_CONTRACTS, subscriptionContracts } from './subscription-contracts.ts';
