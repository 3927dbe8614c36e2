import type { Order } from '@cartwheel/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import type { BillingClient, FulfillmentsClient, OrdersClient } from './orders.ts';
import { useCartwheel } from './provider.tsx';

/** What a bulk action did to one order: done, or why not in the platform's own words. */
export interface BulkOrderOutcome {
  orderId: string;
  succeeded: boolean;
  reason?: string;
}

/** A bulk action on orders the merchant selected in a table. */
export type BulkOrderAction =
  | { kind: 'tag'; assign: string[]; unassign: string[] }
  | { kind: 'archive'; archived: boolean }
  | { kind: 'fulfil' }
  | { kind: 'capture' };

type BulkClient = OrdersClient & FulfillmentsClient & BillingClient;

interface ItemMetadata {
  id?: string | null;
  originalIndex?: number;
  success?: boolean;
  error?: { code?: string; description?: string };
}

const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'The platform refused it';

/** One outcome per order asked, in their order, from a bulk answer's `itemMetadata` list. */
function outcomesOf(orderIds: string[], results: Array<{ itemMetadata?: ItemMetadata }> | undefined) {
  return orderIds.map((orderId, index): BulkOrderOutcome => {
    const meta =
      results?.find((result) => result.itemMetadata?.id === orderId)?.itemMetadata ??
      results?.find((result) => result.itemMetadata?.originalIndex === index)?.itemMetadata;
    if (!meta) return { orderId, succeeded: false, reason: 'The platform gave no result for it' };
    if (meta.success === false) {
      return { orderId, succeeded: false, reason: meta.error?.description || meta.error?.code || 'Refused' };
    }
    return { orderId, succeeded: true };
  });
}

/** Runs one call per order (a few at a time), each settling to its own outcome. */
async function eachOrder(
  orders: Order[],
  run: (order: Order) => Promise<string | undefined>,
): Promise<BulkOrderOutcome[]> {
  const outcomes: BulkOrderOutcome[] = [];
  const queue = [...orders];
  async function worker() {
    for (let order = queue.shift(); order; order = queue.shift()) {
      const orderId = order.id ?? '';
      try {
        const refused = await run(order);
        outcomes.push(
          refused ? { orderId, succeeded: false, reason: refused } : { orderId, succeeded: true },
        );
      } catch (error) {
        outcomes.push({ orderId, succeeded: false, reason: reasonOf(error) });
      }
    }
  }
  await Promise.all([worker(), worker(), worker()]);
  const at = new Map(orders.map((order, index) => [order.id ?? '', index]));
  return outcomes.sort((a, b) => (at.get(a.orderId) ?? 0) - (at.get(b.orderId) ?? 0));
}

/**
 * A bulk action on selected orders: tags added and removed (`bulkUpdateOrderTags`), archive or
 * unarchive (`bulkUpdateOrders`), mark as fulfilled (`bulkCreateFulfillments`, what is left of every
 * line) and capture of authorized payments (`captureAuthorizedPayments`, order by order). The answer
 * is a result per order, failures with the platform's reason; the orders' cached reads are stale after.
 */
export function useBulkOrderAction() {
  const client = useCartwheel<BulkClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      orders,
      action,
    }: {
      orders: Order[];
      action: BulkOrderAction;
    }): Promise<BulkOrderOutcome[]> => {
      const orderIds = orders.map((order) => order.id ?? '');
      switch (action.kind) {
        case 'tag': {
          const tags = (ids: string[]) => (ids.length > 0 ? { tags: { tagIds: ids } } : undefined);
          const answer = await client.orders.bulkUpdateOrderTags(orderIds, {
            ...(tags(action.assign) ? { assignTags: tags(action.assign) } : {}),
            ...(tags(action.unassign) ? { unassignTags: tags(action.unassign) } : {}),
          });
          return outcomesOf(orderIds, answer.results);
        }
        case 'archive': {
          const answer = await client.orders.bulkUpdateOrders(
            orderIds.map((id) => ({ order: { id, archived: action.archived }, fieldMask: ['archived'] })),
          );
          return outcomesOf(orderIds, answer.results);
        }
        case 'fulfil': {
          const work: Array<{
            orderId: string;
            fulfillments: Array<{ lineItems: Array<{ id: string; quantity: number }> }>;
          }> = [];
          const skipped = new Map<string, string>();
          for (const order of orders) {
            const orderId = order.id ?? '';
            const existing =
              (await client.orderFulfillments.listFulfillmentsForSingleOrder(orderId)).orderWithFulfillments
                ?.fulfillments ?? [];
            const shipped = new Map<string, number>();
            for (const fulfillment of existing)
              for (const line of fulfillment.lineItems ?? [])
                if (line.id) shipped.set(line.id, (shipped.get(line.id) ?? 0) + (line.quantity ?? 0));
            const lineItems = (order.lineItems ?? [])
              .map((line) => ({
                id: line.id ?? '',
                quantity: (line.quantity ?? 0) - (shipped.get(line.id ?? '') ?? 0),
              }))
              .filter((line) => line.id && line.quantity > 0);
            if (lineItems.length === 0) skipped.set(orderId, 'Nothing is left to fulfil');
            else work.push({ orderId, fulfillments: [{ lineItems }] });
          }
          const answer =
            work.length > 0 ? await client.orderFulfillments.bulkCreateFulfillments(work) : { results: [] };
          const done = outcomesOf(
            work.map((item) => item.orderId),
            answer.results,
          );
          return orderIds.map(
            (orderId) =>
              done.find((outcome) => outcome.orderId === orderId) ?? {
                orderId,
                succeeded: false,
                reason: skipped.get(orderId) ?? 'Not fulfilled',
              },
          );
        }
        case 'capture':
          return eachOrder(orders, async (order) => {
            const orderId = order.id ?? '';
            const transactions = (await client.orderTransactions.listTransactionsForSingleOrder(orderId))
              .orderTransactions;
            const authorized = (transactions?.payments ?? []).filter(
              (payment) => payment.status === 'AUTHORIZED',
            );
            if (authorized.length === 0) return 'No authorized payment waits for capture';
            await client.orderBilling.captureAuthorizedPayments(orderId, {
              payments: authorized.map((payment) => ({ paymentId: payment.id ?? '' })),
            });
            return undefined;
          });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}
