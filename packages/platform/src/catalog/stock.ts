import type { Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { recordEvents } from '../events/outbox.ts';
import { movePricingVersion } from '../store-settings/pricing-versions.ts';
import { type ProductRecord, type VariantRecord, variantNamedBy } from './model.ts';
import { inventoryEvent, inventoryItemEvents, saveStock } from './product-rows.ts';
import type { CatalogStorage } from './storage.ts';

/** A line of an order as stock sees it: a product's variant (by id, or by its choices) and how many. */
export interface StockItem {
  productId: string;
  /** The variant's id; absent: the variant `choices` name, else the variant of a product without options. */
  variantId?: string | undefined;
  choices?: Record<string, string> | undefined;
  quantity: number;
  /**
   * How many of `quantity` `takeStock` took as preorders (the variant out of stock, its preorder on):
   * counted against the preorder limit, and given back to it, not to stock.
   */
  preordered?: number;
}

/** A line `takeStock` could not take: its index in the items, and what the variant still holds. */
export interface StockShortfall {
  index: number;
  available: number;
}

/** Stock an order takes and gives back (checkouts/, billing/), inside the order's own transaction. */
export class StockLedger {
  constructor(private readonly storage: CatalogStorage) {}

  /**
   * Takes what an order sells out of counted stock, inside the order's transaction `trx`: the products
   * are locked in id order, and nothing is taken when any line falls short (`short` names those lines by
   * their index in `items`). Products that do not track inventory are not counted.
   */
  async takeStock(trx: Transaction<Tables>, items: StockItem[]): Promise<{ short: StockShortfall[] }> {
    return this.moveStock(trx, items, -1);
  }

  /** Gives back what `takeStock` took (a declined payment, an abandoned attempt), inside `trx`. */
  async returnStock(trx: Transaction<Tables>, items: StockItem[]): Promise<void> {
    await this.moveStock(trx, items, 1);
  }

  private async moveStock(
    trx: Transaction<Tables>,
    items: StockItem[],
    direction: 1 | -1,
  ): Promise<{ short: StockShortfall[] }> {
    const ids = [...new Set(items.map((item) => item.productId))].sort();
    if (ids.length === 0) return { short: [] };
    const rows = await trx
      .selectFrom('products')
      .select(['id', 'record', 'doc'])
      .where('id', 'in', ids)
      .orderBy('id')
      .$if(this.storage.dialect === 'postgres', (qb) => qb.forUpdate())
      .execute();
    const records = new Map(rows.map((row) => [row.id, JSON.parse(row.record) as ProductRecord]));
    const next = new Map<string, ProductRecord>();
    const short: StockShortfall[] = [];
    // what each variant is asked for in all, so two lines of one variant are counted together
    const wanted = new Map<string, number>();
    // the variant pricing sold the line as (its choices compared as pricing compares them)
    const variantOf = (record: ProductRecord, item: StockItem) =>
      variantNamedBy(record, { variantId: item.variantId, options: item.choices });
    for (const item of items) {
      const record = records.get(item.productId);
      const variant = record && variantOf(record, item);
      // a variant without its inventory item (deleted) sells nothing, and takes nothing back
      if (!record || !variant || variant.noInventoryItem) {
        if (direction < 0) short.push({ index: items.indexOf(item), available: 0 });
        continue;
      }
      if (!record.trackInventory) continue;
      const key = `${record.id}/${variant.id}`;
      wanted.set(key, (wanted.get(key) ?? 0) + item.quantity);
    }
    // what each variant takes as preorders: what its stock lacks, while its preorder is on and under its limit
    const preorders = new Map<string, number>();
    for (const [index, item] of items.entries()) {
      const record = records.get(item.productId);
      const variant = record && variantOf(record, item);
      if (!record || !variant || !record.trackInventory || variant.noInventoryItem) continue;
      const key = `${record.id}/${variant.id}`;
      const available = Math.max(0, variant.quantity ?? 0);
      const lacking = (wanted.get(key) ?? 0) - available;
      if (direction > 0 || lacking <= 0) continue;
      const preorder = variant.preorder;
      const open = preorder?.enabled ? (preorder.limit ?? Number.POSITIVE_INFINITY) - preorder.counter : 0;
      if (lacking <= open) preorders.set(key, lacking);
      else short.push({ index, available });
    }
    if (short.length > 0) return { short };
    if (direction < 0)
      notePreorders(items, preorders, (item) => {
        const record = records.get(item.productId);
        const variant = record && variantOf(record, item);
        return record && variant ? `${record.id}/${variant.id}` : undefined;
      });
    // what each variant gives back to its preorders rather than to its stock
    const returned = new Map<string, number>();
    if (direction > 0) {
      for (const item of items) {
        const record = records.get(item.productId);
        const variant = record && variantOf(record, item);
        if (!record || !variant || !item.preordered || variant.noInventoryItem) continue;
        const key = `${record.id}/${variant.id}`;
        returned.set(key, (returned.get(key) ?? 0) + item.preordered);
      }
    }
    const now = new Date().toISOString();
    const moved = new Map<string, Set<string>>();
    for (const [productId, total] of wanted) {
      const [id, variantId] = productId.split('/') as [string, string];
      const record = next.get(id) ?? structuredClone(records.get(id)!);
      const variant = record.variants.find((candidate) => candidate.id === variantId)!;
      const preordered = (direction < 0 ? preorders.get(productId) : returned.get(productId)) ?? 0;
      if (preordered > 0 && variant.preorder) {
        variant.preorder.counter = Math.max(0, variant.preorder.counter - direction * preordered);
      }
      variant.quantity = Math.max(0, (variant.quantity ?? 0) + direction * (total - preordered));
      variant.inventoryRevision = (variant.inventoryRevision ?? 1) + 1;
      record.lastUpdated = now;
      next.set(id, record);
      moved.set(id, (moved.get(id) ?? new Set()).add(variantId));
    }
    await this.saveMoved(trx, rows, next, moved);
    return { short: [] };
  }

  /**
   * Changes the stock of the named variants (v3 inventory items) inside `trx`: their products are read
   * in id order, each locked (on PostgreSQL) until `trx` ends, so two changes of one variant, in this
   * process or another, run one after the other and each sees what the other left. `change` gets each
   * target's record and variant (undefined: no such product or variant) and changes the variant in
   * place, or throws to refuse the whole call; a change may end the variant's inventory item or make it
   * again (`noInventoryItem`), its event says so. Answers the records as they are after it.
   */
  async changeStock(
    trx: Transaction<Tables>,
    targets: ReadonlyArray<{ productId: string; variantId: string }>,
    change: (record: ProductRecord | undefined, variant: VariantRecord | undefined, index: number) => void,
  ): Promise<Map<string, ProductRecord>> {
    const ids = [...new Set(targets.map((target) => target.productId))].sort();
    const rows =
      ids.length === 0
        ? []
        : await trx
            .selectFrom('products')
            .select(['id', 'record', 'doc'])
            .where('id', 'in', ids)
            .orderBy('id')
            .$if(this.storage.dialect === 'postgres', (qb) => qb.forUpdate())
            .execute();
    const records = new Map(rows.map((row) => [row.id, JSON.parse(row.record) as ProductRecord]));
    const moved = new Map<string, Set<string>>();
    // the variants that had their inventory item before the change (a create makes one, a delete ends it)
    const hadItem = new Map<string, Set<string>>();
    for (const record of records.values()) {
      hadItem.set(record.id, new Set(record.variants.filter((v) => !v.noInventoryItem).map((v) => v.id)));
    }
    const now = new Date().toISOString();
    for (const [index, target] of targets.entries()) {
      const record = records.get(target.productId);
      const variant = record?.variants.find((candidate) => candidate.id === target.variantId);
      change(record, variant, index);
      if (!record || !variant) continue;
      variant.inventoryRevision = (variant.inventoryRevision ?? 1) + 1;
      record.lastUpdated = now;
      moved.set(record.id, (moved.get(record.id) ?? new Set()).add(variant.id));
    }
    await this.saveMoved(trx, rows, new Map([...records].filter(([id]) => moved.has(id))), moved, hadItem);
    return records;
  }

  /**
   * Writes each product whose stock moved: its quantities, stock flags and documents, from the record
   * read under its lock; its inventory event; and the catalog's pricing version.
   */
  private async saveMoved(
    trx: Transaction<Tables>,
    rows: ReadonlyArray<{ id: string; doc: string }>,
    next: Map<string, ProductRecord>,
    moved: Map<string, Set<string>>,
    hadItem?: ReadonlyMap<string, ReadonlySet<string>>,
  ): Promise<void> {
    if (next.size === 0) return;
    const collectionsOf = new Map(
      rows.map((row) => [row.id, (JSON.parse(row.doc) as { collectionIds?: string[] }).collectionIds ?? []]),
    );
    for (const [id, record] of [...next].sort(([a], [b]) => a.localeCompare(b))) {
      await saveStock(this.storage, trx, record, collectionsOf.get(id)!, moved.get(id)!);
    }
    await recordEvents(trx, [
      ...[...next.values()].map(inventoryEvent),
      ...[...next.values()].flatMap((record) =>
        inventoryItemEvents(
          record,
          record.variants.filter((variant) => moved.get(record.id)?.has(variant.id)),
          hadItem?.get(record.id),
        ),
      ),
    ]);
    // stock is part of a cart's answer: cached cart prices must see it move
    await movePricingVersion(trx, 'catalog');
    // visitors' reads show the new stock; another process's within its cache's lifetime, as for any write
    this.storage.visitorReads.clear();
  }
}

/** Marks on each item how many of its units were preorders, the variant's last items first. */
function notePreorders(
  items: StockItem[],
  preorders: ReadonlyMap<string, number>,
  keyOf: (item: StockItem) => string | undefined,
): void {
  const left = new Map(preorders);
  for (const item of [...items].reverse()) {
    const key = keyOf(item);
    const units = Math.min(item.quantity, (key && left.get(key)) || 0);
    if (!key || units <= 0) continue;
    item.preordered = units;
    left.set(key, (left.get(key) ?? 0) - units);
  }
}
