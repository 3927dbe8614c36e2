import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { ProductRecord } from './model.ts';
import type { ProductWrites } from './product-writes.ts';
import type { StockLedger } from './stock.ts';
import type { CatalogStorage } from './storage.ts';
import { applyProductV3, checkRevision } from './v3-input.ts';
import { applyStockInput } from './v3-inventory.ts';
import { inventoryItemV3 } from './v3-model.ts';
import type { InventoryItemComposite, ProductWithInventoryInput } from './v3-product-bulk-schemas.ts';
import { ADMIN, bulk, renderProductV3WithCategories } from './v3-products.ts';
import type { FieldsInput, ProductInputV3 } from './v3-schemas.ts';
import { Violations } from './validation.ts';

/**
 * A v3 product written with its variants' inventory items in one call (`/v3/products-with-inventory`):
 * the product is saved as any v3 write saves it (v3-input.ts, product-writes.ts), then, in the same
 * transaction, each variant's stock is set through the StockLedger as an inventory item update sets
 * it (v3-inventory.ts), so the items' revisions move and their events are written. Cartwheel counts
 * stock per product, not per variant: the items of one product all give a quantity or all an in-stock
 * flag.
 */

const PATH = 'product.variantsInfo.variants';

/** The hosted `inventoryResults`: one result per variant's item, the item itself when asked for. */
function inventoryResults(record: ProductRecord, returnEntity: boolean | undefined) {
  const results = record.variants.map((variant, originalIndex) => ({
    itemMetadata: { id: `${record.id}-${variant.id}`, originalIndex, success: true },
    ...(returnEntity ? { item: inventoryItemV3(record, variant) } : {}),
  }));
  return {
    results,
    bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 },
  };
}

export class ProductsWithInventoryV3 {
  constructor(
    private readonly storage: CatalogStorage,
    private readonly writes: ProductWrites,
    private readonly stock: StockLedger,
  ) {}

  async create(
    input: ProductWithInventoryInput,
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ): Promise<string> {
    return JSON.stringify(await this.answer(await this.createRecord(input), returnEntity, fields));
  }

  /** Saves what `input` names, when `input.revision` is the product's revision, and its variants' stock. */
  async update(
    id: string,
    input: ProductWithInventoryInput,
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ): Promise<string> {
    return JSON.stringify(await this.answer(await this.updateRecord(id, input), returnEntity, fields));
  }

  /** Each product in its own transaction, a result per product; the items of those saved. */
  async bulkCreate(
    inputs: ProductWithInventoryInput[],
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ): Promise<string> {
    const saved: ProductRecord[] = [];
    const productResults = await bulk(
      inputs,
      async (input) => {
        const record = await this.createRecord(input);
        saved.push(record);
        return { id: record.id, item: returnEntity ? await this.render(record, fields) : undefined };
      },
      () => undefined,
    );
    return JSON.stringify({ productResults, inventoryResults: itemsOf(saved, returnEntity) });
  }

  async bulkUpdate(
    inputs: Array<{ product: ProductWithInventoryInput }>,
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ): Promise<string> {
    const saved: ProductRecord[] = [];
    const productResults = await bulk(
      inputs,
      async ({ product }) => {
        const id = typeof product.id === 'string' ? product.id : '';
        const v = new Violations();
        if (!id) v.add('product.id', 'is required', 'REQUIRED_FIELD');
        v.throwIfAny();
        const record = await this.updateRecord(id, product);
        saved.push(record);
        return { id: record.id, item: returnEntity ? await this.render(record, fields) : undefined };
      },
      ({ product }) => (typeof product.id === 'string' ? product.id : undefined),
    );
    return JSON.stringify({ productResults, inventoryResults: itemsOf(saved, returnEntity) });
  }

  private createRecord(input: ProductWithInventoryInput): Promise<ProductRecord> {
    const { product, items } = split(input);
    const explicitSlug = typeof product.slug === 'string' && product.slug !== '';
    return this.writes.createRecord(
      (base) => countingAsNamed(applyProductV3(base, product, true), items, true),
      explicitSlug,
      (trx, saved) => this.setStock(trx, saved, items),
    );
  }

