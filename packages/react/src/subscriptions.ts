import type { BoundModule, SubscriptionContractQuery, subscriptionContracts } from '@cartwheel/sdk';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLoggedIn } from './auth.ts';
import { useCartwheel } from './provider.tsx';

/** What the subscription hooks need of the client: the SDK's `subscriptionContracts` module. */
export interface SubscriptionContractsClient {
  subscriptionContracts: BoundModule<typeof subscriptionContracts>;
}

const ALL = ['cartwheel', 'subscriptionContracts'] as const;

export const subscriptionContractQueries = {
  /** A page of contracts: a member's client reads their own, a merchant's every one. */
  page: (client: SubscriptionContractsClient, query: SubscriptionContractQuery) =>
    queryOptions({
      queryKey: [...ALL, 'page', query] as const,
      queryFn: () => client.subscriptionContracts.querySubscriptionContracts(query),
    }),
};

/**
 * The signed-in member's own subscription contracts, a page at a time (`data.subscriptionContracts`,
 * `data.pagingMetadata.cursors.next`). No request for a visitor.
 */
export function useMySubscriptionContracts(query: SubscriptionContractQuery = {}) {
  const client = useCartwheel<SubscriptionContractsClient>();
  const loggedIn = useLoggedIn();
  return useQuery({
    ...subscriptionContractQueries.page(client, query),
    enabled: loggedIn,
    placeholderData: keepPreviousData,
  });
}

/**
 * A page of every contract, for a merchant's client (whose key reads them all). The previous page
 * stays in `data` while the next loads.
 */
export function useSubscriptionContracts(query: SubscriptionContractQuery = {}) {
  const client = useCartwheel<SubscriptionContractsClient>();
  return useQuery({ ...subscriptionContractQueries.page(client, query), placeholderData: keepPreviousData });
}

function useContractChange(action: 'cancel' | 'pause' | 'resume') {
  const client = useCartwheel<SubscriptionContractsClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => {
      const contracts = client.subscriptionContracts;
      if (action === 'cancel') return contracts.cancelSubscriptionContract(id);
      if (action === 'pause') return contracts.pauseSubscriptionContract(id);
      return contracts.resumeSubscriptionContract(id);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALL }),
  });
}

/** Cancels a contract for good (a member their own; a merchant any): no more orders. */
export const useCancelSubscriptionContract = () => useContractChange('cancel');
/** Pauses a contract: no orders until it is resumed. */
export const usePauseSubscriptionContract = () => useContractChange('pause');
/** Resumes a paused contract (or one whose charge failed): a missed cycle is billed at once. */
export const useResumeSubscriptionContract = () => useContractChange('resume');
