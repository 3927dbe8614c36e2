import type { FieldViolation, OptionType, PricePerUnitData, RuleName, SeoData } from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { MAX_PRODUCT_VARIANTS } from './limits.ts';
import {
  choiceCombinations,
  defaultVariant,
  type OptionRecord,
  type ProductRecord,
  type VariantRecord,
} from './model.ts';
import { compatibleUnits, hasCents, isMeasurementUnit } from './pricing.ts';
import type { ProductInput, Selection, StockInput, VariantOverride } from './schemas.ts';

/**
 * The product rules a schema cannot say. Inputs come typed by their schemas (schemas.ts), which the
 * routes ran: types, lengths, enums and list sizes are checked there, once. What is left here needs
 * the value's meaning (a price in cents, a choice the product has, a name that is not blank) or
 * several fields at once (variants the options make, units that price per unit).
 */

/** Collects every field violation of one request, so the caller hears them all at once. */
export class Violations {
  readonly list: FieldViolation[] = [];
  add(field: string, description: string, rule: RuleName = 'VALIDATION'): void {
    this.list.push(violation(field, description, rule));
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw invalidArgument(this.list);
  }

  /** A price or cost: zero or more, in cents, at most 999999999. */
  money(value: number, field: string): number | undefined {
    if (value < 0) {
      this.add(field, 'must be zero or more', 'DECIMAL_GTE');
    } else if (!hasCents(value)) {
      this.add(field, 'must have at most two decimals', 'DECIMAL_MAX_SCALE');
    } else if (value > 999_999_999) {
      this.add(field, 'must be at most 999999999', 'DECIMAL_LTE');
    } else {
      return value;
    }
    return undefined;
  }

  /** A weight: zero or more. */
  amount(value: number, field: string): number | undefined {
    if (value < 0) this.add(field, 'must be zero or more', 'DECIMAL_GTE');
    else return value;
    return undefined;
  }

  /**
   * Text a product or collection must have (a name, a slug, a choice): absent is not text, and only
   * spaces is none.
   */
  requiredText(value: string | undefined, field: string): string | undefined {
    if (value === undefined) this.add(field, 'must be text', 'FORMAT');
    else if (value.trim() === '') this.add(field, 'is required', 'REQUIRED_FIELD');
    else return value;
    return undefined;
  }

  /** A slug as links write it: a letter or digit first, then letters, digits, - and _. */
  slug(value: string | undefined, field: string): string | undefined {
    const slug = this.requiredText(value, field);
    if (slug === undefined) return undefined;
    if (SLUG.test(slug)) return slug;
    this.add(field, 'may hold letters, digits, - and _ only', 'FORMAT');
    return undefined;
  }
}

const SLUG = /^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u;

/** `Classic Tee — Navy!` → `classic-tee-navy`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return slug || 'product';
}

/**
 * Applies a product as the wire writes it (create: `base` is a fresh record; update: the stored one)
 * and returns the new record, or throws every field violation of the request.
 */
