import type {
  Address,
  CursorPaging,
  OffsetQuery,
  OrderSearch,
  QueryProductsOptions,
  SelectedShippingOption,
} from '@cartwheel/sdk';

/**
 * Query keys, namespaced under `cartwheel` and then the entity, so one domain can be invalidated at
 * once (`queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all })`). Structured parts are
 * objects: TanStack hashes them with sorted keys, so `{ filter, sort }` and `{ sort, filter }` are one key.
 */
export const cartwheelKeys = {
  all: ['cartwheel'] as const,
  products: {
    all: ['cartwheel', 'products'] as const,
    query: (query: OffsetQuery, options: QueryProductsOptions = {}) =>
      ['cartwheel', 'products', 'query', query, options] as const,
    byId: (id: string) => ['cartwheel', 'products', 'byId', id] as const,
    /** A product as its merchant sees it: hidden or not, with its cost and profit. */
    forMerchant: (id: string) => ['cartwheel', 'products', 'forMerchant', id] as const,
    bySlug: (slug: string) => ['cartwheel', 'products', 'bySlug', slug] as const,
    optionsAvailability: (productId: string, choices: Record<string, string>) =>
      ['cartwheel', 'products', 'optionsAvailability', productId, choices] as const,
  },
  /** The v3 catalog's brands, ribbons and info sections (catalog-v3.ts). */
  catalogV3: {
    all: ['cartwheel', 'catalogV3'] as const,
    list: (kind: 'brands' | 'ribbons' | 'infoSections') => ['cartwheel', 'catalogV3', kind] as const,
  },
  collections: {
    all: ['cartwheel', 'collections'] as const,
    query: (query: OffsetQuery) => ['cartwheel', 'collections', 'query', query] as const,
    bySlug: (slug: string) => ['cartwheel', 'collections', 'bySlug', slug] as const,
  },
  cart: {
    all: ['cartwheel', 'cart'] as const,
    /** The shopper's current cart (`null` while they have none). */
    current: ['cartwheel', 'cart', 'current'] as const,
    /** Every totals estimate: each cart change makes them all stale. */
    estimates: ['cartwheel', 'cart', 'estimate'] as const,
    estimate: (request: { shippingAddress?: Address; selectedShippingOption?: SelectedShippingOption }) =>
      ['cartwheel', 'cart', 'estimate', request] as const,
  },
  orders: {
    all: ['cartwheel', 'orders'] as const,
    byId: (id: string) => ['cartwheel', 'orders', 'byId', id] as const,
    /** The signed-in member's own orders, a page at a time. */
    mine: (paging: CursorPaging) => ['cartwheel', 'orders', 'mine', paging] as const,
    /** A page of a search over every order the caller may read (a merchant's, through an API key). */
    search: (search: OrderSearch) => ['cartwheel', 'orders', 'search', search] as const,
    /** An order's fulfillments: under `orders` so that any order change makes them stale too. */
    fulfillments: (orderId: string) => ['cartwheel', 'orders', 'fulfillments', orderId] as const,
    /** Counts and sums of orders (a dashboard's queues and charts). */
    aggregate: (request: object) => ['cartwheel', 'orders', 'aggregate', request] as const,
    /** An order's payments and refunds. */
    transactions: (orderId: string) => ['cartwheel', 'orders', 'transactions', orderId] as const,
    /** What of an order can still be refunded, per payment and per line. */
    refundability: (orderId: string) => ['cartwheel', 'orders', 'refundability', orderId] as const,
    /** What a refund of these items would come to: nothing moves. */
    refundPreview: (orderId: string, items: object) =>
      ['cartwheel', 'orders', 'refundPreview', orderId, items] as const,
  },
  staff: {
    /** The signed-in member as staff: changes with who signs in. */
    current: ['cartwheel', 'staff', 'current'] as const,
  },
  members: {
    all: ['cartwheel', 'members'] as const,
    /** The signed-in member: who that is changes on sign-in and sign-out, so both invalidate it. */
    current: ['cartwheel', 'members', 'current'] as const,
    /** The signed-in member's second factors: under `members`, so a sign-in or sign-out resets them too. */
    secondFactors: ['cartwheel', 'members', 'secondFactors'] as const,
    /** A page of a members query, as staff or a merchant's key runs it. */
    query: (query: object, options: object) => ['cartwheel', 'members', 'query', query, options] as const,
  },
} as const;
