import type { Filter } from '@cartwheel/sdk';
import Type, { type Static, type TSchema } from 'typebox';
import {
  Id,
  Ids,
  NotSupportedYet,
  Nullable,
  OneOf,
  PathIdCopy,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import {
  COLLECTION_TEXT,
  MAX_BULK_PRODUCTS,
  MAX_MEMBERSHIP_CHANGE,
  MAX_OPTION_CHOICES,
  MAX_PRODUCT_OPTIONS,
  MAX_PRODUCT_VARIANTS,
  PRODUCT_TEXT,
} from './limits.ts';
import {
  MAX_FILTER_CONDITIONS,
  MAX_FILTER_DEPTH,
  MAX_FILTER_LIST,
  MAX_FILTER_TEXT,
  MAX_LIMIT,
  MAX_OFFSET,
  MAX_SORT_ITEMS,
} from './query.ts';
import { MAX_UPLOAD_BYTES } from './uploads.ts';

/**
 * The catalog calls' inputs, as the hosted client sends them (wire contract, Stores Catalog v1 and
 * Collections v2). Each is the check Fastify runs before the route's handler and the handler's input
 * type, and the service's methods take the same types (one product contract): they never check again
 * what is declared here. The rules a schema cannot say (a price of zero or more in cents, a choice the
 * product has, a slug no other product holds) stay in the service (validation.ts).
 */

/** Media items one call adds, removes or links to choices. */
const MAX_MEDIA_PER_CALL = 100;

/** `"true"` in a query string, `true` in a body: the service reads both. */
const Flag = Type.Union([Type.Boolean(), OneOf(['true', 'false'])]);

/** An object of any keys whose values all fit `value`. */
const Dictionary = <T extends TSchema>(value: T, maxProperties: number) =>
  Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: value, maxProperties });
/** `true`, or `"true"` from a query string. */
export type FlagInput = Static<typeof Flag>;

// ---- queries: filter, sort, paging (query.ts compiles them; its budget is declared here) ----

/**
 * The filter (`{price: {$gt: 10}, $or: [...]}`) as definitions that reference each other, each
 * compiled once, not again at every level that names it (Ajv copies only a definition that holds no
 * reference, like the value, into the places that name it).
 *
 * A value is "a string, number, true/false or null" as one schema (`maxLength` holds for strings
 * only), and a condition (a value compared for equality, or an object of operators) likewise: no
 * unions, whose code is larger and whose refusals name a branch instead of the field.
 */
const FilterValueRef = Type.Ref('CatalogFilterValue');
const FilterListOf = Type.Array(FilterValueRef, { maxItems: MAX_FILTER_LIST });
const FILTER_PARTS = {
  CatalogFilterValue: Type.Unsafe({
    type: ['string', 'number', 'boolean', 'null'],
    maxLength: MAX_FILTER_TEXT,
  }),
  CatalogFilterCondition: Type.Unsafe({
    type: ['string', 'number', 'boolean', 'null', 'object'],
    maxLength: MAX_FILTER_TEXT,
    maxProperties: MAX_FILTER_CONDITIONS,
    properties: {
      $eq: FilterValueRef,
      $ne: FilterValueRef,
      $gt: FilterValueRef,
      $gte: FilterValueRef,
      $lt: FilterValueRef,
      $lte: FilterValueRef,
      $in: FilterListOf,
      $nin: FilterListOf,
      $hasSome: FilterListOf,
      $hasAll: FilterListOf,
      $startsWith: Text(MAX_FILTER_TEXT),
      $contains: Text(MAX_FILTER_TEXT),
      $exists: Type.Boolean(),
    },
  }),
};

/**
 * A filter nests `$and`, `$or` and `$not` at most `MAX_FILTER_DEPTH` deep, so its schema is unrolled
 * that many levels: a validator never recurses past the budget, however deep the request goes.
 * Level 0 takes no further nesting.
 */
function filterLevels(): Record<string, TSchema> {
  const levels: Record<string, TSchema> = {};
  for (let depth = 0; depth <= MAX_FILTER_DEPTH; depth++) {
    const inner = depth === 0 ? undefined : Type.Ref(`CatalogFilter${depth - 1}`);
    const list = Type.Array(inner ?? Type.Null(), { maxItems: inner ? MAX_FILTER_CONDITIONS : 0 });
    levels[`CatalogFilter${depth}`] = Type.Object(
      {
        $and: Type.Optional(list),
        $or: Type.Optional(list),
        $not: Type.Optional(inner ?? Type.Object({}, { maxProperties: 0 })),
      },
      { additionalProperties: Type.Ref('CatalogFilterCondition'), maxProperties: MAX_FILTER_CONDITIONS },
    );
  }
  return levels;
}
/** The wire's filter; how many conditions the whole of it makes is counted in query.ts. */
export const QueryFilter = Type.Unsafe<Filter>(
  Type.Cyclic({ ...FILTER_PARTS, ...filterLevels() }, `CatalogFilter${MAX_FILTER_DEPTH}`),
);

