import Type from 'typebox';
import {
  AnyValue,
  NullableBoolean,
  NullableNumber,
  NullableText,
  Timestamp,
} from '../http/responses-identity.ts';

/**
 * What the catalog calls answer, as the SDK's types/catalog.ts reads them. Product and variant reads
 * send JSON text the service rendered once (product-reads.ts): their schemas document the answer and
 * are not run; the writes' answers are serialised from these.
 */

const Text = Type.Optional(NullableText);
const Count = Type.Optional(NullableNumber);

const PriceData = Type.Object({
  currency: Text,
  price: Count,
  discountedPrice: Count,
  formatted: Type.Optional(Type.Object({ price: Text, discountedPrice: Text, pricePerUnit: Text })),
  pricePerUnit: Count,
});
const NumericRange = Type.Object({ minValue: Count, maxValue: Count });
const CostAndProfitData = Type.Object({
  itemCost: Count,
  formattedItemCost: Text,
  profit: Count,
  formattedProfit: Text,
  profitMargin: Count,
});
const MediaImage = Type.Object({
  url: Text,
  width: Count,
  height: Count,
  format: Text,
  altText: Text,
});
const MediaItem = Type.Object({
  id: Text,
  title: Text,
  mediaType: Text,
  thumbnail: Type.Optional(MediaImage),
  image: Type.Optional(MediaImage),
  video: Type.Optional(
    Type.Object({ files: Type.Optional(Type.Array(MediaImage)), stillFrameMediaId: Text }),
  ),
});
const Media = Type.Object({
  mainMedia: Type.Optional(MediaItem),
  items: Type.Optional(Type.Array(MediaItem)),
});
const Choices = Type.Record(Type.String(), Type.String());
const ProductOption = Type.Object({
  optionType: Text,
  name: Text,
  choices: Type.Optional(
    Type.Array(
      Type.Object({
        value: Text,
        description: Text,
        media: Type.Optional(Media),
        inStock: Type.Optional(NullableBoolean),
        visible: Type.Optional(NullableBoolean),
      }),
    ),
  ),
});
const VariantData = Type.Object({
  priceData: Type.Optional(PriceData),
  convertedPriceData: Type.Optional(PriceData),
  costAndProfitData: Type.Optional(CostAndProfitData),
  weight: Count,
  sku: Text,
  visible: Type.Optional(NullableBoolean),
});
const VariantStock = Type.Object({
  trackQuantity: Type.Optional(NullableBoolean),
  quantity: Count,
  inStock: Type.Optional(NullableBoolean),
});

/** A variant inside its product. */
const ProductVariant = Type.Object({
  id: Text,
  choices: Type.Optional(Choices),
  variant: Type.Optional(VariantData),
  stock: Type.Optional(VariantStock),
});

/** A product (SDK `Product`); the merchant's view adds its cost and profit. */
export const Product = Type.Object({
  id: Text,
  name: Text,
  slug: Text,
  visible: Type.Optional(NullableBoolean),
  productType: Text,
  description: Text,
  sku: Text,
  weight: Count,
  weightRange: Type.Optional(NumericRange),
  stock: Type.Optional(
    Type.Object({
      trackInventory: Type.Optional(NullableBoolean),
      quantity: Count,
      inStock: Type.Optional(NullableBoolean),
      inventoryStatus: Text,
    }),
  ),
  price: Type.Optional(PriceData),
  priceData: Type.Optional(PriceData),
  convertedPriceData: Type.Optional(PriceData),
  priceRange: Type.Optional(NumericRange),
  costAndProfitData: Type.Optional(CostAndProfitData),
  costRange: Type.Optional(NumericRange),
  pricePerUnitData: Type.Optional(
    Type.Object({
      totalQuantity: Count,
      totalMeasurementUnit: Text,
      baseQuantity: Count,
      baseMeasurementUnit: Text,
    }),
  ),
  additionalInfoSections: Type.Optional(Type.Array(Type.Object({ title: Text, description: Text }))),
  ribbons: Type.Optional(Type.Array(Type.Object({ text: Text }))),
  media: Type.Optional(Media),
  customTextFields: Type.Optional(
    Type.Array(Type.Object({ title: Text, maxLength: Count, mandatory: Type.Optional(NullableBoolean) })),
  ),
  manageVariants: Type.Optional(NullableBoolean),
  productOptions: Type.Optional(Type.Array(ProductOption)),
  productPageUrl: Type.Optional(Type.Object({ base: Text, path: Text })),
  numericId: Text,
  inventoryItemId: Text,
  discount: Type.Optional(Type.Object({ type: Text, value: Count })),
  collectionIds: Type.Optional(Type.Array(Type.String())),
  variants: Type.Optional(Type.Array(ProductVariant)),
  lastUpdated: Type.Optional(Timestamp),
  createdDate: Type.Optional(Timestamp),
  // search engine tags: the hosted wire's free-form tag documents, kept as given
  seoData: Type.Optional(Type.Object({ tags: Type.Optional(Type.Array(AnyValue)) })),
  ribbon: Text,
  brand: Text,
});

