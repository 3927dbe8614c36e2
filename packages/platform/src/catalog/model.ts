import {
  type AdditionalInfoSection,
  type CustomTextField,
  DEFAULT_VARIANT_ID,
  type DiscountType,
  type InventoryStatus,
  type Media,
  type MediaItem,
  type NumericRange,
  type OptionType,
  type PriceData,
  type PricePerUnitData,
  type Product,
  type ProductType,
  type ProductVariant,
  type SeoData,
  type Variant,
  type VariantDataWithNoStock,
} from '@cartwheel/sdk';
import { PUBLIC_URL_MARK } from '../shared/public-links.ts';
import { discountedPrice, formatMoney, pricePerUnit, roundMoney } from './pricing.ts';
import type { RichContent } from './v3-rich-content.ts';

/**
 * What the merchant set on a product: the one source of truth. Everything else on the wire (prices
 * after discount, stock status, ranges, choice stock) is derived from it by `renderProduct`.
 */
export interface ProductRecord {
  id: string;
  numericId: number;
  name: string;
  slug: string;
  description: string;
  visible: boolean;
  productType: ProductType;
  sku: string;
  weight: number | null;
  price: number;
  cost: number | null;
  discount: { type: DiscountType; value: number };
  pricePerUnitData: Required<PricePerUnitData> | null;
  ribbon: string;
  brand: string;
  manageVariants: boolean;
  /** Whether stock is counted (variants carry a quantity) or set by hand (variants carry inStock). */
  trackInventory: boolean;
  options: OptionRecord[];
  /** Always at least one: a product without managed variants has the default variant. */
  variants: VariantRecord[];
  media: MediaItem[];
  additionalInfoSections: AdditionalInfoSection[];
  customTextFields: CustomTextField[];
  seoData: SeoData | null;
  createdDate: string;
  lastUpdated: string;
  /**
   * Moves by one with every save of the product (product-rows.ts `saveProduct`), v1 or v3: a v3 update
   * names the revision it read, and one that read an older one is refused. Absent on a record saved
   * before revisions were kept: it is at revision 1.
   */
  revision?: number;
  /** Whether the point of sale sells it (v3 `visibleInPos`); absent: as `visible`. */
  visibleInPos?: boolean;
  /**
   * The brand and ribbon entities (v3-entities.ts) `brand` and `ribbon` name, kept by every save
   * (v3-references.ts). Absent on a record saved before they were entities: the id derived from the
   * name, which the migration gave the entity it made of it.
   */
  brandId?: string;
  ribbonId?: string;
  /**
   * Ribbons shown beside the main one (v3 `additionalRibbons`, at most 4), each an entity as `ribbon`
   * is, its name kept here (written as `{"id","name"}`, in that order: a rename replaces the text,
   * v3-entity-renames.ts). Absent or empty: none.
   */
  additionalRibbons?: Array<{ id: string; name: string }>;
  /** The product's tag ids (v3 `tags`): public ones anyone reads, private ones product managers only. */
  tags?: { publicTagIds: string[]; privateTagIds: string[] };
  /**
   * The info section entities `additionalInfoSections` copies, in its order. Absent or empty: the
   * sections are the product's own (a v1 write), which v3 does not show.
   */
  infoSections?: InfoSectionReference[];
  /**
   * How it is sold by subscription (v3 `subscriptionDetails.subscriptions`, issue 34); absent or empty:
   * sold once only.
   */
  subscriptions?: SubscriptionRecord[];
  /** With `subscriptions`: whether it may also be bought once (v3 `allowOneTimePurchases`). */
  allowOneTimePurchases?: boolean;
  /**
   * What a shopper adds to a line without picking another variant (v3 `modifiers`: gift wrap, an
   * engraving), each choice with its added price; absent or empty: none.
   */
  modifiers?: ModifierRecord[];
}

