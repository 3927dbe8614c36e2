import { randomUUID } from 'node:crypto';
import type { InventoryItemV3 } from '@cartwheel/sdk';
import { type SqlBool, sql } from 'kysely';
import { applicationError, DomainError, notFound } from '../shared/errors.ts';
import type { ProductRecord, VariantRecord } from './model.ts';
import { compileFilter } from './query.ts';
import type { StockLedger } from './stock.ts';
import type { CatalogStorage } from './storage.ts';
import { applyItemFields, type InventoryV3, ITEM_FIELDS } from './v3-inventory.ts';
import type {
  BulkUpdateInventoryItemsBody,
  BulkUpdateInventoryItemsByFilterBody,
  InventoryItemCreateInput,
} from './v3-inventory-schemas.ts';
import { DEFAULT_LOCATION_ID, inventoryItemV3 } from './v3-model.ts';
import { bulk } from './v3-products.ts';
import { checkFilter } from './v3-query.ts';
import { Violations } from './validation.ts';

/** The most items one update by filter changes, in one transaction. */
export const MAX_FILTER_UPDATE_ITEMS = 5000;

type Target = { id: string; productId: string; variantId: string };

/**
 * The v3 inventory item writes beyond the one-item update (v3-inventory.ts): create and delete, and
 * the bulk updates. Every variant has its stock in its product's record, so an item is never made
 * or removed on its own: "delete" leaves the variant without one (model.ts `noInventoryItem`: no
 * stock, no preorder, not read, not sold), and "create" gives a variant left so its item again, with
 * what the create says. Every change goes through the StockLedger under its product's lock.
 */
export class InventoryWritesV3 {
  constructor(
    private readonly storage: CatalogStorage,
    private readonly stock: StockLedger,
    private readonly inventory: InventoryV3,
  ) {}

  /**
   * Makes the item of the variant `input` names (`productId`, `variantId`, at the one location): its
   * counting, its stock (unsaid: nothing in stock) and its preorder. A variant that has its item is
   * refused with ITEM_ALREADY_EXISTS.
   */
  async create(input: InventoryItemCreateInput, path = 'inventoryItem'): Promise<InventoryItemV3> {
    const v = new Violations();
    if (!input.productId) v.add(`${path}.productId`, 'is required', 'REQUIRED_FIELD');
    if (!input.variantId) v.add(`${path}.variantId`, 'is required', 'REQUIRED_FIELD');
    if (input.locationId && input.locationId !== DEFAULT_LOCATION_ID)
      v.add(
        `${path}.locationId`,
        `the store has one location, ${DEFAULT_LOCATION_ID}: leave it out or name that one`,
        'VALIDATION',
      );
    v.throwIfAny();
    const id = `${input.productId}-${input.variantId}`;
    const [target] = await this.targets([id], 'any');
    if (!target) {
      throw applicationError(
        'NOT_FOUND',
        'NOT_FOUND',
        `product ${input.productId} has no variant ${input.variantId}`,
        {
          productId: input.productId,
          variantId: input.variantId,
        },
      );
    }
    const trackQuantity =
      input.trackQuantity ??
      (input.quantity !== undefined ? true : input.inStock !== undefined ? false : undefined);
    return this.changeOne(target, (record, variant) => {
      if (!variant.noInventoryItem) {
        throw applicationError(
          'ALREADY_EXISTS',
          'ITEM_ALREADY_EXISTS',
          `variant ${variant.id} of product ${record.id} has its inventory item ${id} at the store's location`,
          { id, variantId: variant.id, locationId: DEFAULT_LOCATION_ID },
        );
      }
      delete variant.noInventoryItem;
      applyItemFields(record, variant, { ...input, trackQuantity }, path);
    });
  }

  async bulkCreate(inputs: InventoryItemCreateInput[], returnEntity: boolean | undefined) {
    return bulk(
      inputs,
      async (input) => {
        const item = await this.create(input);
        return { id: item.id as string, item: returnEntity ? item : undefined };
      },
      (input) => (input.productId && input.variantId ? `${input.productId}-${input.variantId}` : undefined),
    );
  }

  /** Leaves the item's variant without an item: nothing in stock, no preorder, not read, not sold. */
  async delete(id: string): Promise<void> {
    const [target] = await this.targets([id], 'with item');
    if (!target) throw notFound('inventory item', id);
    await this.changeOne(target, (record, variant) => {
      if (variant.noInventoryItem) throw notFound('inventory item', id);
      if (record.trackInventory) variant.quantity = 0;
      variant.inStock = false;
      delete variant.preorder;
      variant.noInventoryItem = true;
    });
  }

