import {
  backInStockNotifications,
  collections,
  createClient,
  currentCart,
  inventoryItemsV3,
  localStorageTokenStorage,
  members,
  OAuthStrategy,
  orders,
  products,
  productsV3,
  redirects,
  secondFactors,
  subscriptionContracts,
  verification,
} from '@cartwheel/sdk';

/** What the platform tells the storefront at start (`GET /api/cartwheel/config`). */
export interface StoreConfig {
  clientId: string;
  storeName: string;
}

export class StoreConfigError extends Error {
  override name = 'StoreConfigError';
}

export async function loadStoreConfig(origin: string): Promise<StoreConfig> {
  let response: Response;
  try {
    response = await fetch(`${origin}/api/cartwheel/config`, { headers: { Accept: 'application/json' } });
  } catch {
    throw new StoreConfigError('The store could not be reached. Check your connection and reload the page.');
  }
  const body = response.ok
    ? ((await response.json().catch(() => undefined)) as Partial<StoreConfig>)
    : undefined;
  if (!body?.clientId) {
    throw new StoreConfigError(
      'This store is not set up yet: the platform did not answer GET /api/cartwheel/config with a client id.',
    );
  }
  return { clientId: body.clientId, storeName: body.storeName || 'Store' };
}

/**
 * The SDK client the storefront's hooks use. Visitor tokens live in localStorage, so a shopper stays
 * the same visitor across reloads (their cart will follow them), and a member stays signed in.
 */
export function createStoreClient(origin: string, config: StoreConfig) {
  return createClient({
    host: origin,
    auth: OAuthStrategy({
      clientId: config.clientId,
      host: origin,
      storage: localStorageTokenStorage(`cartwheel.tokens.${config.clientId}`),
      // a direct sign-in's silent authorization answers here: the demo client registers the origin's pages
      redirectUri: `${origin}/`,
    }),
    modules: {
      products,
      // the v3 product's subscription options, for the product page's picker
      productsV3,
      // an out-of-stock variant's preorder and its message, for the product page
      inventoryItemsV3,
      collections,
      members,
      verification,
      currentCart,
      redirects,
      orders,
      backInStockNotifications,
      secondFactors,
      subscriptionContracts,
    },
  });
}

export type StoreClient = ReturnType<typeof createStoreClient>;
