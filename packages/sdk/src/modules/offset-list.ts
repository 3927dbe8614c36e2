import { type OffsetPage, offsetPage } from '../types/paging.ts';

/**
 * Paging metadata of a list answer as it may arrive: Cartwheel's platform sends the wire contract's
 * `{count, offset, total, tooManyToCount}`; the hosted product-variants query sends `{items, offset}`
 * with `totalResults` beside it.
 */
export interface OffsetListMetadata {
  count?: number | null;
  items?: number | null;
  offset?: number | null;
  total?: number | null;
  tooManyToCount?: boolean | null;
}

/** The page a list answer describes, whichever of the two metadata forms it carries. */
export function pageOfList<T>(
  items: T[] | undefined,
  metadata: OffsetListMetadata | undefined,
  totalResults?: number,
): OffsetPage<T> {
  const list = items ?? [];
  const count = metadata?.count ?? metadata?.items ?? list.length;
  const offset = metadata?.offset ?? 0;
  return offsetPage(list, {
    count,
    offset,
    total: metadata?.total ?? totalResults ?? offset + count,
    tooManyToCount: metadata?.tooManyToCount ?? false,
  });
}
