import Type, { type Static } from 'typebox';
import {
  Id,
  Ids,
  Ignored,
  NotSupportedYet,
  Nullable,
  OneOf,
  PathIdCopy,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import { MAX_OPTION_CHOICES, MAX_PRODUCT_OPTIONS, MAX_PRODUCT_VARIANTS, PRODUCT_TEXT } from './limits.ts';
import { MAX_FILTER_TEXT, MAX_LIMIT } from './query.ts';
import { QueryFilter, SeoData, Sort } from './schemas.ts';

/**
 * The v3 catalog calls' inputs (`/stores/v3/...`), as the hosted `productsV3` and `readOnlyVariantsV3`
 * modules send them. A v3 product is written over the same record a v1 product is (v3-input.ts maps
 * one onto the other), so what v1 keeps is what v3 takes; the hosted fields Cartwheel does not keep
 * yet are refused as such, and the ones the platform computes (ranges, inventory, summaries) are
 * taken and ignored, so a product read and sent back is a valid update.
 */

/** What reads may ask for beyond the product's core (the hosted `RequestedFields`). */
export const REQUESTED_FIELDS = [
  'URL',
  'CURRENCY',
  'INFO_SECTION',
  'MERCHANT_DATA',
  'PLAIN_DESCRIPTION',
  'INFO_SECTION_PLAIN_DESCRIPTION',
  'SUBSCRIPTION_PRICES_INFO',
  'BREADCRUMBS_INFO',
  'WEIGHT_MEASUREMENT_UNIT_INFO',
  'VARIANT_OPTION_CHOICE_NAMES',
  'MEDIA_ITEMS_INFO',
  'DESCRIPTION',
  'DIRECT_CATEGORIES_INFO',
  'ALL_CATEGORIES_INFO',
  'INFO_SECTION_DESCRIPTION',
  'THUMBNAIL',
  'PRODUCT_CHOICES_MEDIA_REFERENCES',
  'PRODUCT_CHOICES_DISPLAY_IMAGE',
  'DISCOUNT_INFO',
  'MIN_PRICE_VARIANT',
] as const;
export type RequestedField = (typeof REQUESTED_FIELDS)[number];

/** `fields`: a list in a body, one value or several in a query string (`fields=URL&fields=CURRENCY`). */
export const Fields = Type.Union([
  Type.Array(OneOf(REQUESTED_FIELDS), { maxItems: REQUESTED_FIELDS.length }),
  OneOf(REQUESTED_FIELDS),
]);
export type FieldsInput = Static<typeof Fields>;

export const V3_READ_BACK = 'worked out by Cartwheel from what it keeps: a v3 entity read and sent back';
/** A field the platform works out itself (the argument says which), taken from an entity read and sent back. */
const computed = (_what: string) => Type.Optional(Ignored(V3_READ_BACK));

/** Decimal-string money (`"12.50"`); its formatted copy is the platform's to write. */
export const Money = Type.Object({
  amount: Type.Optional(Text(32)),
  formattedAmount: computed('the formatted amount'),
});

const MediaInput = Type.Object({
  id: Type.Optional(Nullable(Id())),
  url: Type.Optional(Text(URL_MAX_LENGTH)),
  altText: Type.Optional(Nullable(Text(500))),
  displayName: Type.Optional(Nullable(Text(500))),
  mediaType: Type.Optional(OneOf(['IMAGE', 'VIDEO'])),
  image: computed("the image's copy of the url"),
  thumbnail: computed('the thumbnail'),
  video: NotSupportedYet(),
  uploadId: NotSupportedYet(),
});
export type MediaInputV3 = Static<typeof MediaInput>;

const ChoiceInput = Type.Object({
  choiceId: Type.Optional(Nullable(Id())),
  choiceType: Type.Optional(OneOf(['CHOICE_TEXT', 'ONE_COLOR'])),
  name: Type.Optional(Nullable(Text(PRODUCT_TEXT.choice))),
  colorCode: Type.Optional(Text(20)),
  key: computed("the choice's key"),
  inStock: computed("its variants' stock"),
  visible: computed("its variants' visibility"),
  linkedMedia: NotSupportedYet(),
  displayImage: NotSupportedYet(),
  media: NotSupportedYet(),
  multipleColors: NotSupportedYet(),
});

const OptionInput = Type.Object({
  id: Type.Optional(Nullable(Id())),
  name: Type.Optional(Nullable(Text(PRODUCT_TEXT.optionName))),
  optionRenderType: Type.Optional(OneOf(['TEXT_CHOICES', 'SWATCH_CHOICES'])),
  key: computed("the option's key"),
  choicesSettings: Type.Optional(
    Type.Object({ choices: Type.Optional(Type.Array(ChoiceInput, { maxItems: MAX_OPTION_CHOICES })) }),
  ),
});
export type OptionInputV3 = Static<typeof OptionInput>;

/** A decimal-string added price (the hosted `{ gte: 0, lte: 999999999.99, maxScale: 3 }`). */
const AddedPrice = Type.String({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,3})?$' });

const ModifierChoiceInput = Type.Object({
  choiceId: Type.Optional(Nullable(Id())),
  choiceType: Type.Optional(OneOf(['CHOICE_TEXT', 'ONE_COLOR'])),
  name: Type.Optional(Nullable(Text(PRODUCT_TEXT.choice))),
  colorCode: Type.Optional(Text(20)),
  addedPrice: Type.Optional(Nullable(AddedPrice)),
  key: computed("the choice's key"),
  linkedMedia: NotSupportedYet(),
  displayImage: NotSupportedYet(),
  media: NotSupportedYet(),
});

/** A product's modifier (the hosted `ConnectedModifier`): choices with added prices, or a free text. */
const ModifierInput = Type.Object({
  id: Type.Optional(Nullable(Id())),
  name: Type.Optional(Nullable(Text(PRODUCT_TEXT.optionName))),
  modifierRenderType: Type.Optional(OneOf(['FREE_TEXT', 'TEXT_CHOICES', 'SWATCH_CHOICES'])),
  mandatory: Type.Optional(Nullable(Type.Boolean())),
  toBeRemovedMandatory: Type.Optional(Type.Boolean()),
  key: computed("the modifier's key"),
  freeTextSettings: Type.Optional(
    Type.Object({
      minCharCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 500 })),
      maxCharCount: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
      defaultAddedPrice: Type.Optional(Nullable(AddedPrice)),
      title: Type.Optional(Text(150)),
      key: computed("the free text's key"),
    }),
  ),
  choicesSettings: Type.Optional(
    Type.Object({
      choices: Type.Optional(Type.Array(ModifierChoiceInput, { maxItems: MAX_OPTION_CHOICES })),
    }),
  ),
});
export type ModifierInputV3 = Static<typeof ModifierInput>;

