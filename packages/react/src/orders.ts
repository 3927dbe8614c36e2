import type {
  AggregateOrdersOptions,
  BoundModule,
  BulkUpdateOrderTagsOptions,
  CancelOrderRequest,
  CursorPaging,
  Fulfillment,
  FulfillmentIdentifiers,
  OrderSearch,
  orderBilling,
  orderFulfillments,
  orders,
  orderTransactions,
  PaymentCapture,
  RefundItems,
  RefundPaymentsOptions,
  Sorting,
  UpdateFulfillmentOptions,
} from '@cartwheel/sdk';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLoggedIn } from './auth.ts';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the order hooks need of the client: the SDK's `orders` module. */
export interface OrdersClient {
  orders: BoundModule<typeof orders>;
}

/** Newest first, as the account page lists them. */
const NEWEST_FIRST: Sorting[] = [{ fieldName: 'createdDate', order: 'DESC' }];

export const orderQueries = {
  /** One order: its buyer (visitor or member) or an admin may read it. */
  byId: (client: OrdersClient, id: string) =>
    queryOptions({
      queryKey: cartwheelKeys.orders.byId(id),
      queryFn: () => client.orders.getOrder(id),
    }),
  /** A page of the signed-in member's own orders, newest first. */
  mine: (client: OrdersClient, paging: CursorPaging) =>
    queryOptions({
      queryKey: cartwheelKeys.orders.mine(paging),
      queryFn: () => client.orders.searchOrders({ cursorPaging: paging, sort: NEWEST_FIRST }),
    }),
  /** A page of any search, as a merchant's back office or app runs it. */
  search: (client: OrdersClient, search: OrderSearch) =>
    queryOptions({
      queryKey: cartwheelKeys.orders.search(search),
      queryFn: () => client.orders.searchOrders(search),
    }),
};

export function useOrder(id: string | undefined) {
  const client = useCartwheel<OrdersClient>();
  return useQuery({ ...orderQueries.byId(client, id ?? ''), enabled: Boolean(id) });
}

/**
 * The signed-in member's orders: `data.orders`, `data.metadata.cursors.next` for the next page. No
 * request is made for a visitor. The previous page stays in `data` while the next loads.
 */
export function useMyOrders(paging: CursorPaging = { limit: 10 }) {
  const client = useCartwheel<OrdersClient>();
  const loggedIn = useLoggedIn();
  return useQuery({
    ...orderQueries.mine(client, paging),
    enabled: loggedIn,
    placeholderData: keepPreviousData,
  });
}

/**
 * A page of `searchOrders` as given (filter, sort, cursor): for a merchant's client, whose key may read
 * every order. The previous page stays in `data` while the next loads, so a table does not flash empty.
 */
export function useOrderSearch(search: OrderSearch) {
  const client = useCartwheel<OrdersClient>();
  return useQuery({ ...orderQueries.search(client, search), placeholderData: keepPreviousData });
}

