/** Default paging of point 9: offset 0 and limit 50, or a cursor limit of 50. */
export const DEFAULT_OFFSET_PAGING = { offset: 0, limit: 50 } as const;
export const DEFAULT_CURSOR_PAGING = { limit: 50 } as const;

export interface OffsetPaging {
  limit?: number;
  offset?: number;
}

export interface CursorPaging {
  limit?: number;
  cursor?: string;
}

export type SortOrder = 'ASC' | 'DESC';
export interface Sorting {
  fieldName: string;
  order?: SortOrder;
}

/** Filter in the wire's operator language: `{ price: { $gt: 10 } }`, `$and`, `$or`, `$not`, ... */
export type Filter = Record<string, unknown>;

export interface OffsetQuery {
  filter?: Filter;
  sort?: Sorting[];
  paging?: OffsetPaging;
}

/**
 * A products query with Cartwheel's text search: `search.expression` finds products by name,
 * description, SKU or collection name, the name matches first (then `sort`). The hosted platform's
 * v1 reader does not know it; Cartwheel's platform does.
 */
export interface ProductQuery extends OffsetQuery {
  search?: { expression: string };
}

export interface CursorQuery {
  filter?: Filter;
  sort?: Sorting[];
  cursorPaging?: CursorPaging;
}

/** Offset paging metadata as the wire carries it: `total` is always there. */
export interface OffsetPagingMetadata {
  count: number;
  offset: number;
  total: number;
  tooManyToCount: boolean;
}

export interface CursorPagingMetadata {
  count: number;
  cursors: { next?: string | null; prev?: string | null };
  hasNext: boolean;
}

/** A page of an offset query: the items and what the SDK can tell of the rest. */
export interface OffsetPage<T> {
  items: T[];
  metadata: OffsetPagingMetadata;
  totalCount: number;
  tooManyToCount: boolean;
  hasNext: boolean;
}

export function offsetPage<T>(items: T[], metadata: OffsetPagingMetadata): OffsetPage<T> {
  return {
    items,
    metadata,
    totalCount: metadata.total,
    tooManyToCount: metadata.tooManyToCount,
    hasNext: metadata.tooManyToCount || metadata.offset + metadata.count < metadata.total,
  };
}