/**
 * A product's modifier: choices (`TEXT_CHOICES`, `SWATCH_CHOICES`), or a text the shopper writes
 * (`FREE_TEXT`). Its key on a cart line's `catalogReference.options` is its name (a free text's, its
 * title), as an option's is.
 */
export interface ModifierRecord {
  name: string;
  renderType: 'TEXT_CHOICES' | 'SWATCH_CHOICES' | 'FREE_TEXT';
  mandatory: boolean;
  /** Choices' names are unique within the modifier; `addedPrice` is added to the unit's price. */
  choices: Array<{ name: string; colorCode?: string; addedPrice: number; choiceId?: string }>;
  /** The v3 customization the modifier is, as an option's (`OptionRecord.customizationId`). */
  customizationId?: string;
  /** A free text's title (its key), bounds and what writing it adds. */
  freeText?: { title: string; minCharCount: number; maxCharCount: number; addedPrice: number };
}

/** A product's info section entity, and its handle (v3 shows both). */
export interface InfoSectionReference {
  id: string;
  uniqueName: string;
  /** The entity's rich-content description, copied by every save as its title is; absent: its plain one. */
  description?: RichContent;
}

/** One way a product is sold by subscription: every `interval` `frequency`s, for `billingCycles` or open-ended. */
export interface SubscriptionRecord {
  id: string;
  title: string;
  description: string | null;
  visible: boolean;
  frequency: 'DAY' | 'WEEK' | 'MONTH' | 'YEAR';
  interval: number;
  /** Null: renewed until canceled (`autoRenewal`). */
  billingCycles: number | null;
  /** Taken off each unit's price (after the catalog's own discount): an amount, or a percentage. */
  discount: { type: 'AMOUNT' | 'PERCENT'; value: number } | null;
}

/** The revision a record is at (`ProductRecord.revision`). */
export const revisionOf = (record: ProductRecord): number => record.revision ?? 1;

/** What pricing needs of one product (CatalogService.pricingFacts). */
export interface ProductFacts {
  record: ProductRecord;
  visible: boolean;
  collectionIds: string[];
}

export interface OptionRecord {
  name: string;
  optionType: OptionType;
  choices: ChoiceRecord[];
  /**
   * The v3 customization the option is (v3-assigned-customizations.ts): its name and choices are
   * copies of the customization's, kept by its changes; its id is the option's v3 id. Absent: the
   * product's own option.
   */
  customizationId?: string;
}

export interface ChoiceRecord {
  /** For a color option, the color (`#1f2937`); otherwise the same as `description`. */
  value: string;
  /** What variants' `choices` name: `{"Color": "Charcoal"}`. */
  description: string;
  /** Ids of the product's media items shown for this choice. */
  mediaIds: string[];
  /** Of an assigned customization's option: the customization's choice this is (its v3 id). */
  choiceId?: string;
}

export interface VariantRecord {
  id: string;
  choices: Record<string, string>;
  /** Own price, or null to take the product's. */
  price: number | null;
  cost: number | null;
  weight: number | null;
  sku: string;
  visible: boolean;
  /** Counted stock when the product tracks inventory. */
  quantity: number | null;
  /** Hand-set stock when it does not. */
  inStock: boolean;
  /** Preorder (the v3 inventory item's `preorderInfo`); absent: off. */
  preorder?: PreorderRecord;
  /**
   * Moves by one with every change of the variant's stock or preorder, whoever makes it (v3 inventory
   * calls, v1 writes, orders): a v3 inventory update names the revision it read. Absent: 1.
   */
  inventoryRevision?: number;
  /**
   * The variant keeps no v3 inventory item (`deleteInventoryItem`): no stock, no preorder, no v3
   * inventory read shows it, checkout refuses it and nothing is restocked to it, until a create (or a
   * product write that gives it stock) makes its item again. Absent: it has its item.
   */
  noInventoryItem?: true;
}

/** While on, a variant out of stock may still be ordered, `counter` of `limit` so far (null: no limit). */
export interface PreorderRecord {
  enabled: boolean;
  message: string | null;
  limit: number | null;
  counter: number;
}

