import Type, { type Static } from 'typebox';
import { Id, Nullable, Text } from '../http/input.ts';
import { QueryFilter } from './schemas.ts';
import { Fields, MAX_BULK_V3, SearchDetails, TagsInput } from './v3-schemas.ts';

/**
 * The inputs of the v3 calls that edit one part of many products at once (v3-product-edits.ts): their
 * tags, and the info sections they show. The lists' bounds are the hosted ones.
 */

/** Info sections one call adds to a product (a product shows at most as many). */
export const MAX_PRODUCT_INFO_SECTIONS = 10;

const TagChanges = {
  assignTags: Type.Optional(Nullable(TagsInput)),
  unassignTags: Type.Optional(Nullable(TagsInput)),
};

export const BulkUpdateProductTagsBody = Type.Object({
  productIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_BULK_V3 }),
  ...TagChanges,
});
export type BulkUpdateProductTagsBody = Static<typeof BulkUpdateProductTagsBody>;

export const BulkUpdateProductTagsByFilterBody = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  ...TagChanges,
});
export type BulkUpdateProductTagsByFilterBody = Static<typeof BulkUpdateProductTagsByFilterBody>;

/** A product a bulk call edits, with the revision it read (checked when given). */
const ProductIdWithRevision = Type.Object({
  productId: Id(),
  revision: Type.Optional(Nullable(Text(20))),
});

const sectionIds = (maxItems: number) => Type.Array(Id(), { minItems: 1, maxItems });

export const BulkAddInfoSectionsBody = Type.Object({
  products: Type.Array(ProductIdWithRevision, { minItems: 1, maxItems: MAX_BULK_V3 }),
  infoSectionIds: sectionIds(MAX_PRODUCT_INFO_SECTIONS),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export const BulkRemoveInfoSectionsBody = Type.Object({
  products: Type.Array(ProductIdWithRevision, { minItems: 1, maxItems: MAX_BULK_V3 }),
  infoSectionIds: sectionIds(100),
  returnEntity: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Fields),
});
export type BulkInfoSectionsBody = Static<typeof BulkAddInfoSectionsBody>;

export const BulkAddInfoSectionsByFilterBody = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  infoSectionIds: sectionIds(20),
  search: Type.Optional(Nullable(SearchDetails)),
});
export const BulkRemoveInfoSectionsByFilterBody = Type.Object({
  filter: Type.Optional(Nullable(QueryFilter)),
  infoSectionIds: sectionIds(100),
  search: Type.Optional(Nullable(SearchDetails)),
});
export type BulkInfoSectionsByFilterBody = Static<typeof BulkAddInfoSectionsByFilterBody>;

/** A by-filter call's answer: the hosted job id (Cartwheel has done the work when it answers). */
export const JobAnswer = Type.Object({ jobId: Type.String() });
