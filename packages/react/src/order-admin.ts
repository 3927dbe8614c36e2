import type { BoundModule, CancelOrderRequest, OrdersExportOptions, orderAdmin } from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the back-office hooks below need of the client: the SDK's `orderAdmin` module (Cartwheel's own). */
export interface OrderAdminClient {
  orderAdmin: BoundModule<typeof orderAdmin>;
}

const VIEWS_KEY = ['cartwheel', 'orderViews'] as const;

/** The orders table's saved views, shared by staff: `data` is the list, by name. */
export function useOrderViews() {
  const client = useCartwheel<OrderAdminClient>();
  return useQuery({
    queryKey: VIEWS_KEY,
    queryFn: async () => (await client.orderAdmin.listOrderViews()).views,
  });
}

/** Saves a view (a name saved again is replaced); the list is read again after. */
export function useSaveOrderView() {
  const client = useCartwheel<OrderAdminClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (view: { name: string; params: Record<string, string> }) =>
      client.orderAdmin.saveOrderView(view),
    onSettled: () => queryClient.invalidateQueries({ queryKey: VIEWS_KEY }),
  });
}

export function useDeleteOrderView() {
  const client = useCartwheel<OrderAdminClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.orderAdmin.deleteOrderView(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: VIEWS_KEY }),
  });
}

/**
 * `voidAndCancelOrder`: an order holding authorized payments is canceled, each authorization voided at
 * its provider first (a failed void cancels nothing). Every cached read of orders is stale after, as
 * the order's status and its money both changed (or may have, when it fails half way).
 */
export function useVoidAndCancelOrder() {
  const client = useCartwheel<OrderAdminClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, ...options }: { orderId: string } & CancelOrderRequest) =>
      client.orderAdmin.voidAndCancelOrder(orderId, options),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all }),
  });
}

export type OrdersExportState =
  | { status: 'idle' }
  | { status: 'running'; rows: number }
  | { status: 'done'; rows: number; csv: Blob }
  | { status: 'failed'; rows: number; error: Error };

/**
 * Downloads the CSV export of the orders a filter finds, with the count of rows so far while it
 * streams: `start(options)` runs it (a second start cancels the first), `state` says where it stands and
 * holds the file as a Blob when done. The text is gathered in pieces, never as one growing string.
 */
export function useOrdersExport() {
  const client = useCartwheel<OrderAdminClient>();
  const [state, setState] = useState<OrdersExportState>({ status: 'idle' });
  const run = useRef(0);
  const start = useCallback(
    async (options?: OrdersExportOptions): Promise<Blob | undefined> => {
      const mine = ++run.current;
      setState({ status: 'running', rows: 0 });
      const parts: string[] = [];
      let rows = 0;
      try {
        for await (const chunk of await client.orderAdmin.exportOrdersCsvChunks(options)) {
          if (run.current !== mine) return undefined;
          parts.push(chunk.text);
          rows = chunk.rows;
          setState({ status: 'running', rows });
        }
        const csv = new Blob(parts, { type: 'text/csv;charset=utf-8' });
        if (run.current === mine) setState({ status: 'done', rows, csv });
        return csv;
      } catch (error) {
        if (run.current === mine)
          setState({
            status: 'failed',
            rows,
            error: error instanceof Error ? error : new Error(String(error)),
          });
        return undefined;
      }
    },
    [client],
  );
  return { state, start };
}
