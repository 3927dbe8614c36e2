import type { Static } from 'typebox';
import type { HttpApp } from '../http/app.ts';
import type { Operation } from '../shared/access.ts';
import { SUBSCRIPTION_CONTRACT_OPERATIONS as OPERATIONS } from './operations-access.ts';
import { ContractAnswer, ContractsPageAnswer } from './responses.ts';
import { ChangeContractBody, ContractPath, QueryContractsRequest } from './schemas.ts';
import type { SubscriptionService } from './service.ts';

const PATH = '/ecom/subscription-contracts/v1/subscription-contracts';

type QueryInput = Static<typeof QueryContractsRequest>;

/**
 * The hosted `subscriptionContracts` calls at its paths (get; query as GET with `.r` or POST), and
 * Cartwheel's own cancel, pause and resume under /api/cartwheel.
 */
export function subscriptionContractRoutes(
  app: HttpApp,
  services: { subscriptions: SubscriptionService },
): void {
  const { subscriptions } = services;

  const query = (input: QueryInput | undefined, principal: Parameters<SubscriptionService['query']>[0]) =>
    subscriptions.query(principal, input?.query ?? undefined);
  app.get(
    `${PATH}/query`,
    {
      schema: { querystring: QueryContractsRequest, response: { 200: ContractsPageAnswer } },
      config: OPERATIONS.querySubscriptionContracts,
    },
    (request) => query(request.query, request.principal),
  );
  app.post(
    `${PATH}/query`,
    {
      schema: { body: QueryContractsRequest, response: { 200: ContractsPageAnswer } },
      config: OPERATIONS.querySubscriptionContracts,
    },
    (request) => query(request.body ?? undefined, request.principal),
  );
  app.get(
    `${PATH}/:subscriptionContractId`,
    {
      schema: { params: ContractPath, response: { 200: ContractAnswer } },
      config: OPERATIONS.getSubscriptionContract,
    },
    async (request) => ({
      subscriptionContract: await subscriptions.get(request.principal, request.params.subscriptionContractId),
    }),
  );

  const change = (action: 'cancel' | 'pause' | 'resume', operation: Operation) =>
    app.post(
      `/api/cartwheel/subscription-contracts/:subscriptionContractId/${action}`,
      {
        schema: { params: ContractPath, body: ChangeContractBody, response: { 200: ContractAnswer } },
        config: operation,
      },
      async (request) => ({
        subscriptionContract: await subscriptions[action](
          request.principal,
          request.params.subscriptionContractId,
        ),
      }),
    );
  change('cancel', OPERATIONS.cancelSubscriptionContract);
  change('pause', OPERATIONS.pauseSubscriptionContract);
  change('resume', OPERATIONS.resumeSubscriptionContract);
}
