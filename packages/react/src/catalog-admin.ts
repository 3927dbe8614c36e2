import type {
  BoundModule,
  BulkAdjust,
  BulkSet,
  Collection,
  cartwheelMedia,
  MediaDataForWrite,
  ProductOption,
  VariantOverride,
} from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CatalogClient } from './catalog.ts';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/**
 * The catalog's merchant writes beyond a product's own fields: options and variants, collections and
 * bulk price changes, each with a merchant's key. Every write makes every cached product read stale
 * (prices, stock and collections show in lists and pages alike); collection writes the collections too.
 */

/**
 * One change to some variants: the SDK's override plus the stock the platform also takes (a counted
 * quantity when the product tracks inventory, else in or out of stock).
 */
export type VariantChange = VariantOverride & {
  stock?: { quantity?: number | null; inStock?: boolean };
};

/** The most variants one product may have (the platform's own limit). */
const VARIANTS_PAGE = 100;

/** A product's variants as its merchant sees them (cost included), in the platform's order. */
export function useMerchantProductVariants(productId: string | undefined) {
  const client = useCartwheel<CatalogClient>();
  return useQuery({
    queryKey: [...cartwheelKeys.products.forMerchant(productId ?? ''), 'variants'],
    queryFn: () =>
      client.products.queryProductVariants(productId ?? '', {
        includeMerchantSpecificData: true,
        paging: { limit: VARIANTS_PAGE },
      }),
    enabled: Boolean(productId),
  });
}

/** Replaces a product's options; with `manageVariants` each combination of choices becomes a variant. */
export function useSaveProductOptions() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ productId, options }: { productId: string; options: ProductOption[] }) => {
      if (options.length === 0) await client.products.deleteProductOptions(productId);
      else await client.products.updateProduct(productId, { productOptions: options, manageVariants: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** Sets price, cost, weight, SKU or stock on some of a product's variants; answers them all. */
export function useUpdateProductVariants() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, variants }: { productId: string; variants: VariantChange[] }) =>
      client.products.updateProductVariants(productId, variants),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** Puts a product in a collection (`member: true`) or takes it out. */
export function useSetProductInCollection() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      productId,
      collectionId,
      member,
    }: {
      productId: string;
      collectionId: string;
      member: boolean;
    }) =>
      member
        ? client.products.addProductsToCollection(collectionId, [productId])
        : client.products.removeProductsFromCollection(collectionId, [productId]),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
        queryClient.invalidateQueries({ queryKey: cartwheelKeys.collections.all }),
      ]),
  });
}

/** Creates a collection (without `id`) or renames one. */
export function useSaveCollection() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, collection }: { id?: string | undefined; collection: Omit<Collection, 'id'> }) =>
      id ? client.products.updateCollection(id, collection) : client.products.createCollection(collection),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.collections.all }),
  });
}

export function useDeleteCollection() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.products.deleteCollection(id),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: cartwheelKeys.collections.all }),
        queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
      ]),
  });
}

/** Sets (`set`) or moves (`adjust`) the price, cost or weight of many products at once. */
export function useBulkProductChange() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { ids: string[]; set: BulkSet } | { ids: string[]; adjust: BulkAdjust }) =>
      'set' in change
        ? client.products.bulkUpdateProductsProperty(change.ids, change.set)
        : client.products.bulkAdjustProductProperty(change.adjust, change.ids),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** Adds images to a product (by URL or a platform media id) or removes them by media id. */
export function useProductMediaChange() {
  const client = useCartwheel<CatalogClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      productId,
      add,
      remove,
    }: {
      productId: string;
      add?: MediaDataForWrite[];
      remove?: string[];
    }) => {
      if (add && add.length > 0) await client.products.addProductMedia(productId, add);
      if (remove && remove.length > 0) await client.products.removeProductMedia(productId, remove);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** What the upload hook needs of the client: the SDK's `cartwheelMedia` module. */
export interface MediaUploadClient {
  cartwheelMedia: BoundModule<typeof cartwheelMedia>;
}

/** Uploads an image's bytes; answers the URL to add to a product. */
export function useUploadMedia() {
  const client = useCartwheel<MediaUploadClient>();
  return useMutation({
    mutationFn: (image: Parameters<MediaUploadClient['cartwheelMedia']['uploadMedia']>[0]) =>
      client.cartwheelMedia.uploadMedia(image),
  });
}

/** Puts a product's images in a new order (every image id once); the first is the main image. */
export function useReorderProductMedia() {
  const client = useCartwheel<MediaUploadClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ productId, mediaIds }: { productId: string; mediaIds: string[] }) =>
      client.cartwheelMedia.reorderProductMedia(productId, mediaIds),
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}
