/**
 * The stores catalog (v1), as the wire carries it. Field names are the hosted platform's, so a
 * client written for it reads them unchanged; ids are `id`. Declared once: the platform imports these.
 */

/** The stores app id: catalog line items point at the catalog with it (wire contract). */
export const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
/** The one variant of a product without managed options. */
export const DEFAULT_VARIANT_ID = '00000000-0000-0000-0000-000000000000';

export type ProductType = 'physical' | 'digital';
export type InventoryStatus = 'IN_STOCK' | 'OUT_OF_STOCK' | 'PARTIALLY_OUT_OF_STOCK';
export type DiscountType = 'NONE' | 'AMOUNT' | 'PERCENT';
export type OptionType = 'drop_down' | 'color';
export type MediaItemType = 'image' | 'video' | 'audio' | 'document' | 'zip';
export type MeasurementUnit =
  | 'ML'
  | 'CL'
  | 'L'
  | 'CBM'
  | 'MG'
  | 'G'
  | 'KG'
  | 'MM'
  | 'CM'
  | 'M'
  | 'SQM'
  | 'OZ'
  | 'LB'
  | 'FLOZ'
  | 'PT'
  | 'QT'
  | 'GAL'
  | 'IN'
  | 'FT'
  | 'YD'
  | 'SQFT';
export type DigitalFileType =
  | 'SECURE_PICTURE'
  | 'SECURE_VIDEO'
  | 'SECURE_DOCUMENT'
  | 'SECURE_MUSIC'
  | 'SECURE_ARCHIVE';

export const INVENTORY_STATUSES: readonly InventoryStatus[] = [
  'IN_STOCK',
  'OUT_OF_STOCK',
  'PARTIALLY_OUT_OF_STOCK',
];
export const DISCOUNT_TYPES: readonly DiscountType[] = ['NONE', 'AMOUNT', 'PERCENT'];
export const MEASUREMENT_UNITS: readonly MeasurementUnit[] = [
  'ML',
  'CL',
  'L',
  'CBM',
  'MG',
  'G',
  'KG',
  'MM',
  'CM',
  'M',
  'SQM',
  'OZ',
  'LB',
  'FLOZ',
  'PT',
  'QT',
  'GAL',
  'IN',
  'FT',
  'YD',
  'SQFT',
];

export interface FormattedPrice {
  price?: string;
  discountedPrice?: string;
  pricePerUnit?: string;
}

export interface PriceData {
  currency?: string;
  price?: number;
  discountedPrice?: number;
  formatted?: FormattedPrice;
  pricePerUnit?: number;
}

export interface CostAndProfitData {
  itemCost?: number;
  formattedItemCost?: string;
  profit?: number;
  formattedProfit?: string;
  profitMargin?: number;
}

export interface NumericRange {
  minValue?: number;
  maxValue?: number;
}

export interface PricePerUnitData {
  totalQuantity?: number;
  totalMeasurementUnit?: MeasurementUnit;
  baseQuantity?: number;
  baseMeasurementUnit?: MeasurementUnit;
}

export interface Discount {
  type?: DiscountType;
  value?: number;
}

export interface Stock {
  trackInventory?: boolean;
  quantity?: number | null;
  inStock?: boolean;
  inventoryStatus?: InventoryStatus;
}

export interface MediaImage {
  url?: string;
  width?: number;
  height?: number;
  format?: string;
  altText?: string | null;
}

export interface MediaItem {
  id?: string;
  title?: string;
  mediaType?: MediaItemType;
  thumbnail?: MediaImage;
  image?: MediaImage;
  video?: { files?: MediaImage[]; stillFrameMediaId?: string };
}

export interface Media {
  mainMedia?: MediaItem;
  items?: MediaItem[];
}

export interface Choice {
  value?: string;
  description?: string;
  media?: Media;
  inStock?: boolean;
  visible?: boolean;
}

export interface ProductOption {
  optionType?: OptionType;
  name?: string;
  choices?: Choice[];
}

export interface VariantDataWithNoStock {
  priceData?: PriceData;
  convertedPriceData?: PriceData;
  costAndProfitData?: CostAndProfitData;
  weight?: number;
  sku?: string;
  visible?: boolean;
}

export interface VariantStock {
  trackQuantity?: boolean;
  quantity?: number | null;
  inStock?: boolean;
}

/** A variant as it sits inside a product. */
export interface ProductVariant {
  id?: string;
  choices?: Record<string, string>;
  variant?: VariantDataWithNoStock;
  stock?: VariantStock;
}

export interface AdditionalInfoSection {
  title?: string;
  description?: string;
}