/** What a variant's inventory item shows: its stock, its preorder. */
const inventoryOf = (variant: VariantRecord | undefined) =>
  JSON.stringify(variant ? [variant.quantity, variant.inStock, variant.preorder ?? null] : null);

/**
 * Moves the inventory revision of each variant of `record` whose stock or preorder differs from the
 * same variant in `previous` (a new variant starts at 1). A variant without its inventory item stays
 * so while its stock does not move.
 */
export function moveInventoryRevisions(record: ProductRecord, previous: ProductRecord | undefined): void {
  const before = new Map((previous?.variants ?? []).map((variant) => [variant.id, variant]));
  for (const variant of record.variants) {
    const old = before.get(variant.id);
    delete variant.noInventoryItem;
    if (!old) variant.inventoryRevision = 1;
    else if (inventoryOf(old) !== inventoryOf(variant))
      variant.inventoryRevision = (old.inventoryRevision ?? 1) + 1;
    else {
      variant.inventoryRevision = old.inventoryRevision ?? 1;
      // a write that leaves its stock as it was leaves it without its item; one that stocks it makes it again
      if (old.noInventoryItem) variant.noInventoryItem = true;
    }
  }
}

export interface StoreSettings {
  currency: string;
}

/** A product rendered for the wire, and the columns its queries use. */
export interface RenderedProduct {
  product: Product;
  productMerchant: Product;
  variants: ProductVariant[];
  variantsMerchant: ProductVariant[];
  storeVariants: Array<{ variantId: string; position: number; variant: Variant; merchant: Variant }>;
  inventoryStatus: InventoryStatus;
  inStock: boolean;
  discountedPrice: number;
}

export function variantInStock(product: ProductRecord, variant: VariantRecord): boolean {
  return product.trackInventory ? (variant.quantity ?? 0) > 0 : variant.inStock;
}

/**
 * The variant a line's options name, shown or hidden: `{variantId}` by its id; `{options: {Size: 'M'}}`
 * by one choice of every option, names and choices compared without case or surrounding spaces (so
 * `{size: 'm'}` is the same variant); nothing, the default variant of a product without options.
 * Pricing and stock both pick variants with it, so the variant a line is priced as is the one stocked.
 */
export function variantNamedBy(
  record: ProductRecord,
  options: { variantId?: unknown; options?: unknown } | null | undefined,
): VariantRecord | undefined {
  const variantId = options?.variantId;
  if (typeof variantId === 'string' && variantId) {
    return record.variants.find((variant) => variant.id === variantId);
  }
  const chosen = options?.options;
  // a modifier's choice rides in the same map (the hosted v3 wire) but picks no variant
  const modifiers = new Set((record.modifiers ?? []).map((modifier) => normalChoice(modifier.name)));
  const wanted = new Map(
    Object.entries(chosen && typeof chosen === 'object' ? (chosen as Record<string, unknown>) : {})
      .map(([k, v]): [string, string] => [normalChoice(k), normalChoice(v)])
      .filter(([k]) => !modifiers.has(k)),
  );
  if (wanted.size > 0) {
    return record.variants.find((variant) => {
      const entries = Object.entries(variant.choices);
      return (
        entries.length === wanted.size &&
        entries.every(([name, choice]) => wanted.get(normalChoice(name)) === normalChoice(choice))
      );
    });
  }
  if (record.options.length > 0 && record.variants.length > 1) return undefined;
  return record.variants.find((variant) => variant.id === DEFAULT_VARIANT_ID) ?? record.variants[0];
}

const normalChoice = (text: unknown) =>
  String(text ?? '')
    .trim()
    .toLowerCase();

export function defaultVariant(fields: Partial<VariantRecord> = {}): VariantRecord {
  return {
    id: DEFAULT_VARIANT_ID,
    choices: {},
    price: null,
    cost: null,
    weight: null,
    sku: '',
    visible: true,
    quantity: null,
    inStock: true,
    ...fields,
  };
}