export const Sort = Type.Array(
  Type.Object({ fieldName: Text(100), order: Type.Optional(OneOf(['ASC', 'DESC'])) }),
  {
    maxItems: MAX_SORT_ITEMS,
  },
);
const Limit = Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT }));
const Paging = Type.Object({
  limit: Type.Optional(Limit),
  offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_OFFSET }))),
});
const CursorPaging = Type.Object({ limit: Type.Optional(Limit), cursor: Type.Optional(Nullable(Text(512))) });
/**
 * Cartwheel's text search of the products query (`query.search.expression`, the hosted catalog's
 * search form): names, descriptions, SKUs and collection names, names first. Other readers ignore it.
 */
const Search = Type.Object({ expression: Type.Optional(Nullable(Text(MAX_FILTER_TEXT))) });
const Query = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  search: Type.Optional(Nullable(Search)),
  sort: Type.Optional(Nullable(Sort)),
  paging: Type.Optional(Nullable(Paging)),
  cursorPaging: Type.Optional(Nullable(CursorPaging)),
});

/**
 * A catalog query as the readers take it, by GET (query) or POST (body): products
 * (`/v1/products/query`, `query-platformized`), store variants (`/v1/variants/query`) and collections
 * (v1 and v2 `collections/query`); the flags are the products' (variants read
 * `includeMerchantSpecificData` only, collections none). One declaration for the three: its filter is
 * the largest schema the platform compiles, and one object is compiled once (per GET and POST), not
 * once a route.
 */
export const CatalogQueryRequest = Type.Object({
  query: Type.Optional(Nullable(Query)),
  includeVariants: Type.Optional(Flag),
  includeHiddenProducts: Type.Optional(Flag),
  includeMerchantSpecificData: Type.Optional(Flag),
});
export type CatalogQueryRequest = Static<typeof CatalogQueryRequest>;

// ---- reads of one thing ----

export const ProductPath = Type.Object({ id: Id() });
export const CollectionPath = Type.Object({ id: Id() });
export const StoreVariantPath = Type.Object({ id: Id() });
export const SlugPath = Type.Object({ slug: Type.String({ minLength: 1, maxLength: COLLECTION_TEXT.slug }) });
/** `POST /api/cartwheel/media`: an image's bytes as base64, its type named (uploads.ts checks both). */
export const UploadMediaBody = Type.Object({
  contentType: Text(100),
  data: Type.String({ maxLength: Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 4 }),
});

export const MediaFilePath = Type.Object({ file: Type.String({ minLength: 1, maxLength: 200 }) });

export const GetProductQuery = Type.Object({ includeMerchantSpecificData: Type.Optional(Flag) });

/** A shopper's selection: option name → choice (its description, or a color's value). */
const Selection = Dictionary(Text(PRODUCT_TEXT.choice), MAX_PRODUCT_OPTIONS);
export type Selection = Static<typeof Selection>;

export const ProductOptionsAvailabilityBody = Type.Object({ options: Type.Optional(Nullable(Selection)) });

export const ProductVariantsQueryBody = Type.Object({
  choices: Type.Optional(Nullable(Selection)),
  variantIds: Type.Optional(Nullable(Ids(MAX_PRODUCT_VARIANTS))),
  paging: Type.Optional(Nullable(Paging)),
  includeMerchantSpecificData: Type.Optional(Flag),
});
export type ProductVariantsQuery = Static<typeof ProductVariantsQueryBody>;

// ---- product writes ----

