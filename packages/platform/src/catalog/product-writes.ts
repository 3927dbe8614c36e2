import type { BulkUpdateProductsResult, MediaItem, Product, ProductVariant } from '@cartwheel/sdk';
import { sql, type Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { recordEvents } from '../events/outbox.ts';
import { applicationError, DomainError, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { ALL_PRODUCTS_COLLECTION_ID } from './collections.ts';
import { countOfListings, listingsChanged, lockProducts } from './listings.ts';
import { generatedMediaItem, isGeneratedImageStem, urlMediaItem } from './media.ts';
import { defaultVariant, type ProductRecord } from './model.ts';
import { roundMoney } from './pricing.ts';
import { lockRecord, saveProduct } from './product-rows.ts';
import type {
  BulkAdjustInput,
  BulkSetInput,
  ChoiceMediaInput,
  MediaInput,
  ProductInput,
  VariantOverride,
} from './schemas.ts';
import { unindexProducts } from './search.ts';
import type { CatalogStorage } from './storage.ts';
import {
  applyProductInput,
  applyVariantOverrides,
  canonicalChoice,
  distinctIds,
  generateVariants,
  Violations,
} from './validation.ts';

/**
 * Writes of products: create, change, delete, their variants and media, and bulk changes of many.
 * Each is one transaction (CatalogStorage.write) that saves the product's rows (product-rows.ts).
 */
/**
 * More of a write, in its transaction after the product is saved (the v3 product-with-inventory
 * calls set stock through the StockLedger): answers the record as it is after it.
 */
export type AfterSave = (trx: Transaction<Tables>, saved: ProductRecord) => Promise<ProductRecord>;

export class ProductWrites {
  private lastNumericId = 0;

  constructor(private readonly storage: CatalogStorage) {}

  /** After the catalog is cleared: numeric ids are read from the products again. */
  forgetNumericIds(): void {
    this.lastNumericId = 0;
  }

  /** Creates a product; `fixed` lets the demo seed keep ids and dates stable. */
  async createProduct(input: ProductInput, fixed: { id?: string } = {}): Promise<Product> {
    const explicitSlug = input.slug !== undefined && input.slug !== '';
    const { product } = await this.create(
      (base) => applyProductInput(base, input, true),
      explicitSlug,
      fixed,
    );
    return product;
  }

  /**
   * Creates a product from what `build` makes of a fresh record (the v3 calls build it from their own
   * wire, v3-products.ts); a slug it did not name explicitly is made free. Answers the saved record.
   */
  async createRecord(
    build: (base: ProductRecord) => ProductRecord,
    explicitSlug: boolean,
    afterSave?: AfterSave,
  ): Promise<ProductRecord> {
    const { record } = await this.create(build, explicitSlug, {}, afterSave);
    return record;
  }

  private async create(
    build: (base: ProductRecord) => ProductRecord,
    explicitSlug: boolean,
    fixed: { id?: string },
    afterSave?: AfterSave,
  ): Promise<{ record: ProductRecord; product: Product }> {
    return this.storage.write(async (trx) => {
      const now = new Date().toISOString();
      const base: ProductRecord = {
        id: fixed.id ?? newId(),
        numericId: await this.nextNumericId(trx),
        name: '',
        slug: '',
        description: '',
        visible: true,
        productType: 'physical',
        sku: '',
        weight: null,
        price: 0,
        cost: null,
        discount: { type: 'NONE', value: 0 },
        pricePerUnitData: null,
        ribbon: '',
        brand: '',
        manageVariants: false,
        trackInventory: false,
        options: [],
        variants: [defaultVariant()],
        media: [],
        additionalInfoSections: [],
        customTextFields: [],
        seoData: null,
        createdDate: now,
        lastUpdated: now,
      };
      const record = build(base);
      if (!explicitSlug) record.slug = await this.freeSlug(trx, record.slug, record.id);
      const product = await saveProduct(this.storage, trx, record);
      return { record: afterSave ? await afterSave(trx, record) : record, product };
    });
  }

  /**
   * Saves what `change` makes of the product's record, read under its lock (`change` may refuse, the
   * v3 update when the revision it read is not the record's). Answers the saved record.
   */
  async changeRecord(
    id: string,
    change: (record: ProductRecord) => ProductRecord,
    afterSave?: AfterSave,
  ): Promise<ProductRecord> {
    return this.storage.write(async (trx) => {
      const record = await lockRecord(trx, this.storage.dialect, id);
      if (!record) throw notFound('product', id);
      const next = change(record);
      next.lastUpdated = new Date().toISOString();
      await saveProduct(this.storage, trx, next, record);
      return afterSave ? afterSave(trx, next) : next;
    });
  }

  /**
   * Saves what `change` makes of each product's record, all in one transaction, the products locked
   * in id order first: one refused (`change` throws a DomainError) is reported and left as it was.
   */
  async changeRecords(
    ids: readonly string[],
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<BulkUpdateProductsResult> {
    return this.bulk(ids, change);
  }

  /** Changes what `input` names; read-only fields (id, dates) and create-only ones (variants) are not read. */
  async updateProduct(id: string, input: ProductInput): Promise<Product> {
    return this.mutate(id, (record) => applyProductInput(record, input, false));
  }

  async deleteProduct(id: string): Promise<void> {
    const [deleted] = await this.deleteProducts([id]);
    if (!deleted) throw notFound('product', id);
  }

  /**
   * Deletes the products of `ids` that exist, in one transaction, set by set (their variants, links,
   * listings, rows and search entries at once), the products locked in id order first; each gets its
   * `deleted` event and every collection that listed it its counts. Answers the ids deleted.
   */
  async deleteProducts(ids: readonly string[]): Promise<string[]> {
    const list = [...new Set(ids)];
    if (list.length === 0) return [];
    const dialect = this.storage.dialect;
    return this.storage.write(async (trx) => {
      const locked = [...(await lockProducts(trx, dialect, list))];
      if (locked.length === 0) return [];
      await trx.deleteFrom('product_variants').where('product_id', 'in', locked).execute();
      await trx.deleteFrom('product_entity_links').where('product_id', 'in', locked).execute();
      const listings = await trx
        .deleteFrom('product_collections')
        .where('product_id', 'in', locked)
        .returning(['product_id', 'collection_id'])
        .execute();
      const deleted = await trx
        .deleteFrom('products')
        .where('id', 'in', locked)
        .returning(['id', 'visible', 'numeric_id'])
        .execute();
      await recordEvents(
        trx,
        deleted.map((row) => ({
          entity: 'product',
          slug: 'deleted',
          entityId: row.id,
          payload: { entityId: row.id },
        })),
      );
      await unindexProducts(
        trx,
        dialect,
        deleted.map((row) => row.numeric_id),
      );
      // each collection's counts by the deleted products it listed (All Products listed them all)
      const visibleOf = new Map(deleted.map((row) => [row.id, row.visible]));
      const listed = new Map<string, Array<{ visible: number }>>([
        [ALL_PRODUCTS_COLLECTION_ID, deleted.map((row) => ({ visible: row.visible }))],
      ]);
      for (const listing of listings) {
        const visible = visibleOf.get(listing.product_id) ?? 0;
        listed.set(listing.collection_id, [...(listed.get(listing.collection_id) ?? []), { visible }]);
      }
      for (const [collectionId, products] of [...listed].sort(([a], [b]) => a.localeCompare(b))) {
        await listingsChanged(trx, dialect, [collectionId], countOfListings(products, -1));
      }
      return deleted.map((row) => row.id);
    });
  }

  async updateVariants(id: string, overrides: readonly VariantOverride[]): Promise<ProductVariant[]> {
    const product = await this.mutate(id, (record) => ({
      ...record,
      variants: applyVariantOverrides(record, overrides),
    }));
    return product.variants ?? [];
  }

  /** Every variant back to the product's price, cost, weight and sku, and visible; stock stays. */
  async resetVariants(id: string): Promise<void> {
    await this.mutate(id, (record) => ({
      ...record,
      variants: record.variants.map((variant) => ({
        ...variant,
        price: null,
        cost: null,
        weight: null,
        sku: '',
        visible: true,
      })),
    }));
  }

  /** Drops the options: the product goes back to its one default variant. */
  async deleteOptions(id: string): Promise<void> {
    await this.mutate(id, (record) => {
      const next = { ...record, options: [], manageVariants: false };
      return { ...next, variants: generateVariants(next, record.variants) };
    });
  }

  async removeBrand(id: string): Promise<void> {
    await this.mutate(id, (record) => ({ ...record, brand: '' }));
  }

  async removeRibbon(id: string): Promise<void> {
    await this.mutate(id, (record) => ({ ...record, ribbon: '' }));
  }

  /** Adds images by URL or by the id of an image the platform draws; optionally to a choice too. */
  async addMedia(id: string, media: readonly MediaInput[]): Promise<void> {
    const v = new Violations();
    if (media.length === 0) v.add('media', 'must list at least one media item', 'MIN_SIZE');
    v.throwIfAny();
    await this.mutate(id, (record) => {
      const next = structuredClone(record);
      media.forEach((item, i) => {
        let mediaItem: MediaItem | undefined;
        if (item.url !== undefined && /^https?:\/\//.test(item.url)) {
          mediaItem = urlMediaItem(newId(), this.storage.links.stored(item.url), item.title);
        } else if (item.mediaId !== undefined && isGeneratedImageStem(item.mediaId)) {
          mediaItem = generatedMediaItem(item.mediaId, next.name);
        } else {
          v.add(`media[${i}]`, 'needs an http(s) url or the mediaId of a platform image', 'VALIDATION');
          return;
        }
        if (!next.media.some((existing) => existing.id === mediaItem.id)) next.media.push(mediaItem);
        const named = item.choice;
        if (named) {
          const option = next.options.find((candidate) => candidate.name === named.option);
          const choiceName = option
            ? canonicalChoice(next.options, option.name, String(named.choice))
            : undefined;
          const choice = option?.choices.find((candidate) => candidate.description === choiceName);
          if (!choice)
            v.add(`media[${i}].choice`, `the product has no choice ${named.option}: ${named.choice}`);
          else if (!choice.mediaIds.includes(mediaItem.id as string))
            choice.mediaIds.push(mediaItem.id as string);
        }
      });
      v.throwIfAny();
      return next;
    });
  }

  /**
   * Puts the product's images in the order `mediaIds` names; the first is the main image. Each image
   * is named exactly once, so an image added meanwhile refuses the order rather than landing anywhere.
   */
  async reorderMedia(id: string, mediaIds: readonly string[]): Promise<void> {
    await this.mutate(id, (record) => {
      const v = new Violations();
      const byId = new Map(record.media.map((item) => [item.id as string, item]));
      mediaIds.forEach((mediaId, i) => {
        if (!byId.has(mediaId)) v.add(`mediaIds[${i}]`, `the product has no image ${mediaId}`);
        else if (mediaIds.indexOf(mediaId) !== i) v.add(`mediaIds[${i}]`, `names ${mediaId} a second time`);
      });
      if (mediaIds.length !== record.media.length)
        v.add('mediaIds', `must name each of the product's ${record.media.length} images once`, 'EXACT_SIZE');
      v.throwIfAny();
      return { ...record, media: mediaIds.map((mediaId) => byId.get(mediaId) as MediaItem) };
    });
  }

  /** Removes media items (all of them when `mediaIds` is empty), from choices too. */
  async removeMedia(id: string, mediaIds: readonly string[] | null | undefined): Promise<void> {
    const ids = mediaIds ?? [];
    await this.mutate(id, (record) => {
      const drop = (mediaId: string | undefined) => ids.length === 0 || ids.includes(mediaId as string);
      return {
        ...record,
        media: record.media.filter((item) => !drop(item.id)),
        options: record.options.map((option) => ({
          ...option,
          choices: option.choices.map((choice) => ({
            ...choice,
            mediaIds: choice.mediaIds.filter((mediaId) => !drop(mediaId)),
          })),
        })),
      };
    });
  }

  /** Links (or with `remove`, unlinks) product media to option choices. */
  async assignChoiceMedia(
    id: string,
    assignments: readonly ChoiceMediaInput[],
    remove = false,
  ): Promise<void> {
    await this.mutate(id, (record) => {
      const v = new Violations();
      const next = structuredClone(record);
      assignments.forEach((item, i) => {
        const option = next.options.find((candidate) => candidate.name === item.option);
        const choiceName = option
          ? canonicalChoice(next.options, option.name, String(item.choice))
          : undefined;
        const choice = option?.choices.find((candidate) => candidate.description === choiceName);
        if (!choice) {
          v.add(`media[${i}]`, `the product has no choice ${item.option}: ${item.choice}`);
          return;
        }
        const mediaIds = item.mediaIds ?? [];
        if (remove) {
          choice.mediaIds =
            mediaIds.length === 0 ? [] : choice.mediaIds.filter((mediaId) => !mediaIds.includes(mediaId));
          return;
        }
        for (const [j, mediaId] of mediaIds.entries()) {
          if (!next.media.some((media) => media.id === mediaId))
            v.add(`media[${i}].mediaIds[${j}]`, `the product has no media ${mediaId}`);
          else if (!choice.mediaIds.includes(mediaId)) choice.mediaIds.push(mediaId);
        }
      });
      v.throwIfAny();
      return next;
    });
  }

  /** Sets price, cost or weight on many products: each succeeds or fails on its own. */
  async bulkSet(ids: readonly string[], values: BulkSetInput): Promise<BulkUpdateProductsResult> {
    const v = new Violations();
    if (values.price !== undefined) v.money(values.price, 'set.price');
    if (values.cost !== undefined) v.money(values.cost, 'set.cost');
    if (values.weight !== undefined) v.amount(values.weight, 'set.weight');
    if (values.price === undefined && values.cost === undefined && values.weight === undefined) {
      v.add('set', 'sets price, cost or weight', 'REQUIRED_FIELD');
    }
    v.throwIfAny();
    return this.bulk(ids, (record) => ({
      ...record,
      ...(values.price !== undefined ? { price: values.price } : {}),
      ...(values.cost !== undefined ? { cost: values.cost } : {}),
      ...(values.weight !== undefined ? { weight: values.weight } : {}),
      variants: record.variants.map((variant) => ({
        ...variant,
        ...(values.price !== undefined ? { price: null } : {}),
        ...(values.cost !== undefined ? { cost: null } : {}),
        ...(values.weight !== undefined ? { weight: null } : {}),
      })),
    }));
  }

  /** Adjusts price, cost or weight by an amount or a percentage, variants' own values too. */
  async bulkAdjust(ids: readonly string[], changes: BulkAdjustInput): Promise<BulkUpdateProductsResult> {
    const v = new Violations();
    const fields = (['price', 'cost', 'weight'] as const).filter((field) => changes[field] !== undefined);
    if (fields.length === 0) v.add('adjust', 'adjusts price, cost or weight', 'REQUIRED_FIELD');
    // The hosted client sends `percentage: {rate, roundToInt}`; a bare number is read as the rate.
    const rates: Partial<Record<'price' | 'cost' | 'weight', { rate: number; roundToInt: boolean }>> = {};
    for (const field of fields) {
      const { amount, percentage } = changes[field] ?? {};
      if ((amount === undefined) === (percentage === undefined)) {
        v.add(`adjust.${field}`, 'takes either an amount or a percentage', 'ONE_OF_ALIGNMENT');
      } else if (percentage !== undefined) {
        const given = typeof percentage === 'number' ? { rate: percentage } : percentage;
        if (given.rate === undefined) {
          v.add(`adjust.${field}.percentage.rate`, 'must be a number', 'FORMAT');
        } else {
          rates[field] = { rate: given.rate, roundToInt: given.roundToInt === true };
        }
      }
    }
    v.throwIfAny();
    const apply = (field: 'price' | 'cost' | 'weight', value: number) => {
      const amount = changes[field]?.amount;
      const percent = rates[field];
      let next = amount !== undefined ? value + amount : value * (1 + (percent?.rate ?? 0) / 100);
      if (percent?.roundToInt) next = Math.round(next);
      return field === 'weight' ? Math.round(next * 1000) / 1000 : roundMoney(next);
    };
    return this.bulk(ids, (record) => {
      const next = structuredClone(record);
      for (const field of fields) {
        if (field === 'price') next.price = apply('price', next.price);
        if (field === 'cost' && next.cost !== null) next.cost = apply('cost', next.cost);
        if (field === 'weight' && next.weight !== null) next.weight = apply('weight', next.weight);
        for (const variant of next.variants) {
          if (variant[field] !== null) variant[field] = apply(field, variant[field] as number);
        }
      }
      const negative =
        next.price < 0 ||
        (next.cost ?? 0) < 0 ||
        (next.weight ?? 0) < 0 ||
        next.variants.some(
          (variant) => (variant.price ?? 0) < 0 || (variant.cost ?? 0) < 0 || (variant.weight ?? 0) < 0,
        );
      if (negative)
        throw applicationError(
          'INVALID_ARGUMENT',
          'NEGATIVE_VALUE',
          'the adjustment would make a value negative',
        );
      return next;
    });
  }

  /** Loads a product for update, applies `change`, and saves it: one transaction. */
  private async mutate(id: string, change: (record: ProductRecord) => ProductRecord): Promise<Product> {
    return this.storage.write(async (trx) => {
      const record = await lockRecord(trx, this.storage.dialect, id);
      if (!record) throw notFound('product', id);
      const next = change(record);
      next.lastUpdated = new Date().toISOString();
      return saveProduct(this.storage, trx, next, record);
    });
  }

  private async bulk(
    ids: readonly string[],
    change: (record: ProductRecord) => ProductRecord,
  ): Promise<BulkUpdateProductsResult> {
    const list = distinctIds(ids, 'ids');
    return this.storage.write(async (trx) => {
      await lockProducts(trx, this.storage.dialect, list); // all of them first, in order, not one by one as listed
      const results: BulkUpdateProductsResult['results'] = [];
      for (const [originalIndex, id] of list.entries()) {
        const record = await lockRecord(trx, this.storage.dialect, id);
        if (!record) {
          results.push({
            itemMetadata: {
              id,
              originalIndex,
              success: false,
              error: { code: 'NOT_FOUND', description: `product ${id} not found` },
            },
          });
          continue;
        }
        try {
          const next = change(record);
          next.lastUpdated = new Date().toISOString();
          await saveProduct(this.storage, trx, next, record);
          results.push({ itemMetadata: { id, originalIndex, success: true } });
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const code = error.application?.code ?? error.kind;
          results.push({
            itemMetadata: { id, originalIndex, success: false, error: { code, description: error.message } },
          });
        }
      }
      const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
      return {
        results,
        bulkActionMetadata: {
          totalSuccesses,
          totalFailures: results.length - totalSuccesses,
          undetailedFailures: 0,
        },
      };
    });
  }

  /** Numeric ids grow with time (as the hosted platform's do) and never repeat within a store. */
  private async nextNumericId(trx: Transaction<Tables>): Promise<number> {
    if (this.lastNumericId === 0) {
      const row = await trx
        .selectFrom('products')
        .select(sql<number>`max(numeric_id)`.as('max'))
        .executeTakeFirst();
      this.lastNumericId = Number(row?.max ?? 0);
    }
    this.lastNumericId = Math.max(this.lastNumericId + 1, Date.now() * 1000);
    return this.lastNumericId;
  }

  private async freeSlug(trx: Transaction<Tables>, slug: string, id: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? slug : `${slug}-${n}`;
      const clash = await trx
        .selectFrom('products')
        .select('id')
        .where('slug', '=', candidate)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (!clash) return candidate;
    }
  }
}