export function applyProductInput(base: ProductRecord, p: ProductInput, creating: boolean): ProductRecord {
  const v = new Violations();
  const next: ProductRecord = structuredClone(base);

  if (creating || p.name !== undefined) {
    if (p.name === undefined) v.add('product.name', 'is required', 'REQUIRED_FIELD');
    else {
      const name = v.requiredText(p.name, 'product.name');
      if (name !== undefined) next.name = name.trim();
    }
  }
  if (p.slug !== undefined && p.slug !== '') {
    next.slug = v.slug(p.slug, 'product.slug') ?? next.slug;
  } else if (creating) {
    next.slug = slugify(next.name);
  }
  if (p.description !== undefined) next.description = p.description;
  if (p.visible !== undefined) next.visible = p.visible;
  if (p.productType !== undefined) next.productType = p.productType;
  if (p.sku !== undefined) next.sku = p.sku;
  if (p.weight !== undefined)
    next.weight = p.weight === null ? null : (v.amount(p.weight, 'product.weight') ?? next.weight);
  if (p.ribbon !== undefined) next.ribbon = p.ribbon;
  if (p.brand !== undefined) next.brand = p.brand;

  const priceInput = p.priceData?.price ?? p.price?.price;
  if (priceInput !== undefined) {
    next.price =
      v.money(
        priceInput,
        p.priceData?.price !== undefined ? 'product.priceData.price' : 'product.price.price',
      ) ?? next.price;
  } else if (creating) {
    v.add('product.priceData.price', 'is required', 'REQUIRED_FIELD');
  }
  const itemCost = p.costAndProfitData?.itemCost;
  if (itemCost !== undefined) {
    next.cost =
      itemCost === null ? null : (v.money(itemCost, 'product.costAndProfitData.itemCost') ?? next.cost);
  }
  if (p.discount !== undefined) applyDiscount(v, next, p.discount);
  if (p.pricePerUnitData !== undefined) {
    next.pricePerUnitData = p.pricePerUnitData === null ? null : parsePricePerUnit(v, p.pricePerUnitData);
  }
  if (p.additionalInfoSections !== undefined) {
    next.additionalInfoSections = p.additionalInfoSections.map((section) => ({
      title: section.title ?? '',
      description: section.description ?? '',
    }));
  }
  if (p.customTextFields !== undefined) {
    next.customTextFields = p.customTextFields.map((field) => ({
      title: field.title ?? '',
      maxLength: field.maxLength ?? 500,
      mandatory: field.mandatory === true,
    }));
  }
  // any object: the hosted platform's SEO tags are the merchant's to shape
  if (p.seoData !== undefined) next.seoData = p.seoData as SeoData | null;

  let variantsChanged = false;
  if (p.productOptions !== undefined) {
    const options = parseOptions(v, p.productOptions);
    if (options) {
      next.options = options;
      variantsChanged = true;
    }
  }
  if (p.manageVariants !== undefined && p.manageVariants !== next.manageVariants) {
    next.manageVariants = p.manageVariants;
    variantsChanged = true;
  }
  if (next.manageVariants && next.options.length === 0) {
    v.add('product.manageVariants', 'needs at least one product option', 'VALIDATION');
  }
  v.throwIfAny();
  if (variantsChanged || creating) next.variants = generateVariants(next, next.variants);

  if (p.stock) applyStock(v, next, next.variants, p.stock, 'product.stock');
  if (p.variants !== undefined && creating) {
    next.variants = applyVariantOverrides(next, p.variants, 'product.variants');
  }
  v.throwIfAny();
  return next;
}

function applyDiscount(
  v: Violations,
  next: ProductRecord,
  discount: NonNullable<ProductInput['discount']> | null,
): void {
  if (discount === null) {
    next.discount = { type: 'NONE', value: 0 };
    return;
  }
  const type = discount.type ?? 'NONE';
  const value = type === 'NONE' ? 0 : v.money(discount.value ?? 0, 'product.discount.value');
  if (value === undefined) return;
  if (type === 'PERCENT' && value > 100) {
    v.add('product.discount.value', 'a percentage must be at most 100', 'DECIMAL_LTE');
    return;
  }
  next.discount = { type, value };
}

/** Price per unit: both quantities above zero, both units known, and one unit priceable per the other. */
function parsePricePerUnit(
  v: Violations,
  data: NonNullable<ProductInput['pricePerUnitData']>,
): Required<PricePerUnitData> | null {
  const field = 'product.pricePerUnitData';
  const { totalQuantity, baseQuantity } = data;
  const total = data.totalMeasurementUnit;
  const base = data.baseMeasurementUnit;
  const before = v.list.length;
  if (totalQuantity === undefined || !(totalQuantity > 0))
    v.add(`${field}.totalQuantity`, 'must be more than zero', 'DECIMAL_GT');
  if (baseQuantity === undefined || !(baseQuantity > 0))
    v.add(`${field}.baseQuantity`, 'must be more than zero', 'DECIMAL_GT');
  if (!isMeasurementUnit(total))
    v.add(`${field}.totalMeasurementUnit`, 'is not a measurement unit', 'INVALID_ENUM_VALUE');
  if (!isMeasurementUnit(base))
    v.add(`${field}.baseMeasurementUnit`, 'is not a measurement unit', 'INVALID_ENUM_VALUE');
  if (v.list.length > before || !isMeasurementUnit(total) || !isMeasurementUnit(base)) return null;
  if (!compatibleUnits(total, base)) {
    v.add(`${field}.baseMeasurementUnit`, `cannot price ${total} per ${base}`, 'VALIDATION');
    return null;
  }
  return {
    totalQuantity: totalQuantity as number,
    totalMeasurementUnit: total,
    baseQuantity: baseQuantity as number,
    baseMeasurementUnit: base,
  };
}

/**
 * A product's options: each named, once; each with at least one choice, each choice once (a color's
 * choice a color); and no more variants in all than a product may have.
 */