const Amount = Type.Number();
const ProductOption = Type.Object({
  name: Type.Optional(Text(PRODUCT_TEXT.optionName)),
  optionType: Type.Optional(OneOf(['drop_down', 'color'])),
  choices: Type.Optional(
    Type.Array(
      Type.Object({
        value: Type.Optional(Text(PRODUCT_TEXT.choice)),
        description: Type.Optional(Text(PRODUCT_TEXT.choice)),
      }),
      { maxItems: MAX_OPTION_CHOICES },
    ),
  ),
});
const Stock = Type.Object({
  trackInventory: Type.Optional(Type.Boolean()),
  trackQuantity: Type.Optional(Type.Boolean()),
  quantity: Type.Optional(Nullable(Type.Integer())),
  inStock: Type.Optional(Type.Boolean()),
});
/** `PATCH .../variants`: variants picked by choices or ids, and what to set on them. */
const VariantOverride = Type.Object({
  choices: Type.Optional(Selection),
  variantIds: Type.Optional(Ids(MAX_PRODUCT_VARIANTS)),
  price: Type.Optional(Nullable(Amount)),
  cost: Type.Optional(Nullable(Amount)),
  weight: Type.Optional(Nullable(Amount)),
  sku: Type.Optional(Nullable(Text(PRODUCT_TEXT.sku))),
  visible: Type.Optional(Nullable(Type.Boolean())),
  stock: Type.Optional(
    Nullable(
      Type.Object({
        quantity: Type.Optional(Nullable(Type.Integer())),
        inStock: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
  quantity: Type.Optional(Nullable(Type.Integer())),
  inStock: Type.Optional(Type.Boolean()),
});
export type VariantOverride = Static<typeof VariantOverride>;
const VariantOverrides = Type.Array(VariantOverride, { maxItems: MAX_PRODUCT_VARIANTS });
const PriceInput = Type.Object({ price: Type.Optional(Amount) });

/**
 * The product's SEO tags and settings, kept as given (the hosted wire's `SeoSchema`): a tag's `props`
 * and `meta` are its HTML attributes, names to text.
 */
export const SeoData = Type.Object({
  tags: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Optional(Text(100)),
        props: Type.Optional(Dictionary(Text(2000), 20)),
        meta: Type.Optional(Dictionary(Text(2000), 20)),
        children: Type.Optional(Text(5000)),
        custom: Type.Optional(Type.Boolean()),
        disabled: Type.Optional(Type.Boolean()),
      }),
      { maxItems: 50 },
    ),
  ),
  settings: Type.Optional(
    Type.Object({
      preventAutoRedirect: Type.Optional(Type.Boolean()),
      keywords: Type.Optional(
        Type.Array(
          Type.Object({
            term: Type.Optional(Text(200)),
            isMain: Type.Optional(Type.Boolean()),
            origin: Type.Optional(Nullable(Text(100))),
          }),
          { maxItems: 50 },
        ),
      ),
    }),
  ),
});

/** A product as a create or update writes it (an update may hold any part of it). */
const ProductInput = Type.Object({
  id: PathIdCopy(),
  name: Type.Optional(Text(PRODUCT_TEXT.name)),
  slug: Type.Optional(Text(PRODUCT_TEXT.slug)),
  description: Type.Optional(Text(PRODUCT_TEXT.description)),
  visible: Type.Optional(Type.Boolean()),
  productType: Type.Optional(OneOf(['physical', 'digital'])),
  sku: Type.Optional(Text(PRODUCT_TEXT.sku)),
  weight: Type.Optional(Nullable(Amount)),
  ribbon: Type.Optional(Text(PRODUCT_TEXT.ribbon)),
  brand: Type.Optional(Text(PRODUCT_TEXT.brand)),
  priceData: Type.Optional(PriceInput),
  price: Type.Optional(PriceInput),
  costAndProfitData: Type.Optional(Type.Object({ itemCost: Type.Optional(Nullable(Amount)) })),
  discount: Type.Optional(
    Nullable(
      Type.Object({
        type: Type.Optional(OneOf(['NONE', 'AMOUNT', 'PERCENT'])),
        value: Type.Optional(Amount),
      }),
    ),
  ),
  pricePerUnitData: Type.Optional(
    Nullable(
      Type.Object({
        totalQuantity: Type.Optional(Amount),
        totalMeasurementUnit: Type.Optional(Text(20)),
        baseQuantity: Type.Optional(Amount),
        baseMeasurementUnit: Type.Optional(Text(20)),
      }),
    ),
  ),
  additionalInfoSections: Type.Optional(
    Type.Array(
      Type.Object({
        title: Type.Optional(Text(100)),
        description: Type.Optional(Text(PRODUCT_TEXT.description)),
      }),
      { maxItems: 20 },
    ),
  ),
  customTextFields: Type.Optional(
    Type.Array(
      Type.Object({
        title: Type.Optional(Text(100)),
        maxLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
        mandatory: Type.Optional(Type.Boolean()),
      }),
      { maxItems: 10 },
    ),
  ),
  seoData: Type.Optional(Nullable(SeoData)),
  productOptions: Type.Optional(Type.Array(ProductOption, { maxItems: MAX_PRODUCT_OPTIONS })),
  manageVariants: Type.Optional(Type.Boolean()),
  stock: Type.Optional(Nullable(Stock)),
  variants: Type.Optional(VariantOverrides),
  // the hosted product's writable fields Cartwheel does not keep yet
  productDimensions: NotSupportedYet(),
  packageDimensions: NotSupportedYet(),
});
export type ProductInput = Static<typeof ProductInput>;
export type StockInput = NonNullable<ProductInput['stock']>;

