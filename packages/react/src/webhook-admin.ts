import type { CreateWebhookInput, WebhookChange, WebhookDelivery } from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCartwheel } from './provider.tsx';
import type { StoreAdminClient } from './store-admin.ts';

/** How often an endpoint's log is read again while one of its deliveries is still being sent. */
const PENDING_REFETCH_MS = 2000;

/** Query keys of the caller's app's webhooks, under `cartwheel` like every other key. */
export const webhookKeys = {
  all: ['cartwheel', 'webhooks'] as const,
  endpoints: ['cartwheel', 'webhooks', 'endpoints'] as const,
  eventTypes: ['cartwheel', 'webhooks', 'eventTypes'] as const,
  deadLetters: ['cartwheel', 'webhooks', 'deadLetters'] as const,
  deliveries: (id: string) => ['cartwheel', 'webhooks', 'deliveries', id] as const,
};

/** The endpoints of the app the caller manages (an API key's, or the OAuth client staff signed in through). */
export function useWebhooks() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: webhookKeys.endpoints, queryFn: () => client.storeAdmin.listWebhooks() });
}

/** The event types an endpoint may take, with the permission each needs. */
export function useWebhookEventTypes() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: webhookKeys.eventTypes,
    queryFn: () => client.storeAdmin.listWebhookEventTypes(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** An endpoint's delivery log, newest first; read again every few seconds while a delivery is pending. */
export function useWebhookDeliveries(id: string, options: { status?: WebhookDelivery['status'] } = {}) {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: [...webhookKeys.deliveries(id), options],
    queryFn: () => client.storeAdmin.listWebhookDeliveries(id, options),
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'PENDING') ? PENDING_REFETCH_MS : false,
  });
}

/** Dead letters across the caller's endpoints: the back office home's work queue. */
export function useWebhookDeadLetters() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: webhookKeys.deadLetters,
    queryFn: () => client.storeAdmin.countWebhookDeadLetters(),
  });
}

/** A change to the caller's webhooks: every webhook read is refetched (endpoints, logs, the count). */
function useWebhookChange<I, O>(run: (client: StoreAdminClient, input: I) => Promise<O>) {
  const client = useCartwheel<StoreAdminClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(client, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useCreateWebhook() {
  return useWebhookChange((client, webhook: CreateWebhookInput) => client.storeAdmin.createWebhook(webhook));
}

/** Its URL, event types, or `status`: `PAUSED` holds its deliveries, `ACTIVE` sends what it missed. */
export function useUpdateWebhook() {
  return useWebhookChange((client, input: { id: string; webhook: WebhookChange }) =>
    client.storeAdmin.updateWebhook(input.id, input.webhook),
  );
}

export function useDeleteWebhook() {
  return useWebhookChange((client, id: string) => client.storeAdmin.deleteWebhook(id));
}

export function useSendWebhookTestEvent() {
  return useWebhookChange((client, id: string) => client.storeAdmin.sendWebhookTestEvent(id));
}

/** One delivered or dead delivery sent again, with the same event id. */
export function useReplayWebhookDelivery() {
  return useWebhookChange((client, input: { id: string; deliveryId: string }) =>
    client.storeAdmin.replayWebhookDelivery(input.id, input.deliveryId),
  );
}

/** Every delivery since `since` (ISO date-time) sent again, in order; answers how many. */
export function useReplayWebhookDeliveriesSince() {
  return useWebhookChange((client, input: { id: string; since: string }) =>
    client.storeAdmin.replayWebhookDeliveriesSince(input.id, input.since),
  );
}