function parseOptions(v: Violations, options: NonNullable<ProductInput['productOptions']>): OptionRecord[] {
  const names = new Set<string>();
  const parsed = options.map((option, i) => {
    const field = `product.productOptions[${i}]`;
    const name = v.requiredText(option.name, `${field}.name`) ?? '';
    if (names.has(name)) v.add(`${field}.name`, `repeats the option ${name}`, 'VALIDATION');
    names.add(name);
    const optionType: OptionType = option.optionType ?? 'drop_down';
    if (!option.choices || option.choices.length === 0) {
      v.add(`${field}.choices`, 'an option needs at least one choice', 'MIN_SIZE');
      return { name, optionType, choices: [] };
    }
    const seen = new Set<string>();
    const choices = option.choices.map((choice, j) => {
      const text =
        v.requiredText(choice.description ?? choice.value, `${field}.choices[${j}].description`) ?? '';
      if (seen.has(text))
        v.add(`${field}.choices[${j}].description`, `repeats the choice ${text}`, 'VALIDATION');
      seen.add(text);
      const value = choice.value !== undefined && choice.value !== '' ? choice.value : text;
      if (
        optionType === 'color' &&
        !/^#[0-9a-fA-F]{3,8}$/.test(value) &&
        choice.value !== undefined &&
        value !== text
      ) {
        v.add(`${field}.choices[${j}].value`, 'a color choice is a color such as #1f2937', 'FORMAT');
      }
      return { value, description: text, mediaIds: [] as string[] };
    });
    return { name, optionType, choices };
  });
  // every combination of one choice per option is a variant
  const variants = parsed.reduce((count, option) => count * Math.max(1, option.choices.length), 1);
  if (variants > MAX_PRODUCT_VARIANTS) {
    v.add(
      'product.productOptions',
      `these options make ${variants} variants; a product has at most ${MAX_PRODUCT_VARIANTS}`,
      'MAX_SIZE',
    );
  }
  return parsed;
}

/**
 * The variants the options call for: every combination when variants are managed, otherwise the one
 * default variant. A combination that already had a variant keeps it (id, overrides, stock).
 */
export function generateVariants(record: ProductRecord, previous: VariantRecord[]): VariantRecord[] {
  const fallbackStock = previous[0] ?? defaultVariant({ quantity: record.trackInventory ? 0 : null });
  if (!record.manageVariants || record.options.length === 0) {
    const kept = previous.find((variant) => Object.keys(variant.choices).length === 0) ?? previous[0];
    return [
      defaultVariant({
        quantity: kept?.quantity ?? fallbackStock.quantity,
        inStock: kept?.inStock ?? true,
        ...(kept && Object.keys(kept.choices).length === 0
          ? { price: kept.price, cost: kept.cost, weight: kept.weight, sku: kept.sku, visible: kept.visible }
          : {}),
      }),
    ];
  }
  const key = (choices: Record<string, string>) =>
    JSON.stringify(
      Object.keys(choices)
        .sort()
        .map((name) => [name, choices[name]]),
    );
  const byChoices = new Map(previous.map((variant) => [key(variant.choices), variant]));
  return choiceCombinations(record.options).map(
    (choices) =>
      byChoices.get(key(choices)) ?? {
        ...defaultVariant({ quantity: fallbackStock.quantity, inStock: fallbackStock.inStock }),
        id: newId(),
        choices,
      },
  );
}

/** Stock as a product or an override sets it: counted or not, a quantity from 0 to 99999, in stock or not. */
function applyStock(
  v: Violations,
  record: ProductRecord,
  targets: VariantRecord[],
  stock: Pick<StockInput, 'trackInventory' | 'trackQuantity' | 'quantity' | 'inStock'>,
  field: string,
): void {
  const track = stock.trackInventory ?? stock.trackQuantity;
  if (track !== undefined && track !== record.trackInventory) {
    record.trackInventory = track;
    for (const variant of record.variants) {
      if (track) variant.quantity = variant.quantity ?? 0;
    }
  }
  if (stock.quantity !== undefined && stock.quantity !== null) {
    if (stock.quantity < 0 || stock.quantity > 99_999) {
      v.add(`${field}.quantity`, 'must be a whole number from 0 to 99999', 'VALIDATION');
    } else {
      for (const variant of targets) variant.quantity = stock.quantity;
    }
  }
  if (stock.inStock !== undefined) for (const variant of targets) variant.inStock = stock.inStock;
}

