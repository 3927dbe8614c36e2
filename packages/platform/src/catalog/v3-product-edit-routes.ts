import type { HttpApp } from '../http/app.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import {
  BulkAddInfoSectionsBody,
  BulkAddInfoSectionsByFilterBody,
  BulkRemoveInfoSectionsBody,
  BulkRemoveInfoSectionsByFilterBody,
  BulkUpdateProductTagsBody,
  BulkUpdateProductTagsByFilterBody,
  JobAnswer,
} from './v3-product-edit-schemas.ts';
import type { ProductEditsV3 } from './v3-product-edits.ts';
import { json } from './v3-read-route.ts';
import { BulkProductsV3Answer } from './v3-responses.ts';

/** The v3 calls that edit one part of many products (v3-product-edits.ts): tags and info sections. */
export function productEditRoutes(app: HttpApp, edits: ProductEditsV3): void {
  app.post(
    '/stores/v3/bulk/products/update-tags',
    {
      config: CATALOG_OPERATIONS.bulkUpdateProductTagsV3,
      schema: { body: BulkUpdateProductTagsBody, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => json(reply, JSON.stringify(await edits.bulkUpdateTags(request.body))),
  );
  app.post(
    '/stores/v3/bulk/products/update-tags-by-filter',
    {
      config: CATALOG_OPERATIONS.bulkUpdateProductTagsByFilterV3,
      schema: { body: BulkUpdateProductTagsByFilterBody, response: { 200: JobAnswer } },
    },
    async (request) => edits.bulkUpdateTagsByFilter(request.body),
  );
  app.post(
    '/stores/v3/bulk/products/add-info-sections',
    {
      config: CATALOG_OPERATIONS.bulkAddInfoSectionsToProductsV3,
      schema: { body: BulkAddInfoSectionsBody, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => json(reply, JSON.stringify(await edits.bulkAddInfoSections(request.body))),
  );
  app.post(
    '/stores/v3/bulk/products/remove-info-sections',
    {
      config: CATALOG_OPERATIONS.bulkRemoveInfoSectionsFromProductsV3,
      schema: { body: BulkRemoveInfoSectionsBody, response: { 200: BulkProductsV3Answer } },
    },
    async (request, reply) => json(reply, JSON.stringify(await edits.bulkRemoveInfoSections(request.body))),
  );
  app.post(
    '/stores/v3/bulk/products/add-info-sections-by-filter',
    {
      config: CATALOG_OPERATIONS.bulkAddInfoSectionsToProductsByFilterV3,
      schema: { body: BulkAddInfoSectionsByFilterBody, response: { 200: JobAnswer } },
    },
    async (request) => edits.bulkAddInfoSectionsByFilter(request.body),
  );
  app.post(
    '/stores/v3/bulk/products/remove-info-sections-by-filter',
    {
      config: CATALOG_OPERATIONS.bulkRemoveInfoSectionsFromProductsByFilterV3,
      schema: { body: BulkRemoveInfoSectionsByFilterBody, response: { 200: JobAnswer } },
    },
    async (request) => edits.bulkRemoveInfoSectionsByFilter(request.body),
  );
}
