import { createHash } from 'node:crypto';
import type {
  AvailabilityStatus,
  ConnectedModifier,
  ConnectedOption,
  FixedMonetaryAmount,
  InventoryItemV3,
  MediaItem,
  PriceRangeV3,
  ProductMediaV3,
  ProductV3,
  ReadOnlyVariantV3,
  SubscriptionV3,
  VariantV3,
} from '@cartwheel/sdk';
import { PUBLIC_URL_MARK } from '../shared/public-links.ts';
import {
  type ChoiceRecord,
  type ModifierRecord,
  type OptionRecord,
  type ProductRecord,
  renderProduct,
  revisionOf,
  type StoreSettings,
  type SubscriptionRecord,
  type VariantRecord,
  variantInStock,
} from './model.ts';
import { discountedPrice, formatMoney, roundMoney } from './pricing.ts';
import { documentOf } from './v3-rich-content.ts';
import type { RequestedField } from './v3-schemas.ts';

/**
 * A product as the v3 calls show it, rendered from the same record the v1 calls render theirs from
 * (model.ts): one catalog, two views. What v3 names that v1 keeps by name only gets an id derived
 * from the name, the same on every read and in every process:
 *
 * - an option's id from its name, a choice's from its option's name and its own;
 * - a brand's and a ribbon's from their names.
 *
 * Prices: a variant's `actualPrice` is what a shopper pays (its price after the product's discount),
 * its `compareAtPrice` the price before the discount, shown only while there is one.
 */

