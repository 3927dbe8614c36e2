import type { InventoryItemV3 } from '@cartwheel/sdk';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { applicationError, type DomainError, notFound } from '../shared/errors.ts';
import type { ProductRecord, VariantRecord } from './model.ts';
import { compileFilter, orderBy, parseSort, type QueryFields } from './query.ts';
import type { StockLedger } from './stock.ts';
import type { CatalogStorage, Viewer } from './storage.ts';
import type { DecrementByVariantBody, IncrementByVariantBody } from './v3-inventory-schemas.ts';
import { DEFAULT_LOCATION_ID, inventoryItemV3 } from './v3-model.ts';
import { checkFilter, cursorMetadata, readCursorPage } from './v3-query.ts';
import type {
  DecrementInventoryBody,
  IncrementInventoryBody,
  InventoryItemInput,
  QueryInventoryItemsRequest,
} from './v3-schemas.ts';
import { Violations } from './validation.ts';

/**
 * v3 inventory items: one per variant, at the store's one location. An item is its variant's stock in
 * the product record (quantity counted, or an in-stock flag), so the v1 calls, checkout's stock and
 * refunds' restock (stock.ts) move what these read and write. An item's id is its store variant's id
 * (`{productId}-{variantId}`, the `product_variants` key). Its availability is worked out from the
 * record at every read, never kept: in stock; else preorder while preorder is on and under its limit;
 * else out of stock.
 */

/** The most a counted quantity may hold (as v1's stock). */
const MAX_QUANTITY = 99_999;

export const ITEM_FIELDS: QueryFields = {
  id: { column: 'v.id', kind: 'string' },
  variantId: { column: 'v.variant_id', kind: 'string' },
  productId: { column: 'v.product_id', kind: 'string' },
  inStock: { column: 'v.in_stock', kind: 'boolean' },
};
const ITEM_SORT = { id: 'v.id', productId: 'v.product_id', variantId: 'v.variant_id' };

const insufficient = (id: string, available: number, asked: number): DomainError =>
  applicationError(
    'FAILED_PRECONDITION',
    'INSUFFICIENT_INVENTORY',
    `inventory item ${id} holds ${available}, not the ${asked} asked for`,
    { inventoryItemId: id, available, requested: asked },
  );

export class InventoryV3 {
  constructor(
    private readonly storage: CatalogStorage,
    private readonly stock: StockLedger,
  ) {}

  async itemJson(id: string, viewer: Viewer): Promise<string> {
    const [item] = await this.items([id], viewer);
    if (!item) throw notFound('inventory item', id);
    return JSON.stringify({ inventoryItem: item });
  }

  /** `{"inventoryItems": [...], "pagingMetadata"}`: items by id, product or variant, a page by cursor. */
  async queryJson(request: QueryInventoryItemsRequest, viewer: Viewer): Promise<string> {
    const page = readCursorPage(request.query);
    checkFilter(page.filter, ITEM_FIELDS, 'query.filter');
    const order =
      (page.sort?.length ?? 0) > 0
        ? orderBy(parseSort(page.sort, ITEM_SORT, 'v.id', { fieldName: 'id', order: 'ASC' }, 'query.sort'))
        : sql`v.product_id, v.position`;
    const where = this.listed(compileFilter(page.filter, ITEM_FIELDS, {}, 'query.filter'), viewer);
    const rows = await this.storage.db
      .selectFrom('product_variants as v')
      .innerJoin('products as p', 'p.id', 'v.product_id')
      .select(['p.record as record', 'v.variant_id as variantId'])
      .where(where)
      .orderBy(order)
      .limit(page.limit + 1)
      .offset(page.offset)
      .execute();
    const parsed = new Map<string, ProductRecord>();
    const items = rows.slice(0, page.limit).flatMap((row) => {
      const record = parsed.get(row.record) ?? (JSON.parse(row.record) as ProductRecord);
      parsed.set(row.record, record);
      const variant = record.variants.find((candidate) => candidate.id === row.variantId);
      return variant ? [inventoryItemV3(record, variant)] : [];
    });
    return JSON.stringify({
      inventoryItems: items,
      pagingMetadata: cursorMetadata(page, items.length, rows.length > page.limit),
    });
  }

  /** `{"count"}`: how many items the filter finds, as a query of them would list them. */
  async countJson(filter: unknown, viewer: Viewer): Promise<string> {
    checkFilter(filter, ITEM_FIELDS, 'filter');
    const row = await this.storage.db
      .selectFrom('product_variants as v')
      .select(sql<number>`count(*)`.as('count'))
      .where(this.listed(compileFilter(filter, ITEM_FIELDS, {}, 'filter'), viewer))
      .executeTakeFirstOrThrow();
    return JSON.stringify({ count: Number(row.count) });
  }

