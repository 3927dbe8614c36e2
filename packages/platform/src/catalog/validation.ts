import type {
  FieldViolation,
  MeasurementUnit,
  OptionType,
  PricePerUnitData,
  ProductType,
  RuleName,
  VariantOverride,
} from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import {
  choiceCombinations,
  defaultVariant,
  type OptionRecord,
  type ProductRecord,
  type VariantRecord,
} from './model.ts';
import { compatibleUnits, hasCents, isMeasurementUnit } from './pricing.ts';

/**
 * What one product may hold, as on the hosted platform: its options, each option's choices, and the
 * variants they make (every combination of one choice per option).
 */
export const MAX_PRODUCT_OPTIONS = 6;
export const MAX_OPTION_CHOICES = 100;
export const MAX_PRODUCT_VARIANTS = 1000;

/** The longest text each product and collection field takes, in characters. */
export const PRODUCT_TEXT = {
  name: 80,
  slug: 100,
  description: 16_000,
  sku: 40,
  ribbon: 30,
  brand: 50,
  optionName: 50,
  choice: 50,
} as const;
export const COLLECTION_TEXT = { name: 50, slug: 100, description: 600 } as const;

/** Collects every field violation of one request, so the caller hears them all at once. */
export class Violations {
  readonly list: FieldViolation[] = [];
  add(field: string, description: string, rule: RuleName = 'VALIDATION'): void {
    this.list.push(violation(field, description, rule));
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw invalidArgument(this.list);
  }

  /** A price or cost: a finite amount, zero or more, in cents. */
  money(value: unknown, field: string): number | undefined {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(field, 'must be a number', 'FORMAT');
    } else if (value < 0) {
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

  amount(value: unknown, field: string): number | undefined {
    if (typeof value !== 'number' || !Number.isFinite(value)) this.add(field, 'must be a number', 'FORMAT');
    else if (value < 0) this.add(field, 'must be zero or more', 'DECIMAL_GTE');
    else return value;
    return undefined;
  }

  text(value: unknown, field: string, maxLength: number, required = false): string | undefined {
    if (typeof value !== 'string') {
      this.add(field, 'must be text', 'FORMAT');
    } else if (required && value.trim() === '') {
      this.add(field, 'is required', 'REQUIRED_FIELD');
    } else if (value.length > maxLength) {
      this.add(field, `must be at most ${maxLength} characters`, 'MAX_LENGTH');
    } else {
      return value;
    }
    return undefined;
  }

  flag(value: unknown, field: string): boolean | undefined {
    if (typeof value === 'boolean') return value;
    this.add(field, 'must be true or false', 'FORMAT');
    return undefined;
  }
}

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

const has = (input: object, key: string) => Object.hasOwn(input, key) && (input as any)[key] !== undefined;

/**
 * Applies a product as the wire writes it (create: `base` is a fresh record; update: the stored one)
 * and returns the new record, or throws every field violation of the request.
 */
export function applyProductInput(base: ProductRecord, input: unknown, creating: boolean): ProductRecord {
  const v = new Violations();
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    v.add('product', 'is required', 'REQUIRED_FIELD');
    v.throwIfAny();
  }
  const p = input as Record<string, any>;
  const next: ProductRecord = structuredClone(base);

