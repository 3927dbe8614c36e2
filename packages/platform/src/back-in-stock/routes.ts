import type { HttpApp } from '../http/app.ts';
import { BACK_IN_STOCK_OPERATIONS, BACK_IN_STOCK_SETTINGS_OPERATIONS } from './operations-access.ts';
import { CountsAnswer, Empty, RequestAnswer, RequestsPageAnswer, SettingsAnswer } from './responses.ts';
import {
  CollectingBody,
  CountByCatalogReferencesInput,
  CreateRequestBody,
  GetSettingsBody,
  MarkAsSentBody,
  QueryRequestsInput,
  ReportItemsBackInStockBody,
  RequestPath,
} from './schemas.ts';
import type { BackInStockService, CatalogReferenceIn } from './service.ts';

/** The hosted paths: `/back-in-stock-service` on the hosted API host, before the service's own path. */
const PATH = '/back-in-stock-service/v1/back-in-stock-notification-requests';

/** The hosted `backInStockNotifications` and `backInStockSettings` calls at their paths. */
export function backInStockRoutes(app: HttpApp, services: { backInStock: BackInStockService }): void {
  const backInStock = services.backInStock;

  app.post(
    PATH,
    {
      schema: { body: CreateRequestBody, response: { 200: RequestAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.createBackInStockNotificationRequest,
    },
    async (request) => ({
      request: await backInStock.create(
        {
          ...request.body.request,
          catalogReference: request.body.request.catalogReference as CatalogReferenceIn,
        },
        request.body.itemDetails,
        request.principal,
      ),
    }),
  );
  // the hosted client queries by GET (the request in `.r`), and by POST past its URL threshold
  app.get(
    PATH,
    {
      schema: { querystring: QueryRequestsInput, response: { 200: RequestsPageAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.queryBackInStockNotificationRequests,
    },
    (request) => backInStock.query(request.query.query),
  );
  app.post(
    `${PATH}/query`,
    {
      schema: { body: QueryRequestsInput, response: { 200: RequestsPageAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.queryBackInStockNotificationRequests,
    },
    (request) => backInStock.query(request.body.query),
  );
  app.get(
    `${PATH}/count-by-catalog-reference`,
    {
      schema: { querystring: CountByCatalogReferencesInput, response: { 200: CountsAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.getBackInStockNotificationRequestsCountByCatalogReferences,
    },
    (request) => backInStock.counts(request.query.catalogReferences as CatalogReferenceIn[]),
  );
  app.post(
    `${PATH}/report-items-back-in-stock`,
    {
      schema: { body: ReportItemsBackInStockBody, response: { 200: Empty } },
      config: BACK_IN_STOCK_OPERATIONS.reportItemsBackInStock,
    },
    async (request) => {
      await backInStock.report({
        catalogReference: request.body.catalogReference as CatalogReferenceIn | undefined,
        requestIds: request.body.requestIds,
      });
      return {};
    },
  );
  app.put(
    `${PATH}/settings`,
    {
      schema: { body: GetSettingsBody, response: { 200: SettingsAnswer } },
      config: BACK_IN_STOCK_SETTINGS_OPERATIONS.getSettings,
    },
    () => backInStock.settings(),
  );
  app.post(
    `${PATH}/settings/start-collecting`,
    {
      schema: { body: CollectingBody, response: { 200: SettingsAnswer } },
      config: BACK_IN_STOCK_SETTINGS_OPERATIONS.startCollectingRequests,
    },
    (request) => backInStock.setCollecting(request.body.appId, true),
  );
  app.post(
    `${PATH}/settings/stop-collecting`,
    {
      schema: { body: CollectingBody, response: { 200: SettingsAnswer } },
      config: BACK_IN_STOCK_SETTINGS_OPERATIONS.stopCollectingRequests,
    },
    (request) => backInStock.setCollecting(request.body.appId, false),
  );
  app.get(
    `${PATH}/:id`,
    {
      schema: { params: RequestPath, response: { 200: RequestAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.getBackInStockNotificationRequest,
    },
    async (request) => ({ request: await backInStock.get(request.params.id) }),
  );
  app.delete(
    `${PATH}/:id`,
    {
      schema: { params: RequestPath, response: { 200: Empty } },
      config: BACK_IN_STOCK_OPERATIONS.deleteBackInStockNotificationRequest,
    },
    async (request) => {
      await backInStock.delete(request.params.id);
      return {};
    },
  );
  app.put(
    `${PATH}/:id/mark-as-notification-sent`,
    {
      schema: { params: RequestPath, body: MarkAsSentBody, response: { 200: RequestAnswer } },
      config: BACK_IN_STOCK_OPERATIONS.markAsNotificationSent,
    },
    async (request) => ({ request: await backInStock.markAsSent(request.params.id) }),
  );
}
