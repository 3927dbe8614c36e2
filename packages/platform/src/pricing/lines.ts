import {
  DEFAULT_VARIANT_ID,
  type DescriptionLine,
  type Image,
  type ItemAvailabilityInfo,
  type LineItem,
  type MediaItem,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import {
  type ProductFacts,
  type ProductRecord,
  type SubscriptionRecord,
  type VariantRecord,
  variantNamedBy,
} from '../catalog/model.ts';
import { Big, type Currency, decimal, maxBig } from '../shared/money.ts';
import { linkTo } from '../shared/public-links.ts';
import type { StoredLine } from './contract.ts';
import { chosenModifiers } from './modifiers.ts';

export type { ProductFacts };

/**
 * A stored line resolved against the catalog: the wire line item without its amounts (the one price it
 * is made for adds them), and the facts the money steps use. `counted` lines are priced into the
 * totals; the others (not found, sold out) are shown with their problem and cost nothing.
 */
export interface ResolvedLine {
  id: string;
  quantity: number;
  lineItem: LineItem;
  /** Unit price after the catalog's discount (rounded to the currency). */
  unitPrice: Big;
  /** Unit price before the catalog's discount. */
  fullUnitPrice: Big;
  /** Unit price times quantity: the line's `lineItemPrice`. */
  amount: Big;
  counted: boolean;
  productId: string | null;
  collectionIds: readonly string[];
  /** Per unit, in the store's weight unit. */
  unitWeight: Big;
  shippable: boolean;
}

const ZERO = new Big(0);

/** The most catalog lines one process remembers resolved (an item: about 2 KB each). */
const MAX_RESOLVED_LINES = 4096;

/** A line as it was resolved: what its item depends on besides the product and the currency. */
interface ResolvedEntry {
  quantity: number;
  appId: string | undefined;
  catalogItemId: string | undefined;
  chosenVariantId: string | undefined;
  /** The options and overrides as JSON text, when the line has either. */
  rest: string | undefined;
  currency: Currency;
  resolved: ResolvedLine;
  /** How the item's availability follows its quantity (the variant's stock). */
  stock: (quantity: number) => ItemAvailabilityInfo;
  /**
   * An unfrozen copy of the item, never handed out, that the item in another quantity is copied
   * from: V8 copies a frozen object key by key, an ordinary one at once.
   */
  template?: LineItem;
}

/**
 * Resolves stored lines against the catalog, remembering the catalog lines it resolved: a catalog
 * line's item and prices depend only on the line itself, the product's facts and the currency, never
 * on the rest of the cart (discounts, shipping and tax are the engine's, on the cart as a whole). A
 * cart changed in one line so resolves that line again, and reuses the items of the others. Facts
 * are one object per product per catalog version (CatalogService's `pricingFacts`), so after a
 * catalog change, which moves the version, nothing remembered is used. A remembered item is shared
 * by every price that uses it: its parts are never changed. The item first resolved for a line is
 * frozen, so code that would change an item fails at once, in every test that prices a line; the
 * same item in another quantity is not (freezing it was a fifth of a cart change's pricing).
 */
export class LineResolver {
  /** Per product's facts (one object per catalog version), each line id's resolved line. */
  private resolvedByFacts = new WeakMap<ProductFacts, Map<string, ResolvedEntry>>();
  private resolvedCount = 0;

  resolve(line: StoredLine, facts: ReadonlyMap<string, ProductFacts>, currency: Currency): ResolvedLine {
    if (line.custom) return resolveCustomLine(line, currency);
    const fact = factOf(line, facts);
    if (!fact) return resolveCatalogLine(line, undefined, currency).resolved;
    let byId = this.resolvedByFacts.get(fact);
    const remembered = byId?.get(line.id);
    const rest = restOf(line);
    if (
      remembered &&
      remembered.currency === currency &&
      remembered.appId === line.catalogReference?.appId &&
      remembered.catalogItemId === line.catalogReference?.catalogItemId &&
      remembered.chosenVariantId === line.chosenVariantId &&
      remembered.rest === rest
    ) {
      if (remembered.quantity === line.quantity) return remembered.resolved;
      // the same item in another quantity (the commonest change of a cart): only its quantity's parts move
      remembered.quantity = line.quantity;
      remembered.resolved = inQuantity(remembered, line.quantity, currency);
      return remembered.resolved;
    }
    const { resolved, stock } = resolveCatalogLine(line, fact, currency);
    Object.freeze(resolved.lineItem);
    if (this.resolvedCount >= MAX_RESOLVED_LINES) {
      // full: start again (a shop's active carts fill it back within moments)
      this.resolvedByFacts = new WeakMap();
      this.resolvedCount = 0;
      byId = undefined;
    }
    if (!byId) {
      byId = new Map();
      this.resolvedByFacts.set(fact, byId);
    }
    if (!byId.has(line.id)) this.resolvedCount++;
    byId.set(line.id, {
      quantity: line.quantity,
      appId: line.catalogReference?.appId,
      catalogItemId: line.catalogReference?.catalogItemId,
      chosenVariantId: line.chosenVariantId,
      rest,
      currency,
      resolved,
      stock,
    });
    return resolved;
  }
}

/**
 * `remembered`'s item in `quantity`: the remembered item with its quantity, availability and line price replaced,
 * so the product's part of the item is not built again.
 */
function inQuantity(remembered: ResolvedEntry, quantity: number, currency: Currency): ResolvedLine {
  const before = remembered.resolved;
  const availability = remembered.stock(quantity);
  const amount = before.unitPrice.times(quantity);
  // a copy with three values replaced keeps the item's key order (the wire answer's); set one by one,
  // as an object literal that spreads and then names more keys is slow on Node 20
  remembered.template ??= { ...before.lineItem };
  const item = { ...remembered.template };
  item.quantity = quantity;
  item.availability = availability;
  item.lineItemPrice = currency.price(amount);
  const resolved = { ...before };
  resolved.quantity = quantity;
  resolved.lineItem = item;
  resolved.amount = amount;
  resolved.counted = isCounted(availability);
  return resolved;
}

const isCounted = (availability: ItemAvailabilityInfo) =>
  availability.status === 'AVAILABLE' || availability.status === 'PARTIALLY_AVAILABLE';

/** A catalog line's options and overrides as JSON text; undefined when it has neither (most lines). */
function restOf(line: StoredLine): string | undefined {
  const options = line.catalogReference?.options;
  return options == null && line.catalogOverrideFields == null
    ? undefined
    : JSON.stringify([options ?? null, line.catalogOverrideFields ?? null]);
}

/** The product a catalog line names, when it is a stores product the catalog read. */
function factOf(line: StoredLine, facts: ReadonlyMap<string, ProductFacts>): ProductFacts | undefined {
  const reference = line.catalogReference;
  if (reference?.appId !== undefined && reference.appId !== STORES_APP_ID) return undefined;
  return facts.get(reference?.catalogItemId ?? '');
}

function resolveCatalogLine(
  line: StoredLine,
  fact: ProductFacts | undefined,
  currency: Currency,
): { resolved: ResolvedLine; stock: (quantity: number) => ItemAvailabilityInfo } {
  const reference = line.catalogReference ?? {};
  const variant = fact?.visible
    ? chosenVariant(fact.record, reference.options, line.chosenVariantId)
    : undefined;
  const subscription = variant ? subscriptionChosen(fact!.record, reference.options) : undefined;
  const modifiers = variant ? chosenModifiers(fact!.record, reference.options) : undefined;
  // a product still sold whose chosen variant is gone keeps its name, so the buyer knows what to remove;
  // so does a line naming a subscription, or modifiers, the product no longer has
  if (!fact || !variant || subscription === null || !modifiers?.ok) {
    const resolved = notFoundLine(line, fact?.visible ? fact.record.name : '', currency);
    return { resolved, stock: () => resolved.lineItem.availability as ItemAvailabilityInfo };
  }

  const { record } = fact;
  const override = line.catalogOverrideFields ?? {};
  const listPrice = currency.round(new Big(variant.price ?? record.price));
  // the chosen modifiers' prices add to the variant's, before and after its discount (the hosted v3 cart)
  const added = currency.round(modifiers.addedPrice);
  const fullUnitPrice = decimal(override.fullPrice) ?? decimal(override.price) ?? listPrice.plus(added);
  const unitPrice = currency.round(
    decimal(override.price) ??
      subscribed(catalogDiscounted(listPrice, record, currency).plus(added), subscription, currency),
  );
  const shippable = override.physicalProperties?.shippable ?? record.productType === 'physical';
  const weight = override.physicalProperties?.weight ?? variant.weight ?? record.weight ?? 0;
  const availability = stockOf(record, variant, line.quantity);
  const amount = unitPrice.times(line.quantity);
  const lineItem: LineItem = {
    id: line.id,
    quantity: line.quantity,
    // copies: a kept item is frozen, and the stored line stays the caller's own
    catalogReference: jsonCopy(reference),
    productName: override.productName ?? { original: record.name, translated: record.name },
    url: { relativePath: `/product-page/${record.slug}`, url: linkTo(`/product-page/${record.slug}`) },
    descriptionLines: override.descriptionLines ?? [
      ...descriptionLinesOf(record, variant),
      ...modifiers.descriptionLines,
      ...preorderLines(record, variant),
    ],
    image: override.image ?? imageOf(record, variant),
    availability,
    physicalProperties: {
      weight,
      sku: override.physicalProperties?.sku ?? (variant.sku || record.sku || null),
      shippable,
    },
    itemType: { preset: record.productType === 'digital' ? 'DIGITAL' : 'PHYSICAL' },
    paymentOption: override.paymentOption?.value ?? 'FULL_PAYMENT_ONLINE',
    rootCatalogItemId: record.id,
    customLineItem: false,
    priceUndetermined: false,
    fixedQuantity: false,
    ...(line.catalogOverrideFields ? { catalogOverrideFields: jsonCopy(line.catalogOverrideFields) } : {}),
    ...(subscription ? { subscriptionOptionInfo: subscriptionOptionInfo(subscription) } : {}),
  };
  const resolved: ResolvedLine = {
    id: line.id,
    quantity: line.quantity,
    lineItem: withPrices(lineItem, unitPrice, currency.round(fullUnitPrice), amount, currency),
    unitPrice,
    fullUnitPrice: currency.round(fullUnitPrice),
    amount,
    counted: isCounted(availability),
    productId: record.id,
    collectionIds: fact.collectionIds,
    unitWeight: new Big(weight),
    shippable,
  };
  return { resolved, stock: (quantity) => stockOf(record, variant, quantity) };
}

function resolveCustomLine(line: StoredLine, currency: Currency): ResolvedLine {
  const custom = line.custom!;
  const unitPrice = currency.round(maxBig(decimal(custom.price) ?? ZERO, ZERO));
  const fullUnitPrice = currency.round(maxBig(decimal(custom.fullPrice) ?? unitPrice, ZERO));
  const shippable = custom.physicalProperties?.shippable ?? false;
  const weight = custom.physicalProperties?.weight ?? 0;
  const available = custom.quantityAvailable;
  const availability: ItemAvailabilityInfo =
    available === null || available === undefined
      ? { status: 'AVAILABLE', quantityAvailable: null }
      : shortOf(available, line.quantity);
  const amount = unitPrice.times(line.quantity);
  const lineItem: LineItem = {
    id: line.id,
    quantity: line.quantity,
    ...(custom.catalogReference ? { catalogReference: custom.catalogReference } : {}),
    productName: custom.productName ?? { original: '', translated: '' },
    ...(custom.url ? { url: custom.url } : {}),
    descriptionLines: custom.descriptionLines ?? [],
    ...(custom.media ? { image: { url: custom.media } } : {}),
    availability,
    physicalProperties: { weight, sku: custom.physicalProperties?.sku ?? null, shippable },
    itemType: custom.itemType ?? { preset: 'CUSTOM_AMOUNT_ITEM' },
    paymentOption: custom.paymentOption ?? 'FULL_PAYMENT_ONLINE',
    ...(custom.serviceProperties ? { serviceProperties: custom.serviceProperties } : {}),
    rootCatalogItemId: custom.rootCatalogItemId ?? null,
    customLineItem: true,
    priceUndetermined: custom.priceUndetermined ?? false,
    fixedQuantity: custom.fixedQuantity ?? false,
  };
  return {
    id: line.id,
    quantity: line.quantity,
    lineItem: withPrices(lineItem, unitPrice, fullUnitPrice, amount, currency),
    unitPrice,
    fullUnitPrice,
    amount,
    counted: availability.status !== 'NOT_AVAILABLE',
    productId: custom.catalogReference?.catalogItemId ?? null,
    collectionIds: [],
    unitWeight: new Big(weight),
    shippable,
  };
}

/** A line whose product, or whose variant, the catalog no longer sells: kept so the buyer can remove it. */
function notFoundLine(line: StoredLine, name: string, currency: Currency): ResolvedLine {
  const lineItem: LineItem = {
    id: line.id,
    quantity: line.quantity,
    ...(line.catalogReference ? { catalogReference: line.catalogReference } : {}),
    productName: { original: name, translated: name },
    descriptionLines: [],
    availability: { status: 'NOT_FOUND', quantityAvailable: 0 },
    physicalProperties: { weight: 0, sku: null, shippable: false },
    itemType: { preset: 'PHYSICAL' },
    paymentOption: 'FULL_PAYMENT_ONLINE',
    customLineItem: false,
  };
  return {
    id: line.id,
    quantity: line.quantity,
    lineItem: withPrices(lineItem, ZERO, ZERO, ZERO, currency),
    unitPrice: ZERO,
    fullUnitPrice: ZERO,
    amount: ZERO,
    counted: false,
    productId: line.catalogReference?.catalogItemId ?? null,
    collectionIds: [],
    unitWeight: ZERO,
    shippable: false,
  };
}

/**
 * The item's own prices: what one unit costs, before and after the catalog's discount, and times the
 * quantity. The cart's discounts never change them (they are the engine's `calculatedLineItems`).
 */
function withPrices(
  item: LineItem,
  unitPrice: Big,
  fullUnitPrice: Big,
  amount: Big,
  currency: Currency,
): LineItem {
  const price = currency.price(unitPrice);
  return Object.assign(item, {
    price,
    fullPrice: fullUnitPrice.eq(unitPrice) ? price : currency.price(fullUnitPrice),
    priceBeforeDiscounts: price,
    lineItemPrice: currency.price(amount),
  });
}

/** A copy of a JSON value (a stored line's reference or overrides). */
function jsonCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(jsonCopy) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) copy[key] = jsonCopy(child);
  return copy as T;
}

