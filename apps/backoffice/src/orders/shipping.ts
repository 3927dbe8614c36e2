import { useOrderFulfillments, useOrderRefundability } from '@cartwheel/react';
import type { Fulfillment, Order, OrderLineItem } from '@cartwheel/sdk';

/** How much of each line was shipped so far, by line id. */
function shippedByLine(fulfillments: Fulfillment[]): Map<string, number> {
  const shipped = new Map<string, number>();
  for (const fulfillment of fulfillments)
    for (const line of fulfillment.lineItems ?? [])
      if (line.id) shipped.set(line.id, (shipped.get(line.id) ?? 0) + (line.quantity ?? 0));
  return shipped;
}

/**
 * Each line of the order with how many are still to ship: bought, less what was shipped and what was
 * refunded (a refunded item is not shipped either). The shipments form and the packing slip both read it.
 */
export function useLinesToShip(order: Order) {
  const fulfillments = useOrderFulfillments(order.id ?? undefined);
  const refundability = useOrderRefundability(order.id ?? undefined);
  const refunded = new Map(
    (refundability.data?.lineItems ?? []).map((line) => [line.lineItemId ?? '', line.refundedQuantity ?? 0]),
  );
  const shipped = shippedByLine(fulfillments.data ?? []);
  const lines: Array<{ line: OrderLineItem; left: number }> = (order.lineItems ?? []).map((line) => ({
    line,
    left: Math.max(
      0,
      (line.quantity ?? 0) - (shipped.get(line.id ?? '') ?? 0) - (refunded.get(line.id ?? '') ?? 0),
    ),
  }));
  return {
    fulfillments,
    lines,
    isPending: fulfillments.isPending || refundability.isPending,
    error: fulfillments.error ?? refundability.error,
    /** Reads what was shipped and refunded again (another tab or app may have shipped since). */
    refresh: () => Promise.all([fulfillments.refetch(), refundability.refetch()]),
  };
}