  private updateRecord(id: string, input: ProductWithInventoryInput): Promise<ProductRecord> {
    const { product, items } = split(input);
    return this.writes.changeRecord(
      id,
      (record) => {
        checkRevision(record, product.revision);
        return countingAsNamed(applyProductV3(record, product, false), items, false);
      },
      (trx, saved) => this.setStock(trx, saved, items),
    );
  }

  /** Each named item's stock, set through the ledger under the product's lock, in the write's transaction. */
  private async setStock(
    trx: Transaction<Tables>,
    saved: ProductRecord,
    items: Array<InventoryItemComposite | undefined>,
  ): Promise<ProductRecord> {
    const named = saved.variants.flatMap((variant, index) => {
      const item = items[index];
      return item ? [{ productId: saved.id, variantId: variant.id, item, index }] : [];
    });
    if (named.length === 0) return saved;
    const v = new Violations();
    const records = await this.stock.changeStock(trx, named, (record, variant, at) => {
      const target = named[at]!;
      if (record && variant) {
        applyStockInput(v, record, variant, target.item, `${PATH}[${target.index}].inventoryItem`);
      }
    });
    v.throwIfAny();
    return records.get(saved.id) ?? saved;
  }

  private async answer(
    record: ProductRecord,
    returnEntity: boolean | undefined,
    fields: FieldsInput | undefined,
  ) {
    return {
      product: await this.render(record, fields),
      inventoryResults: inventoryResults(record, returnEntity),
    };
  }

  private render(record: ProductRecord, fields: FieldsInput | undefined) {
    return renderProductV3WithCategories(this.storage, record, ADMIN, fields);
  }
}

function itemsOf(records: ProductRecord[], returnEntity: boolean | undefined) {
  const results = records.flatMap((record) => inventoryResults(record, returnEntity).results);
  return {
    results: results.map((result, originalIndex) => ({
      ...result,
      itemMetadata: { ...result.itemMetadata, originalIndex },
    })),
    bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 },
  };
}

/** The product as a v3 write takes it, and each variant's inventory item (by the variant's place). */
function split(input: ProductWithInventoryInput): {
  product: ProductInputV3;
  items: Array<InventoryItemComposite | undefined>;
} {
  const variants = input.variantsInfo?.variants;
  if (variants === undefined) return { product: input as ProductInputV3, items: [] };
  return {
    product: {
      ...input,
      variantsInfo: { variants: variants.map(({ inventoryItem: _item, ...variant }) => variant) },
    } as ProductInputV3,
    items: variants.map((variant) => variant.inventoryItem),
  };
}

/**
 * Counts the product's stock as its items name it: all by quantity (`quantity`) or all by flag
 * (`inStock`). A product that changes how it counts names an item for every variant.
 */
function countingAsNamed(
  record: ProductRecord,
  items: Array<InventoryItemComposite | undefined>,
  creating: boolean,
): ProductRecord {
  const v = new Violations();
  const modes = new Set<boolean>();
  for (const [index, item] of items.entries()) {
    if (!item) continue;
    const at = `${PATH}[${index}].inventoryItem`;
    if (item.quantity !== undefined && item.inStock !== undefined) {
      v.add(at, 'takes a quantity or inStock, not both', 'ONE_OF_ALIGNMENT');
    } else if (item.quantity !== undefined) modes.add(true);
    else if (item.inStock !== undefined) modes.add(false);
  }
  if (modes.size > 1) {
    v.add(
      PATH,
      "a product's items all count a quantity or all keep inStock: Cartwheel counts per product",
      'VALIDATION',
    );
  }
  const [tracked] = [...modes];
  if (tracked !== undefined && tracked !== record.trackInventory) {
    const every = record.variants.every((_, index) => items[index] !== undefined);
    if (!creating && !every) {
      v.add(PATH, 'changing how stock is counted names an inventory item for every variant', 'VALIDATION');
    } else {
      record.trackInventory = tracked;
      for (const variant of record.variants) {
        if (tracked) variant.quantity ??= 0;
        else variant.inStock = variant.inStock ?? true;
      }
    }
  }
  v.throwIfAny();
  return record;
}
