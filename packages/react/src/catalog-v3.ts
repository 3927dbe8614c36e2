import type {
  BoundModule,
  brandsV3,
  ConnectedModifier,
  InventoryItemV3,
  infoSectionsV3,
  inventoryItemsV3,
  productsV3,
  ribbonsV3,
} from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/**
 * The v3 catalog's brands, ribbons and info sections as a product editor picks them: the lists to
 * choose from, and a product's info sections set through `productsV3` (with the revision it read).
 */
export interface CatalogV3Client {
  brandsV3: BoundModule<typeof brandsV3>;
  ribbonsV3: BoundModule<typeof ribbonsV3>;
  infoSectionsV3: BoundModule<typeof infoSectionsV3>;
  productsV3: BoundModule<typeof productsV3>;
  /** Only the preorder hooks need it. */
  inventoryItemsV3?: BoundModule<typeof inventoryItemsV3>;
}

/** The most of each a picker lists (one page of the hosted query). */
const PICKER_PAGE = 100;
const byName = { sort: [{ fieldName: 'name', order: 'ASC' as const }], cursorPaging: { limit: PICKER_PAGE } };

/** The store's brands, by name. */
export function useBrandsV3() {
  const client = useCartwheel<CatalogV3Client>();
  return useQuery({
    queryKey: cartwheelKeys.catalogV3.list('brands'),
    queryFn: async () => (await client.brandsV3.queryBrands(byName)).items,
  });
}

/** The store's ribbons, by name. */
export function useRibbonsV3() {
  const client = useCartwheel<CatalogV3Client>();
  return useQuery({
    queryKey: cartwheelKeys.catalogV3.list('ribbons'),
    queryFn: async () => (await client.ribbonsV3.queryRibbons(byName)).items,
  });
}

/** The store's info sections, by title. */
export function useInfoSectionsV3() {
  const client = useCartwheel<CatalogV3Client>();
  return useQuery({
    queryKey: cartwheelKeys.catalogV3.list('infoSections'),
    queryFn: async () =>
      (
        await client.infoSectionsV3.queryInfoSections({
          sort: [{ fieldName: 'title', order: 'ASC' }],
          cursorPaging: { limit: PICKER_PAGE },
        })
      ).items,
  });
}

/** A product as the v3 calls show it (its info sections' ids among the rest). */
export function useProductV3(productId: string | undefined) {
  const client = useCartwheel<CatalogV3Client>();
  return useQuery({
    queryKey: [...cartwheelKeys.products.forMerchant(productId ?? ''), 'v3'],
    queryFn: () => client.productsV3.getProduct(productId ?? ''),
    enabled: Boolean(productId),
  });
}

/**
 * A product as the v3 calls show a shopper it, by its page's slug: what the v1 product does not carry,
 * as its subscription options (`subscriptionDetails`).
 */
export function useProductV3BySlug(slug: string | undefined) {
  const client = useCartwheel<Pick<CatalogV3Client, 'productsV3'>>();
  return useQuery({
    queryKey: [...cartwheelKeys.products.all, 'v3-slug', slug ?? ''],
    queryFn: () => client.productsV3.getProductBySlug(slug ?? ''),
    enabled: Boolean(slug),
  });
}

/**
 * Attaches an info section to a product (last) or takes it off, from the product as it is now: it is
 * read again for its revision, so a change made meanwhile elsewhere is kept.
 */
export function useSetProductInfoSection() {
  const client = useCartwheel<CatalogV3Client>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      productId,
      infoSectionId,
      attached,
    }: {
      productId: string;
      infoSectionId: string;
      attached: boolean;
    }) => {
      const product = await client.productsV3.getProduct(productId);
      const ids = (product.infoSections ?? []).map((section) => section.id as string);
      const next = attached
        ? [...ids.filter((id) => id !== infoSectionId), infoSectionId]
        : ids.filter((id) => id !== infoSectionId);
      return client.productsV3.updateProduct(productId, {
        revision: product.revision,
        infoSections: next.map((id) => ({ id })),
      });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/**
 * Sets a product's modifiers (gift wrap, an engraving: what a shopper adds to a line, each choice
 * with its added price), from the product as it is now: read again for its revision.
 */
export function useSetProductModifiers() {
  const client = useCartwheel<CatalogV3Client>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ productId, modifiers }: { productId: string; modifiers: ConnectedModifier[] }) => {
      const product = await client.productsV3.getProduct(productId);
      return client.productsV3.updateProduct(productId, { revision: product.revision, modifiers });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}

/** A product's inventory items (one a variant), with their preorder settings. */
export function useInventoryItemsV3(productId: string | undefined) {
  const client = useCartwheel<CatalogV3Client>();
  return useQuery({
    queryKey: [...cartwheelKeys.products.forMerchant(productId ?? ''), 'inventory-v3'],
    queryFn: async () => {
      if (!client.inventoryItemsV3) throw new Error('the client has no inventoryItemsV3 module');
      return (await client.inventoryItemsV3.queryInventoryItems({ filter: { productId } })).items;
    },
    enabled: Boolean(productId),
  });
}

/** Changes one inventory item (its preorder), with the revision it was read at. */
export function useUpdateInventoryItemV3() {
  const client = useCartwheel<CatalogV3Client>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, item }: { id: string; item: InventoryItemV3 }) => {
      if (!client.inventoryItemsV3) throw new Error('the client has no inventoryItemsV3 module');
      return client.inventoryItemsV3.updateInventoryItem(id, item);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.products.all }),
  });
}
