import type { OffsetQuery } from '@cartwheel/sdk';

/**
 * Query keys, namespaced under `cartwheel` and then the entity, so one domain can be invalidated at
 * once (`queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all })`). Structured parts are
 * objects: TanStack hashes them with sorted keys, so `{ filter, sort }` and `{ sort, filter }` are one key.
 * The cart and member hooks add their own entries here.
 */
export const cartwheelKeys = {
  all: ['cartwheel'] as const,
  products: {
    all: ['cartwheel', 'products'] as const,
    query: (query: OffsetQuery, options: { includeVariants?: boolean } = {}) =>
      ['cartwheel', 'products', 'query', query, options] as const,
    byId: (id: string) => ['cartwheel', 'products', 'byId', id] as const,
    bySlug: (slug: string) => ['cartwheel', 'products', 'bySlug', slug] as const,
    optionsAvailability: (productId: string, choices: Record<string, string>) =>
      ['cartwheel', 'products', 'optionsAvailability', productId, choices] as const,
  },
  collections: {
    all: ['cartwheel', 'collections'] as const,
    query: (query: OffsetQuery) => ['cartwheel', 'collections', 'query', query] as const,
    bySlug: (slug: string) => ['cartwheel', 'collections', 'bySlug', slug] as const,
  },
  members: {
    all: ['cartwheel', 'members'] as const,
    /** The signed-in member: who that is changes on sign-in and sign-out, so both invalidate it. */
    current: ['cartwheel', 'members', 'current'] as const,
  },
} as const;