  async bulkDelete(ids: string[]) {
    return bulk(
      ids,
      async (id) => {
        await this.delete(id);
        return { id };
      },
      (id) => id,
    );
  }

  /** Each item updated at the revision it names, in its own transaction: one refused, the others go on. */
  async bulkUpdate(body: BulkUpdateInventoryItemsBody) {
    return bulk(
      body.inventoryItems,
      async ({ inventoryItem }) => {
        const id = typeof inventoryItem.id === 'string' ? inventoryItem.id : undefined;
        if (!id) {
          const v = new Violations();
          v.add('inventoryItem.id', 'is required', 'REQUIRED_FIELD');
          v.throwIfAny();
        }
        const item = await this.inventory.updateItem(id as string, inventoryItem);
        return { id: id as string, item: body.returnEntity ? item : undefined };
      },
      ({ inventoryItem }) => (typeof inventoryItem.id === 'string' ? inventoryItem.id : undefined),
    );
  }

  /**
   * Sets what `body.inventoryItem` names on every item `body.filter` finds (the query's filter fields),
   * all in one transaction under their products' locks, all or none. The hosted call answers the id of
   * an asynchronous job; Cartwheel has done the work when it answers, and the id it gives names that
   * finished work only (there is no job to read back).
   */
  async updateByFilter(body: BulkUpdateInventoryItemsByFilterBody): Promise<{ jobId: string }> {
    checkFilter(body.filter, ITEM_FIELDS, 'filter');
    const rows = await this.storage.db
      .selectFrom('product_variants as v')
      .select(['v.id as id', 'v.product_id as productId', 'v.variant_id as variantId'])
      .where(sql<SqlBool>`(${compileFilter(body.filter, ITEM_FIELDS, {}, 'filter')}) and v.has_item = 1`)
      .orderBy('v.id')
      .limit(MAX_FILTER_UPDATE_ITEMS + 1)
      .execute();
    if (rows.length > MAX_FILTER_UPDATE_ITEMS) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'TOO_MANY_ITEMS',
        `the filter finds more than ${MAX_FILTER_UPDATE_ITEMS} inventory items: narrow it (by productId, say)`,
        { limit: MAX_FILTER_UPDATE_ITEMS },
      );
    }
    if (rows.length > 0) {
      await this.storage.write((trx) =>
        this.stock.changeStock(trx, rows, (record, variant, index) => {
          const id = rows[index]!.id;
          // deleted between the read and the lock: the caller's filter saw an item that is gone
          if (!record || !variant || variant.noInventoryItem) {
            throw applicationError(
              'ABORTED',
              'ABORTED',
              `inventory item ${id} changed meanwhile: try again`,
              {
                id,
              },
            );
          }
          try {
            applyItemFields(record, variant, body.inventoryItem, 'inventoryItem');
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            // which item refused the update, for a filter that finds items of several kinds
            throw new DomainError(
              error.kind,
              `inventory item ${id}: ${error.message}`,
              error.fieldViolations.map((violation) => ({
                ...violation,
                description: `inventory item ${id}: ${violation.description}`,
              })),
              error.application,
            );
          }
        }),
      );
    }
    return { jobId: randomUUID() };
  }

  /** One variant's item changed under its product's lock (`change` may refuse): the item after it. */
  private async changeOne(
    target: Target,
    change: (record: ProductRecord, variant: VariantRecord) => void,
  ): Promise<InventoryItemV3> {
    const records = await this.storage.write((trx) =>
      this.stock.changeStock(trx, [target], (record, variant) => {
        if (!record || !variant) throw notFound('inventory item', target.id);
        change(record, variant);
      }),
    );
    const record = records.get(target.productId)!;
    const variant = record.variants.find((candidate) => candidate.id === target.variantId)!;
    return inventoryItemV3(record, variant);
  }

  /** The variants of `ids` (`{productId}-{variantId}`): those with an item, or any. */
  private async targets(ids: string[], which: 'with item' | 'any'): Promise<Target[]> {
    const rows = await this.storage.db
      .selectFrom('product_variants')
      .select(['id', 'product_id as productId', 'variant_id as variantId'])
      .where('id', 'in', ids)
      .$if(which === 'with item', (qb) => qb.where('has_item', '=', 1))
      .execute();
    return rows;
  }
}