export const ProductAnswer = Type.Object({ product: Product });

/** The catalog's offset paging (query.ts `pagingMetadata`), with cursors when the query used one. */
const PagingMetadata = Type.Object({
  count: Type.Number(),
  offset: Type.Number(),
  total: Type.Number(),
  tooManyToCount: Type.Boolean(),
  cursors: Type.Optional(Type.Object({ next: NullableText, prev: NullableText })),
  hasNext: Type.Optional(Type.Boolean()),
});

export const ProductPageAnswer = Type.Object({ products: Type.Array(Product), metadata: PagingMetadata });

/** A variant on its own (SDK `Variant`, `/stores-reader/v1/variants`). */
const StoreVariant = Type.Object({
  id: Text,
  productId: Text,
  name: Text,
  choices: Type.Optional(Choices),
  variant: Type.Optional(VariantData),
  stock: Type.Optional(VariantStock),
  media: Type.Optional(Media),
  variantId: Text,
  variantName: Text,
  productName: Text,
  managedVariant: Type.Optional(NullableBoolean),
  sku: Text,
  collectionIds: Type.Optional(Type.Array(Type.String())),
});
export const StoreVariantAnswer = Type.Object({ variant: StoreVariant });
export const StoreVariantPageAnswer = Type.Object({
  variants: Type.Array(StoreVariant),
  metadata: PagingMetadata,
});

export const ProductVariantsAnswer = Type.Object({
  variants: Type.Array(ProductVariant),
  metadata: PagingMetadata,
  totalResults: Type.Number(),
});
export const UpdatedVariantsAnswer = Type.Object({ variants: Type.Array(ProductVariant) });

/** `productOptionsAvailability` (SDK `ProductOptionsAvailability`). */
export const OptionsAvailabilityAnswer = Type.Object({
  selectedVariant: Type.Optional(
    Type.Union([
      Type.Object({
        id: Text,
        price: Type.Optional(PriceData),
        convertedPrice: Type.Optional(PriceData),
        convertedPriceData: Type.Optional(PriceData),
        quantity: Count,
        inStock: Type.Optional(NullableBoolean),
        visible: Type.Optional(NullableBoolean),
        sku: Text,
        weight: Count,
        media: Type.Optional(Media),
      }),
      Type.Null(),
    ]),
  ),
  availableForPurchase: Type.Boolean(),
  productOptions: Type.Array(ProductOption),
  mainMedia: Type.Optional(MediaItem),
  media: Type.Optional(Media),
});

/** A collection as v1 (`numberOfProducts`) and v2 (`assignedProductsCount`, `image`) both read it. */
const Collection = Type.Object({
  id: Text,
  name: Text,
  slug: Text,
  description: Text,
  visible: Type.Optional(NullableBoolean),
  media: Type.Optional(Media),
  image: Type.Optional(MediaImage),
  numberOfProducts: Count,
  assignedProductsCount: Count,
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
});
export const CollectionAnswer = Type.Object({ collection: Collection });
export const CollectionPageAnswer = Type.Object({
  collections: Type.Array(Collection),
  metadata: PagingMetadata,
});

/** The bulk price, cost and weight changes (SDK `BulkUpdateProductsResult`). */
export const BulkUpdateAnswer = Type.Object({
  results: Type.Array(
    Type.Object({
      itemMetadata: Type.Object({
        id: Type.Optional(Type.String()),
        originalIndex: Type.Number(),
        success: Type.Boolean(),
        error: Type.Optional(Type.Object({ code: Type.String(), description: Type.String() })),
      }),
    }),
  ),
  bulkActionMetadata: Type.Object({
    totalSuccesses: Type.Number(),
    totalFailures: Type.Number(),
    undetailedFailures: Type.Number(),
  }),
});

/** An uploaded image (SDK `UploadedMedia`). */
export const UploadedMediaAnswer = Type.Object({
  media: Type.Object({
    mediaId: Type.String(),
    url: Type.String(),
    contentType: Type.String(),
    size: Type.Number(),
  }),
});

/** The bytes of an image: sent as they are (`image/*`), never serialised. */
export const ImageBytes = Type.Unsafe<Buffer | string>({
  type: 'string',
  description: 'the image itself, in its own content type',
});

/** An image the platform cannot draw: the wire's not-found form, written by the route itself. */
export const NoSuchImage = Type.Object({
  message: Type.String(),
  details: Type.Object({
    applicationError: Type.Object({ code: Type.String(), description: Type.String() }),
  }),
});
