import Type from 'typebox';
import {
  AnyValue,
  NullableBoolean,
  NullableNumber,
  NullableText,
  Timestamp,
} from '../http/responses-identity.ts';

/**
 * What the v3 catalog calls answer, as the SDK's types/catalog-v3.ts reads them. The answers are JSON
 * text the service rendered (v3-products.ts): these schemas document them and are not run.
 */

const Text = Type.Optional(NullableText);
const Count = Type.Optional(NullableNumber);
const Flag = Type.Optional(NullableBoolean);

const Money = Type.Object({ amount: Text, formattedAmount: Text });
const PriceRange = Type.Object({ minValue: Type.Optional(Money), maxValue: Type.Optional(Money) });
const MediaV3 = Type.Object({
  id: Text,
  url: Text,
  image: Type.Optional(Type.Object({ id: Text, url: Text, width: Count, height: Count })),
  altText: Text,
  displayName: Text,
  mediaType: Text,
});
const Choice = Type.Object({
  choiceId: Text,
  choiceType: Text,
  key: Text,
  name: Text,
  colorCode: Text,
  inStock: Flag,
  visible: Flag,
});
const Option = Type.Object({
  id: Text,
  name: Text,
  optionRenderType: Text,
  key: Text,
  choicesSettings: Type.Optional(Type.Object({ choices: Type.Optional(Type.Array(Choice)) })),
});
const VariantChoice = Type.Object({
  optionChoiceIds: Type.Optional(Type.Object({ optionId: Text, choiceId: Text })),
  optionChoiceNames: Type.Optional(Type.Object({ optionName: Text, choiceName: Text, renderType: Text })),
});
const VariantFields = {
  id: Text,
  visible: Flag,
  sku: Text,
  price: Type.Optional(
    Type.Object({ actualPrice: Type.Optional(Money), compareAtPrice: Type.Optional(Money) }),
  ),
  revenueDetails: Type.Optional(
    Type.Object({ cost: Type.Optional(Money), profit: Type.Optional(Money), profitMargin: Count }),
  ),
  physicalProperties: Type.Optional(Type.Object({ weight: Count })),
  inventoryStatus: Type.Optional(Type.Object({ inStock: Flag, preorderEnabled: Flag })),
};
const Variant = Type.Object({ ...VariantFields, choices: Type.Optional(Type.Array(VariantChoice)) });
const Reference = Type.Object({ id: Text, name: Text });
const Categories = Type.Object({ categories: Type.Array(Type.Object({ id: Type.String() })) });

export const ProductV3 = Type.Object({
  id: Text,
  revision: Text,
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  name: Text,
  slug: Text,
  url: Type.Optional(Type.Object({ relativePath: Text, url: Text })),
  plainDescription: Text,
  visible: Flag,
  visibleInPos: Flag,
  media: Type.Optional(
    Type.Object({
      main: Type.Optional(MediaV3),
      itemsInfo: Type.Optional(Type.Object({ items: Type.Optional(Type.Array(MediaV3)) })),
    }),
  ),
  // search engine tags: the hosted wire's free-form tag documents, kept as given
  seoData: Type.Optional(AnyValue),
  options: Type.Optional(Type.Array(Option)),
  modifiers: Type.Optional(Type.Array(AnyValue)),
  brand: Type.Optional(Reference),
  infoSections: Type.Optional(Type.Array(AnyValue)),
  ribbon: Type.Optional(Reference),
  directCategoriesInfo: Type.Optional(Categories),
  allCategoriesInfo: Type.Optional(Categories),
  additionalRibbons: Type.Optional(Type.Array(Reference)),
  tags: Type.Optional(
    Type.Object({
      publicTags: Type.Optional(Type.Object({ tagIds: Type.Optional(Type.Array(Type.String())) })),
      privateTags: Type.Optional(Type.Object({ tagIds: Type.Optional(Type.Array(Type.String())) })),
    }),
  ),
  costRange: Type.Optional(PriceRange),
  inventory: Type.Optional(
    Type.Object({ availabilityStatus: Text, preorderStatus: Text, preorderAvailability: Text }),
  ),
  productType: Text,
  physicalProperties: Type.Optional(
    Type.Object({ shippingWeightRange: Type.Optional(Type.Object({ minValue: Count, maxValue: Count })) }),
  ),
  currency: Text,
  actualPriceRange: Type.Optional(PriceRange),
  compareAtPriceRange: Type.Optional(PriceRange),
  variantsInfo: Type.Optional(Type.Object({ variants: Type.Optional(Type.Array(Variant)) })),
  subscriptionDetails: Type.Optional(
    Type.Object({
      subscriptions: Type.Optional(
        Type.Array(
          Type.Object({
            id: Text,
            title: Text,
            description: Text,
            visible: Flag,
            frequency: Text,
            interval: Count,
            autoRenewal: Flag,
            billingCycles: Count,
            discount: Type.Optional(Type.Object({ type: Text, amountOff: Text, percentOff: Count })),
          }),
        ),
      ),
      allowOneTimePurchases: Flag,
    }),
  ),
  variantSummary: Type.Optional(Type.Object({ variantCount: Count })),
});