function catalogDiscounted(listPrice: Big, record: ProductRecord, currency: Currency): Big {
  const value = new Big(record.discount?.value ?? 0);
  switch (record.discount?.type) {
    case 'AMOUNT':
      return maxBig(listPrice.minus(value), ZERO);
    case 'PERCENT':
      return maxBig(currency.round(listPrice.times(new Big(100).minus(value)).div(100)), ZERO);
    default:
      return listPrice;
  }
}

/**
 * The subscription a line's `options.subscriptionOptionId` buys (the hosted catalog's way of naming
 * it): undefined when it names none (bought once), null when the product has no such subscription.
 */
export function subscriptionChosen(
  record: ProductRecord,
  options: Record<string, unknown> | null | undefined,
): SubscriptionRecord | null | undefined {
  const id = options?.subscriptionOptionId;
  if (typeof id !== 'string' || id === '') return undefined;
  return record.subscriptions?.find((subscription) => subscription.id === id && subscription.visible) ?? null;
}

/** A unit's price bought by subscription: its subscription's discount taken off (never below 0). */
function subscribed(price: Big, subscription: SubscriptionRecord | undefined, currency: Currency): Big {
  const discount = subscription?.discount;
  if (!discount) return price;
  const value = new Big(discount.value);
  return discount.type === 'AMOUNT'
    ? maxBig(price.minus(value), ZERO)
    : maxBig(currency.round(price.times(new Big(100).minus(value)).div(100)), ZERO);
}

