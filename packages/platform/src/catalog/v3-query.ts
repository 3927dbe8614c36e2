import type { Sorting } from '@cartwheel/sdk';
import { invalidArgument, violation } from '../shared/errors.ts';
import {
  checkFilterBudget,
  compileFilter,
  DEFAULT_LIMIT,
  MAX_OFFSET,
  type QueryFields,
  type SortSpec,
} from './query.ts';

/**
 * The v3 query language over the catalog's indexed columns: the same filter operators as v1
 * (query.ts compiles them), the v3 field names, and cursor paging whose cursor carries the query it
 * continues. The hosted client sends only the cursor for the next page (no filter, no sort), so a
 * cursor is the filter, sort, search and offset of the page after, as base64url JSON.
 */

/** What v3 product queries filter on, each on an indexed column of `products p`. */
export const PRODUCT_V3_FIELDS: QueryFields = {
  id: { column: 'p.id', kind: 'string' },
  name: { column: 'p.name', kind: 'string', lowerColumn: 'p.name_lower', substringIndexed: true },
  slug: { column: 'p.slug', kind: 'string' },
  visible: { column: 'p.visible', kind: 'boolean' },
  productType: {
    column: 'p.product_type',
    kind: 'enum',
    values: ['PHYSICAL', 'DIGITAL'],
    stored: { PHYSICAL: 'physical', DIGITAL: 'digital' },
  },
  'actualPriceRange.minValue.amount': { column: 'p.discounted_price', kind: 'number' },
  'inventory.availabilityStatus': {
    column: 'p.inventory_status',
    kind: 'enum',
    values: ['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK'],
  },
  'brand.name': { column: 'p.brand', kind: 'string', emptyIsAbsent: true },
  'ribbon.name': { column: 'p.ribbon', kind: 'string', emptyIsAbsent: true },
  // the entities a product names, through the links every save writes (v3-references.ts)
  'brand.id': { column: 'p.id', kind: 'links', linkKind: 'brand' },
  'ribbon.id': { column: 'p.id', kind: 'links', linkKind: 'ribbon' },
  'infoSections.id': { column: 'p.id', kind: 'links', linkKind: 'infoSection' },
  'additionalRibbons.id': { column: 'p.id', kind: 'links', linkKind: 'additionalRibbon' },
  'tags.publicTags.tagIds': { column: 'p.id', kind: 'links', linkKind: 'publicTag' },
  'tags.privateTags.tagIds': { column: 'p.id', kind: 'links', linkKind: 'privateTag' },
  createdDate: { column: 'p.created_date', kind: 'date' },
  updatedDate: { column: 'p.last_updated', kind: 'date' },
  // v3 categories are collections (v3-categories.ts): membership filters over the listings
  'directCategoriesInfo.categories.id': { column: 'p.id', kind: 'collections' },
  'allCategoriesInfo.categories.id': { column: 'p.id', kind: 'collections' },
  'directCategoryIdsInfo.categoryIds': { column: 'p.id', kind: 'collections' },
};

/** What a reader who does not manage the catalog filters on: not private tags, which they may not see. */
export const PRODUCT_V3_VISITOR_FIELDS: QueryFields = Object.fromEntries(
  Object.entries(PRODUCT_V3_FIELDS).filter(([name]) => name !== 'tags.privateTags.tagIds'),
);

export const PRODUCT_V3_SORT: SortSpec = {
  id: 'p.id',
  slug: 'p.slug',
  visible: 'p.visible',
  name: 'p.name_lower',
  'actualPriceRange.minValue.amount': 'p.discounted_price',
  createdDate: 'p.created_date',
  updatedDate: 'p.last_updated',
};

/** Newest first, as the hosted catalog lists products when a query names no sort. */
export const DEFAULT_V3_SORT: Sorting = { fieldName: 'createdDate', order: 'DESC' };

/** One page of a v3 query: what it asks, and where it starts. */
export interface CursorPage {
  filter: unknown;
  sort: Sorting[] | undefined;
  /** A text search's expression (search only). */
  expression: string | undefined;
  limit: number;
  offset: number;
}

interface CursorQueryInput {
  filter?: unknown;
  sort?: Sorting[] | null;
  cursorPaging?: { limit?: number | null; cursor?: string | null } | null;
}

/**
 * The page a v3 query asks for: a cursor continues the query it came from (its limit may change, as
 * the hosted client's `limit` does), else the query's own filter and sort from the start.
 */
export function readCursorPage(
  query: CursorQueryInput | null | undefined,
  expression?: string | null,
): CursorPage {
  const paging = query?.cursorPaging;
  const limit = paging?.limit ?? DEFAULT_LIMIT;
  if (paging?.cursor) {
    const continued = decodeCursor(paging.cursor);
    return { ...continued, limit: paging.limit ?? continued.limit };
  }
  return {
    filter: query?.filter ?? undefined,
    sort: query?.sort ?? undefined,
    expression: expression?.trim() ? expression.trim() : undefined,
    limit,
    offset: 0,
  };
}

/** The hosted paging metadata: this page's count, and cursors to the next and previous pages. */
export function cursorMetadata(page: CursorPage, count: number, hasNext: boolean) {
  const at = (offset: number) => encodeCursor({ ...page, offset });
  return {
    count,
    cursors: {
      next: hasNext ? at(page.offset + count) : null,
      prev: page.offset > 0 ? at(Math.max(0, page.offset - page.limit)) : null,
    },
    hasNext,
  };
}

/** Checks the filter is one these fields answer, before any of it runs. */
export function checkFilter(filter: unknown, fields: QueryFields, path: string): void {
  checkFilterBudget(filter);
  compileFilter(filter, fields, {}, path);
}

function encodeCursor(page: CursorPage): string {
  const { filter, sort, expression, limit, offset } = page;
  return Buffer.from(JSON.stringify({ filter, sort, expression, limit, offset })).toString('base64url');
}

const PATH = 'query.cursorPaging.cursor';

function decodeCursor(cursor: string): CursorPage {
  let page: Partial<CursorPage> | undefined;
  try {
    page = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPage>;
  } catch {}
  const offset = page?.offset;
  const limit = page?.limit;
  if (
    !page ||
    typeof offset !== 'number' ||
    !Number.isInteger(offset) ||
    offset < 0 ||
    typeof limit !== 'number' ||
    (page.sort !== undefined && !Array.isArray(page.sort)) ||
    (page.expression !== undefined && typeof page.expression !== 'string')
  ) {
    throw invalidArgument([violation(PATH, 'is not a cursor this query gave out', 'FORMAT')]);
  }
  if (offset > MAX_OFFSET)
    throw invalidArgument([violation(PATH, `stands for an offset past ${MAX_OFFSET}`, 'MAX')]);
  return { filter: page.filter, sort: page.sort, expression: page.expression, limit, offset };
}