export const ProductV3Answer = Type.Object({ product: ProductV3 });

const CursorPagingMetadata = Type.Object({
  count: Type.Number(),
  cursors: Type.Object({ next: NullableText, prev: NullableText }),
  hasNext: Type.Boolean(),
});
export const ProductV3PageAnswer = Type.Object({
  products: Type.Array(ProductV3),
  pagingMetadata: CursorPagingMetadata,
});

const ReadOnlyVariant = Type.Object({
  ...VariantFields,
  variantId: Text,
  optionChoices: Type.Optional(Type.Array(VariantChoice)),
  productData: Type.Optional(
    Type.Object({
      productId: Text,
      name: Text,
      slug: Text,
      visible: Flag,
      productType: Text,
      variantVisible: Flag,
      revision: Text,
    }),
  ),
});
export const VariantV3PageAnswer = Type.Object({
  variants: Type.Array(ReadOnlyVariant),
  pagingMetadata: CursorPagingMetadata,
});

export const ItemMetadata = Type.Object({
  id: Text,
  originalIndex: Type.Number(),
  success: Type.Boolean(),
  error: Type.Optional(
    Type.Object({ code: Type.String(), description: Type.String(), data: Type.Optional(AnyValue) }),
  ),
});
export const BulkActionMetadata = Type.Object({
  totalSuccesses: Type.Number(),
  totalFailures: Type.Number(),
  undetailedFailures: Type.Number(),
});
export const BulkProductsV3Answer = Type.Object({
  results: Type.Array(Type.Object({ itemMetadata: ItemMetadata, item: Type.Optional(ProductV3) })),
  bulkActionMetadata: BulkActionMetadata,
});

/** `catalogVersioning.getCatalogVersion`. */
export const CatalogVersionAnswer = Type.Object({
  catalogVersion: Type.Union([
    Type.Literal('V1_CATALOG'),
    Type.Literal('V3_CATALOG'),
    Type.Literal('STORES_NOT_INSTALLED'),
  ]),
});

export const InventoryItem = Type.Object({
  id: Text,
  revision: Text,
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  variantId: Text,
  locationId: Text,
  productId: Text,
  trackQuantity: Flag,
  quantity: Count,
  inStock: Flag,
  availabilityStatus: Text,
  preorderInfo: Type.Optional(
    Type.Object({ enabled: Flag, message: Text, limit: Count, counter: Count, quantity: Count }),
  ),
  product: Type.Optional(
    Type.Object({ name: Text, variantName: Text, variantSku: Text, variantVisible: Flag }),
  ),
});
export const InventoryItemAnswer = Type.Object({ inventoryItem: InventoryItem });
export const InventoryItemPageAnswer = Type.Object({
  inventoryItems: Type.Array(InventoryItem),
  pagingMetadata: CursorPagingMetadata,
});
export const BulkInventoryAnswer = Type.Object({
  results: Type.Array(Type.Object({ itemMetadata: ItemMetadata, item: Type.Optional(InventoryItem) })),
  bulkActionMetadata: BulkActionMetadata,
});
/** `bulkUpdateInventoryItemsByFilter`: the hosted job's id (v3-inventory-writes.ts says what it names). */
export const InventoryJobAnswer = Type.Object({ jobId: Type.String() });
export const InventoryCountAnswer = Type.Object({ count: Type.Number() });

/** A brand, ribbon, info section or customization (v3-entity-rows.ts `renderEntity`): each kind's fields. */
const CatalogEntityV3 = Type.Object({
  id: Text,
  revision: Text,
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  name: Text,
  uniqueName: Text,
  title: Text,
  plainDescription: Text,
  description: Type.Optional(AnyValue),
  key: Text,
  customizationType: Text,
  customizationRenderType: Text,
  freeTextInput: Type.Optional(AnyValue),
  choicesSettings: Type.Optional(AnyValue),
  assignedProductsCount: Count,
  assignedProductCount: Count,
});

/** What one kind's calls answer, under its wire keys (`brand`, `brands`). */
export function entityAnswers(one: string, many: string, bulkItemKey: string) {
  return {
    one: Type.Object({ [one]: CatalogEntityV3 }),
    page: Type.Object({ [many]: Type.Array(CatalogEntityV3), pagingMetadata: CursorPagingMetadata }),
    count: Type.Object({ count: Type.Number() }),
    bulk: Type.Object({
      results: Type.Array(
        Type.Object({ itemMetadata: ItemMetadata, [bulkItemKey]: Type.Optional(CatalogEntityV3) }),
      ),
      bulkActionMetadata: BulkActionMetadata,
    }),
  };
}