/** What a line bought by subscription shows of it (the hosted `subscriptionOptionInfo`). */
function subscriptionOptionInfo(
  subscription: SubscriptionRecord,
): NonNullable<LineItem['subscriptionOptionInfo']> {
  const text = (value: string) => ({ original: value, translated: value });
  return {
    subscriptionSettings: {
      frequency: subscription.frequency,
      interval: subscription.interval,
      autoRenewal: subscription.billingCycles === null,
      billingCycles: subscription.billingCycles,
      enableCustomerCancellation: true,
    },
    title: text(subscription.title),
    description: text(subscription.description ?? ''),
  };
}

/**
 * What makes two catalog lines the same item: the product, the variant (however the options name it)
 * and the overrides; custom lines never are (undefined).
 */
export function sameItemKey(line: StoredLine): string | undefined {
  const reference = line.catalogReference;
  if (!reference) return undefined;
  const options = reference.options;
  const named = typeof options?.variantId === 'string' ? options.variantId : (options ?? null);
  const variant = line.chosenVariantId ?? (named === DEFAULT_VARIANT_ID ? null : named);
  // bought by subscription and bought once are two items
  const subscription =
    typeof options?.subscriptionOptionId === 'string' ? options.subscriptionOptionId : null;
  // most lines name a product alone: its id is the key (no JSON text starts with '#')
  // a variant named by its id with modifiers chosen or texts written: another item per choice
  const modifiers = line.chosenModifiers === undefined ? [] : [line.chosenModifiers];
  if (
    variant === null &&
    subscription === null &&
    line.catalogOverrideFields == null &&
    modifiers.length === 0
  )
    return `#${reference.catalogItemId}`;
  return JSON.stringify([
    reference.catalogItemId,
    variant,
    line.catalogOverrideFields ?? null,
    ...(subscription === null ? [] : [subscription]),
    ...modifiers,
  ]);
}

