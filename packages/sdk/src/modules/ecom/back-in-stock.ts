import type { ModuleDefinition } from '../../client.ts';
import { everyHost } from '../../transport/domains.ts';
import type { Transport } from '../../transport/http.ts';
import type { CatalogReference } from '../../types/ecom-common.ts';
import type {
  BackInStockItemDetails,
  BackInStockRequest,
  BackInStockRequestsCount,
  BackInStockSettings,
} from '../../types/ecom-recovery.ts';
import { segment } from '../stores/domains.ts';
import { ecomService } from './domains.ts';

/** The hosted back-in-stock service's paths: `/back-in-stock-service` before its own on every host. */
export const BACK_IN_STOCK = everyHost([
  '/v1/back-in-stock-notification-requests',
  '/back-in-stock-service/v1/back-in-stock-notification-requests',
]);
const REQUESTS = ecomService(
  BACK_IN_STOCK,
  'backInStock.v1.BackInStockNotificationRequestService',
  'back_in_stock_notification_request',
);
const SETTINGS = ecomService(
  BACK_IN_STOCK,
  'backInStock.v1.BackInStockSettingsService',
  'back_in_stock_settings',
);
const PATH = '/v1/back-in-stock-notification-requests';

/** The hosted query's input: a filter (`{status: 'RECEIVED'}`, `{status: {$in: [...]}}`), sort, paging. */
export interface BackInStockRequestsQuery {
  filter?: Record<string, unknown>;
  sort?: Array<{ fieldName: string; order?: 'ASC' | 'DESC' }>;
  cursorPaging?: { limit?: number; cursor?: string | null };
}

export interface BackInStockRequestsPage {
  requests: BackInStockRequest[];
  metadata: { count?: number; cursors?: { next?: string | null }; hasNext?: boolean };
}

/**
 * Back-in-stock requests (`createClient({ modules: { backInStockNotifications } })`): a shopper asks
 * to hear when an out-of-stock product or variant is back; the store's staff read, count, delete and
 * send them, and switch taking them on or off. Same calls and bodies as the hosted module.
 */
export const backInStockNotifications = {
  /** `POST` {request: {catalogReference, email, itemUrl?}, itemDetails}: a visitor or member asks. */
  createBackInStockNotificationRequest:
    (t: Transport) =>
    async (
      request: { catalogReference: CatalogReference; email: string; itemUrl?: string | null },
      itemDetails: BackInStockItemDetails,
    ): Promise<BackInStockRequest> =>
      (
        await REQUESTS<{ request: BackInStockRequest }>(
          t,
          'POST',
          PATH,
          'CreateBackInStockNotificationRequest',
          {
            request,
            itemDetails,
          },
        )
      ).request,
  /** `GET /{id}`. */
  getBackInStockNotificationRequest:
    (t: Transport) =>
    async (id: string): Promise<BackInStockRequest> =>
      (
        await REQUESTS<{ request: BackInStockRequest }>(
          t,
          'GET',
          `${PATH}/${segment(id)}`,
          'GetBackInStockNotificationRequest',
        )
      ).request,
  /** `DELETE /{id}`. */
  deleteBackInStockNotificationRequest:
    (t: Transport) =>
    async (id: string): Promise<void> => {
      await REQUESTS(t, 'DELETE', `${PATH}/${segment(id)}`, 'DeleteBackInStockNotificationRequest');
    },
  /** `PUT /{id}/mark-as-notification-sent`: told another way; NOTIFICATION_SENT, `autoNotified` false. */
  markAsNotificationSent:
    (t: Transport) =>
    async (id: string): Promise<{ request: BackInStockRequest }> =>
      REQUESTS(t, 'PUT', `${PATH}/${segment(id)}/mark-as-notification-sent`, 'MarkAsNotificationSent', {
        id,
      }),
  /** `POST /query` {query}: one page; its `metadata.cursors.next` carries the query on. */
  queryBackInStockNotificationRequests:
    (t: Transport) =>
    async (query: BackInStockRequestsQuery = {}): Promise<BackInStockRequestsPage> =>
      REQUESTS(t, 'POST', `${PATH}/query`, 'QueryBackInStockNotificationRequests', { query }),
  /** `GET /count-by-catalog-reference`: the requests still waiting for each item. */
  getBackInStockNotificationRequestsCountByCatalogReferences:
    (t: Transport) =>
    async (
      catalogReferences: CatalogReference[],
    ): Promise<{ countsPerCatalogReference: BackInStockRequestsCount[] }> =>
      REQUESTS(
        t,
        'GET',
        `${PATH}/count-by-catalog-reference`,
        'GetBackInStockNotificationRequestsCountByCatalogReferences',
        undefined,
        { catalogReferences },
      ),
  /** `POST /report-items-back-in-stock`: notify an item's waiting requests (or the ones named) now. */
  reportItemsBackInStock:
    (t: Transport) =>
    async (
      itemDetails: BackInStockItemDetails,
      options: { catalogReference?: CatalogReference; requestIds?: string[] } = {},
    ): Promise<void> => {
      await REQUESTS(t, 'POST', `${PATH}/report-items-back-in-stock`, 'ReportItemsBackInStock', {
        itemDetails,
        ...options,
      });
    },
  /** `PUT /settings`: whether the store takes requests (the hosted `backInStockSettings.getSettings`). */
  getSettings: (t: Transport) => async (): Promise<BackInStockSettings> =>
    (await SETTINGS<{ settings: BackInStockSettings }>(t, 'PUT', `${PATH}/settings`, 'GetSettings', {}))
      .settings,
  /** `POST /settings/start-collecting` {appId}. */
  startCollectingRequests:
    (t: Transport) =>
    async (appId: string): Promise<BackInStockSettings> =>
      (
        await SETTINGS<{ settings: BackInStockSettings }>(
          t,
          'POST',
          `${PATH}/settings/start-collecting`,
          'StartCollectingRequests',
          { appId },
        )
      ).settings,
  /** `POST /settings/stop-collecting` {appId}. */
  stopCollectingRequests:
    (t: Transport) =>
    async (appId: string): Promise<BackInStockSettings> =>
      (
        await SETTINGS<{ settings: BackInStockSettings }>(
          t,
          'POST',
          `${PATH}/settings/stop-collecting`,
          'StopCollectingRequests',
          { appId },
        )
      ).settings,
} satisfies ModuleDefinition;
