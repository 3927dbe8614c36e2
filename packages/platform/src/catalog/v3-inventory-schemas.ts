import Type, { type Static } from 'typebox';
import { Id, Ignored, NotSupportedYet, Nullable } from '../http/input.ts';
import { QueryFilter } from './schemas.ts';
import { CursorQuery, InventoryItemInput, V3_READ_BACK } from './v3-schemas.ts';

/**
 * The inputs of the v3 inventory item calls v3-inventory-writes.ts serves (create, delete, the bulk
 * updates) and of the moves by variant and location (v3-inventory.ts), as the hosted
 * `inventoryItemsV3` module sends them.
 */

/** A field the platform works out itself, taken from an item read and sent back. */
const computed = () => Type.Optional(Ignored(V3_READ_BACK));
const Reason = Type.Optional(Ignored('why stock moved: the inventory event records what moved, not why'));
const Units = Type.Integer({ minimum: 1, maximum: 99_999 });

/** Items one create, update or delete call names (the hosted limit). */
export const MAX_BULK_ITEMS = 1000;
/** Entries one move by variant and location names (the hosted limit). */
export const MAX_VARIANT_MOVES = 300;

/** A v3 inventory item as a create writes it: its variant (and product), its stock, its preorder. */
export const InventoryItemCreateInput = Type.Object({
  id: computed(),
  revision: computed(),
  variantId: Type.Optional(Id()),
  productId: Type.Optional(Id()),
  locationId: Type.Optional(Nullable(Id())),
  trackQuantity: Type.Optional(Type.Boolean()),
  quantity: InventoryItemInput.properties.quantity,
  inStock: InventoryItemInput.properties.inStock,
  preorderInfo: InventoryItemInput.properties.preorderInfo,
  availabilityStatus: computed(),
  product: computed(),
  createdDate: computed(),
  updatedDate: computed(),
  extendedFields: NotSupportedYet(),
});
export type InventoryItemCreateInput = Static<typeof InventoryItemCreateInput>;

export const CreateInventoryItemBody = Type.Object({ inventoryItem: InventoryItemCreateInput });
export const BulkCreateInventoryItemsBody = Type.Object({
  inventoryItems: Type.Array(InventoryItemCreateInput, { minItems: 1, maxItems: MAX_BULK_ITEMS }),
  returnEntity: Type.Optional(Type.Boolean()),
});
export const BulkDeleteInventoryItemsBody = Type.Object({
  inventoryItemIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_BULK_ITEMS }),
});
export const BulkUpdateInventoryItemsBody = Type.Object({
  inventoryItems: Type.Array(Type.Object({ inventoryItem: InventoryItemInput }), {
    minItems: 1,
    maxItems: MAX_BULK_ITEMS,
  }),
  returnEntity: Type.Optional(Type.Boolean()),
  reason: Reason,
});
export type BulkUpdateInventoryItemsBody = Static<typeof BulkUpdateInventoryItemsBody>;

/** What a by-filter update sets on every item the filter finds: no revision (it names many items). */
const ItemsUpdateInput = Type.Object({
  ...InventoryItemInput.properties,
  // one update of many items: each is changed at the revision it is at (a read item sent back has one)
  revision: computed(),
});
export type ItemsUpdateInput = Static<typeof ItemsUpdateInput>;
export const BulkUpdateInventoryItemsByFilterBody = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  inventoryItem: ItemsUpdateInput,
  search: NotSupportedYet(),
});
export type BulkUpdateInventoryItemsByFilterBody = Static<typeof BulkUpdateInventoryItemsByFilterBody>;

/** `count`: the items a filter finds (the query's filter fields); no free-text search yet. */
export const CountInventoryItemsRequest = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  search: NotSupportedYet(),
});
export type CountInventoryItemsRequest = Static<typeof CountInventoryItemsRequest>;
/** `search`: the query's filter, sort and cursor paging; no free-text search or aggregations yet. */
export const SearchInventoryItemsRequest = Type.Object({
  search: Type.Optional(
    Nullable(
      Type.Object({ ...CursorQuery.properties, search: NotSupportedYet(), aggregations: NotSupportedYet() }),
    ),
  ),
});
export type SearchInventoryItemsRequest = Static<typeof SearchInventoryItemsRequest>;

/** An item named by its variant and location (only the store's one location exists). */
const VariantAndLocation = {
  variantId: Type.Optional(Id()),
  locationId: Type.Optional(Nullable(Id())),
};
export const DecrementByVariantBody = Type.Object({
  decrementData: Type.Array(
    Type.Object({
      ...VariantAndLocation,
      decrementBy: Type.Optional(Units),
      preorderRequest: Type.Optional(Type.Boolean()),
    }),
    { minItems: 1, maxItems: MAX_VARIANT_MOVES },
  ),
  restrictInventory: Type.Optional(Nullable(Type.Boolean())),
  returnEntity: Type.Optional(Type.Boolean()),
  reason: Reason,
});
export type DecrementByVariantBody = Static<typeof DecrementByVariantBody>;
export const IncrementByVariantBody = Type.Object({
  incrementData: Type.Array(Type.Object({ ...VariantAndLocation, incrementBy: Type.Optional(Units) }), {
    minItems: 1,
    maxItems: MAX_VARIANT_MOVES,
  }),
  returnEntity: Type.Optional(Type.Boolean()),
  reason: Reason,
});
export type IncrementByVariantBody = Static<typeof IncrementByVariantBody>;
