/** Page numbers with previous and next; pages are 1-based. */
export function Pagination({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button
        type="button"
        className="button button--secondary"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <ol className="pagination__pages">
        {pagesAround(page, pageCount).map((number, index) =>
          number === null ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
            <li key={`gap-${index}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={number}>
              <button
                type="button"
                className="pagination__page"
                aria-current={number === page ? 'page' : undefined}
                aria-label={`Page ${number}`}
                onClick={() => onPage(number)}
              >
                {number}
              </button>
            </li>
          ),
        )}
      </ol>
      <button
        type="button"
        className="button button--secondary"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/** 1 … 4 5 6 … 12: the first, the last, and the pages next to the current one. */
function pagesAround(page: number, pageCount: number): Array<number | null> {
  const shown = new Set([1, pageCount, page - 1, page, page + 1].filter((n) => n >= 1 && n <= pageCount));
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  for (const number of sorted) {
    const last = out[out.length - 1];
    if (typeof last === 'number' && number - last > 1) out.push(null);
    out.push(number);
  }
  return out;
}
