import Type, { type Static } from 'typebox';
import { Id, Ignored, Nullable, OneOf, Text } from '../http/input.ts';
import { NullableText } from '../http/responses-identity.ts';
import { MAX_PRODUCT_VARIANTS } from './limits.ts';
import { QueryFilter } from './schemas.ts';
import { BulkActionMetadata, InventoryItem, ItemMetadata, ProductV3 } from './v3-responses.ts';
import {
  Fields,
  MAX_BULK_V3,
  Money,
  ProductInputV3,
  SearchDetails,
  V3_READ_BACK,
  VariantInput,
} from './v3-schemas.ts';

/**
 * The inputs and answers of the v3 product calls beyond one product at a time: the count, the writes
 * of a product with its variants' inventory (v3-with-inventory.ts), and the writes by filter
 * (v3-product-bulk.ts), as the hosted `productsV3` module sends and reads them.
 */

const Search = Type.Optional(Nullable(SearchDetails));

export const CountProductsV3Request = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  search: Search,
  returnNonVisibleProducts: Type.Optional(Nullable(Type.Boolean())),
});
export type CountProductsV3Request = Static<typeof CountProductsV3Request>;

// ---- a product with its variants' inventory ----

/** A variant's inventory item as a product-with-inventory write sets it (the hosted `InventoryItemComposite`). */
const InventoryItemComposite = Type.Object({
  // the item's id and revision are its variant's (`{productId}-{variantId}`); the product's revision guards the write
  id: Type.Optional(Ignored(V3_READ_BACK)),
  revision: Type.Optional(Ignored(V3_READ_BACK)),
  quantity: Type.Optional(Type.Integer({ minimum: -99_999, maximum: 99_999 })),
  inStock: Type.Optional(Type.Boolean()),
  preorderInfo: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Nullable(Type.Boolean())),
      message: Type.Optional(Nullable(Text(250))),
      limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
      counter: Type.Optional(Ignored(V3_READ_BACK)),
      quantity: Type.Optional(Ignored(V3_READ_BACK)),
    }),
  ),
});
export type InventoryItemComposite = Static<typeof InventoryItemComposite>;

const VariantWithInventory = Type.Object({
  ...VariantInput.properties,
  inventoryItem: Type.Optional(InventoryItemComposite),
});

/** A v3 product whose variants may each carry their inventory item. */
export const ProductWithInventoryInput = Type.Object({
  ...ProductInputV3.properties,
  variantsInfo: Type.Optional(
    Type.Object({
      variants: Type.Optional(Type.Array(VariantWithInventory, { maxItems: MAX_PRODUCT_VARIANTS })),
    }),
  ),
});
export type ProductWithInventoryInput = Static<typeof ProductWithInventoryInput>;

export const ProductWithInventoryBody = Type.Object({
  product: ProductWithInventoryInput,
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export const ProductWithInventoryPath = Type.Object({ productId: Id() });

export const BulkCreateProductsWithInventoryBody = Type.Object({
  products: Type.Array(ProductWithInventoryInput, { minItems: 1, maxItems: MAX_BULK_V3 }),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export const BulkUpdateProductsWithInventoryBody = Type.Object({
  products: Type.Array(Type.Object({ product: ProductWithInventoryInput }), {
    minItems: 1,
    maxItems: MAX_BULK_V3,
  }),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});

// ---- writes by filter ----

/** The products a write by filter touches: the v3 query filter (`{}` names every product), and a text search. */
const Filter = Nullable(QueryFilter);

export const BulkUpdateProductsByFilterBody = Type.Object({
  filter: Filter,
  product: ProductInputV3,
  search: Search,
});
export type BulkUpdateProductsByFilterBody = Static<typeof BulkUpdateProductsByFilterBody>;

export const BulkDeleteProductsByFilterBody = Type.Object({ filter: Filter, search: Search });
export type BulkDeleteProductsByFilterBody = Static<typeof BulkDeleteProductsByFilterBody>;

/** What an update of variants by filter may set (the hosted list: visible, prices, cost, weight). */
const VariantByFilterInput = Type.Object({
  visible: Type.Optional(Nullable(Type.Boolean())),
  price: Type.Optional(
    Type.Object({
      actualPrice: Type.Optional(Money),
      compareAtPrice: Type.Optional(Nullable(Money)),
    }),
  ),
  revenueDetails: Type.Optional(Type.Object({ cost: Type.Optional(Nullable(Money)) })),
  physicalProperties: Type.Optional(Type.Object({ weight: Type.Optional(Nullable(Type.Number())) })),
});
export type VariantByFilterInput = Static<typeof VariantByFilterInput>;

export const BulkUpdateVariantsByFilterBody = Type.Object({
  filter: Filter,
  variant: VariantByFilterInput,
  search: Search,
});
export type BulkUpdateVariantsByFilterBody = Static<typeof BulkUpdateVariantsByFilterBody>;

/** An amount (a decimal string, maybe negative) or a percentage: one of the two. */
const AdjustValue = Type.Object({
  amount: Type.Optional(Type.String({ pattern: '^-?[0-9]{1,9}(\\.[0-9]{1,2})?$' })),
  percentage: Type.Optional(Type.Number({ minimum: -100, maximum: 1000 })),
});
export type AdjustValue = Static<typeof AdjustValue>;
const UnsignedAdjustValue = Type.Object({
  amount: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$' })),
  percentage: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
});

export const ROUNDING = ['NO_ROUNDING', 'CURRENCY_PRECISION', 'NEAREST_WHOLE_NUMBER'] as const;

export const BulkAdjustVariantsByFilterBody = Type.Object({
  filter: Filter,
  search: Search,
  rounding: Type.Optional(OneOf(ROUNDING)),
  actualPrice: Type.Optional(AdjustValue),
  compareAtPrice: Type.Optional(AdjustValue),
  cost: Type.Optional(AdjustValue),
  compareAtPriceDiscount: Type.Optional(UnsignedAdjustValue),
});
export type BulkAdjustVariantsByFilterBody = Static<typeof BulkAdjustVariantsByFilterBody>;

/** v3 categories are Cartwheel's collections (the same ids): at most 5 a call, as the hosted call. */
export const CategoriesByFilterBody = Type.Object({
  filter: Filter,
  categoryIds: Type.Array(Id(), { minItems: 1, maxItems: 5 }),
  search: Search,
});
export type CategoriesByFilterBody = Static<typeof CategoriesByFilterBody>;

// ---- answers (JSON text the services render: documented, not run) ----

export const CountAnswer = Type.Object({ count: Type.Number() });
export const JobAnswer = Type.Object({ jobId: Type.String() });
export const AllProductsCategoryAnswer = Type.Object({
  categoryId: Type.String(),
  treeReference: Type.Object({ appNamespace: Type.String(), treeKey: NullableText }),
});

const InventoryResults = Type.Object({
  results: Type.Array(Type.Object({ itemMetadata: ItemMetadata, item: Type.Optional(InventoryItem) })),
  bulkActionMetadata: BulkActionMetadata,
});
export const ProductWithInventoryAnswer = Type.Object({
  product: ProductV3,
  inventoryResults: InventoryResults,
});
export const BulkProductsWithInventoryAnswer = Type.Object({
  productResults: Type.Object({
    results: Type.Array(Type.Object({ itemMetadata: ItemMetadata, item: Type.Optional(ProductV3) })),
    bulkActionMetadata: BulkActionMetadata,
  }),
  inventoryResults: InventoryResults,
});
