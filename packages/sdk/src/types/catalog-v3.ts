/**
 * The newer v3 stores catalog (`/v3/...`): products with options, modifiers and inventory, and the
 * brands, customizations, info sections, ribbons and inventory items they point at.
 * Names carry `V3` where the v1 catalog already uses the plain one.
 */
import type { SeoData } from './catalog.ts';
import type { Image } from './common.ts';

export const PRODUCT_TYPES_V3 = ['PHYSICAL', 'DIGITAL'] as const;
export type ProductTypeV3 = (typeof PRODUCT_TYPES_V3)[number];

/** Whether a variant (or an inventory item) can be bought now: in stock, out, or on preorder. */
export const AVAILABILITY_STATUSES = ['IN_STOCK', 'OUT_OF_STOCK', 'PREORDER'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

/** A product's availability across its variants. */
export const PRODUCT_AVAILABILITY_STATUSES = ['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK'] as const;
export type ProductAvailabilityStatus = (typeof PRODUCT_AVAILABILITY_STATUSES)[number];

/** Whether preorder is on for all, none or some of a product's variants. */
export const PREORDER_STATUSES = ['ENABLED', 'DISABLED', 'PARTIALLY_ENABLED'] as const;
export type PreorderStatus = (typeof PREORDER_STATUSES)[number];

/** A customization is an option (picks the variant) or a modifier (adds to the line, not the variant). */
export const CUSTOMIZATION_TYPES = ['PRODUCT_OPTION', 'MODIFIER'] as const;
export type CustomizationType = (typeof CUSTOMIZATION_TYPES)[number];

export const CUSTOMIZATION_RENDER_TYPES = ['FREE_TEXT', 'TEXT_CHOICES', 'SWATCH_CHOICES'] as const;
export type CustomizationRenderType = (typeof CUSTOMIZATION_RENDER_TYPES)[number];

export const CHOICE_TYPES = ['CHOICE_TEXT', 'ONE_COLOR'] as const;
export type ChoiceType = (typeof CHOICE_TYPES)[number];

export const MEDIA_TYPES_V3 = ['IMAGE', 'VIDEO'] as const;
export type MediaTypeV3 = (typeof MEDIA_TYPES_V3)[number];

/** How a subscription option lowers the price. */
export const SUBSCRIPTION_DISCOUNT_TYPES = ['AMOUNT', 'PERCENT'] as const;
export type SubscriptionDiscountType = (typeof SUBSCRIPTION_DISCOUNT_TYPES)[number];

export const SUBSCRIPTION_INTERVAL_UNITS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type SubscriptionIntervalUnit = (typeof SUBSCRIPTION_INTERVAL_UNITS)[number];

/** Decimal-string money. */
export interface FixedMonetaryAmount {
  amount?: string;
  formattedAmount?: string | null;
}

export interface PriceRangeV3 {
  minValue?: FixedMonetaryAmount;
  maxValue?: FixedMonetaryAmount;
}

export interface ProductMediaV3 {
  id?: string;
  url?: string;
  image?: Image;
  altText?: string | null;
  displayName?: string | null;
  mediaType?: MediaTypeV3;
}

export interface ChoiceV3 {
  id?: string;
  choiceType?: ChoiceType;
  key?: string | null;
  name?: string;
  colorCode?: string;
  /** An option's choice: its id (`id` names a customization's). */
  choiceId?: string | null;
  /** Added to the price when chosen (modifiers), decimal string. */
  addedPrice?: string | null;
  /** A customization's choice: what a product's modifier adds when chosen, unless it says otherwise. */
  defaultAddedPrice?: string | null;
  inStock?: boolean;
  visible?: boolean;
  linkedMedia?: ProductMediaV3[];
}

/** An option of a product (Size, Color): together its choices select a variant. */
export interface ConnectedOption {
  id?: string | null;
  name?: string | null;
  key?: string;
  optionRenderType?: 'TEXT_CHOICES' | 'SWATCH_CHOICES';
  choicesSettings?: { choices?: ChoiceV3[] };
}

/** A modifier of a product (gift note, engraving): recorded on the line, doesn't pick a variant. */
export interface ConnectedModifier {
  id?: string | null;
  name?: string | null;
  key?: string;
  mandatory?: boolean | null;
  modifierRenderType?: CustomizationRenderType;
  freeTextSettings?: {
    minCharCount?: number;
    maxCharCount?: number;
    defaultAddedPrice?: string | null;
    title?: string;
    /** What a cart line's `catalogReference.options.customTextFields` names it by. */
    key?: string;
  };
  choicesSettings?: { choices?: ChoiceV3[] };
}

export interface InventoryV3 {
  availabilityStatus?: ProductAvailabilityStatus;
  preorderStatus?: PreorderStatus;
  preorderAvailability?: 'ALL_VARIANTS' | 'NO_VARIANTS' | 'SOME_VARIANTS';
}

export interface VariantV3 {
  id?: string | null;
  visible?: boolean | null;
  sku?: string | null;
  barcode?: string | null;
  choices?: Array<{
    optionChoiceIds?: { optionId?: string; choiceId?: string };
    optionChoiceNames?: { optionName?: string; choiceName?: string; renderType?: string };
  }>;
  price?: {
    actualPrice?: FixedMonetaryAmount;
    compareAtPrice?: FixedMonetaryAmount;
  };
  revenueDetails?: { cost?: FixedMonetaryAmount; profit?: FixedMonetaryAmount; profitMargin?: number };
  media?: ProductMediaV3;
  physicalProperties?: { weight?: number | null };
  inventoryStatus?: { inStock?: boolean; preorderEnabled?: boolean };
}

export interface SubscriptionDiscountV3 {
  type?: SubscriptionDiscountType;
  /** Decimal string, for `AMOUNT`. */
  amountOff?: string;
  /** For `PERCENT`. */
  percentOff?: number;
}

export interface SubscriptionV3 {
  id?: string | null;
  title?: string;
  description?: string | null;
  visible?: boolean | null;
  frequency?: SubscriptionIntervalUnit;
  interval?: number | null;
  autoRenewal?: boolean;
  billingCycles?: number;
  discount?: SubscriptionDiscountV3;
}

/** A reference to a brand or ribbon from a product: id and name only. */
export interface NamedReference {
  id?: string | null;
  name?: string | null;
}

/** A product's tags, as ids (the hosted `Tags`). */
export interface ProductTagsV3 {
  publicTags?: { tagIds?: string[] };
  privateTags?: { tagIds?: string[] };
}

export interface ProductV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  name?: string | null;
  slug?: string | null;
  plainDescription?: string | null;
  visible?: boolean | null;
  visibleInPos?: boolean | null;
  /** The product page, with `URL` among the requested fields. */
  url?: { relativePath?: string; url?: string };
  media?: { main?: ProductMediaV3; itemsInfo?: { items?: ProductMediaV3[] } };
  seoData?: SeoData;
  /** A physical product's: the range of its variants' weights. */
  physicalProperties?: { shippingWeightRange?: { minValue?: number; maxValue?: number } };
  options?: ConnectedOption[];
  modifiers?: ConnectedModifier[];
  brand?: NamedReference;
  infoSections?: Array<{
    id?: string | null;
    uniqueName?: string | null;
    title?: string | null;
    plainDescription?: string | null;
    /** With `INFO_SECTION_DESCRIPTION` among the requested fields. */
    description?: RichContentV3;
  }>;
  ribbon?: NamedReference;
  /** The collections that list the product (v3 categories), with `DIRECT_CATEGORIES_INFO` among the fields. */
  directCategoriesInfo?: { categories?: Array<{ id?: string }> };
  /** The same (Cartwheel's collections have no parents), with `ALL_CATEGORIES_INFO`. */
  allCategoriesInfo?: { categories?: Array<{ id?: string }> };
  /** Ribbons shown beside `ribbon` (at most 4), each by id or by name as `ribbon` is. */
  additionalRibbons?: NamedReference[];
  /** Tag ids: public ones anyone reads, private ones product managers only. */
  tags?: ProductTagsV3;
  mainCategoryId?: string | null;
  costRange?: PriceRangeV3;
  inventory?: InventoryV3;
  productType?: ProductTypeV3;
  handle?: string | null;
  currency?: string | null;
  actualPriceRange?: PriceRangeV3;
  compareAtPriceRange?: PriceRangeV3;
  variantsInfo?: { variants?: VariantV3[] };
  subscriptionDetails?: { subscriptions?: SubscriptionV3[]; allowOneTimePurchases?: boolean | null };
  variantSummary?: { variantCount?: number };
}