  if (creating || has(p, 'name')) {
    if (!has(p, 'name')) v.add('product.name', 'is required', 'REQUIRED_FIELD');
    else {
      const name = v.text(p.name, 'product.name', PRODUCT_TEXT.name, true);
      if (name !== undefined) next.name = name.trim();
    }
  }
  if (has(p, 'slug') && p.slug !== '') {
    const slug = v.text(p.slug, 'product.slug', PRODUCT_TEXT.slug, true);
    if (slug !== undefined) {
      if (!/^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u.test(slug)) {
        v.add('product.slug', 'may hold letters, digits, - and _ only', 'FORMAT');
      } else next.slug = slug;
    }
  } else if (creating) {
    next.slug = slugify(next.name);
  }
  if (has(p, 'description')) {
    const description = v.text(p.description, 'product.description', PRODUCT_TEXT.description);
    if (description !== undefined) next.description = description;
  }
  if (has(p, 'visible')) next.visible = v.flag(p.visible, 'product.visible') ?? next.visible;
  if (has(p, 'productType')) {
    if (p.productType === 'physical' || p.productType === 'digital')
      next.productType = p.productType as ProductType;
    else v.add('product.productType', 'must be physical or digital', 'INVALID_ENUM_VALUE');
  }
  if (has(p, 'sku')) next.sku = v.text(p.sku, 'product.sku', PRODUCT_TEXT.sku) ?? next.sku;
  if (has(p, 'weight'))
    next.weight = p.weight === null ? null : (v.amount(p.weight, 'product.weight') ?? next.weight);
  if (has(p, 'ribbon')) next.ribbon = v.text(p.ribbon, 'product.ribbon', PRODUCT_TEXT.ribbon) ?? next.ribbon;
  if (has(p, 'brand')) next.brand = v.text(p.brand, 'product.brand', PRODUCT_TEXT.brand) ?? next.brand;

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
  if (p.costAndProfitData?.itemCost !== undefined) {
    next.cost =
      p.costAndProfitData.itemCost === null
        ? null
        : (v.money(p.costAndProfitData.itemCost, 'product.costAndProfitData.itemCost') ?? next.cost);
  }
  if (has(p, 'discount')) applyDiscount(v, next, p.discount);
  if (has(p, 'pricePerUnitData')) {
    next.pricePerUnitData = p.pricePerUnitData === null ? null : parsePricePerUnit(v, p.pricePerUnitData);
  }
  if (has(p, 'additionalInfoSections')) {
    if (!Array.isArray(p.additionalInfoSections))
      v.add('product.additionalInfoSections', 'must be an array', 'FORMAT');
    else
      next.additionalInfoSections = p.additionalInfoSections.map((section: any) => ({
        title: String(section?.title ?? ''),
        description: String(section?.description ?? ''),
      }));
  }
  if (has(p, 'customTextFields')) {
    if (!Array.isArray(p.customTextFields)) v.add('product.customTextFields', 'must be an array', 'FORMAT');
    else
      next.customTextFields = p.customTextFields.map((field: any) => ({
        title: String(field?.title ?? ''),
        maxLength: Number(field?.maxLength ?? 500),
        mandatory: field?.mandatory === true,
      }));
  }
  if (has(p, 'seoData')) next.seoData = p.seoData;

  let variantsChanged = false;
  if (has(p, 'productOptions')) {
    const options = parseOptions(v, p.productOptions);
    if (options) {
      next.options = options;
      variantsChanged = true;
    }
  }
  if (has(p, 'manageVariants')) {
    const manage = v.flag(p.manageVariants, 'product.manageVariants');
    if (manage !== undefined && manage !== next.manageVariants) {
      next.manageVariants = manage;
      variantsChanged = true;
    }
  }
  if (next.manageVariants && next.options.length === 0) {
    v.add('product.manageVariants', 'needs at least one product option', 'VALIDATION');
  }
  v.throwIfAny();
  if (variantsChanged || creating) next.variants = generateVariants(next, next.variants);

  if (has(p, 'stock') && p.stock && typeof p.stock === 'object') {
    applyStock(v, next, next.variants, p.stock, 'product.stock');
  }
  if (has(p, 'variants') && creating) {
    next.variants = applyVariantOverrides(next, p.variants, 'product.variants');
  }
  v.throwIfAny();
  return next;
}

function applyDiscount(v: Violations, next: ProductRecord, discount: any): void {
  if (discount === null) {
    next.discount = { type: 'NONE', value: 0 };
    return;
  }
  const type = discount?.type ?? 'NONE';
  if (type !== 'NONE' && type !== 'AMOUNT' && type !== 'PERCENT') {
    v.add('product.discount.type', 'must be NONE, AMOUNT or PERCENT', 'INVALID_ENUM_VALUE');
    return;
  }
  const value = type === 'NONE' ? 0 : v.money(discount?.value ?? 0, 'product.discount.value');
  if (value === undefined) return;
  if (type === 'PERCENT' && value > 100) {
    v.add('product.discount.value', 'a percentage must be at most 100', 'DECIMAL_LTE');
    return;
  }
  next.discount = { type, value };
}

