import {
  ApiKeyStrategy,
  backInStockNotifications,
  brandsV3,
  cartwheelMailbox,
  cartwheelMedia,
  collections,
  createClient,
  infoSectionsV3,
  inventoryItemsV3,
  members,
  orderAdmin,
  orderBilling,
  orderFulfillments,
  orders,
  orderTransactions,
  paymentsCollector,
  products,
  productsV3,
  ribbonsV3,
  secondFactors,
  staffSession,
  storeAdmin,
  subscriptionContracts,
} from '@cartwheel/sdk';
import { staffStrategy } from './staff-session.ts';

/** Who the back office calls as: an API key, or a staff member signed in through the hosted login page. */
export type Credential = { apiKey: string } | { staffClientId: string };

/**
 * The SDK client the back office's hooks use: every call goes through `@cartwheel/sdk`, as an app of
 * the merchant's would, so anything the back office does an app can do too.
 */
export function createBackOfficeClient(credential: Credential) {
  return createClient({
    host: window.location.origin,
    auth:
      'apiKey' in credential
        ? ApiKeyStrategy({ apiKey: credential.apiKey })
        : staffStrategy(credential.staffClientId),
    modules: {
      orders,
      orderAdmin,
      orderBilling,
      orderFulfillments,
      orderTransactions,
      paymentsCollector,
      products,
      productsV3,
      brandsV3,
      ribbonsV3,
      infoSectionsV3,
      inventoryItemsV3,
      collections,
      cartwheelMedia,
      cartwheelMailbox,
      members,
      storeAdmin,
      staffSession,
      backInStockNotifications,
      secondFactors,
      subscriptionContracts,
    },
  });
}

export type BackOfficeClient = ReturnType<typeof createBackOfficeClient>;