  /** The items a filter finds that `viewer` may see: those with an item, of products shown unless an admin asks. */
  private listed(filter: RawBuilder<SqlBool>, viewer: Viewer): RawBuilder<SqlBool> {
    const where = sql<SqlBool>`(${filter}) and v.has_item = 1`;
    return viewer.admin ? where : sql<SqlBool>`${where} and v.product_visible = 1`;
  }

  /** Sets what `input` names, when `input.revision` is the item's revision. */
  async update(id: string, input: InventoryItemInput): Promise<string> {
    return JSON.stringify({ inventoryItem: await this.updateItem(id, input) });
  }

  /** `update`'s work: the item as it is after it (bulk updates report each in its place). */
  async updateItem(id: string, input: InventoryItemInput): Promise<InventoryItemV3> {
    const [target] = await this.targets([id]);
    if (!target) throw notFound('inventory item', id);
    const records = await this.storage.write((trx) =>
      this.stock.changeStock(trx, [target], (record, variant) => {
        if (!record || !variant || variant.noInventoryItem) throw notFound('inventory item', id);
        checkRevision(record, variant, input.revision);
        applyItemFields(record, variant, input, 'inventoryItem');
      }),
    );
    const record = records.get(target.productId)!;
    const variant = record.variants.find((candidate) => candidate.id === target.variantId)!;
    return inventoryItemV3(record, variant);
  }

  /**
   * Takes units out of items, all or none: a counted item may not go below zero unless
   * `restrictInventory` is false; a preorder request counts against the preorder limit instead.
   */
  async decrement(body: DecrementInventoryBody): Promise<string> {
    const restrict = body.restrictInventory ?? true;
    return this.move(
      'decrementData',
      body.decrementData.map((entry) => ({ id: entry.inventoryItemId, units: entry.decrementBy ?? 1 })),
      body.returnEntity,
      (record, variant, id, units, index) => {
        if (body.decrementData[index]?.preorderRequest) {
          const preorder = variant.preorder;
          if (!preorder?.enabled) throw insufficient(id, 0, units);
          const left = preorder.limit === null ? Number.POSITIVE_INFINITY : preorder.limit - preorder.counter;
          if (units > left) throw insufficient(id, left, units);
          preorder.counter += units;
          return;
        }
        if (!record.trackInventory) throw notTracked(id);
        const quantity = variant.quantity ?? 0;
        if (restrict && quantity - units < 0) throw insufficient(id, quantity, units);
        variant.quantity = quantity - units;
      },
    );
  }

  /** Puts units back into counted items, all or none. */
  async increment(body: IncrementInventoryBody): Promise<string> {
    return this.move(
      'incrementData',
      body.incrementData.map((entry) => ({ id: entry.inventoryItemId, units: entry.incrementBy ?? 1 })),
      body.returnEntity,
      (record, variant, id, units) => {
        if (!record.trackInventory) throw notTracked(id);
        const quantity = (variant.quantity ?? 0) + units;
        if (quantity > MAX_QUANTITY) {
          throw applicationError(
            'FAILED_PRECONDITION',
            'MAX_QUANTITY_LIMIT_REACHED',
            `inventory item ${id} may hold at most ${MAX_QUANTITY}`,
            { inventoryItemId: id },
          );
        }
        variant.quantity = quantity;
      },
    );
  }

  /** `decrement`, each item named by its variant and location (`itemIdsByVariant`). */
  async decrementByVariant(body: DecrementByVariantBody): Promise<string> {
    const ids = await this.itemIdsByVariant('decrementData', body.decrementData);
    return this.decrement({
      ...body,
      decrementData: body.decrementData.map((entry, index) => ({
        inventoryItemId: ids[index],
        decrementBy: entry.decrementBy,
        preorderRequest: entry.preorderRequest,
      })),
    });
  }

  /** `increment`, each item named by its variant and location. */
  async incrementByVariant(body: IncrementByVariantBody): Promise<string> {
    const ids = await this.itemIdsByVariant('incrementData', body.incrementData);
    return this.increment({
      ...body,
      incrementData: body.incrementData.map((entry, index) => ({
        inventoryItemId: ids[index],
        incrementBy: entry.incrementBy,
      })),
    });
  }

