import {
  type BackInStockItemDetails,
  type BackInStockRequest,
  type BoundModule,
  type backInStockNotifications,
  type CatalogReference,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCartwheel } from './provider.tsx';

/** What the back-in-stock hooks need of the client: the SDK's `backInStockNotifications` module. */
export interface BackInStockClient {
  backInStockNotifications: BoundModule<typeof backInStockNotifications>;
}

export const backInStockKeys = {
  all: ['cartwheel', 'backInStock'] as const,
  settings: ['cartwheel', 'backInStock', 'settings'] as const,
  requests: ['cartwheel', 'backInStock', 'requests'] as const,
};

/** Whether the store takes back-in-stock requests now (the storefront shows its form by it). */
export function useBackInStockCollecting() {
  const client = useCartwheel<BackInStockClient>();
  return useQuery({
    queryKey: backInStockKeys.settings,
    queryFn: async () => {
      const settings = await client.backInStockNotifications.getSettings();
      return (
        settings.collectionStates.find((state) => state.appId === STORES_APP_ID)?.collectingRequests ?? false
      );
    },
  });
}

/** A shopper asks to be emailed when an out-of-stock product or variant is back. */
export function useRequestBackInStock() {
  const client = useCartwheel<BackInStockClient>();
  return useMutation({
    mutationFn: (input: {
      catalogReference: CatalogReference;
      email: string;
      itemUrl?: string;
      itemDetails: BackInStockItemDetails;
    }) =>
      client.backInStockNotifications.createBackInStockNotificationRequest(
        {
          catalogReference: input.catalogReference,
          email: input.email,
          ...(input.itemUrl ? { itemUrl: input.itemUrl } : {}),
        },
        input.itemDetails,
      ),
  });
}

/** Every request, newest first (the merchant's list; page after page up to `max`). */
export function useBackInStockRequests(max = 1000) {
  const client = useCartwheel<BackInStockClient>();
  return useQuery({
    queryKey: backInStockKeys.requests,
    queryFn: async () => {
      const found: BackInStockRequest[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await client.backInStockNotifications.queryBackInStockNotificationRequests(
          cursor
            ? { cursorPaging: { limit: 100, cursor } }
            : { sort: [{ fieldName: 'createdDate', order: 'DESC' }], cursorPaging: { limit: 100 } },
        );
        found.push(...page.requests);
        cursor = page.metadata.cursors?.next;
      } while (cursor && found.length < max);
      return found;
    },
  });
}

/** Switches taking requests on or off. */
export function useSetBackInStockCollecting() {
  const client = useCartwheel<BackInStockClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (collecting: boolean) =>
      collecting
        ? client.backInStockNotifications.startCollectingRequests(STORES_APP_ID)
        : client.backInStockNotifications.stopCollectingRequests(STORES_APP_ID),
    onSettled: () => queryClient.invalidateQueries({ queryKey: backInStockKeys.settings }),
  });
}

/** Deletes one request. */
export function useDeleteBackInStockRequest() {
  const client = useCartwheel<BackInStockClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.backInStockNotifications.deleteBackInStockNotificationRequest(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: backInStockKeys.requests }),
  });
}