/** Everything the wire shows of a product, derived from what the merchant set. */
export function renderProduct(
  record: ProductRecord,
  collectionIds: string[],
  settings: StoreSettings,
): RenderedProduct {
  const { currency } = settings;
  const price = (amount: number): PriceData => {
    const discounted = discountedPrice(amount, record.discount);
    const data: PriceData = {
      currency,
      price: roundMoney(amount),
      discountedPrice: discounted,
      formatted: { price: formatMoney(amount, currency), discountedPrice: formatMoney(discounted, currency) },
    };
    if (record.pricePerUnitData) {
      const perUnit = pricePerUnit(discounted, record.pricePerUnitData);
      data.pricePerUnit = perUnit;
      data.formatted = { ...data.formatted, pricePerUnit: formatMoney(perUnit, currency) };
    }
    return data;
  };
  const costAndProfit = (amount: number, cost: number | null) => {
    if (cost === null) return undefined;
    const sale = discountedPrice(amount, record.discount);
    const profit = roundMoney(sale - cost);
    return {
      itemCost: roundMoney(cost),
      formattedItemCost: formatMoney(cost, currency),
      profit,
      formattedProfit: formatMoney(profit, currency),
      profitMargin: sale > 0 ? Math.round((profit / sale) * 10_000) / 10_000 : 0,
    };
  };

  const mediaById = new Map(record.media.map((item) => [item.id, item]));
  const mediaOf = (ids: string[]): Media => {
    const items = ids.map((id) => mediaById.get(id)).filter((item): item is MediaItem => !!item);
    return items.length > 0 ? { mainMedia: items[0], items } : {};
  };
  const productMedia: Media =
    record.media.length > 0 ? { mainMedia: record.media[0], items: record.media } : { items: [] };

  const visibleVariants = record.variants.filter((variant) => variant.visible);
  const counted = visibleVariants.length > 0 ? visibleVariants : record.variants;
  const stocked = counted.filter((variant) => variantInStock(record, variant)).length;
  const inventoryStatus: InventoryStatus =
    stocked === counted.length ? 'IN_STOCK' : stocked === 0 ? 'OUT_OF_STOCK' : 'PARTIALLY_OUT_OF_STOCK';

  const variants: ProductVariant[] = [];
  const variantsMerchant: ProductVariant[] = [];
  const storeVariants: RenderedProduct['storeVariants'] = [];
  const collectionsOfVariant = collectionIds;
  record.variants.forEach((variant, position) => {
    const amount = variant.price ?? record.price;
    const data: VariantDataWithNoStock = {
      priceData: price(amount),
      convertedPriceData: price(amount),
      weight: variant.weight ?? record.weight ?? 0,
      sku: variant.sku || record.sku,
      visible: variant.visible,
    };
    const stock = {
      trackQuantity: record.trackInventory,
      quantity: record.trackInventory ? (variant.quantity ?? 0) : null,
      inStock: variantInStock(record, variant),
    };
    const cost = costAndProfit(amount, variant.cost ?? record.cost);
    const merchantData = cost ? { ...data, costAndProfitData: cost } : data;
    variants.push({ id: variant.id, choices: variant.choices, variant: data, stock });
    variantsMerchant.push({ id: variant.id, choices: variant.choices, variant: merchantData, stock });

    const variantName = Object.values(variant.choices).join(' | ');
    const choiceMedia = record.options.flatMap((option) => {
      const choice = option.choices.find((c) => c.description === variant.choices[option.name]);
      return choice?.mediaIds ?? [];
    });
    const media = choiceMedia.length > 0 ? mediaOf(choiceMedia) : productMedia;
    const storeVariant = (variantData: VariantDataWithNoStock): Variant => ({
      id: `${record.id}-${variant.id}`,
      variantId: variant.id,
      productId: record.id,
      name: variantName || record.name,
      variantName: variantName || record.name,
      productName: record.name,
      managedVariant: record.manageVariants,
      sku: variantData.sku ?? '',
      choices: variant.choices,
      variant: variantData,
      stock,
      collectionIds: collectionsOfVariant,
      media,
    });
    storeVariants.push({
      variantId: variant.id,
      position,
      variant: storeVariant(data),
      merchant: storeVariant(merchantData),
    });
  });

  const productOptions = record.options.map((option) => ({
    optionType: option.optionType,
    name: option.name,
    choices: option.choices.map((choice) => {
      const having = record.variants.filter((variant) => variant.choices[option.name] === choice.description);
      return {
        value: choice.value,
        description: choice.description,
        media: mediaOf(choice.mediaIds),
        inStock: having.some((variant) => variant.visible && variantInStock(record, variant)),
        visible: having.some((variant) => variant.visible),
      };
    }),
  }));

  const shown = visibleVariants.length > 0 ? visibleVariants : record.variants;
  const range = (values: number[]): NumericRange =>
    values.length > 0
      ? { minValue: Math.min(...values), maxValue: Math.max(...values) }
      : { minValue: 0, maxValue: 0 };
  const priceRange = range(shown.map((variant) => roundMoney(variant.price ?? record.price)));
  const weightRange = range(shown.map((variant) => variant.weight ?? record.weight ?? 0));
  const costs = shown
    .map((variant) => variant.cost ?? record.cost)
    .filter((cost): cost is number => cost !== null);

  const productPrice = price(record.price);
  const quantity = record.trackInventory
    ? counted.reduce((sum, variant) => sum + (variant.quantity ?? 0), 0)
    : null;
  const product: Product = {
    id: record.id,
    name: record.name,
    slug: record.slug,
    visible: record.visible,
    productType: record.productType,
    description: record.description,
    sku: record.sku,
    weight: record.weight ?? 0,
    weightRange,
    stock: { trackInventory: record.trackInventory, quantity, inStock: stocked > 0, inventoryStatus },
    price: productPrice,
    priceData: productPrice,
    convertedPriceData: productPrice,
    priceRange,
    ...(record.pricePerUnitData ? { pricePerUnitData: record.pricePerUnitData } : {}),
    additionalInfoSections: record.additionalInfoSections,
    ribbons: record.ribbon ? [{ text: record.ribbon }] : [],
    media: productMedia,
    customTextFields: record.customTextFields,
    manageVariants: record.manageVariants,
    productOptions,
    productPageUrl: { base: PUBLIC_URL_MARK, path: `/product-page/${record.slug}` },
    numericId: String(record.numericId),
    inventoryItemId: record.id,
    discount: record.discount,
    collectionIds,
    lastUpdated: record.lastUpdated as unknown as Date,
    createdDate: record.createdDate as unknown as Date,
    ...(record.seoData ? { seoData: record.seoData } : {}),
    ribbon: record.ribbon,
    brand: record.brand,
  };
  const cost = costAndProfit(record.price, record.cost);
  const productMerchant: Product = {
    ...product,
    ...(cost ? { costAndProfitData: cost } : {}),
    ...(costs.length > 0 ? { costRange: range(costs) } : {}),
  };

  return {
    product,
    productMerchant,
    variants,
    variantsMerchant,
    storeVariants,
    inventoryStatus,
    inStock: stocked > 0,
    discountedPrice: productPrice.discountedPrice ?? record.price,
  };
}

/** The cartesian product of the options' choices: every combination a shopper can pick. */
export function choiceCombinations(options: OptionRecord[]): Array<Record<string, string>> {
  let combinations: Array<Record<string, string>> = [{}];
  for (const option of options) {
    if (option.choices.length === 0) continue;
    combinations = combinations.flatMap((partial) =>
      option.choices.map((choice) => ({ ...partial, [option.name]: choice.description })),
    );
  }
  return combinations;
}