/**
 * `PATCH /v1/products/{id}/variants`: each override picks variants by choices (a partial choice
 * picks every variant having it) or by ids, and sets their price, cost, weight, sku and visibility.
 */
export function applyVariantOverrides(
  record: ProductRecord,
  overrides: readonly VariantOverride[],
  field = 'variants',
): VariantRecord[] {
  const v = new Violations();
  const variants = structuredClone(record.variants);
  const scratch = { ...record, variants };
  overrides.forEach((item, i) => {
    const at = `${field}[${i}]`;
    const picked = pickVariants(v, record, variants, item, at);
    if (!picked) return;
    if (item.price !== undefined) {
      const price = item.price === null ? null : v.money(item.price, `${at}.price`);
      if (price !== undefined) for (const variant of picked) variant.price = price;
    }
    if (item.cost !== undefined) {
      const cost = item.cost === null ? null : v.money(item.cost, `${at}.cost`);
      if (cost !== undefined) for (const variant of picked) variant.cost = cost;
    }
    if (item.weight !== undefined) {
      const weight = item.weight === null ? null : v.amount(item.weight, `${at}.weight`);
      if (weight !== undefined) for (const variant of picked) variant.weight = weight;
    }
    if (item.sku !== undefined) for (const variant of picked) variant.sku = item.sku ?? '';
    if (item.visible !== undefined && item.visible !== null) {
      for (const variant of picked) variant.visible = item.visible;
    }
    const stock =
      item.stock ?? (item.quantity !== undefined || item.inStock !== undefined ? item : undefined);
    if (stock)
      applyStock(v, scratch, picked, { quantity: stock.quantity, inStock: stock.inStock }, `${at}.stock`);
  });
  v.throwIfAny();
  return variants;
}

/** The variants an override names: by ids, or by (some of) their choices. */
function pickVariants(
  v: Violations,
  record: ProductRecord,
  variants: VariantRecord[],
  item: VariantOverride,
  at: string,
): VariantRecord[] | undefined {
  if (item.variantIds && item.variantIds.length > 0) {
    const picked: VariantRecord[] = [];
    for (const [j, id] of item.variantIds.entries()) {
      const variant = variants.find((candidate) => candidate.id === id);
      if (!variant) v.add(`${at}.variantIds[${j}]`, `the product has no variant ${id}`, 'VALIDATION');
      else picked.push(variant);
    }
    return picked;
  }
  const choices = item.choices;
  if (choices) {
    const problems = unknownChoices(record.options, choices);
    for (const problem of problems)
      v.add(`${at}.choices.${problem.option}`, problem.description, 'VALIDATION');
    if (problems.length > 0) return undefined;
    return variants.filter((variant) =>
      Object.entries(choices).every(
        ([option, choice]) => variant.choices[option] === canonicalChoice(record.options, option, choice),
      ),
    );
  }
  v.add(at, 'names its variants by choices or variantIds', 'REQUIRED_FIELD');
  return undefined;
}

/** The choice's description as variants carry it; a color's value (`#1f2937`) names it too. */
export function canonicalChoice(
  options: OptionRecord[],
  optionName: string,
  choice: string,
): string | undefined {
  const option = options.find((candidate) => candidate.name === optionName);
  const match =
    option?.choices.find((candidate) => candidate.description === choice) ??
    option?.choices.find(
      (candidate) =>
        candidate.description.toLowerCase() === choice.toLowerCase() ||
        candidate.value.toLowerCase() === choice.toLowerCase(),
    );
  return match?.description;
}

/** Options or choices a selection names that the product does not have. */
export function unknownChoices(
  options: OptionRecord[],
  selection: Selection,
): Array<{ option: string; description: string }> {
  const problems: Array<{ option: string; description: string }> = [];
  for (const [name, choice] of Object.entries(selection)) {
    if (!options.some((option) => option.name === name)) {
      problems.push({ option: name, description: `the product has no option ${name}` });
    } else if (canonicalChoice(options, name, choice) === undefined) {
      problems.push({ option: name, description: `${name} has no choice ${choice}` });
    }
  }
  return problems;
}

/** Ids a call names, each once; at least one (their number and form are the schema's). */
export function distinctIds(ids: readonly string[], field: string): string[] {
  if (ids.length === 0) throw invalidArgument([violation(field, 'must list at least one id', 'MIN_SIZE')]);
  return [...new Set(ids)];
}