function parsePricePerUnit(v: Violations, data: any): Required<PricePerUnitData> | null {
  const field = 'product.pricePerUnitData';
  const totalQuantity = data?.totalQuantity;
  const baseQuantity = data?.baseQuantity;
  const total = data?.totalMeasurementUnit as MeasurementUnit;
  const base = data?.baseMeasurementUnit as MeasurementUnit;
  const before = v.list.length;
  if (typeof totalQuantity !== 'number' || !(totalQuantity > 0))
    v.add(`${field}.totalQuantity`, 'must be more than zero', 'DECIMAL_GT');
  if (typeof baseQuantity !== 'number' || !(baseQuantity > 0))
    v.add(`${field}.baseQuantity`, 'must be more than zero', 'DECIMAL_GT');
  if (!isMeasurementUnit(total))
    v.add(`${field}.totalMeasurementUnit`, 'is not a measurement unit', 'INVALID_ENUM_VALUE');
  if (!isMeasurementUnit(base))
    v.add(`${field}.baseMeasurementUnit`, 'is not a measurement unit', 'INVALID_ENUM_VALUE');
  if (v.list.length > before) return null;
  if (!compatibleUnits(total, base)) {
    v.add(`${field}.baseMeasurementUnit`, `cannot price ${total} per ${base}`, 'VALIDATION');
    return null;
  }
  return { totalQuantity, totalMeasurementUnit: total, baseQuantity, baseMeasurementUnit: base };
}

