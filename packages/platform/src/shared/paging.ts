/** The paging metadata of the hosted wire's cursor queries (`cursors.next`, `hasNext`). */
export interface CursorPagingMetadata {
  count: number;
  cursors: { next: string | null };
  hasNext: boolean;
}

/**
 * A page of `limit` from `rows` read in id order with one more than the page (`limit + 1`): the extra
 * row says whether there is a next page, and the page's last id is its cursor (`id > cursor`).
 */
export function idCursorPage<R, T extends { id?: string | null | undefined }>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
): { items: T[]; metadata: CursorPagingMetadata } {
  const items = rows.slice(0, limit).map(map);
  const hasNext = rows.length > limit;
  return {
    items,
    metadata: {
      count: items.length,
      cursors: { next: hasNext ? (items.at(-1)?.id ?? null) : null },
      hasNext,
    },
  };
}
