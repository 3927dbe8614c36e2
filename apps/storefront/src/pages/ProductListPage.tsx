import { isNotFoundError, useCollectionBySlug, useProducts } from '@cartwheel/react';
import type { Filter, Sorting } from '@cartwheel/sdk';
import { useEffect, useId, useRef, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useDebouncedValue, useDocumentTitle } from '../components/hooks.ts';
import { Pagination } from '../components/Pagination.tsx';
import { ProductGrid } from '../components/ProductCard.tsx';
import { ErrorMessage, Loading, NotFound } from '../components/Status.tsx';

export const PAGE_SIZE = 12;
const SEARCH_DELAY_MS = 300;

/** Sort choices, as they appear in the URL (`?sort=price-asc`) and on the wire. */
const SORTS: Record<string, { label: string; sort?: Sorting[] }> = {
  featured: { label: 'Featured' },
  // by the price a shopper pays, which is the discounted price when there is a discount
  'price-asc': { label: 'Price: low to high', sort: [{ fieldName: 'discountedPrice', order: 'ASC' }] },
  'price-desc': { label: 'Price: high to low', sort: [{ fieldName: 'discountedPrice', order: 'DESC' }] },
  name: { label: 'Name: A to Z', sort: [{ fieldName: 'name', order: 'ASC' }] },
  newest: { label: 'Newest', sort: [{ fieldName: 'createdDate', order: 'DESC' }] },
};

/** `/products` (everything) and `/collections/:slug` (one collection). */
export function ProductListPage() {
  const { slug } = useParams();
  const collection = useCollectionBySlug(slug);

  if (!slug) return <ProductBrowser title="All products" />;
  if (collection.isPending) return <Loading label="Loading collection…" />;
  if (collection.isError) {
    return isNotFoundError(collection.error) ? (
      <NotFound title="We couldn't find that collection">
        <p>It may have been renamed or removed.</p>
      </NotFound>
    ) : (
      <ErrorMessage what="this collection" error={collection.error} retry={() => collection.refetch()} />
    );
  }
  return (
    <ProductBrowser
      key={collection.data.id}
      title={collection.data.name ?? 'Collection'}
      description={collection.data.description ?? undefined}
      collectionId={collection.data.id}
    />
  );
}

/** A product grid whose sort, search and page live in the URL, so reload and back/forward keep them. */
function ProductBrowser({
  title,
  description,
  collectionId,
}: {
  title: string;
  description?: string | undefined;
  collectionId?: string | undefined;
}) {
  useDocumentTitle(title);
  const [params, setParams] = useSearchParams();
  const sortKey = params.get('sort') && SORTS[params.get('sort')!] ? params.get('sort')! : 'featured';
  const urlSearch = params.get('q') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);

  const [search, setSearch] = useState(urlSearch);
  const debouncedSearch = useDebouncedValue(search, SEARCH_DELAY_MS);
  // the URL moved (back/forward): show its search in the box
  useEffect(() => setSearch(urlSearch), [urlSearch]);
  // the shopper stopped typing: the search goes to the URL, replacing the entry, and paging restarts.
  // Only a change of the typed text does this: a back/forward must not push the old text back.
  const setParamsRef = useRef(setParams);
  setParamsRef.current = setParams;
  useEffect(() => {
    const next = new URLSearchParams(window.location.search);
    if ((next.get('q') ?? '') === debouncedSearch) return;
    if (debouncedSearch) next.set('q', debouncedSearch);
    else next.delete('q');
    next.delete('page');
    setParamsRef.current(next, { replace: true });
  }, [debouncedSearch]);

  const change = (name: 'sort' | 'page', value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name === 'sort') next.delete('page');
    setParams(next);
    if (name === 'page') window.scrollTo({ top: 0 });
  };

  const filter: Filter | undefined = collectionId
    ? { collectionIds: { $hasSome: [collectionId] } }
    : undefined;
  const products = useProducts(
    {
      ...(filter ? { filter } : {}),
      // the platform's text search: names, descriptions, SKUs and collection names, names first
      ...(urlSearch.trim() ? { search: { expression: urlSearch.trim() } } : {}),
      ...(SORTS[sortKey]?.sort ? { sort: SORTS[sortKey].sort } : {}),
      paging: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    },
    { keepPrevious: true },
  );

  const searchId = useId();
  const sortId = useId();
  const total = products.data?.metadata.total ?? 0;
  const first = (page - 1) * PAGE_SIZE + 1;
  const last = first - 1 + (products.data?.items.length ?? 0);

  return (
    <>
      <header className="list-header">
        <h1>{title}</h1>
        {description ? <p className="list-header__description">{description}</p> : null}
      </header>
      <search className="toolbar">
        <div className="field">
          <label htmlFor={searchId}>Search products</label>
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder="Name, description or SKU"
            autoComplete="off"
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={sortId}>Sort by</label>
          <select id={sortId} value={sortKey} onChange={(event) => change('sort', event.target.value)}>
            {Object.entries(SORTS).map(([key, { label }]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </search>

      {products.isPending ? (
        <Loading label="Loading products…" />
      ) : products.isError ? (
        <ErrorMessage what="the products" error={products.error} retry={() => products.refetch()} />
      ) : products.data.items.length === 0 ? (
        <div className="status">
          {urlSearch.trim() ? (
            <p>No products match “{urlSearch.trim()}”.</p>
          ) : page > 1 ? (
            <p>There is nothing on this page.</p>
          ) : (
            <p>There are no products here yet.</p>
          )}
        </div>
      ) : (
        <div
          className={products.isPlaceholderData ? 'is-refreshing' : undefined}
          aria-busy={products.isFetching}
        >
          <p className="result-count" aria-live="polite">
            Showing {first}–{last} of {total} {total === 1 ? 'product' : 'products'}
          </p>
          <ProductGrid products={products.data.items} label={title} />
          <Pagination
            page={page}
            pageCount={Math.ceil(total / PAGE_SIZE)}
            onPage={(next) => change('page', next === 1 ? undefined : String(next))}
          />
        </div>
      )}
    </>
  );
}
