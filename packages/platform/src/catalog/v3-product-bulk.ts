import type { VariantV3 } from '@cartwheel/sdk';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { applicationError, DomainError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { Big, Currency } from '../shared/money.ts';
import type { CollectionWrites } from './collection-writes.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import type { ProductRecord } from './model.ts';
import type { ProductWrites } from './product-writes.ts';
import { type CompileOptions, compileFilter } from './query.ts';
import { nameSubstringIndex, textSearch } from './search.ts';
import type { CatalogStorage, Viewer } from './storage.ts';
import { applyProductV3 } from './v3-input.ts';
import { type ViewV3, variantV3 } from './v3-model.ts';
import type {
  AdjustValue,
  BulkAdjustVariantsByFilterBody,
  BulkDeleteProductsByFilterBody,
  BulkUpdateProductsByFilterBody,
  BulkUpdateVariantsByFilterBody,
  CategoriesByFilterBody,
  CountProductsV3Request,
  VariantByFilterInput,
} from './v3-product-bulk-schemas.ts';
import { ADMIN } from './v3-products.ts';
import { checkFilter, PRODUCT_V3_FIELDS, PRODUCT_V3_VISITOR_FIELDS } from './v3-query.ts';
import type { ProductInputV3, VariantInputV3 } from './v3-schemas.ts';
import { Violations } from './validation.ts';

/**
 * The v3 product calls that name their products by a filter (the v3 query filter and text search,
 * as query and search take them): count, update, delete, update and adjust variants, add to and
 * remove from categories. The hosted platform runs the writes as asynchronous jobs and answers a
 * job id; Cartwheel does the work within the request, a batch of products at a time (each batch one
 * transaction, so a write over the whole catalog never holds one huge transaction), and answers a
 * fresh job id once it is done: there is no job left to ask about. A product a batch cannot change
 * (its own rule refuses) is left as it was; the input itself is checked before any product changes.
 *
 * v3 categories are Cartwheel's collections, under the same ids (the All Products category is the
 * All Products collection); products join and leave them through the collections' own writes.
 */

/** Products one transaction of a write by filter changes. */
export const FILTER_BATCH = 100;

type CategoryWrites = Pick<CollectionWrites, 'addProductsToCollection' | 'removeProductsFromCollection'>;

/** Fields an update by filter does not set (the hosted list): each product's own, written one by one. */
const NOT_BY_FILTER = ['slug', 'options', 'modifiers', 'variantsInfo'] as const;

const MERCHANT_VIEW: ViewV3 = { fields: new Set(), merchant: true, variants: true };

export class ProductsByFilterV3 {
  private readonly compile: CompileOptions;

  constructor(
    private readonly storage: CatalogStorage,
    private readonly writes: ProductWrites,
    private readonly categories: CategoryWrites,
  ) {
    this.compile = { substringIndex: nameSubstringIndex(storage.dialect) };
  }

  /** `{"count"}`: the products query and search would find; hidden ones only for admins who ask. */
  async countJson(request: CountProductsV3Request, viewer: Viewer): Promise<string> {
    const where = this.where(request.filter, request.search, viewer, await this.storage.hiddenFrom(viewer));
    const hiddenToo = viewer.admin && request.returnNonVisibleProducts === true;
    const row = await this.storage.db
      .selectFrom('products as p')
      .select(sql<number>`count(*)`.as('count'))
      .where(where)
      .$if(!hiddenToo, (qb) => qb.where(sql<SqlBool>`p.visible = 1`))
      .executeTakeFirstOrThrow();
    return JSON.stringify({ count: Number(row.count) });
  }

  async updateByFilter(body: BulkUpdateProductsByFilterBody): Promise<string> {
    const v = new Violations();
    for (const field of NOT_BY_FILTER) {
      if (body.product[field] !== undefined)
        v.add(`product.${field}`, 'is not set by filter: use bulkUpdateProducts', 'VALIDATION');
    }
    v.throwIfAny();
    const { revision: _revision, ...product } = body.product;
    return this.changeEach(body, (record) => applyProductV3(record, product as ProductInputV3, false));
  }

  async deleteByFilter(body: BulkDeleteProductsByFilterBody): Promise<string> {
    // a batch a transaction, set by set; one gone meanwhile (another delete) is what this asked for
    await this.eachBatch(body, async (ids) => {
      await this.writes.deleteProducts(ids);
    });
    return job();
  }

  /** Sets the named fields on every variant of the filtered products. */
  async updateVariantsByFilter(body: BulkUpdateVariantsByFilterBody): Promise<string> {
    const patch = body.variant;
    if (Object.keys(patch).length === 0) {
      const v = new Violations();
      v.add('variant', 'names at least one field to set', 'REQUIRED_FIELD');
      v.throwIfAny();
    }
    return this.changeVariants(body, (variant) => setVariant(variant, patch));
  }

  /** Moves prices and costs of every variant of the filtered products by an amount or a percentage. */
  async adjustVariantsByFilter(body: BulkAdjustVariantsByFilterBody): Promise<string> {
    const v = new Violations();
    const { actualPrice, compareAtPrice, cost, compareAtPriceDiscount: discount } = body;
    const given = { actualPrice, compareAtPrice, cost, compareAtPriceDiscount: discount };
    for (const [field, value] of Object.entries(given)) {
      if (value && (value.amount === undefined) === (value.percentage === undefined))
        v.add(field, 'takes an amount or a percentage, one of the two', 'ONE_OF_ALIGNMENT');
    }
    if (!actualPrice && !compareAtPrice && !cost && !discount)
      v.add(
        'actualPrice',
        'an adjustment names actualPrice, compareAtPrice, cost or compareAtPriceDiscount',
        'REQUIRED_FIELD',
      );
    if (actualPrice && discount)
      v.add(
        'compareAtPriceDiscount',
        'sets actualPrice itself: not with an actualPrice adjustment',
        'VALIDATION',
      );
    v.throwIfAny();
    const currency = new Currency(this.storage.settings.currency);
    // Cartwheel keeps money to the cent: without rounding, a price is still kept to the cent
    const round = (value: Big) =>
      body.rounding === 'NEAREST_WHOLE_NUMBER'
        ? value.round(0, 1)
        : body.rounding === 'NO_ROUNDING'
          ? value.round(2, 1)
          : currency.round(value);
    const adjust = (
      amount: string | undefined,
      by: AdjustValue | undefined,
      sign = 1,
    ): string | undefined => {
      if (amount === undefined || !by) return amount;
      const value = new Big(amount);
      const next =
        by.amount !== undefined
          ? value.plus(new Big(by.amount).times(sign))
          : value.times(new Big(1).plus(new Big(by.percentage ?? 0).times(sign).div(100)));
      const rounded = round(next);
      if (rounded.lt(0))
        throw applicationError(
          'INVALID_ARGUMENT',
          'NEGATIVE_VALUE',
          'the adjustment would make a price or cost negative',
        );
      return rounded.toString();
    };
    return this.changeVariants(body, (variant) => {
      const price = variant.price ?? {};
      let actual = price.actualPrice?.amount ?? undefined;
      let compareAt = price.compareAtPrice?.amount ?? undefined;
      compareAt = adjust(compareAt, compareAtPrice);
      actual = adjust(actual, actualPrice);
      if (discount) {
        const base = compareAt ?? actual;
        actual = adjust(base, discount, -1);
        compareAt = base;
      }
      const costAmount = adjust(variant.revenueDetails?.cost?.amount ?? undefined, cost);
      return {
        ...variant,
        price: {
          actualPrice: { amount: actual },
          ...(compareAt !== undefined ? { compareAtPrice: { amount: compareAt } } : {}),
        },
        ...(costAmount !== undefined ? { revenueDetails: { cost: { amount: costAmount } } } : {}),
      };
    });
  }

  async addToCategories(body: CategoriesByFilterBody): Promise<string> {
    const categoryIds = await this.requireCategories(body.categoryIds, false);
    await this.eachBatch(body, async (ids) => {
      for (const id of categoryIds) await this.categories.addProductsToCollection(id, ids);
    });
    return job();
  }

  async removeFromCategories(body: CategoriesByFilterBody): Promise<string> {
    const categoryIds = await this.requireCategories(body.categoryIds, true);
    await this.eachBatch(body, async (ids) => {
      for (const id of categoryIds) await this.categories.removeProductsFromCollection(id, ids);
    });
    return job();
  }

  /** The category every product is in: the All Products collection. */
  allProductsCategoryJson(): string {
    return JSON.stringify({
      categoryId: ALL_PRODUCTS_COLLECTION_ID,
      treeReference: { appNamespace: '@wix/stores', treeKey: null },
    });
  }

  /** The categories named, each a collection; All Products holds every product, so none leave it. */
  private async requireCategories(categoryIds: string[], leaving: boolean): Promise<string[]> {
    const ids = [...new Set(categoryIds)];
    if (leaving && ids.includes(ALL_PRODUCTS_COLLECTION_ID)) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'ALL_PRODUCTS_COLLECTION_IS_FIXED',
        'the All Products category holds every product: none leave it',
      );
    }
    const found = await this.storage.db
      .selectFrom('collections')
      .select('id')
      .where('id', 'in', ids)
      .execute();
    const known = new Set(found.map((row) => row.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing) throw notFound('category', missing);
    return ids.filter((id) => id !== ALL_PRODUCTS_COLLECTION_ID); // every product is in it already
  }

  /** Changes every variant of each filtered product as its v3 rendering, saved as a v3 update saves it. */
  private changeVariants(
    body: { filter?: unknown; search?: { expression?: string | null } | null },
    change: (variant: VariantV3) => VariantV3,
  ): Promise<string> {
    return this.changeEach(body, (record) => {
      const variants = record.variants.map((variant) =>
        change(variantV3(record, variant, this.storage.settings, MERCHANT_VIEW)),
      );
      return applyProductV3(
        record,
        { variantsInfo: { variants: variants as VariantInputV3[] } } as ProductInputV3,
        false,
      );
    });
  }

  /** Saves `change` of every filtered product (see `changeMatching`) and answers the finished job. */
  private async changeEach(
    body: { filter?: unknown; search?: { expression?: string | null } | null },
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<string> {
    await this.changeMatching(body, change);
    return job();
  }

  /**
   * Saves `change` of every product the filter (and text search) names, a batch a transaction; the
   * writes by filter here and the tag and info section edits by filter (v3-product-edits.ts) walk
   * products by it. The first product's change is tried before any is saved, so an input with field
   * violations is refused as the call's error.
   */
  async changeMatching(
    body: { filter?: unknown; search?: { expression?: string | null } | null },
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<void> {
    let first = true;
    await this.eachBatch(body, async (ids) => {
      if (first) {
        first = false;
        const row = await this.storage.db
          .selectFrom('products')
          .select('record')
          .where('id', '=', ids[0] as string)
          .executeTakeFirst();
        try {
          if (row) change(JSON.parse(row.record) as ProductRecord);
        } catch (error) {
          // a field violation is the input's; a rule of this one product (a price below zero) is its own
          if (!(error instanceof DomainError) || error.fieldViolations.length > 0) throw error;
        }
      }
      await this.writes.changeRecords(ids, change);
    });
  }

  /** Runs `work` over the filtered products' ids, in id order, a batch at a time. */
  private async eachBatch(
    body: { filter?: unknown; search?: { expression?: string | null } | null },
    work: (ids: string[]) => Promise<void>,
  ): Promise<void> {
    const where = this.where(body.filter, body.search, ADMIN, new Set());
    let after = '';
    for (;;) {
      const rows = await this.storage.db
        .selectFrom('products as p')
        .select('p.id')
        .where(where)
        .where('p.id', '>', after)
        .orderBy('p.id')
        .limit(FILTER_BATCH)
        .execute();
      if (rows.length === 0) return;
      await work(rows.map((row) => row.id));
      after = rows[rows.length - 1]!.id;
      if (rows.length < FILTER_BATCH) return;
    }
  }

  /** The v3 filter and text search, as query and search read them. */
  private where(
    filter: unknown,
    search: { expression?: string | null } | null | undefined,
    viewer: Viewer,
    hidden: ReadonlySet<string>,
  ): RawBuilder<SqlBool> {
    // a visitor counting may not filter on what they may not read (private tags)
    const fields = viewer.admin ? PRODUCT_V3_FIELDS : PRODUCT_V3_VISITOR_FIELDS;
    checkFilter(filter ?? undefined, fields, 'filter');
    const compiled = compileFilter(
      filter ?? undefined,
      fields,
      { ...this.compile, hiddenCollections: hidden },
      'filter',
    );
    const text = textSearch(search ?? undefined, hidden);
    return text ? sql<SqlBool>`(${compiled}) and ${text.matches}` : compiled;
  }
}

/** The answer of a write by filter: done by the time it is sent (see the class's note). */
const job = () => JSON.stringify({ jobId: newId() });

/** A variant as `patch` sets it: what it names replaces what the variant had. */
function setVariant(variant: VariantV3, patch: VariantByFilterInput): VariantV3 {
  const next: VariantV3 & Record<string, unknown> = { ...variant };
  if (patch.visible !== undefined && patch.visible !== null) next.visible = patch.visible;
  if (patch.price) {
    const price = { ...variant.price };
    if (patch.price.actualPrice?.amount !== undefined)
      price.actualPrice = { amount: patch.price.actualPrice.amount };
    if (patch.price.compareAtPrice === null) delete price.compareAtPrice;
    else if (patch.price.compareAtPrice?.amount !== undefined)
      price.compareAtPrice = { amount: patch.price.compareAtPrice.amount };
    next.price = price;
  }
  if (patch.revenueDetails?.cost !== undefined) {
    const cost = patch.revenueDetails.cost;
    next.revenueDetails = cost?.amount !== undefined ? { cost: { amount: cost.amount } } : {};
  }
  if (patch.physicalProperties?.weight !== undefined)
    next.physicalProperties = { weight: patch.physicalProperties.weight ?? undefined };
  return next;
}
