import type { ModuleDefinition } from '../../client.ts';
import { everyHost } from '../../transport/domains.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  SubscriptionContract,
  SubscriptionContractQuery,
  SubscriptionContractsPage,
} from '../../types/ecom-subscriptions.ts';
import { CARTWHEEL_API } from '../cartwheel/domains.ts';
import { segment } from '../stores/domains.ts';
import { ecomService } from './domains.ts';

/** The hosted contracts service: `/v1/subscription-contracts` is `/ecom/subscription-contracts/v1/...` on every host. */
export const SUBSCRIPTION_CONTRACTS = everyHost(
  ['/v1/subscription-contracts', '/ecom/subscription-contracts/v1/subscription-contracts'],
  ['/v1/bulk/subscription-contracts', '/ecom/subscription-contracts/v1/bulk/subscription-contracts'],
);

const call = ecomService(
  SUBSCRIPTION_CONTRACTS,
  'subscriptionContracts.v1.SubscriptionContracts',
  'subscriptionContract',
);

type ContractAnswer = { subscriptionContract: SubscriptionContract };

/** Cartwheel's own calls that change a contract (the hosted platform has none): `/api/cartwheel/...`. */
const change = (transport: Transport, id: string, action: 'cancel' | 'pause' | 'resume') =>
  transport.request<ContractAnswer>({
    method: 'POST',
    path: `/subscription-contracts/${segment(id)}/${action}`,
    mapping: CARTWHEEL_API,
    body: {},
    trace: {
      package: '@cartwheel/sdk',
      method: `cartwheel.ecom.subscriptionContracts.v1.SubscriptionContracts.${action[0]!.toUpperCase()}${action.slice(1)}SubscriptionContract`,
      entity: 'subscriptionContract',
    },
  });

/**
 * Subscription contracts (issue 34): a signed-in member reads and changes their own, staff and apps
 * with the orders permissions every contract. `getSubscriptionContract` and
 * `querySubscriptionContracts` are the hosted client's calls; cancel, pause and resume are Cartwheel's
 * own (the hosted platform changes contracts only through drafts).
 */
export const subscriptionContracts = {
  /** `GET /v1/subscription-contracts/{id}`: the contract itself. */
  getSubscriptionContract:
    (transport: Transport) =>
    async (id: string): Promise<SubscriptionContract> =>
      (
        await call<ContractAnswer>(
          transport,
          'GET',
          `/v1/subscription-contracts/${segment(id)}`,
          'GetSubscriptionContract',
          undefined,
          { subscriptionContractId: id },
        )
      ).subscriptionContract,

  /** `POST /v1/subscription-contracts/query` {query}: oldest first, cursor paging. */
  querySubscriptionContracts:
    (transport: Transport) =>
    (query: SubscriptionContractQuery = {}): Promise<SubscriptionContractsPage> =>
      call(transport, 'POST', '/v1/subscription-contracts/query', 'QuerySubscriptionContracts', { query }),

  /** `POST /api/cartwheel/subscription-contracts/{id}/cancel`: no more orders. */
  cancelSubscriptionContract:
    (transport: Transport) =>
    async (id: string): Promise<SubscriptionContract> =>
      (await change(transport, id, 'cancel')).subscriptionContract,

  /** `POST /api/cartwheel/subscription-contracts/{id}/pause`: no orders until resumed. */
  pauseSubscriptionContract:
    (transport: Transport) =>
    async (id: string): Promise<SubscriptionContract> =>
      (await change(transport, id, 'pause')).subscriptionContract,

  /** `POST /api/cartwheel/subscription-contracts/{id}/resume`: renewed again, a missed cycle at once. */
  resumeSubscriptionContract:
    (transport: Transport) =>
    async (id: string): Promise<SubscriptionContract> =>
      (await change(transport, id, 'resume')).subscriptionContract,
} satisfies ModuleDefinition;