export interface BrandV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  name?: string;
  assignedProductsCount?: number | null;
}

export interface RibbonV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  name?: string;
  assignedProductCount?: number | null;
}

export interface InfoSectionV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  /** The merchant's handle for it; `title` is what buyers see. */
  uniqueName?: string;
  title?: string;
  /** HTML; made from `description`'s text when only that is written. */
  plainDescription?: string | null;
  /** A rich-content (Ricos) document, kept as written; a plain description reads as one paragraph. */
  description?: RichContentV3;
  assignedProductsCount?: number | null;
}

/** A node of a rich-content document: its type, the nodes within it, and its data (`textData` for text). */
export interface RichContentNodeV3 {
  type?: string;
  id?: string;
  nodes?: RichContentNodeV3[];
  textData?: { text?: string; decorations?: unknown[] };
  [data: string]: unknown;
}

/** A rich-content (Ricos) document, as the hosted info sections' `description`. */
export interface RichContentV3 {
  nodes?: RichContentNodeV3[];
  metadata?: Record<string, unknown>;
  documentStyle?: Record<string, unknown>;
}

export interface CustomizationV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  key?: string | null;
  name?: string;
  customizationType?: CustomizationType;
  customizationRenderType?: CustomizationRenderType;
  freeTextInput?: {
    minCharCount?: number;
    maxCharCount?: number;
    title?: string;
    key?: string | null;
    defaultAddedPrice?: string | null;
  };
  choicesSettings?: { choices?: ChoiceV3[] };
  assignedProductsCount?: number | null;
}

export interface PreorderInfo {
  enabled?: boolean | null;
  message?: string | null;
  /** How many may be preordered. */
  limit?: number | null;
  counter?: number | null;
  quantity?: number | null;
}

/** Stock of one variant at one location. */
export interface InventoryItemV3 {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  variantId?: string;
  locationId?: string | null;
  productId?: string;
  /** With `trackQuantity`, `quantity` counts stock; without it, `inStock` says all. */
  trackQuantity?: boolean;
  quantity?: number;
  inStock?: boolean;
  availabilityStatus?: AvailabilityStatus;
  preorderInfo?: PreorderInfo;
  /** What the item needs of its product and variant. */
  product?: { name?: string; variantName?: string; variantSku?: string; variantVisible?: boolean };
}

/** A variant on its own (`readOnlyVariantsV3`): the variant, its choices, and what it needs of its product. */
export interface ReadOnlyVariantV3 extends Omit<VariantV3, 'choices'> {
  variantId?: string;
  optionChoices?: NonNullable<VariantV3['choices']>;
  productData?: {
    productId?: string;
    name?: string;
    slug?: string;
    visible?: boolean;
    productType?: ProductTypeV3;
    variantVisible?: boolean;
    revision?: string;
  };
}