/**
 * The variant a catalog line's options choose, when the product is sold and the options name one of
 * its variants: the same variant named by its id, by its choices or with the choices spelled in
 * another case is one variant. Undefined otherwise.
 */
export function chosenVariantId(
  fact: ProductFacts | undefined,
  options: Record<string, unknown> | null | undefined,
): string | undefined {
  return fact?.visible ? chosenVariant(fact.record, options)?.id : undefined;
}

/**
 * The variant a line is sold as: the one it recorded when added (`chosenVariantId`), else the one its
 * options name; never a hidden one.
 */
function chosenVariant(
  record: ProductRecord,
  options: Record<string, unknown> | null | undefined,
  chosenId?: string,
): VariantRecord | undefined {
  const found = chosenId
    ? record.variants.find((variant) => variant.id === chosenId)
    : variantNamedBy(record, options);
  return found?.visible === false ? undefined : found;
}

function stockOf(record: ProductRecord, variant: VariantRecord, quantity: number): ItemAvailabilityInfo {
  if (!record.trackInventory) {
    return variant.inStock
      ? { status: 'AVAILABLE', quantityAvailable: null }
      : { status: 'NOT_AVAILABLE', quantityAvailable: 0 };
  }
  const available = Math.max(0, variant.quantity ?? 0);
  const open = openPreorders(variant);
  // past its stock, a variant on preorder sells up to its preorder limit (checkout counts them: stock.ts)
  if (open > 0 && available < quantity) {
    if (open === Number.POSITIVE_INFINITY) return { status: 'AVAILABLE', quantityAvailable: null };
    return shortOf(available + open, quantity);
  }
  return shortOf(available, quantity);
}