export const CreateProductBody = Type.Object({ product: ProductInput });
export const UpdateProductBody = Type.Object({ product: Type.Optional(ProductInput) });
export const UpdateVariantsBody = Type.Object({ variants: VariantOverrides });

const ChoiceName = Type.Object({
  option: Type.Optional(Text(PRODUCT_TEXT.optionName)),
  choice: Type.Optional(Text(PRODUCT_TEXT.choice)),
});
export const AddMediaBody = Type.Object({
  media: Type.Array(
    Type.Object({
      url: Type.Optional(Text(URL_MAX_LENGTH)),
      mediaId: Type.Optional(Text(200)),
      title: Type.Optional(Text(200)),
      choice: Type.Optional(Nullable(ChoiceName)),
    }),
    { maxItems: MAX_MEDIA_PER_CALL },
  ),
});
/** Cartwheel's own call (the hosted wire has no reorder): every image of the product, in its new order. */
export const ReorderMediaBody = Type.Object({ mediaIds: Ids(MAX_MEDIA_PER_CALL) });
export type MediaInput = Static<typeof AddMediaBody>['media'][number];
export const RemoveMediaBody = Type.Object({ mediaIds: Type.Optional(Nullable(Ids(MAX_MEDIA_PER_CALL))) });
export const ChoiceMediaBody = Type.Object({
  media: Type.Array(
    Type.Object({
      option: Type.Optional(Text(PRODUCT_TEXT.optionName)),
      choice: Type.Optional(Text(PRODUCT_TEXT.choice)),
      mediaIds: Type.Optional(Ids(MAX_MEDIA_PER_CALL)),
    }),
    { maxItems: MAX_MEDIA_PER_CALL },
  ),
});
export type ChoiceMediaInput = Static<typeof ChoiceMediaBody>['media'][number];

const BulkIds = Ids(MAX_BULK_PRODUCTS);
export const BulkSetBody = Type.Object({
  ids: BulkIds,
  set: Type.Object({
    price: Type.Optional(Amount),
    cost: Type.Optional(Amount),
    weight: Type.Optional(Amount),
  }),
});
export type BulkSetInput = Static<typeof BulkSetBody>['set'];
/** An amount, or a percentage (`{rate, roundToInt}`, or the bare rate). */
const Adjustment = Type.Object({
  amount: Type.Optional(Amount),
  percentage: Type.Optional(
    Type.Union([
      Amount,
      Type.Object({ rate: Type.Optional(Amount), roundToInt: Type.Optional(Type.Boolean()) }),
    ]),
  ),
});
export const BulkAdjustBody = Type.Object({
  ids: BulkIds,
  adjust: Type.Object({
    price: Type.Optional(Adjustment),
    cost: Type.Optional(Adjustment),
    weight: Type.Optional(Adjustment),
  }),
});
export type BulkAdjustInput = Static<typeof BulkAdjustBody>['adjust'];

// ---- collection writes ----

const CollectionInput = Type.Object({
  id: PathIdCopy(),
  name: Type.Optional(Text(COLLECTION_TEXT.name)),
  description: Type.Optional(Nullable(Text(COLLECTION_TEXT.description))),
  visible: Type.Optional(Type.Boolean()),
  slug: Type.Optional(Text(COLLECTION_TEXT.slug)),
  media: Type.Optional(
    Nullable(
      Type.Object({
        mainMedia: Type.Optional(
          Type.Object({
            id: Type.Optional(Text(200)),
            image: Type.Optional(Type.Object({ url: Type.Optional(Text(URL_MAX_LENGTH)) })),
          }),
        ),
        url: Type.Optional(Text(URL_MAX_LENGTH)),
        mediaId: Type.Optional(Text(200)),
      }),
    ),
  ),
});

export type CollectionInput = Static<typeof CollectionInput>;
export type CollectionMediaInput = NonNullable<CollectionInput['media']>;

export const CreateCollectionBody = Type.Object({ collection: CollectionInput });
export const UpdateCollectionBody = Type.Object({ collection: Type.Optional(CollectionInput) });
export const MembershipBody = Type.Object({ productIds: Ids(MAX_MEMBERSHIP_CHANGE) });
