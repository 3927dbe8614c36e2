import {
  ApiKeyStrategy,
  collections,
  createClient,
  members,
  orderBilling,
  orderFulfillments,
  orders,
  orderTransactions,
  paymentsCollector,
  products,
  storeAdmin,
} from '@cartwheel/sdk';

/**
 * The SDK client the back office's hooks use: every call goes through `@cartwheel/sdk`, as an app of
 * the merchant's would, so anything the back office does an app can do too. The key is the admin API
 * key for now; staff sign-in replaces it when staff accounts land.
 */
export function createBackOfficeClient(apiKey: string) {
  return createClient({
    host: window.location.origin,
    auth: ApiKeyStrategy({ apiKey }),
    modules: {
      orders,
      orderBilling,
      orderFulfillments,
      orderTransactions,
      paymentsCollector,
      products,
      collections,
      members,
      storeAdmin,
    },
  });
}

export type BackOfficeClient = ReturnType<typeof createBackOfficeClient>;
