import type { AddActivitiesOptions, OrderUpdate, UpdateOrderOptions } from '@cartwheel/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import type { OrdersClient } from './orders.ts';
import { useCartwheel } from './provider.tsx';

/** A merchant's change to one order; its answer is the order now, cached at once, and every search is stale. */
function useOrderEdit<Input>(
  change: (client: OrdersClient, input: Input) => Promise<{ id?: string | null } | undefined>,
) {
  const client = useCartwheel<OrdersClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => change(client, input),
    onSuccess: async (order) => {
      // the answer is the order as it is now: shown at once, before any refetch
      if (order?.id) queryClient.setQueryData(cartwheelKeys.orders.byId(order.id), order);
      await queryClient.invalidateQueries({ queryKey: cartwheelKeys.orders.all });
    },
  });
}

/** `addActivities` with one merchant comment: it joins the order's timeline. */
export function useAddOrderComment() {
  return useOrderEdit(async (client, { orderId, message }: { orderId: string; message: string }) => {
    const options: AddActivitiesOptions = { orderActivities: [{ merchantComment: { message } }] };
    return (await client.orders.addActivities(orderId, options)).order;
  });
}

/** `deleteActivity`: removes a merchant comment or custom activity (the platform refuses any other). */
export function useDeleteOrderActivity() {
  return useOrderEdit(
    async (client, { orderId, activityId }: { orderId: string; activityId: string }) =>
      (await client.orders.deleteActivity({ id: orderId, activityId })).order,
  );
}

/**
 * `updateOrder`: the fields given change, the rest is kept; with `fieldMask` only the paths it names
 * change (the hosted platform's behaviour), even when `order` holds more.
 */
export function useUpdateOrder() {
  return useOrderEdit(
    (client, { orderId, order, fieldMask }: { orderId: string; order: OrderUpdate } & UpdateOrderOptions) =>
      client.orders.updateOrder(orderId, order, fieldMask ? { fieldMask } : undefined),
  );
}