const VariantChoiceInput = Type.Object({
  optionChoiceIds: Type.Optional(
    Type.Object({ optionId: Type.Optional(Id()), choiceId: Type.Optional(Id()) }),
  ),
  optionChoiceNames: Type.Optional(
    Type.Object({
      optionName: Type.Optional(Text(PRODUCT_TEXT.optionName)),
      choiceName: Type.Optional(Text(PRODUCT_TEXT.choice)),
      renderType: Type.Optional(OneOf(['TEXT_CHOICES', 'SWATCH_CHOICES'])),
    }),
  ),
});

export const VariantInput = Type.Object({
  id: Type.Optional(Nullable(Id())),
  visible: Type.Optional(Nullable(Type.Boolean())),
  sku: Type.Optional(Nullable(Text(PRODUCT_TEXT.sku))),
  choices: Type.Optional(Type.Array(VariantChoiceInput, { maxItems: MAX_PRODUCT_OPTIONS })),
  price: Type.Optional(
    Type.Object({
      actualPrice: Type.Optional(Money),
      compareAtPrice: Type.Optional(Nullable(Money)),
      priceAfterDiscount: computed('the price after discounts'),
    }),
  ),
  revenueDetails: Type.Optional(
    Type.Object({
      cost: Type.Optional(Nullable(Money)),
      profit: computed('the profit'),
      profitMargin: computed('the profit margin'),
    }),
  ),
  physicalProperties: Type.Optional(
    Type.Object({
      weight: Type.Optional(Nullable(Type.Number())),
      pricePerUnit: NotSupportedYet(),
      packageDimensions: NotSupportedYet(),
      productDimensions: NotSupportedYet(),
    }),
  ),
  inventoryStatus: computed("the variant's inventory item"),
  subscriptionPricesInfo: computed('subscription prices'),
  barcode: NotSupportedYet(),
  media: NotSupportedYet(),
  digitalProperties: NotSupportedYet(),
});
export type VariantInputV3 = Static<typeof VariantInput>;