export interface CustomTextField {
  title?: string;
  maxLength?: number;
  mandatory?: boolean;
}

export interface SeoData {
  tags?: Array<{ type?: string; props?: Record<string, unknown>; children?: string }>;
}

export interface Product {
  id?: string;
  name?: string;
  slug?: string;
  visible?: boolean;
  productType?: ProductType;
  description?: string;
  sku?: string;
  weight?: number;
  weightRange?: NumericRange;
  stock?: Stock;
  price?: PriceData;
  priceData?: PriceData;
  convertedPriceData?: PriceData;
  priceRange?: NumericRange;
  costAndProfitData?: CostAndProfitData;
  costRange?: NumericRange;
  pricePerUnitData?: PricePerUnitData;
  additionalInfoSections?: AdditionalInfoSection[];
  ribbons?: Array<{ text?: string }>;
  media?: Media;
  customTextFields?: CustomTextField[];
  manageVariants?: boolean;
  productOptions?: ProductOption[];
  productPageUrl?: { base?: string; path?: string };
  numericId?: string;
  inventoryItemId?: string;
  discount?: Discount;
  collectionIds?: string[];
  variants?: ProductVariant[];
  lastUpdated?: Date;
  createdDate?: Date;
  seoData?: SeoData;
  ribbon?: string;
  brand?: string;
}

/** A variant on its own (`/v1/variants/...`): product and variant ids together. */
export interface Variant {
  id?: string;
  productId?: string;
  name?: string;
  choices?: Record<string, string>;
  variant?: VariantDataWithNoStock;
  stock?: VariantStock;
  media?: Media;
  /** The variant's own id within its product (`id` joins product and variant ids). */
  variantId?: string;
  variantName?: string;
  productName?: string;
  /** Whether the variant is one of managed options, or the product's default variant. */
  managedVariant?: boolean;
  sku?: string;
  collectionIds?: string[];
}

export interface Collection {
  id?: string;
  name?: string;
  slug?: string;
  description?: string | null;
  visible?: boolean;
  media?: Media;
  numberOfProducts?: number;
}

/** v2 collections (`/v2/collections`): the same collection, counted as assigned products. */
export interface CollectionV2 {
  id?: string;
  name?: string;
  slug?: string;
  description?: string | null;
  visible?: boolean;
  image?: MediaImage;
  assignedProductsCount?: number;
  createdDate?: Date;
  updatedDate?: Date;
}

/** `productOptionsAvailability`: the chosen choices resolved to a variant. */
export interface ProductOptionsAvailability {
  selectedVariant?: {
    id?: string;
    price?: PriceData;
    convertedPrice?: PriceData;
    convertedPriceData?: PriceData;
    /** Counted stock, when the product tracks inventory. */
    quantity?: number | null;
    inStock?: boolean;
    visible?: boolean;
    sku?: string;
    weight?: number;
    media?: Media;
  } | null;
  availableForPurchase: boolean;
  productOptions: ProductOption[];
  mainMedia?: MediaItem;
  media?: Media;
}

/** Bulk price, cost and weight changes (`/v1/bulk/products/...`). */
export interface BulkSet {
  price?: number;
  cost?: number;
  weight?: number;
}

/** A percentage change: `rate` -10 takes 10% off; `roundToInt` rounds the result to a whole number. */
export interface PercentageData {
  rate: number;
  roundToInt?: boolean;
}

export interface AdjustValue {
  amount?: number;
  percentage?: PercentageData;
}

export interface BulkAdjust {
  price?: AdjustValue;
  cost?: AdjustValue;
  weight?: AdjustValue;
}

export interface BulkUpdateProductsResult {
  results: Array<{
    itemMetadata: {
      id?: string;
      originalIndex: number;
      success: boolean;
      error?: { code: string; description: string };
    };
  }>;
  bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
}

/** One variant's overrides in `PATCH /v1/products/{id}/variants`: picked by choices or by ids. */
export interface VariantOverride {
  choices?: Record<string, string>;
  variantIds?: string[];
  price?: number | null;
  cost?: number | null;
  weight?: number | null;
  sku?: string | null;
  visible?: boolean | null;
}

/** A media item to add to a product (`POST /v1/products/{id}/media`): an uploaded id or a URL. */
export interface MediaDataForWrite {
  mediaId?: string;
  url?: string;
  /** Also shows the media for this option's choice. */
  choice?: { option?: string; choice?: string };
}

/** Media shown for one choice of an option (`/v1/products/{id}/choices/media`). */
export interface MediaAssignmentToChoice {
  option?: string;
  choice?: string;
  mediaIds?: string[];
}
