import type {
  BoundModule,
  collections,
  OffsetQuery,
  Product,
  products,
  QueryProductsOptions,
} from '@cartwheel/sdk';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the catalog hooks need of the client: the SDK's `products` and `collections` (v2) modules. */
export interface CatalogClient {
  products: BoundModule<typeof products>;
  collections: BoundModule<typeof collections>;
}

/** Query options, usable outside React too (router loaders, prefetching, tests). */
export const catalogQueries = {
  products: (client: CatalogClient, query: OffsetQuery = {}, options: QueryProductsOptions = {}) =>
    queryOptions({
      queryKey: cartwheelKeys.products.query(query, options),
      queryFn: () => client.products.queryProducts(query, options),
    }),
  product: (client: CatalogClient, id: string) =>
    queryOptions({
      queryKey: cartwheelKeys.products.byId(id),
      queryFn: () => client.products.getProduct(id),
    }),
  /** The product, hidden or not, with its cost and profit: for a merchant's key. */
  productForMerchant: (client: CatalogClient, id: string) =>
    queryOptions({
      queryKey: cartwheelKeys.products.forMerchant(id),
      queryFn: () => client.products.getProduct(id, { includeMerchantSpecificData: true }),
    }),
  /** The product with this slug, or `null` when the store has none. */
  productBySlug: (client: CatalogClient, slug: string) =>
    queryOptions({
      queryKey: cartwheelKeys.products.bySlug(slug),
      queryFn: async () => {
        const page = await client.products.queryProducts({ filter: { slug }, paging: { limit: 1 } });
        return page.items[0] ?? null;
      },
    }),
  productOptionsAvailability: (client: CatalogClient, productId: string, choices: Record<string, string>) =>
    queryOptions({
      queryKey: cartwheelKeys.products.optionsAvailability(productId, choices),
      queryFn: () => client.products.getProductOptionsAvailability(productId, choices),
    }),
  collections: (client: CatalogClient, query: OffsetQuery = {}) =>
    queryOptions({
      queryKey: cartwheelKeys.collections.query(query),
      queryFn: () => client.collections.queryCollections(query),
    }),
  collectionBySlug: (client: CatalogClient, slug: string) =>
    queryOptions({
      queryKey: cartwheelKeys.collections.bySlug(slug),
      queryFn: () => client.collections.getCollectionBySlug(slug),
    }),
};

export interface ProductsQueryOptions {
  includeVariants?: boolean;
  /** Hidden products too, with their cost and profit: what a merchant's key may read. */
  merchant?: boolean;
  /** Keep showing the previous page while the next one loads (paging, sorting, search). */
  keepPrevious?: boolean;
  enabled?: boolean;
}

/** A page of products: `data.items`, `data.metadata.total`, `data.hasNext`. */
export function useProducts(query: OffsetQuery = {}, options: ProductsQueryOptions = {}) {
  const client = useCartwheel<CatalogClient>();
  const include: QueryProductsOptions = {
    ...(options.includeVariants ? { includeVariants: true } : {}),
    ...(options.merchant ? { includeHiddenProducts: true, includeMerchantSpecificData: true } : {}),
  };
  return useQuery({
    ...catalogQueries.products(client, query, include),
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
    enabled: options.enabled ?? true,
  });
}

export function useProduct(id: string | undefined) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({ ...catalogQueries.product(client, id ?? ''), enabled: Boolean(id) });
}

/** The product as its merchant sees it, hidden or not, with cost and profit (a merchant's key). */
export function useMerchantProduct(id: string | undefined) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({ ...catalogQueries.productForMerchant(client, id ?? ''), enabled: Boolean(id) });
}

/**
 * Creates a product (without `id`) or changes one (only the fields given), with a merchant's key. Every
 * cached product read is then stale, since names, prices and visibility show in lists and pages alike.
 */
export function useSaveProduct() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, product }: { id?: string | undefined; product: Omit<Product, 'id'> }) =>
      id ? client.products.updateProduct(id, product) : client.products.createProduct(product as Product),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** `data` is the product, or `null` when no product has this slug. */
export function useProductBySlug(slug: string | undefined) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({ ...catalogQueries.productBySlug(client, slug ?? ''), enabled: Boolean(slug) });
}

/**
 * The chosen choices resolved to a variant (price, stock, SKU) and which choices remain available.
 * While new choices load, the previous answer stays in `data` (`isPlaceholderData` is true).
 */
export function useProductOptionsAvailability(
  productId: string | undefined,
  choices: Record<string, string>,
) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({
    ...catalogQueries.productOptionsAvailability(client, productId ?? '', choices),
    enabled: Boolean(productId),
    placeholderData: keepPreviousData,
  });
}

export function useCollections(query: OffsetQuery = {}) {
  const client = useCartwheel<CatalogClient>();
  return useQuery(catalogQueries.collections(client, query));
}

export function useCollectionBySlug(slug: string | undefined) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({ ...catalogQueries.collectionBySlug(client, slug ?? ''), enabled: Boolean(slug) });
}