/** What the merchant's order hooks need: the SDK's `orders` module with a key that may change orders. */
function useOrderChange<Input, Output>(change: (client: OrdersClient, input: Input) => Promise<Output>) {
  const client = useCartwheel<OrdersClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => change(client, input),
    // an order shows in searches, in its own page and in counts alike: all of them are stale now
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

/** `cancelOrder`: the order becomes CANCELED; `restockAllItems` puts what it held back in stock. */
export function useCancelOrder() {
  return useOrderChange((client, input: { id: string } & CancelOrderRequest) => {
    const { id, ...options } = input;
    return client.orders.cancelOrder(id, options);
  });
}

/** `bulkUpdateOrderTags`: assigns and unassigns tags (public and private) on up to 100 orders. */
export function useUpdateOrderTags() {
  return useOrderChange((client, input: { orderIds: string[] } & BulkUpdateOrderTagsOptions) => {
    const { orderIds, ...options } = input;
    return client.orders.bulkUpdateOrderTags(orderIds, options);
  });
}

/** What the fulfillment hooks need of the client: the SDK's `orderFulfillments` module. */
export interface FulfillmentsClient {
  orderFulfillments: BoundModule<typeof orderFulfillments>;
}

/** The order's fulfillments (what was shipped of which line, with tracking), oldest first. */
export function useOrderFulfillments(orderId: string | undefined) {
  const client = useCartwheel<FulfillmentsClient>();
  return useQuery({
    queryKey: cartwheelKeys.orders.fulfillments(orderId ?? ''),
    queryFn: async () =>
      (await client.orderFulfillments.listFulfillmentsForSingleOrder(orderId ?? '')).orderWithFulfillments
        ?.fulfillments ?? [],
    enabled: Boolean(orderId),
  });
}

/** `createFulfillment`: lines and quantities shipped, with tracking; the order's status follows. */
export function useCreateFulfillment() {
  const client = useCartwheel<FulfillmentsClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, fulfillment }: { orderId: string; fulfillment: Fulfillment }) =>
      client.orderFulfillments.createFulfillment(orderId, fulfillment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

/** `updateFulfillment`: a shipment's tracking (carrier, number); its lines never change. */
export function useUpdateFulfillment() {
  const client = useCartwheel<FulfillmentsClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      orderId,
      fulfillmentId,
      fulfillment,
    }: FulfillmentIdentifiers & { fulfillment: UpdateFulfillmentOptions['fulfillment'] }) =>
      client.orderFulfillments.updateFulfillment({ orderId, fulfillmentId }, { fulfillment }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

/** `deleteFulfillment`: its items are to ship again, and the order's status follows. */
export function useDeleteFulfillment() {
  const client = useCartwheel<FulfillmentsClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (identifiers: FulfillmentIdentifiers) =>
      client.orderFulfillments.deleteFulfillment(identifiers),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

/** What the money hooks need of the client: the SDK's `orderTransactions` and `orderBilling` modules. */
export interface BillingClient {
  orderTransactions: BoundModule<typeof orderTransactions>;
  orderBilling: BoundModule<typeof orderBilling>;
}

/** The order's payments and refunds. */
export function useOrderTransactions(orderId: string | undefined) {
  const client = useCartwheel<BillingClient>();
  return useQuery({
    queryKey: cartwheelKeys.orders.transactions(orderId ?? ''),
    queryFn: async () =>
      (await client.orderTransactions.listTransactionsForSingleOrder(orderId ?? '')).orderTransactions,
    enabled: Boolean(orderId),
  });
}

/** Per payment, whether and how much can go back; per line, how many are left to refund. */
export function useOrderRefundability(orderId: string | undefined) {
  const client = useCartwheel<BillingClient>();
  return useQuery({
    queryKey: cartwheelKeys.orders.refundability(orderId ?? ''),
    queryFn: () => client.orderBilling.getOrderRefundability(orderId ?? ''),
    enabled: Boolean(orderId),
  });
}

/** `calculateRefund`: what refunding these items would give back, discounts and tax included; nothing moves. */
export function useRefundPreview(orderId: string | undefined, refundItems: RefundItems, enabled = true) {
  const client = useCartwheel<BillingClient>();
  return useQuery({
    queryKey: cartwheelKeys.orders.refundPreview(orderId ?? '', refundItems),
    queryFn: () => client.orderBilling.calculateRefund(orderId ?? '', { refundItems }),
    enabled: Boolean(orderId) && enabled,
    placeholderData: keepPreviousData,
  });
}

/** A money call on an order; afterwards every cached read of orders (and their money) is stale. */
function useMoneyChange<Input, Output>(change: (client: BillingClient, input: Input) => Promise<Output>) {
  const client = useCartwheel<BillingClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => change(client, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

/** Captures authorized payments, each in full or the amount given (the rest is released). */
export function useCapturePayments() {
  return useMoneyChange((client, input: { orderId: string; payments: PaymentCapture[] }) =>
    client.orderBilling.captureAuthorizedPayments(input.orderId, { payments: input.payments }),
  );
}

/** Voids authorized payments: nothing is taken from the buyer. */
export function useVoidPayments() {
  return useMoneyChange((client, input: { orderId: string; paymentIds: string[] }) =>
    client.orderBilling.voidAuthorizedPayments(input.orderId, { paymentIds: input.paymentIds }),
  );
}

/** `refundPayments`: money back through each payment named, with restock and the buyer's email as asked. */
export function useRefundPayments() {
  return useMoneyChange((client, input: { orderId: string } & RefundPaymentsOptions) => {
    const { orderId, ...options } = input;
    return client.orderBilling.refundPayments(orderId, options);
  });
}

/**
 * `aggregateOrders`: counts and sums over the orders a filter names (`{name: {$count: [fields]}}`,
 * `{name: {$sum: 'priceSummary.total.amount', groupBy: ['day']}}`); stale with any order change.
 */
export function useOrderAggregates(options: AggregateOrdersOptions) {
  const client = useCartwheel<OrdersClient>();
  return useQuery({
    queryKey: cartwheelKeys.orders.aggregate(options),
    queryFn: async () => (await client.orders.aggregateOrders(options)).aggregates ?? {},
    placeholderData: keepPreviousData,
  });
}