/** How many more units a variant takes as preorders: 0 while off, infinite without a limit. */
function openPreorders(variant: VariantRecord): number {
  const preorder = variant.preorder;
  if (!preorder?.enabled) return 0;
  return preorder.limit === null ? Number.POSITIVE_INFINITY : Math.max(0, preorder.limit - preorder.counter);
}

/** A line of a variant out of stock and on preorder says so, with the merchant's message. */
function preorderLines(record: ProductRecord, variant: VariantRecord): DescriptionLine[] {
  if (!record.trackInventory || (variant.quantity ?? 0) > 0 || openPreorders(variant) === 0) return [];
  const message = variant.preorder?.message || 'Ships when back in stock';
  return [
    {
      name: { original: 'Preorder', translated: 'Preorder' },
      plainText: { original: message, translated: message },
      lineType: 'PLAIN_TEXT',
    },
  ];
}

function shortOf(available: number, quantity: number): ItemAvailabilityInfo {
  if (available <= 0) return { status: 'NOT_AVAILABLE', quantityAvailable: 0 };
  if (available < quantity) return { status: 'PARTIALLY_AVAILABLE', quantityAvailable: available };
  return { status: 'AVAILABLE', quantityAvailable: available };
}

/** One line per option, in the product's order: "Size: M", "Color: Charcoal" (with its color code). */
function descriptionLinesOf(record: ProductRecord, variant: VariantRecord): DescriptionLine[] {
  return record.options.flatMap((option): DescriptionLine[] => {
    const chosen = variant.choices[option.name];
    if (chosen === undefined) return [];
    const name = { original: option.name, translated: option.name };
    if (option.optionType === 'color') {
      const choice = option.choices.find((c) => c.description === chosen);
      return [
        {
          name,
          colorInfo: { original: chosen, translated: chosen, code: choice?.value ?? null },
          lineType: 'COLOR',
        },
      ];
    }
    return [{ name, plainText: { original: chosen, translated: chosen }, lineType: 'PLAIN_TEXT' }];
  });
}

/** The chosen options' first image, else the product's main image. */
function imageOf(record: ProductRecord, variant: VariantRecord): Image | undefined {
  const choiceMediaIds = record.options.flatMap(
    (option) => option.choices.find((c) => c.description === variant.choices[option.name])?.mediaIds ?? [],
  );
  const media: MediaItem | undefined =
    choiceMediaIds.map((id) => record.media.find((item) => item.id === id)).find((item) => item?.image) ??
    record.media.find((item) => item.image);
  if (!media?.image?.url) return undefined;
  return {
    ...(media.id ? { id: media.id } : {}),
    url: media.image.url,
    ...(media.image.width ? { width: media.image.width } : {}),
    ...(media.image.height ? { height: media.image.height } : {}),
    altText: media.image.altText ?? null,
  };
}