/** A UUID-shaped id derived from `parts`: stable, and distinct for distinct parts. */
export function derivedId(...parts: string[]): string {
  const hex = createHash('sha1').update(JSON.stringify(parts)).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const optionIdOf = (name: string) => derivedId('option', name);
export const choiceIdOf = (optionName: string, choiceName: string) =>
  derivedId('choice', optionName, choiceName);
export const modifierIdOf = (name: string) => derivedId('modifier', name);
export const modifierChoiceIdOf = (modifierName: string, choiceName: string) =>
  derivedId('modifier-choice', modifierName, choiceName);
export const brandIdOf = (name: string) => derivedId('brand', name);
/** An option's v3 id: its customization's, else derived from its name; a choice's likewise. */
export const optionIdFor = (option: OptionRecord) => option.customizationId ?? optionIdOf(option.name);
export const choiceIdFor = (option: OptionRecord, choice: ChoiceRecord) =>
  choice.choiceId ?? choiceIdOf(option.name, choice.description);
const modifierIdFor = (modifier: ModifierRecord) => modifier.customizationId ?? modifierIdOf(modifier.name);
export const ribbonIdOf = (name: string) => derivedId('ribbon', name);

const renderTypeOf = (option: OptionRecord) =>
  option.optionType === 'color' ? 'SWATCH_CHOICES' : 'TEXT_CHOICES';

/** What one read asks for: the requested fields, merchant data (admins only), and the variants. */
export interface ViewV3 {
  fields: ReadonlySet<RequestedField>;
  merchant: boolean;
  /** Whether the reader manages the catalog: private tags are shown to them only. */
  admin?: boolean;
  /** Get, create and update show the variants; query and search a summary. */
  variants: boolean;
}

/**
 * `categoryIds`: the v3 categories that list the product, Cartwheel's collections (All Products
 * first), shown when the read asks for `DIRECT_CATEGORIES_INFO` or `ALL_CATEGORIES_INFO`.
 */
export function renderProductV3(
  record: ProductRecord,
  settings: StoreSettings,
  view: ViewV3,
  categoryIds?: readonly string[],
): ProductV3 {
  const categories = categoryIds && { categories: categoryIds.map((id) => ({ id })) };
  const { currency } = settings;
  const { fields, merchant } = view;
  const money = (amount: number): FixedMonetaryAmount => ({
    amount: String(roundMoney(amount)),
    formattedAmount: formatMoney(amount, currency),
  });
  const basePrice = (variant: VariantRecord) => variant.price ?? record.price;
  const discounted = record.discount.type !== 'NONE' && record.discount.value > 0;
  const physical = record.productType === 'physical';
  const range = (values: number[]): PriceRangeV3 | undefined =>
    values.length > 0
      ? { minValue: money(Math.min(...values)), maxValue: money(Math.max(...values)) }
      : undefined;

  const visibleVariants = record.variants.filter((variant) => variant.visible);
  const shown = visibleVariants.length > 0 ? visibleVariants : record.variants;
  const { inventoryStatus } = renderProduct(record, [], settings);

  const product: ProductV3 & Record<string, unknown> = {
    id: record.id,
    revision: String(revisionOf(record)),
    createdDate: record.createdDate as unknown as Date,
    updatedDate: record.lastUpdated as unknown as Date,
    name: record.name,
    slug: record.slug,
    ...(fields.has('URL')
      ? {
          url: {
            relativePath: `/product-page/${record.slug}`,
            url: `${PUBLIC_URL_MARK}/product-page/${record.slug}`,
          },
        }
      : {}),
    ...(fields.has('PLAIN_DESCRIPTION') ? { plainDescription: record.description } : {}),
    visible: record.visible,
    visibleInPos: record.visibleInPos ?? record.visible,
    media: mediaV3(record.media, fields.has('MEDIA_ITEMS_INFO')),
    ...(record.seoData ? { seoData: record.seoData } : {}),
    options: record.options.map(optionV3(record)),
    modifiers: (record.modifiers ?? []).map(modifierV3),
    ...(record.brand ? { brand: { id: record.brandId ?? brandIdOf(record.brand), name: record.brand } } : {}),
    infoSections: (record.infoSections ?? []).map((section, index) => ({
      id: section.id,
      uniqueName: section.uniqueName,
      title: record.additionalInfoSections[index]?.title ?? '',
      ...(fields.has('INFO_SECTION_PLAIN_DESCRIPTION')
        ? { plainDescription: record.additionalInfoSections[index]?.description ?? '' }
        : {}),
      ...(fields.has('INFO_SECTION_DESCRIPTION')
        ? {
            description:
              section.description ?? documentOf(record.additionalInfoSections[index]?.description ?? ''),
          }
        : {}),
    })),
    ...(record.ribbon
      ? { ribbon: { id: record.ribbonId ?? ribbonIdOf(record.ribbon), name: record.ribbon } }
      : {}),
    ...(categories && fields.has('DIRECT_CATEGORIES_INFO') ? { directCategoriesInfo: categories } : {}),
    // Cartwheel's collections have no parents: a product's categories are all direct
    ...(categories && fields.has('ALL_CATEGORIES_INFO') ? { allCategoriesInfo: categories } : {}),
    additionalRibbons: (record.additionalRibbons ?? []).map(({ id, name }) => ({ id, name })),
    ...(record.tags
      ? {
          tags: {
            publicTags: { tagIds: record.tags.publicTagIds },
            ...(view.admin ? { privateTags: { tagIds: record.tags.privateTagIds } } : {}),
          },
        }
      : {}),
    ...(merchant
      ? {
          costRange: range(
            shown
              .map((variant) => variant.cost ?? record.cost)
              .filter((cost): cost is number => cost !== null),
          ),
        }
      : {}),
    inventory: { availabilityStatus: inventoryStatus, ...preorderOf(shown) },
    productType: physical ? 'PHYSICAL' : 'DIGITAL',
    ...(physical
      ? {
          physicalProperties: {
            shippingWeightRange: weightRange(shown.map((variant) => variant.weight ?? record.weight ?? 0)),
          },
        }
      : {}),
    ...(fields.has('CURRENCY') ? { currency } : {}),
    actualPriceRange: range(shown.map((variant) => discountedPrice(basePrice(variant), record.discount))),
    compareAtPriceRange: range(shown.map(basePrice)),
    ...(view.variants
      ? {
          variantsInfo: {
            variants: record.variants.map((variant) =>
              variantV3(record, variant, settings, view, discounted),
            ),
          },
        }
      : {}),
    ...(record.subscriptions?.length
      ? {
          subscriptionDetails: {
            subscriptions: record.subscriptions.map(subscriptionV3),
            allowOneTimePurchases: record.allowOneTimePurchases ?? false,
          },
        }
      : {}),
    variantSummary: { variantCount: record.variants.length },
  };
  return product;
}

/** Whether preorder is on for all, some or none of the variants a shopper sees. */
/** A way of selling by subscription as the hosted product shows it. */
export function subscriptionV3(subscription: SubscriptionRecord): SubscriptionV3 {
  return {
    id: subscription.id,
    title: subscription.title,
    description: subscription.description,
    visible: subscription.visible,
    frequency: subscription.frequency,
    interval: subscription.interval,
    ...(subscription.billingCycles === null
      ? { autoRenewal: true }
      : { autoRenewal: false, billingCycles: subscription.billingCycles }),
    ...(subscription.discount
      ? {
          discount:
            subscription.discount.type === 'AMOUNT'
              ? { type: 'AMOUNT', amountOff: String(subscription.discount.value) }
              : { type: 'PERCENT', percentOff: subscription.discount.value },
        }
      : {}),
  };
}

function preorderOf(variants: VariantRecord[]) {
  const enabled = variants.filter((variant) => variant.preorder?.enabled).length;
  if (enabled === 0) return { preorderStatus: 'DISABLED', preorderAvailability: 'NO_VARIANTS' } as const;
  if (enabled === variants.length)
    return { preorderStatus: 'ENABLED', preorderAvailability: 'ALL_VARIANTS' } as const;
  return { preorderStatus: 'PARTIALLY_ENABLED', preorderAvailability: 'SOME_VARIANTS' } as const;
}

function weightRange(weights: number[]) {
  return weights.length > 0
    ? { minValue: Math.min(...weights), maxValue: Math.max(...weights) }
    : { minValue: 0, maxValue: 0 };
}

/** A variant as v3 shows it (in a product's `variantsInfo`, and read-only variants). */
export function variantV3(
  record: ProductRecord,
  variant: VariantRecord,
  settings: StoreSettings,
  view: ViewV3,
  discounted = record.discount.type !== 'NONE' && record.discount.value > 0,
): VariantV3 {
  const { currency } = settings;
  const money = (amount: number): FixedMonetaryAmount => ({
    amount: String(roundMoney(amount)),
    formattedAmount: formatMoney(amount, currency),
  });
  const base = variant.price ?? record.price;
  const actual = discountedPrice(base, record.discount);
  const cost = variant.cost ?? record.cost;
  const names = view.fields.has('VARIANT_OPTION_CHOICE_NAMES');
  return {
    id: variant.id,
    visible: variant.visible,
    sku: variant.sku || record.sku,
    choices: record.options
      .filter((option) => variant.choices[option.name] !== undefined)
      .map((option) => {
        const choiceName = variant.choices[option.name] as string;
        const choice = option.choices.find((candidate) => candidate.description === choiceName);
        return {
          optionChoiceIds: {
            optionId: optionIdFor(option),
            choiceId: choice ? choiceIdFor(option, choice) : choiceIdOf(option.name, choiceName),
          },
          ...(names
            ? { optionChoiceNames: { optionName: option.name, choiceName, renderType: renderTypeOf(option) } }
            : {}),
        };
      }),
    price: { actualPrice: money(actual), ...(discounted ? { compareAtPrice: money(base) } : {}) },
    ...(view.merchant && cost !== null
      ? {
          revenueDetails: {
            cost: money(cost),
            profit: money(actual - cost),
            profitMargin: actual > 0 ? Math.round(((actual - cost) / actual) * 10_000) / 10_000 : 0,
          },
        }
      : {}),
    ...(record.productType === 'physical'
      ? { physicalProperties: { weight: variant.weight ?? record.weight ?? 0 } }
      : {}),
    inventoryStatus: {
      inStock: variantInStock(record, variant),
      preorderEnabled: variant.preorder?.enabled === true,
    },
  };
}

/** A variant as `readOnlyVariantsV3` answers it: the variant, and what it needs of its product. */
export function readOnlyVariantV3(
  record: ProductRecord,
  variant: VariantRecord,
  settings: StoreSettings,
  view: ViewV3,
): ReadOnlyVariantV3 {
  const { choices, ...rest } = variantV3(record, variant, settings, view);
  return {
    ...rest,
    optionChoices: choices ?? [],
    variantId: variant.id,
    productData: {
      productId: record.id,
      name: record.name,
      slug: record.slug,
      visible: record.visible,
      productType: record.productType === 'physical' ? 'PHYSICAL' : 'DIGITAL',
      variantVisible: variant.visible,
      revision: String(revisionOf(record)),
    },
  };
}

const optionV3 =
  (record: ProductRecord) =>
  (option: OptionRecord): ConnectedOption => {
    const color = option.optionType === 'color';
    return {
      id: optionIdFor(option),
      name: option.name,
      optionRenderType: renderTypeOf(option),
      key: option.name,
      choicesSettings: {
        choices: option.choices.map((choice) => {
          const having = record.variants.filter(
            (variant) => variant.choices[option.name] === choice.description,
          );
          return {
            choiceId: choiceIdFor(option, choice),
            choiceType: color ? 'ONE_COLOR' : 'CHOICE_TEXT',
            key: choice.description,
            name: choice.description,
            ...(color ? { colorCode: choice.value } : {}),
            inStock: having.some((variant) => variant.visible && variantInStock(record, variant)),
            visible: having.some((variant) => variant.visible),
          };
        }),
      },
    };
  };

/** A modifier as the hosted product shows it: its name is its key, a choice's name the choice's. */
function modifierV3(modifier: ModifierRecord): ConnectedModifier {
  const base = {
    id: modifierIdFor(modifier),
    name: modifier.name,
    key: modifier.name,
    mandatory: modifier.mandatory,
    modifierRenderType: modifier.renderType,
  };
  if (modifier.freeText) {
    const { title, minCharCount, maxCharCount, addedPrice } = modifier.freeText;
    return {
      ...base,
      freeTextSettings: {
        title,
        key: title,
        minCharCount,
        maxCharCount,
        defaultAddedPrice: String(addedPrice),
      },
    };
  }
  return {
    ...base,
    choicesSettings: {
      choices: modifier.choices.map((choice) => ({
        choiceId: choice.choiceId ?? modifierChoiceIdOf(modifier.name, choice.name),
        choiceType: choice.colorCode === undefined ? 'CHOICE_TEXT' : 'ONE_COLOR',
        key: choice.name,
        name: choice.name,
        ...(choice.colorCode === undefined ? {} : { colorCode: choice.colorCode }),
        addedPrice: String(choice.addedPrice),
      })),
    },
  };
}

function mediaV3(items: MediaItem[], withItems: boolean): ProductV3['media'] {
  const media = items.map(
    (item): ProductMediaV3 => ({
      id: item.id ?? '',
      url: item.image?.url ?? '',
      image: {
        id: item.id ?? '',
        url: item.image?.url ?? '',
        width: item.image?.width ?? 0,
        height: item.image?.height ?? 0,
      },
      altText: item.title || null,
      displayName: item.title || null,
      mediaType: item.mediaType === 'video' ? 'VIDEO' : 'IMAGE',
    }),
  );
  return {
    ...(media[0] ? { main: media[0] } : {}),
    ...(withItems ? { itemsInfo: { items: media } } : {}),
  };
}

// ---- inventory items (v3-inventory.ts serves them) ----

/** The store's one location. */
export const DEFAULT_LOCATION_ID = derivedId('location', 'default');

export function availabilityOf(record: ProductRecord, variant: VariantRecord): AvailabilityStatus {
  const inStock = record.trackInventory ? (variant.quantity ?? 0) > 0 : variant.inStock;
  if (inStock) return 'IN_STOCK';
  const preorder = variant.preorder;
  if (preorder?.enabled && (preorder.limit === null || preorder.counter < preorder.limit)) return 'PREORDER';
  return 'OUT_OF_STOCK';
}

export function inventoryItemV3(record: ProductRecord, variant: VariantRecord): InventoryItemV3 {
  const preorder = variant.preorder;
  return {
    id: `${record.id}-${variant.id}`,
    revision: String(variant.inventoryRevision ?? 1),
    createdDate: record.createdDate as unknown as Date,
    updatedDate: record.lastUpdated as unknown as Date,
    variantId: variant.id,
    locationId: DEFAULT_LOCATION_ID,
    productId: record.id,
    trackQuantity: record.trackInventory,
    ...(record.trackInventory ? { quantity: variant.quantity ?? 0 } : { inStock: variant.inStock }),
    availabilityStatus: availabilityOf(record, variant),
    preorderInfo: {
      enabled: preorder?.enabled ?? false,
      message: preorder?.message ?? null,
      limit: preorder?.limit ?? null,
      counter: preorder?.counter ?? 0,
      quantity: preorder?.limit != null ? Math.max(0, preorder.limit - preorder.counter) : null,
    },
    product: {
      name: record.name,
      variantName: Object.values(variant.choices).join(' | ') || record.name,
      variantSku: variant.sku || record.sku,
      variantVisible: variant.visible,
    },
  };
}