/**
 * A way the product is sold by subscription (the hosted `Subscription`): a frequency and an interval
 * of at least 1, billing cycles (2 to 999) or `autoRenewal`, and an optional discount. A frequency the
 * enum does not name (`UNDEFINED`, 0) or an interval of 0 is a field violation.
 */
const SubscriptionInput = Type.Object({
  id: Type.Optional(Nullable(Id())),
  title: Type.String({ minLength: 1, maxLength: 20 }),
  description: Type.Optional(Nullable(Text(60))),
  visible: Type.Optional(Nullable(Type.Boolean())),
  frequency: OneOf(['DAY', 'WEEK', 'MONTH', 'YEAR']),
  interval: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 50 }))),
  autoRenewal: Type.Optional(Type.Boolean()),
  billingCycles: Type.Optional(Type.Integer({ minimum: 2, maximum: 999 })),
  discount: Type.Optional(
    Nullable(
      Type.Object({
        type: OneOf(['AMOUNT', 'PERCENT']),
        amountOff: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,3})?$' })),
        percentOff: Type.Optional(Type.Number({ minimum: 0.1, maximum: 99.9 })),
      }),
    ),
  ),
});
export type SubscriptionInputV3 = Static<typeof SubscriptionInput>;

const SubscriptionDetailsInput = Type.Object({
  subscriptions: Type.Optional(Type.Array(SubscriptionInput, { maxItems: 6 })),
  allowOneTimePurchases: Type.Optional(Nullable(Type.Boolean())),
});

/** A reference to a brand or a ribbon (v3-entities.ts): by id, or by name (the entity of that name, made when none is). */
const NamedReference = (maxLength: number) =>
  Nullable(
    Type.Object({ id: Type.Optional(Nullable(Id())), name: Type.Optional(Nullable(Text(maxLength))) }),
  );

/** Ribbons beyond the main one (the hosted limit): each by id or by name, as `ribbon`. */
export const MAX_ADDITIONAL_RIBBONS = 4;

/** Tag ids a product's public or private list holds (the hosted limit). */
export const MAX_PRODUCT_TAGS = 100;
const TagList = Type.Object({ tagIds: Type.Optional(Ids(MAX_PRODUCT_TAGS)) });
/** A product's tags: public ones anyone may read, private ones product managers only. */
export const TagsInput = Type.Object({
  publicTags: Type.Optional(Nullable(TagList)),
  privateTags: Type.Optional(Nullable(TagList)),
});
export type TagsInputV3 = Static<typeof TagsInput>;