  /**
   * The item each entry's variant and location name. The store has one location; a variant id is a
   * product's own, except the one variant of a product without options, which every such product
   * shares (`DEFAULT_VARIANT_ID`): that id names an item only when one product has it, else the entry
   * is refused, naming the item ids (`{productId}-{variantId}`) to move by instead. All or none, as
   * the moves: one entry refused refuses the call.
   */
  private async itemIdsByVariant(
    part: 'decrementData' | 'incrementData',
    entries: ReadonlyArray<{ variantId?: string | undefined; locationId?: string | null | undefined }>,
  ): Promise<string[]> {
    const v = new Violations();
    for (const [index, entry] of entries.entries()) {
      if (!entry.variantId) v.add(`${part}[${index}].variantId`, 'is required', 'REQUIRED_FIELD');
      if (entry.locationId && entry.locationId !== DEFAULT_LOCATION_ID)
        v.add(
          `${part}[${index}].locationId`,
          `the store has one location, ${DEFAULT_LOCATION_ID}: leave it out or name that one`,
          'VALIDATION',
        );
    }
    v.throwIfAny();
    const variantIds = [...new Set(entries.map((entry) => entry.variantId as string))];
    const rows = await this.storage.db
      .selectFrom('product_variants')
      .select(['id', 'variant_id'])
      .where('variant_id', 'in', variantIds)
      .where('has_item', '=', 1)
      .orderBy('id')
      .execute();
    const itemsOf = new Map<string, string[]>();
    for (const row of rows) itemsOf.set(row.variant_id, [...(itemsOf.get(row.variant_id) ?? []), row.id]);
    return entries.map((entry, index) => {
      const variantId = entry.variantId as string;
      const items = itemsOf.get(variantId) ?? [];
      if (items.length === 0) {
        throw applicationError('NOT_FOUND', 'NOT_FOUND', `no inventory item of variant ${variantId}`, {
          variantId,
          originalIndex: index,
        });
      }
      if (items.length > 1) {
        throw applicationError(
          'INVALID_ARGUMENT',
          'AMBIGUOUS_VARIANT_ID',
          `variant ${variantId} (${part}[${index}]) is the one variant of ${items.length} products without ` +
            `options: move it by its inventory item id (bulkDecrementInventoryItems, ` +
            `bulkIncrementInventoryItems), e.g. ${items[0]}`,
          { variantId, originalIndex: index, inventoryItemIds: items.slice(0, 20) },
        );
      }
      return items[0] as string;
    });
  }

  private async move(
    part: 'decrementData' | 'incrementData',
    entries: Array<{ id: string | undefined; units: number }>,
    returnEntity: boolean | undefined,
    apply: (record: ProductRecord, variant: VariantRecord, id: string, units: number, index: number) => void,
  ): Promise<string> {
    const v = new Violations();
    for (const [index, entry] of entries.entries()) {
      if (!entry.id) v.add(`${part}[${index}].inventoryItemId`, 'is required', 'REQUIRED_FIELD');
    }
    v.throwIfAny();
    const ids = entries.map((entry) => entry.id as string);
    const known = new Map((await this.targets(ids)).map((target) => [target.id, target]));
    const targets = ids.map((id) => {
      const target = known.get(id);
      if (!target) throw notFound('inventory item', id);
      return target;
    });
    const records = await this.storage.write((trx) =>
      this.stock.changeStock(trx, targets, (record, variant, index) => {
        const id = ids[index] as string;
        if (!record || !variant || variant.noInventoryItem) throw notFound('inventory item', id);
        apply(record, variant, id, entries[index]!.units, index);
      }),
    );
    const results = targets.map((target, originalIndex) => {
      const record = records.get(target.productId)!;
      const variant = record.variants.find((candidate) => candidate.id === target.variantId)!;
      return {
        itemMetadata: { id: target.id, originalIndex, success: true },
        ...(returnEntity ? { item: inventoryItemV3(record, variant) } : {}),
      };
    });
    return JSON.stringify({
      results,
      bulkActionMetadata: { totalSuccesses: results.length, totalFailures: 0, undetailedFailures: 0 },
    });
  }

  /** The product and variant of each item id that names one (a variant whose item was deleted names none). */
  private async targets(ids: string[]): Promise<Array<{ id: string; productId: string; variantId: string }>> {
    if (ids.length === 0) return [];
    const rows = await this.storage.db
      .selectFrom('product_variants')
      .select(['id', 'product_id', 'variant_id'])
      .where('id', 'in', [...new Set(ids)])
      .where('has_item', '=', 1)
      .execute();
    return rows.map((row) => ({ id: row.id, productId: row.product_id, variantId: row.variant_id }));
  }

