import { DEFAULT_VARIANT_ID, type MediaItem, type SeoData } from '@cartwheel/sdk';
import { applicationError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { MAX_PRODUCT_VARIANTS } from './limits.ts';
import { urlMediaItem } from './media.ts';
import {
  type ChoiceRecord,
  type ModifierRecord,
  type OptionRecord,
  type ProductRecord,
  revisionOf,
  type SubscriptionRecord,
  type VariantRecord,
} from './model.ts';
import {
  type AssignedCustomizations,
  assignedModifier,
  assignedOption,
} from './v3-assigned-customizations.ts';
import {
  choiceIdFor,
  choiceIdOf,
  modifierChoiceIdOf,
  modifierIdOf,
  optionIdFor,
  optionIdOf,
} from './v3-model.ts';
import type {
  MediaInputV3,
  ModifierInputV3,
  OptionInputV3,
  ProductInputV3,
  SubscriptionInputV3,
  TagsInputV3,
  VariantInputV3,
} from './v3-schemas.ts';
import { slugify, Violations } from './validation.ts';

/**
 * A v3 product as the wire writes it, applied to the record v1 writes too (model.ts). The v3 shape
 * names every variant with its own price; the record keeps a product price and a discount, so:
 *
 * - a product of one variant keeps that variant's price, cost, weight and SKU as the product's;
 * - a product of several keeps the lowest price as the product's and each other price on its variant;
 * - `compareAtPrice` above `actualPrice` is the product's discount: the same amount on every variant,
 *   since Cartwheel discounts a product as a whole (a different amount per variant is refused).
 *
 * Stock is not written here (inventory items are); a variant keeps the stock of the variant it
 * replaces (by id, else by choices), and a new one starts in stock, its quantity uncounted.
 */

const PATH = 'product';

/** Applies a create (`creating`) or an update to `base`; every violation of the request at once. */
export function applyProductV3(
  base: ProductRecord,
  input: ProductInputV3,
  creating: boolean,
  assigned: AssignedCustomizations = new Map(),
): ProductRecord {
  const v = new Violations();
  const next: ProductRecord = structuredClone(base);

  if (creating || input.name !== undefined) {
    const name = v.requiredText(input.name ?? undefined, `${PATH}.name`);
    if (name !== undefined) next.name = name.trim();
  }
  if (input.slug !== undefined && input.slug !== null && input.slug !== '') {
    next.slug = v.slug(input.slug, `${PATH}.slug`) ?? next.slug;
  } else if (creating) {
    next.slug = slugify(next.name);
  }
  if (input.plainDescription !== undefined) next.description = input.plainDescription ?? '';
  if (input.visible !== undefined && input.visible !== null) next.visible = input.visible;
  if (input.visibleInPos !== undefined && input.visibleInPos !== null) next.visibleInPos = input.visibleInPos;
  if (input.productType !== undefined)
    next.productType = input.productType === 'DIGITAL' ? 'digital' : 'physical';
  else if (creating) v.add(`${PATH}.productType`, 'is required', 'REQUIRED_FIELD');
  if (input.brand !== undefined) namedReference(next, input.brand, 'brand');
  if (input.ribbon !== undefined) namedReference(next, input.ribbon, 'ribbon');
  if (input.additionalRibbons !== undefined) {
    // by id or by name, as the main ribbon; saving checks the ids and finds or makes the named (v3-references.ts)
    next.additionalRibbons = (input.additionalRibbons ?? []).map((ribbon, index) => {
      const id = ribbon.id ?? '';
      const name = ribbon.name?.trim() ?? '';
      if (!id && !name)
        v.add(`${PATH}.additionalRibbons[${index}]`, 'needs an id or a name', 'REQUIRED_FIELD');
      return { id, name: id ? '' : name };
    });
  }
  if (input.tags !== undefined) next.tags = tagsOf(input.tags);
  if (input.infoSections !== undefined) {
    // the entities' titles and descriptions are copied in when saved (v3-references.ts)
    next.infoSections = (input.infoSections ?? []).map((section) => ({
      id: section.id ?? '',
      uniqueName: section.uniqueName ?? '',
    }));
    for (const [index, section] of next.infoSections.entries()) {
      if (!section.id && !section.uniqueName)
        v.add(`${PATH}.infoSections[${index}]`, 'needs an id or a uniqueName', 'REQUIRED_FIELD');
    }
  }
  // any object: the hosted platform's SEO tags are the merchant's to shape
  if (input.seoData !== undefined) next.seoData = input.seoData as SeoData | null;
  if (input.media !== undefined) next.media = mediaOf(v, input.media, base.media);
  if (input.subscriptionDetails !== undefined) {
    const details = input.subscriptionDetails;
    next.subscriptions = (details?.subscriptions ?? []).map((subscription, index) =>
      subscriptionOf(v, subscription, `${PATH}.subscriptionDetails.subscriptions[${index}]`, base),
    );
    next.allowOneTimePurchases = details?.allowOneTimePurchases ?? false;
  }

  if (input.modifiers !== undefined) next.modifiers = modifiersOf(v, input.modifiers ?? [], assigned);

  const variants = input.variantsInfo?.variants;
  if (input.options !== undefined) {
    const options = optionsOf(v, input.options, assigned);
    if (options) next.options = options;
    if (variants === undefined) {
      v.add(`${PATH}.variantsInfo.variants`, 'is required when the options change', 'REQUIRED_FIELD');
    }
  }
  if (variants !== undefined) applyVariants(v, next, variants, base.variants);
  else if (creating) v.add(`${PATH}.variantsInfo.variants`, 'is required', 'REQUIRED_FIELD');
  v.throwIfAny();
  return next;
}

/**
 * One way of selling by subscription: open-ended (`autoRenewal`) or for `billingCycles`, never both
 * nor neither; a discount of its own type's amount. An id the product had keeps its subscription (so
 * contracts keep naming it); a new one gets an id.
 */
function subscriptionOf(
  v: Violations,
  input: SubscriptionInputV3,
  path: string,
  base: ProductRecord,
): SubscriptionRecord {
  const cycles = input.billingCycles;
  if (cycles !== undefined && input.autoRenewal === true)
    v.add(`${path}.billingCycles`, 'is not allowed with autoRenewal', 'VALIDATION');
  if (cycles === undefined && input.autoRenewal !== true)
    v.add(`${path}.autoRenewal`, 'is required (true) when billingCycles is not set', 'REQUIRED_FIELD');
  let discount: SubscriptionRecord['discount'] = null;
  const off = input.discount;
  if (off?.type === 'AMOUNT') {
    const amount = Number(off.amountOff);
    if (off.amountOff === undefined || !(amount > 0))
      v.add(`${path}.discount.amountOff`, 'is required and above 0 for an AMOUNT discount', 'REQUIRED_FIELD');
    else discount = { type: 'AMOUNT', value: amount };
  } else if (off?.type === 'PERCENT') {
    if (off.percentOff === undefined)
      v.add(`${path}.discount.percentOff`, 'is required for a PERCENT discount', 'REQUIRED_FIELD');
    else discount = { type: 'PERCENT', value: off.percentOff };
  }
  const known = input.id
    ? base.subscriptions?.find((subscription) => subscription.id === input.id)
    : undefined;
  return {
    id: known?.id ?? input.id ?? newId(),
    title: input.title,
    description: input.description ?? null,
    visible: input.visible ?? true,
    frequency: input.frequency,
    interval: input.interval ?? 1,
    billingCycles: cycles ?? null,
    discount,
  };
}

/** A product's tags as given: each list's ids once, in their order; an absent list is empty. */
export function tagsOf(tags: TagsInputV3 | null): NonNullable<ProductRecord['tags']> {
  const ids = (list: { tagIds?: string[] } | null | undefined) => [...new Set(list?.tagIds ?? [])];
  return { publicTagIds: ids(tags?.publicTags), privateTagIds: ids(tags?.privateTags) };
}

/** Refuses an update that read another revision than the record's (the hosted `revision` check). */
export function checkRevision(record: ProductRecord, revision: string | null | undefined): void {
  const v = new Violations();
  if (revision === undefined || revision === null || revision === '') {
    v.add(`${PATH}.revision`, 'is required', 'REQUIRED_FIELD');
    v.throwIfAny();
  }
  const current = String(revisionOf(record));
  if (revision !== current) {
    throw applicationError(
      'ABORTED',
      'REVISION_MISMATCH',
      `product ${record.id} is at revision ${current}, not ${revision}: read it again and retry`,
      { id: record.id, revision: current },
    );
  }
}

/**
 * A brand or ribbon by id or by name; null or `{}`: none. Saving checks the id and finds or makes
 * the entity of a name (v3-references.ts).
 */
function namedReference(
  next: ProductRecord,
  reference: { id?: string | null; name?: string | null } | null,
  kind: 'brand' | 'ribbon',
): void {
  const idKey = kind === 'brand' ? 'brandId' : 'ribbonId';
  const id = reference?.id ?? undefined;
  if (id) {
    if (id !== next[idKey]) next[kind] = '';
    next[idKey] = id;
    return;
  }
  delete next[idKey];
  next[kind] = reference?.name?.trim() ?? '';
}

/** `main` first, then `itemsInfo.items`; an item names a URL, or the id of one the product has. */
function mediaOf(
  v: Violations,
  media: NonNullable<ProductInputV3['media']>,
  current: MediaItem[],
): MediaItem[] {
  const listed: Array<[MediaInputV3, string]> = [];
  if (media.main) listed.push([media.main, `${PATH}.media.main`]);
  for (const [index, item] of (media.itemsInfo?.items ?? []).entries()) {
    listed.push([item, `${PATH}.media.itemsInfo.items[${index}]`]);
  }
  const known = new Map(current.map((item) => [item.id, item]));
  const items: MediaItem[] = [];
  const seen = new Set<string>();
  for (const [item, path] of listed) {
    let next: MediaItem | undefined;
    if (item.id && known.has(item.id)) next = known.get(item.id);
    else if (item.url) {
      if (!/^https?:\/\//.test(item.url)) {
        v.add(`${path}.url`, 'must be an http or https address', 'FORMAT');
        continue;
      }
      next = urlMediaItem(item.id || newId(), item.url, item.displayName ?? item.altText ?? undefined);
    } else {
      v.add(
        path,
        item.id ? 'names no media item of this product' : 'needs a url or the id of a media item',
        'VALIDATION',
      );
      continue;
    }
    if (next && !seen.has(next.id ?? '')) {
      seen.add(next.id ?? '');
      items.push(next);
    }
  }
  return items;
}

function optionsOf(
  v: Violations,
  options: OptionInputV3[],
  assigned: AssignedCustomizations,
): OptionRecord[] | undefined {
  const before = v.list.length;
  const names = new Set<string>();
  const records = options.map((option, index): OptionRecord => {
    const path = `${PATH}.options[${index}]`;
    const customization = option.id ? assigned.get(option.id) : undefined;
    if (customization) {
      // an assigned customization: its name, render type and choices (v3-assigned-customizations.ts)
      if (names.has(customization.name.toLowerCase()))
        v.add(`${path}.id`, 'names a customization named as another option', 'VALIDATION');
      names.add(customization.name.toLowerCase());
      return assignedOption(v, option, customization, path);
    }
    const name = v.requiredText(option.name ?? undefined, `${path}.name`)?.trim() ?? '';
    if (name && names.has(name.toLowerCase()))
      v.add(`${path}.name`, 'names another option too', 'VALIDATION');
    names.add(name.toLowerCase());
    if (option.id && name && option.id !== optionIdOf(name)) {
      v.add(`${path}.id`, `is not the id of option ${JSON.stringify(name)}`, 'VALIDATION');
    }
    const color = option.optionRenderType === 'SWATCH_CHOICES';
    const choices = option.choicesSettings?.choices ?? [];
    if (choices.length === 0)
      v.add(`${path}.choicesSettings.choices`, 'needs at least one choice', 'MIN_SIZE');
    const choiceNames = new Set<string>();
    return {
      name,
      optionType: color ? 'color' : 'drop_down',
      choices: choices.map((choice, choiceIndex): ChoiceRecord => {
        const choicePath = `${path}.choicesSettings.choices[${choiceIndex}]`;
        const description = v.requiredText(choice.name ?? undefined, `${choicePath}.name`)?.trim() ?? '';
        if (description && choiceNames.has(description.toLowerCase())) {
          v.add(`${choicePath}.name`, 'names another choice of this option too', 'VALIDATION');
        }
        choiceNames.add(description.toLowerCase());
        if (choice.choiceId && name && description && choice.choiceId !== choiceIdOf(name, description)) {
          v.add(
            `${choicePath}.choiceId`,
            `is not the id of choice ${JSON.stringify(description)}`,
            'VALIDATION',
          );
        }
        if (color && !/^#[0-9a-fA-F]{6}$/.test(choice.colorCode ?? '')) {
          v.add(`${choicePath}.colorCode`, 'a swatch choice needs a color as #rrggbb', 'FORMAT');
        }
        return { value: color ? (choice.colorCode ?? '') : description, description, mediaIds: [] };
      }),
    };
  });
  return v.list.length === before ? records : undefined;
}

/**
 * The product's modifiers: each a unique name (its key on a cart line) and either choices, unique
 * within it, each with its added price, or a free text (`FREE_TEXT`) with its bounds and added price.
 */
function modifiersOf(
  v: Violations,
  modifiers: ModifierInputV3[],
  assigned: AssignedCustomizations,
): ModifierRecord[] {
  const names = new Set<string>();
  return modifiers.map((modifier, index): ModifierRecord => {
    const path = `${PATH}.modifiers[${index}]`;
    const customization = modifier.id ? assigned.get(modifier.id) : undefined;
    if (customization) {
      if (names.has(customization.name.toLowerCase()))
        v.add(`${path}.id`, 'names a customization named as another modifier', 'VALIDATION');
      names.add(customization.name.toLowerCase());
      return assignedModifier(v, modifier, customization, path);
    }
    const name = v.requiredText(modifier.name ?? undefined, `${path}.name`)?.trim() ?? '';
    if (name && names.has(name.toLowerCase()))
      v.add(`${path}.name`, 'names another modifier too', 'VALIDATION');
    names.add(name.toLowerCase());
    if (modifier.id && name && modifier.id !== modifierIdOf(name)) {
      v.add(`${path}.id`, `is not the id of modifier ${JSON.stringify(name)}`, 'VALIDATION');
    }
    const renderType = modifier.modifierRenderType ?? 'TEXT_CHOICES';
    const mandatory = modifier.mandatory ?? modifier.toBeRemovedMandatory ?? false;
    if (renderType === 'FREE_TEXT') {
      const settings = modifier.freeTextSettings ?? {};
      const minCharCount = settings.minCharCount ?? 0;
      const maxCharCount = settings.maxCharCount ?? 500;
      if (minCharCount > maxCharCount)
        v.add(`${path}.freeTextSettings.minCharCount`, 'is above maxCharCount', 'VALIDATION');
      const title = settings.title?.trim() || name;
      return {
        name,
        renderType,
        mandatory,
        choices: [],
        freeText: { title, minCharCount, maxCharCount, addedPrice: Number(settings.defaultAddedPrice ?? 0) },
      };
    }
    const choices = modifier.choicesSettings?.choices ?? [];
    if (choices.length === 0)
      v.add(`${path}.choicesSettings.choices`, 'needs at least one choice', 'MIN_SIZE');
    const color = renderType === 'SWATCH_CHOICES';
    const choiceNames = new Set<string>();
    return {
      name,
      renderType,
      mandatory,
      choices: choices.map((choice, choiceIndex) => {
        const choicePath = `${path}.choicesSettings.choices[${choiceIndex}]`;
        const choiceName = v.requiredText(choice.name ?? undefined, `${choicePath}.name`)?.trim() ?? '';
        if (choiceName && choiceNames.has(choiceName.toLowerCase()))
          v.add(`${choicePath}.name`, 'names another choice of this modifier too', 'VALIDATION');
        choiceNames.add(choiceName.toLowerCase());
        if (
          choice.choiceId &&
          name &&
          choiceName &&
          choice.choiceId !== modifierChoiceIdOf(name, choiceName)
        ) {
          v.add(
            `${choicePath}.choiceId`,
            `is not the id of choice ${JSON.stringify(choiceName)}`,
            'VALIDATION',
          );
        }
        if (color && !/^#[0-9a-fA-F]{6}$/.test(choice.colorCode ?? '')) {
          v.add(`${choicePath}.colorCode`, 'a swatch choice needs a color as #rrggbb', 'FORMAT');
        }
        return {
          name: choiceName,
          ...(color ? { colorCode: choice.colorCode ?? '' } : {}),
          addedPrice: Number(choice.addedPrice ?? 0),
        };
      }),
    };
  });
}

/** The variants as listed: each names one choice of every option, and no two the same ones. */
function applyVariants(
  v: Violations,
  next: ProductRecord,
  inputs: VariantInputV3[],
  previous: VariantRecord[],
): void {
  const path = `${PATH}.variantsInfo.variants`;
  if (inputs.length === 0) {
    v.add(path, 'needs at least one variant', 'MIN_SIZE');
    return;
  }
  if (next.options.length === 0 && inputs.length > 1) {
    v.add(path, 'a product without options has one variant', 'MAX_SIZE');
    return;
  }
  if (inputs.length > MAX_PRODUCT_VARIANTS) return; // the schema says so
  const byId = new Map(previous.map((variant) => [variant.id, variant]));
  const keyOf = (choices: Record<string, string>) =>
    JSON.stringify(next.options.map((option) => choices[option.name] ?? ''));
  const byChoices = new Map(previous.map((variant) => [keyOf(variant.choices), variant]));
  const seenKeys = new Set<string>();
  const seenIds = new Set<string>();
  const parsed: Array<{ variant: VariantRecord; base: number; compareAt: number | undefined }> = [];
  for (const [index, input] of inputs.entries()) {
    const at = `${path}[${index}]`;
    const choices = choicesOf(v, next.options, input, at);
    if (!choices) continue;
    const key = keyOf(choices);
    if (seenKeys.has(key)) v.add(`${at}.choices`, 'names the same choices as another variant', 'VALIDATION');
    seenKeys.add(key);
    const actual = amountOf(v, input.price?.actualPrice?.amount, `${at}.price.actualPrice.amount`, true);
    const compareAt = amountOf(
      v,
      input.price?.compareAtPrice?.amount,
      `${at}.price.compareAtPrice.amount`,
      false,
    );
    const cost = amountOf(v, input.revenueDetails?.cost?.amount, `${at}.revenueDetails.cost.amount`, false);
    const weight = input.physicalProperties?.weight;
    if (weight !== undefined && weight !== null && weight < 0) {
      v.add(`${at}.physicalProperties.weight`, 'must be zero or more', 'DECIMAL_GTE');
    }
    const id = input.id || (next.options.length === 0 ? DEFAULT_VARIANT_ID : undefined);
    if (id && seenIds.has(id)) v.add(`${at}.id`, 'is the id of another variant too', 'VALIDATION');
    if (id) seenIds.add(id);
    const replaced = (id ? byId.get(id) : undefined) ?? byChoices.get(key);
    if (actual === undefined) continue;
    parsed.push({
      base: compareAt !== undefined && compareAt > actual ? compareAt : actual,
      compareAt: compareAt !== undefined && compareAt > actual ? compareAt : undefined,
      variant: {
        id: id ?? replaced?.id ?? newId(),
        choices,
        price: actual,
        cost: cost ?? null,
        weight: weight ?? null,
        sku: input.sku ?? '',
        visible: input.visible ?? true,
        quantity: replaced ? replaced.quantity : next.trackInventory ? 0 : null,
        inStock: replaced ? replaced.inStock : true,
        ...(replaced?.preorder ? { preorder: replaced.preorder } : {}),
      },
    });
  }
  if (v.list.length > 0 || parsed.length === 0) return;

  // the discount: the same amount off every variant, or none
  const offs = new Set(parsed.map(({ base, variant }) => Math.round((base - (variant.price ?? 0)) * 100)));
  if (offs.size > 1) {
    v.add(
      `${path}`,
      'compareAtPrice must be the same amount above actualPrice on every variant: Cartwheel discounts a product as a whole',
      'VALIDATION',
    );
    return;
  }
  const off = ([...offs][0] ?? 0) / 100;
  next.discount = off > 0 ? { type: 'AMOUNT', value: off } : { type: 'NONE', value: 0 };
  const variants = parsed.map(({ base, variant }) => ({ ...variant, price: base }));
  next.manageVariants = next.options.length > 0;
  if (variants.length === 1 && next.options.length === 0) {
    // one variant: its price, cost, weight and SKU are the product's
    const [only] = variants as [VariantRecord];
    next.price = only.price ?? 0;
    next.cost = only.cost;
    next.weight = only.weight;
    next.sku = only.sku;
    next.variants = [{ ...only, price: null, cost: null, weight: null, sku: '' }];
    return;
  }
  next.price = Math.min(...variants.map((variant) => variant.price ?? 0));
  next.cost = null;
  next.weight = null;
  next.sku = '';
  next.variants = variants.map((variant) => ({
    ...variant,
    price: variant.price === next.price ? null : variant.price,
  }));
}

/** `{Size: 'M'}` from a variant's choices, by ids or by names: one choice of every option. */
function choicesOf(
  v: Violations,
  options: OptionRecord[],
  input: VariantInputV3,
  at: string,
): Record<string, string> | undefined {
  const listed = input.choices ?? [];
  const before = v.list.length;
  const choices: Record<string, string> = {};
  for (const [index, entry] of listed.entries()) {
    const path = `${at}.choices[${index}]`;
    const ids = entry.optionChoiceIds;
    const names = entry.optionChoiceNames;
    const option = ids?.optionId
      ? options.find((candidate) => optionIdFor(candidate) === ids.optionId)
      : options.find((candidate) => same(candidate.name, names?.optionName));
    if (!option) {
      v.add(path, 'names no option of this product', 'VALIDATION');
      continue;
    }
    const choice = ids?.choiceId
      ? option.choices.find((candidate) => choiceIdFor(option, candidate) === ids.choiceId)
      : option.choices.find((candidate) => same(candidate.description, names?.choiceName));
    if (!choice) {
      v.add(path, `names no choice of option ${JSON.stringify(option.name)}`, 'VALIDATION');
      continue;
    }
    if (choices[option.name] !== undefined)
      v.add(path, `names option ${JSON.stringify(option.name)} twice`, 'VALIDATION');
    choices[option.name] = choice.description;
  }
  for (const option of options) {
    if (choices[option.name] === undefined && v.list.length === before) {
      v.add(`${at}.choices`, `names no choice of option ${JSON.stringify(option.name)}`, 'REQUIRED_FIELD');
    }
  }
  return v.list.length === before ? choices : undefined;
}

const same = (a: string, b: string | undefined) => a.trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** A decimal-string amount of money: zero or more, in cents. */
function amountOf(
  v: Violations,
  text: string | undefined,
  path: string,
  required: boolean,
): number | undefined {
  if (text === undefined || text === '') {
    if (required) v.add(path, 'is required', 'REQUIRED_FIELD');
    return undefined;
  }
  if (!/^\d+(\.\d+)?$/.test(text.trim())) {
    v.add(path, 'must be a decimal amount, like "12.50"', 'FORMAT');
    return undefined;
  }
  return v.money(Number(text), path);
}