/** A v3 product as a create writes it, and as an update writes any part of it. */
export const ProductInputV3 = Type.Object({
  id: PathIdCopy(),
  revision: Type.Optional(Nullable(Text(20))),
  name: Type.Optional(Nullable(Text(PRODUCT_TEXT.name))),
  slug: Type.Optional(Nullable(Text(PRODUCT_TEXT.slug))),
  plainDescription: Type.Optional(Nullable(Text(PRODUCT_TEXT.description))),
  visible: Type.Optional(Nullable(Type.Boolean())),
  visibleInPos: Type.Optional(Nullable(Type.Boolean())),
  productType: Type.Optional(OneOf(['PHYSICAL', 'DIGITAL'])),
  physicalProperties: Type.Optional(
    Type.Object({
      shippingWeightRange: computed("the variants' weights"),
      pricePerUnitRange: computed("the variants' prices per unit"),
      weightMeasurementUnitInfo: computed("the store's weight unit"),
      pricePerUnit: NotSupportedYet(),
      fulfillerId: NotSupportedYet(),
      deliveryProfileId: NotSupportedYet(),
    }),
  ),
  media: Type.Optional(
    Type.Object({
      main: Type.Optional(MediaInput),
      itemsInfo: Type.Optional(
        Type.Object({ items: Type.Optional(Type.Array(MediaInput, { maxItems: 100 })) }),
      ),
    }),
  ),
  seoData: Type.Optional(Nullable(SeoData)),
  options: Type.Optional(Type.Array(OptionInput, { maxItems: MAX_PRODUCT_OPTIONS })),
  brand: Type.Optional(NamedReference(PRODUCT_TEXT.brand)),
  ribbon: Type.Optional(NamedReference(PRODUCT_TEXT.ribbon)),
  variantsInfo: Type.Optional(
    Type.Object({ variants: Type.Optional(Type.Array(VariantInput, { maxItems: MAX_PRODUCT_VARIANTS })) }),
  ),
  createdDate: computed('the creation date'),
  updatedDate: computed('the date of the last change'),
  url: computed("the product page's address"),
  currency: computed("the store's currency"),
  actualPriceRange: computed("the variants' prices"),
  compareAtPriceRange: computed("the variants' prices before discount"),
  costRange: computed("the variants' costs"),
  inventory: computed("the variants' inventory items"),
  variantSummary: computed('the variant count'),
  breadcrumbsInfo: computed('the breadcrumbs'),
  allCategoriesInfo: computed("the categories' tree"),
  handle: computed("the product's handle"),
  // the hosted product's writable fields Cartwheel does not keep yet
  description: NotSupportedYet(),
  modifiers: Type.Optional(Nullable(Type.Array(ModifierInput, { maxItems: MAX_PRODUCT_OPTIONS }))),
  infoSections: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({
          id: Type.Optional(Nullable(Id())),
          uniqueName: Type.Optional(Nullable(Text(100))),
          title: computed("the info section's title"),
          plainDescription: computed("the info section's description"),
          description: computed("the info section's description"),
        }),
        { maxItems: 10 },
      ),
    ),
  ),
  directCategoriesInfo: computed('the collections that list the product: the category calls set them'),
  mainCategoryId: NotSupportedYet(),
  taxGroupId: NotSupportedYet(),
  subscriptionDetails: Type.Optional(Nullable(SubscriptionDetailsInput)),
  extendedFields: NotSupportedYet(),
  tags: Type.Optional(Nullable(TagsInput)),
  purchaseEligibility: NotSupportedYet(),
  additionalRibbons: Type.Optional(
    Nullable(
      Type.Array(
        Type.Object({
          id: Type.Optional(Nullable(Id())),
          name: Type.Optional(Nullable(Text(PRODUCT_TEXT.ribbon))),
        }),
        { maxItems: MAX_ADDITIONAL_RIBBONS },
      ),
    ),
  ),
});
export type ProductInputV3 = Static<typeof ProductInputV3>;

export const CreateProductV3Body = Type.Object({ product: ProductInputV3, fields: Type.Optional(Fields) });
export const UpdateProductV3Body = Type.Object({ product: ProductInputV3, fields: Type.Optional(Fields) });
export const ProductV3Path = Type.Object({ productId: Id() });
export const ProductV3SlugPath = Type.Object({
  slug: Type.String({ minLength: 1, maxLength: PRODUCT_TEXT.slug }),
});
export const ProductV3FieldsQuery = Type.Object({ fields: Type.Optional(Fields) });

/** Products one bulk call writes (the hosted limit). */
export const MAX_BULK_V3 = 100;

export const BulkCreateProductsV3Body = Type.Object({
  products: Type.Array(ProductInputV3, { minItems: 1, maxItems: MAX_BULK_V3 }),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export const BulkUpdateProductsV3Body = Type.Object({
  products: Type.Array(Type.Object({ product: ProductInputV3 }), { minItems: 1, maxItems: MAX_BULK_V3 }),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export const BulkDeleteProductsV3Body = Type.Object({ productIds: Ids(MAX_BULK_V3) });

// ---- queries: the v3 filter, sort and cursor paging ----

/** A cursor the platform gave out carries the query it continues (v3-query.ts), so it may be long. */
const CursorPaging = Type.Object({
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT }))),
  cursor: Type.Optional(Nullable(Text(8192))),
});
export const CursorQuery = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  sort: Type.Optional(Nullable(Sort)),
  cursorPaging: Type.Optional(Nullable(CursorPaging)),
});
export const QueryProductsV3Request = Type.Object({
  query: Type.Optional(Nullable(CursorQuery)),
  fields: Type.Optional(Fields),
});
export type QueryProductsV3Request = Static<typeof QueryProductsV3Request>;

const TEXT_SEARCH = 'the text search finds the expression whole, case aside, in names, descriptions and SKUs';
export const SearchDetails = Type.Object({
  expression: Type.Optional(Nullable(Text(MAX_FILTER_TEXT))),
  mode: Type.Optional(Ignored(TEXT_SEARCH)),
  fields: Type.Optional(Ignored(TEXT_SEARCH)),
  fuzzy: Type.Optional(Ignored(TEXT_SEARCH)),
});
export const SearchProductsV3Request = Type.Object({
  search: Type.Optional(
    Nullable(
      Type.Object({
        filter: Type.Optional(Nullable(QueryFilter)),
        sort: Type.Optional(Nullable(Sort)),
        cursorPaging: Type.Optional(Nullable(CursorPaging)),
        search: Type.Optional(Nullable(SearchDetails)),
        aggregations: NotSupportedYet(),
      }),
    ),
  ),
  fields: Type.Optional(Fields),
});
export type SearchProductsV3Request = Static<typeof SearchProductsV3Request>;