  private async items(ids: string[], viewer: Viewer): Promise<InventoryItemV3[]> {
    const targets = await this.targets(ids);
    const items: InventoryItemV3[] = [];
    for (const target of targets) {
      const row = await this.storage.db
        .selectFrom('products')
        .select(['record', 'visible'])
        .where('id', '=', target.productId)
        .executeTakeFirst();
      if (!row || (row.visible !== 1 && !viewer.admin)) continue;
      const record = JSON.parse(row.record) as ProductRecord;
      const variant = record.variants.find((candidate) => candidate.id === target.variantId);
      if (variant && !variant.noInventoryItem) items.push(inventoryItemV3(record, variant));
    }
    return items;
  }
}

const notTracked = (id: string): DomainError =>
  applicationError(
    'FAILED_PRECONDITION',
    'INVENTORY_QUANTITY_NOT_TRACKED',
    `inventory item ${id} does not count its quantity`,
    { inventoryItemId: id },
  );

/** An update names the revision it read: required, and refused when the item moved on since. */
export function checkRevision(
  record: ProductRecord,
  variant: VariantRecord,
  revision: string | null | undefined,
  path = 'inventoryItem',
): void {
  const current = String(variant.inventoryRevision ?? 1);
  if (!revision) {
    const v = new Violations();
    v.add(`${path}.revision`, 'is required', 'REQUIRED_FIELD');
    v.throwIfAny();
  }
  if (revision !== current) {
    const id = `${record.id}-${variant.id}`;
    throw applicationError(
      'ABORTED',
      'REVISION_MISMATCH',
      `inventory item ${id} is at revision ${current}, not ${revision}: read it again and retry`,
      { id, revision: current },
    );
  }
}

/** What an item's create or update sets: its counting, its stock, its preorder (`path` names the fields). */
export function applyItemFields(
  record: ProductRecord,
  variant: VariantRecord,
  input: Pick<InventoryItemInput, 'trackQuantity' | 'quantity' | 'inStock' | 'preorderInfo'>,
  path: string,
): void {
  const v = new Violations();
  if (input.trackQuantity !== undefined && input.trackQuantity !== record.trackInventory) {
    if (record.variants.length > 1) {
      v.add(
        `${path}.trackQuantity`,
        "a product's variants are all counted or all not: Cartwheel keeps it per product",
        'VALIDATION',
      );
    } else {
      record.trackInventory = input.trackQuantity;
      if (input.trackQuantity) variant.quantity ??= 0;
    }
  }
  applyStockInput(v, record, variant, input, path);
  v.throwIfAny();
}

/** What an item's stock is set to: its quantity (counted) or in-stock flag, and its preorder. */
export type StockInput = Pick<InventoryItemInput, 'quantity' | 'inStock' | 'preorderInfo'>;

/**
 * Sets a variant's stock and preorder as `input` names them, each part checked against how its
 * product counts stock (a quantity only when counted, an in-stock flag only when not); shared by the
 * inventory item update and the product-with-inventory writes (v3-with-inventory.ts).
 */
export function applyStockInput(
  v: Violations,
  record: ProductRecord,
  variant: VariantRecord,
  input: StockInput,
  path: string,
): void {
  if (input.quantity !== undefined) {
    if (!record.trackInventory)
      v.add(`${path}.quantity`, 'the item does not count its quantity', 'VALIDATION');
    else if (input.quantity < 0) v.add(`${path}.quantity`, 'must be zero or more', 'MIN');
    else variant.quantity = input.quantity;
  }
  if (input.inStock !== undefined) {
    if (record.trackInventory) v.add(`${path}.inStock`, 'the item counts its quantity instead', 'VALIDATION');
    else variant.inStock = input.inStock;
  }
  const preorder = input.preorderInfo;
  if (preorder) {
    const next = { enabled: false, message: null, limit: null, counter: 0, ...variant.preorder };
    if (preorder.enabled !== undefined && preorder.enabled !== null) next.enabled = preorder.enabled;
    if (preorder.message !== undefined) next.message = preorder.message;
    if (preorder.limit !== undefined) {
      if (preorder.limit !== null && !record.trackInventory) {
        v.add(`${path}.preorderInfo.limit`, 'a preorder limit needs a counted quantity', 'VALIDATION');
      } else next.limit = preorder.limit;
    }
    variant.preorder = next;
  }
}
