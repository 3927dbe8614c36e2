import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import type { CatalogService } from './service.ts';
import {
  BulkCreateInventoryItemsBody,
  BulkDeleteInventoryItemsBody,
  BulkUpdateInventoryItemsBody,
  BulkUpdateInventoryItemsByFilterBody,
  CountInventoryItemsRequest,
  CreateInventoryItemBody,
  DecrementByVariantBody,
  IncrementByVariantBody,
  SearchInventoryItemsRequest,
} from './v3-inventory-schemas.ts';
import { json, readRoute, viewer } from './v3-read-route.ts';
import {
  BulkInventoryAnswer,
  InventoryCountAnswer,
  InventoryItemAnswer,
  InventoryItemPageAnswer,
  InventoryJobAnswer,
} from './v3-responses.ts';
import { InventoryItemPath } from './v3-schemas.ts';

/**
 * The v3 inventory item calls beyond get, query, update and the moves by id (v3-routes.ts): create,
 * delete, the bulk updates (v3-inventory-writes.ts) and the moves by variant and location
 * (v3-inventory.ts), and count and search (the query's filter, read by anyone as the query), at the hosted paths.
 */
export function inventoryItemWriteRoutes(app: HttpApp, catalog: CatalogService): void {
  const inventory = catalog.inventoryV3;
  const writes = catalog.inventoryWritesV3;

  readRoute(
    app,
    '/stores/v3/inventory-items/count',
    CATALOG_OPERATIONS.countInventoryItemsV3,
    CountInventoryItemsRequest,
    InventoryCountAnswer,
    (input, request) => inventory.countJson(input.filter, viewer(request)),
  );
  readRoute(
    app,
    '/stores/v3/inventory-items/search',
    CATALOG_OPERATIONS.searchInventoryItemsV3,
    SearchInventoryItemsRequest,
    InventoryItemPageAnswer,
    (input, request) => {
      const { search: _text, aggregations: _aggregations, ...query } = input.search ?? {};
      return inventory.queryJson({ query }, viewer(request));
    },
  );
  app.post(
    '/stores/v3/inventory-items',
    {
      config: CATALOG_OPERATIONS.createInventoryItemV3,
      schema: { body: CreateInventoryItemBody, response: { 200: InventoryItemAnswer } },
    },
    async (request, reply) =>
      json(reply, JSON.stringify({ inventoryItem: await writes.create(request.body.inventoryItem) })),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/create',
    {
      config: CATALOG_OPERATIONS.bulkCreateInventoryItemsV3,
      schema: { body: BulkCreateInventoryItemsBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => {
      const { inventoryItems, returnEntity } = request.body;
      return json(reply, JSON.stringify(await writes.bulkCreate(inventoryItems, returnEntity)));
    },
  );
  app.delete(
    '/stores/v3/inventory-items/:inventoryItemId',
    {
      config: CATALOG_OPERATIONS.deleteInventoryItemV3,
      schema: { params: InventoryItemPath, response: { 200: Empty } },
    },
    async (request) => {
      await writes.delete(request.params.inventoryItemId);
      return {};
    },
  );
  app.post(
    '/stores/v3/bulk/inventory-items/delete',
    {
      config: CATALOG_OPERATIONS.bulkDeleteInventoryItemsV3,
      schema: { body: BulkDeleteInventoryItemsBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) =>
      json(reply, JSON.stringify(await writes.bulkDelete(request.body.inventoryItemIds))),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/update',
    {
      config: CATALOG_OPERATIONS.bulkUpdateInventoryItemsV3,
      schema: { body: BulkUpdateInventoryItemsBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => json(reply, JSON.stringify(await writes.bulkUpdate(request.body))),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/update-by-filter',
    {
      config: CATALOG_OPERATIONS.bulkUpdateInventoryItemsByFilterV3,
      schema: { body: BulkUpdateInventoryItemsByFilterBody, response: { 200: InventoryJobAnswer } },
    },
    async (request) => writes.updateByFilter(request.body),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/decrement-by-variant-and-location',
    {
      config: CATALOG_OPERATIONS.decrementInventoryItemsByVariantV3,
      schema: { body: DecrementByVariantBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => json(reply, await inventory.decrementByVariant(request.body)),
  );
  app.post(
    '/stores/v3/bulk/inventory-items/increment-by-variant-and-location',
    {
      config: CATALOG_OPERATIONS.incrementInventoryItemsByVariantV3,
      schema: { body: IncrementByVariantBody, response: { 200: BulkInventoryAnswer } },
    },
    async (request, reply) => json(reply, await inventory.incrementByVariant(request.body)),
  );
}