export const QueryVariantsV3Request = Type.Object({
  query: Type.Optional(Nullable(CursorQuery)),
  fields: Type.Optional(Fields),
});
export type QueryVariantsV3Request = Static<typeof QueryVariantsV3Request>;

/** `searchVariants`: the variants query with a text search of SKUs and product names. */
export const SearchVariantsV3Request = Type.Object({
  search: Type.Optional(
    Nullable(
      Type.Object({
        filter: Type.Optional(Nullable(QueryFilter)),
        sort: Type.Optional(Nullable(Sort)),
        cursorPaging: Type.Optional(Nullable(CursorPaging)),
        search: Type.Optional(Nullable(SearchDetails)),
        aggregations: NotSupportedYet(),
        timeZone: NotSupportedYet(),
      }),
    ),
  ),
  fields: Type.Optional(Fields),
});
export type SearchVariantsV3Request = Static<typeof SearchVariantsV3Request>;

// ---- inventory items (v3-inventory.ts) ----

export const InventoryItemPath = Type.Object({ inventoryItemId: Id() });

/** Why stock moves, as the hosted client names it: taken and not kept (the inventory event says what moved). */
const Reason = Type.Optional(Ignored('why stock moved: the inventory event records what moved, not why'));

/** A v3 inventory item as an update writes it: its counting, its stock, its preorder. */
export const InventoryItemInput = Type.Object({
  id: PathIdCopy(),
  revision: Type.Optional(Nullable(Text(20))),
  trackQuantity: Type.Optional(Type.Boolean()),
  quantity: Type.Optional(Type.Integer({ minimum: -99_999, maximum: 99_999 })),
  inStock: Type.Optional(Type.Boolean()),
  preorderInfo: Type.Optional(
    Type.Object({
      enabled: Type.Optional(Nullable(Type.Boolean())),
      message: Type.Optional(Nullable(Text(250))),
      limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
      counter: computed('the units preordered so far'),
      quantity: computed('the units left to preorder'),
    }),
  ),
  variantId: computed("the item's variant: an item stays with it"),
  productId: computed("the item's product: an item stays with it"),
  locationId: computed("the item's location: Cartwheel keeps one"),
  availabilityStatus: computed('the availability'),
  product: computed("the product's name and the variant's"),
  createdDate: computed('the creation date'),
  updatedDate: computed('the date of the last change'),
  extendedFields: NotSupportedYet(),
});
export type InventoryItemInput = Static<typeof InventoryItemInput>;

export const UpdateInventoryItemBody = Type.Object({ inventoryItem: InventoryItemInput, reason: Reason });

/** Items one stock call moves (the hosted limit). */
export const MAX_STOCK_MOVES = 1000;
const Units = Type.Integer({ minimum: 1, maximum: 99_999 });

export const DecrementInventoryBody = Type.Object({
  decrementData: Type.Array(
    Type.Object({
      inventoryItemId: Type.Optional(Id()),
      decrementBy: Type.Optional(Units),
      preorderRequest: Type.Optional(Type.Boolean()),
    }),
    { minItems: 1, maxItems: MAX_STOCK_MOVES },
  ),
  restrictInventory: Type.Optional(Nullable(Type.Boolean())),
  returnEntity: Type.Optional(Type.Boolean()),
  reason: Reason,
});
export type DecrementInventoryBody = Static<typeof DecrementInventoryBody>;

export const IncrementInventoryBody = Type.Object({
  incrementData: Type.Array(
    Type.Object({ inventoryItemId: Type.Optional(Id()), incrementBy: Type.Optional(Units) }),
    { minItems: 1, maxItems: MAX_STOCK_MOVES },
  ),
  returnEntity: Type.Optional(Type.Boolean()),
  reason: Reason,
});
export type IncrementInventoryBody = Static<typeof IncrementInventoryBody>;

export const QueryInventoryItemsRequest = Type.Object({ query: Type.Optional(Nullable(CursorQuery)) });
export type QueryInventoryItemsRequest = Static<typeof QueryInventoryItemsRequest>;
