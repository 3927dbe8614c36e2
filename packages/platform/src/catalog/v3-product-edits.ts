import { invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { ProductRecord } from './model.ts';
import type { ProductWrites } from './product-writes.ts';
import { compileFilter } from './query.ts';
import { nameSubstringIndex, textSearch } from './search.ts';
import type { CatalogStorage } from './storage.ts';
import { entitiesByIds } from './v3-entity-rows.ts';
import { checkRevision } from './v3-input.ts';
import { renderProductV3 } from './v3-model.ts';
import type { ProductsByFilterV3 } from './v3-product-bulk.ts';
import {
  type BulkInfoSectionsBody,
  type BulkInfoSectionsByFilterBody,
  type BulkUpdateProductTagsBody,
  type BulkUpdateProductTagsByFilterBody,
  MAX_PRODUCT_INFO_SECTIONS,
} from './v3-product-edit-schemas.ts';
import { ADMIN, bulk, viewOf } from './v3-products.ts';
import { checkFilter, PRODUCT_V3_FIELDS } from './v3-query.ts';
import { MAX_PRODUCT_TAGS, type TagsInputV3 } from './v3-schemas.ts';
import { Violations } from './validation.ts';

/**
 * The v3 calls that change one part of many products: their tags, and the info sections they show,
 * by ids (a result per product, each its own transaction, as the other bulk calls) or by filter. A
 * by-filter call edits every product its filter names, one transaction each, before it answers the
 * hosted job id: a job already done.
 */
export class ProductEditsV3 {
  constructor(
    private readonly storage: CatalogStorage,
    private readonly writes: ProductWrites,
    private readonly byFilter: Pick<ProductsByFilterV3, 'changeMatching'>,
  ) {}

  async bulkUpdateTags(body: BulkUpdateProductTagsBody) {
    return bulk(
      body.productIds,
      async (id) => {
        await this.writes.changeRecord(id, (record) => retagged(record, body.assignTags, body.unassignTags));
        return { id };
      },
      (id) => id,
    );
  }

  async bulkUpdateTagsByFilter(body: BulkUpdateProductTagsByFilterBody) {
    await this.byFilter.changeMatching(body, (record) =>
      retagged(record, body.assignTags, body.unassignTags),
    );
    return { jobId: newId() };
  }

  async bulkAddInfoSections(body: BulkInfoSectionsBody) {
    await this.checkSections(body.infoSectionIds);
    return this.bulkSections(body, (record) => withSections(record, body.infoSectionIds));
  }

  async bulkRemoveInfoSections(body: BulkInfoSectionsBody) {
    return this.bulkSections(body, (record) => withoutSections(record, body.infoSectionIds));
  }

  async bulkAddInfoSectionsByFilter(body: BulkInfoSectionsByFilterBody) {
    await this.checkSections(body.infoSectionIds);
    await this.byFilter.changeMatching(body, (record) => withSections(record, body.infoSectionIds));
    return { jobId: newId() };
  }

  async bulkRemoveInfoSectionsByFilter(body: BulkInfoSectionsByFilterBody) {
    await this.byFilter.changeMatching(body, (record) => withoutSections(record, body.infoSectionIds));
    return { jobId: newId() };
  }

  private bulkSections(body: BulkInfoSectionsBody, change: (record: ProductRecord) => ProductRecord) {
    const view = viewOf(ADMIN, body.fields, true);
    return bulk(
      body.products,
      async ({ productId, revision }) => {
        const record = await this.writes.changeRecord(productId, (current) => {
          if (revision) checkRevision(current, revision);
          return change(current);
        });
        const item = body.returnEntity ? renderProductV3(record, this.storage.settings, view) : undefined;
        return { id: record.id, item };
      },
      ({ productId }) => productId,
    );
  }

  /** Every id names an info section: refused as a whole otherwise, before any product changes. */
  private async checkSections(ids: string[]) {
    const found = new Set((await entitiesByIds(this.storage.db, 'infoSection', ids)).map((row) => row.id));
    const missing = ids.flatMap((id, index) =>
      found.has(id) ? [] : [violation(`infoSectionIds[${index}]`, 'names no info section', 'VALIDATION')],
    );
    if (missing.length > 0) throw invalidArgument(missing);
  }
}

/** The record with `assign`'s tags added and `unassign`'s taken off (a tag in both ends off). */
function retagged(
  record: ProductRecord,
  assign: TagsInputV3 | null | undefined,
  unassign: TagsInputV3 | null | undefined,
): ProductRecord {
  const current = record.tags ?? { publicTagIds: [], privateTagIds: [] };
  const next = (ids: string[], add: string[] | undefined, remove: string[] | undefined) => {
    const removed = new Set(remove ?? []);
    return [...new Set([...ids, ...(add ?? [])])].filter((id) => !removed.has(id));
  };
  const tags = {
    publicTagIds: next(current.publicTagIds, assign?.publicTags?.tagIds, unassign?.publicTags?.tagIds),
    privateTagIds: next(current.privateTagIds, assign?.privateTags?.tagIds, unassign?.privateTags?.tagIds),
  };
  const v = new Violations();
  for (const [list, ids] of [
    ['publicTags', tags.publicTagIds],
    ['privateTags', tags.privateTagIds],
  ] as const) {
    if (ids.length > MAX_PRODUCT_TAGS)
      v.add(`product.tags.${list}.tagIds`, `a product has at most ${MAX_PRODUCT_TAGS} tags`, 'MAX_SIZE');
  }
  v.throwIfAny();
  return { ...record, tags };
}

/** The record showing the sections too, after its own (saving copies their titles, v3-references.ts). */
function withSections(record: ProductRecord, ids: string[]): ProductRecord {
  const refs = [...(record.infoSections ?? [])];
  for (const id of ids) if (!refs.some((ref) => ref.id === id)) refs.push({ id, uniqueName: '' });
  if (refs.length > MAX_PRODUCT_INFO_SECTIONS) {
    const v = new Violations();
    v.add('infoSectionIds', `a product shows at most ${MAX_PRODUCT_INFO_SECTIONS} info sections`, 'MAX_SIZE');
    v.throwIfAny();
  }
  return { ...record, infoSections: refs };
}

/** The record without the sections (the copies v1 shows go with them). */
function withoutSections(record: ProductRecord, ids: string[]): ProductRecord {
  const removed = new Set(ids);
  const keep = (record.infoSections ?? []).map((ref) => !removed.has(ref.id));
  return {
    ...record,
    infoSections: (record.infoSections ?? []).filter((_, index) => keep[index]),
    additionalInfoSections: record.infoSections
      ? record.additionalInfoSections.filter((_, index) => keep[index])
      : record.additionalInfoSections,
  };
}
