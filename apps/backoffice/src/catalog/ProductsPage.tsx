import { useProducts } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, useEffect, useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import '../orders/orders.css';

const PAGE_SIZE = 50;
const column = createColumnHelper<Product>();

/** What a merchant reads of a product's stock at a glance. */
export function inventoryLabel(product: Product): string {
  const stock = product.stock;
  if (stock?.inStock === false) return 'Out of stock';
  if (stock?.trackInventory && typeof stock.quantity === 'number') return `${stock.quantity} in stock`;
  return 'In stock';
}

const COLUMNS = [
  column.accessor('name', {
    header: 'Product',
    cell: (cell) => (
      <Link to={`/products/${encodeURIComponent(cell.row.original.id ?? '')}`} data-testid="product-link">
        {cell.getValue()}
      </Link>
    ),
  }),
  column.display({
    id: 'price',
    header: 'Price',
    cell: (cell) => cell.row.original.priceData?.formatted?.price ?? cell.row.original.priceData?.price,
  }),
  column.accessor('sku', { header: 'SKU', cell: (cell) => cell.getValue() || '—' }),
  column.display({ id: 'inventory', header: 'Inventory', cell: (cell) => inventoryLabel(cell.row.original) }),
  column.accessor('visible', {
    header: 'Visibility',
    cell: (cell) => <span className="badge">{cell.getValue() === false ? 'Hidden' : 'Visible'}</span>,
  }),
];

/**
 * `/admin/products`: the catalog as the merchant sees it, hidden products included, 50 at a time,
 * found by the start of a name. The page and the search live in the address.
 */
export function ProductsPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const products = useProducts(
    {
      ...(q ? { filter: { name: { $startsWith: q } } } : {}),
      sort: [{ fieldName: 'name', order: 'ASC' }],
      paging: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    },
    { merchant: true, keepPrevious: true },
  );
  const table = useReactTable({
    data: products.data?.items ?? [],
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
  });
  const id = useId();

  useEffect(() => {
    document.title = 'Products · Cartwheel back office';
  }, []);

  function go(changes: Record<string, string>) {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setParams(next);
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    go({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim(), page: '' });
  }

  const total = products.data && !products.data.tooManyToCount ? products.data.totalCount : undefined;
  return (
    <>
      <div className="page-head">
        <h1>Products</h1>
        <Link className="button button--primary" to="/products/new">
          New product
        </Link>
      </div>
      <div className="toolbar">
        <search>
          <form className="toolbar__search" onSubmit={submitSearch}>
            <label htmlFor={`${id}-q`}>Find a product</label>
            <input
              id={`${id}-q`}
              name="q"
              type="search"
              defaultValue={q}
              key={q}
              placeholder="Name starts with"
            />
            <button className="button" type="submit">
              Search
            </button>
          </form>
        </search>
        {typeof total === 'number' ? (
          <span className="muted">
            {total} product{total === 1 ? '' : 's'}
          </span>
        ) : null}
      </div>
      {products.isError ? (
        <ErrorNotice what="the products" error={products.error} retry={() => products.refetch()} />
      ) : products.isPending ? (
        <p role="status">Loading products…</p>
      ) : products.data.items.length === 0 ? (
        <p className="panel">
          {q ? 'No product name starts with that.' : 'No products yet. Create the first with “New product”.'}
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-busy={products.isFetching} aria-label="Products">
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => (
                    <th key={header.id} scope="col">
                      {flexRender(header.column.columnDef.header, header.getContext())}
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
            <tbody>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} data-testid="product-row">
                  {row.getVisibleCells().map((cell) => (
                    <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="pager" aria-label="Pages of products">
        <button
          className="button button--quiet"
          type="button"
          disabled={page <= 1}
          onClick={() => go({ page: page > 2 ? String(page - 1) : '' })}
        >
          Previous
        </button>
        <button
          className="button button--quiet"
          type="button"
          disabled={!products.data?.hasNext}
          onClick={() => go({ page: String(page + 1) })}
        >
          Next
        </button>
      </nav>
    </>
  );
}