function parseOptions(v: Violations, options: unknown): OptionRecord[] | undefined {
  if (!Array.isArray(options)) {
    v.add('product.productOptions', 'must be an array', 'FORMAT');
    return undefined;
  }
  if (options.length > MAX_PRODUCT_OPTIONS) {
    v.add('product.productOptions', `a product has at most ${MAX_PRODUCT_OPTIONS} options`, 'MAX_SIZE');
    return undefined;
  }
  const names = new Set<string>();
  const parsed = options.map((option: any, i) => {
    const field = `product.productOptions[${i}]`;
    const name = v.text(option?.name, `${field}.name`, PRODUCT_TEXT.optionName, true) ?? '';
    if (names.has(name)) v.add(`${field}.name`, `repeats the option ${name}`, 'VALIDATION');
    names.add(name);
    const optionType: OptionType = option?.optionType ?? 'drop_down';
    if (optionType !== 'drop_down' && optionType !== 'color') {
      v.add(`${field}.optionType`, 'must be drop_down or color', 'INVALID_ENUM_VALUE');
    }
    if (!Array.isArray(option?.choices) || option.choices.length === 0) {
      v.add(`${field}.choices`, 'an option needs at least one choice', 'MIN_SIZE');
      return { name, optionType, choices: [] };
    }
    if (option.choices.length > MAX_OPTION_CHOICES) {
      v.add(`${field}.choices`, `an option has at most ${MAX_OPTION_CHOICES} choices`, 'MAX_SIZE');
      return { name, optionType, choices: [] };
    }
    const seen = new Set<string>();
    const choices = option.choices.map((choice: any, j: number) => {
      const description = choice?.description ?? choice?.value;
      const text = v.text(description, `${field}.choices[${j}].description`, PRODUCT_TEXT.choice, true) ?? '';
      if (seen.has(text))
        v.add(`${field}.choices[${j}].description`, `repeats the choice ${text}`, 'VALIDATION');
      seen.add(text);
      const value = typeof choice?.value === 'string' && choice.value !== '' ? choice.value : text;
      if (
        optionType === 'color' &&
        !/^#[0-9a-fA-F]{3,8}$/.test(value) &&
        choice?.value !== undefined &&
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

function applyStock(
  v: Violations,
  record: ProductRecord,
  targets: VariantRecord[],
  stock: any,
  field: string,
): void {
  if (stock.trackInventory !== undefined || stock.trackQuantity !== undefined) {
    const track = v.flag(stock.trackInventory ?? stock.trackQuantity, `${field}.trackInventory`);
    if (track !== undefined && track !== record.trackInventory) {
      record.trackInventory = track;
      for (const variant of record.variants) {
        if (track) variant.quantity = variant.quantity ?? 0;
      }
    }
  }
  if (stock.quantity !== undefined && stock.quantity !== null) {
    if (!Number.isInteger(stock.quantity) || stock.quantity < 0 || stock.quantity > 99_999) {
      v.add(`${field}.quantity`, 'must be a whole number from 0 to 99999', 'VALIDATION');
    } else {
      for (const variant of targets) variant.quantity = stock.quantity;
    }
  }
  if (stock.inStock !== undefined) {
    const inStock = v.flag(stock.inStock, `${field}.inStock`);
    if (inStock !== undefined) for (const variant of targets) variant.inStock = inStock;
  }
}

/**
 * `PATCH /v1/products/{id}/variants`: each override picks variants by choices (a partial choice
 * picks every variant having it) or by ids, and sets their price, cost, weight, sku and visibility.
 */
export function applyVariantOverrides(
  record: ProductRecord,
  overrides: unknown,
  field = 'variants',
): VariantRecord[] {
  const v = new Violations();
  if (!Array.isArray(overrides)) {
    v.add(field, 'must be an array', 'FORMAT');
    v.throwIfAny();
  }
  const variants = structuredClone(record.variants);
  const scratch = { ...record, variants };
  (overrides as Array<VariantOverride & { stock?: any; quantity?: number; inStock?: boolean }>).forEach(
    (item, i) => {
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
      if (item.sku !== undefined) {
        const sku = item.sku === null ? '' : v.text(item.sku, `${at}.sku`, PRODUCT_TEXT.sku);
        if (sku !== undefined) for (const variant of picked) variant.sku = sku;
      }
      if (item.visible !== undefined && item.visible !== null) {
        const visible = v.flag(item.visible, `${at}.visible`);
        if (visible !== undefined) for (const variant of picked) variant.visible = visible;
      }
      const stock =
        item.stock ?? (item.quantity !== undefined || item.inStock !== undefined ? item : undefined);
      if (stock)
        applyStock(v, scratch, picked, { quantity: stock.quantity, inStock: stock.inStock }, `${at}.stock`);
    },
  );
  v.throwIfAny();
  return variants;
}

function pickVariants(
  v: Violations,
  record: ProductRecord,
  variants: VariantRecord[],
  item: { choices?: Record<string, string>; variantIds?: string[] },
  at: string,
): VariantRecord[] | undefined {
  if (Array.isArray(item?.variantIds) && item.variantIds.length > 0) {
    const picked: VariantRecord[] = [];
    for (const [j, id] of item.variantIds.entries()) {
      const variant = variants.find((candidate) => candidate.id === id);
      if (!variant) v.add(`${at}.variantIds[${j}]`, `the product has no variant ${id}`, 'VALIDATION');
      else picked.push(variant);
    }
    return picked;
  }
  if (item?.choices && typeof item.choices === 'object') {
    const problems = unknownChoices(record.options, item.choices);
    for (const problem of problems)
      v.add(`${at}.choices.${problem.option}`, problem.description, 'VALIDATION');
    if (problems.length > 0) return undefined;
    return variants.filter((variant) =>
      Object.entries(item.choices ?? {}).every(
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
  selection: Record<string, unknown>,
): Array<{ option: string; description: string }> {
  const problems: Array<{ option: string; description: string }> = [];
  for (const [name, choice] of Object.entries(selection)) {
    if (!options.some((option) => option.name === name)) {
      problems.push({ option: name, description: `the product has no option ${name}` });
    } else if (typeof choice !== 'string' || canonicalChoice(options, name, choice) === undefined) {
      problems.push({ option: name, description: `${name} has no choice ${String(choice)}` });
    }
  }
  return problems;
}
