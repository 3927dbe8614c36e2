import { Field, SelectField } from '@cartwheel/design';
import { useBulkProductChange, useProducts } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, Pager } from '../components/DataTable.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import '../orders/orders.css';

const PAGE_SIZE = 50;
const column = createColumnHelper<Product>();

/** At or under this many counted in stock, a product is marked low on stock. */
export const LOW_STOCK = 5;

/** What a merchant reads of a product's stock at a glance. */
export function inventoryLabel(product: Product): string {
  const stock = product.stock;
  if (stock?.inStock === false) return 'Out of stock';
  if (stock?.trackInventory && typeof stock.quantity === 'number') return `${stock.quantity} in stock`;
  return 'In stock';
}

function isLowOnStock(product: Product): boolean {
  const stock = product.stock;
  return Boolean(
    stock?.inStock !== false &&
      stock?.trackInventory &&
      typeof stock.quantity === 'number' &&
      stock.quantity <= LOW_STOCK,
  );
}

/** What a bulk change may touch: price, cost or weight. */
export type BulkProperty = 'price' | 'cost' | 'weight';

/**
 * What the merchant typed for the selection's price, cost or weight: `12.50` sets it, `+10%` or `-10%`
 * moves it by a percentage, `+2` or `-2.00` by an amount. `undefined` for anything else.
 */
export function bulkChangeOf(
  property: BulkProperty,
  text: string,
):
  | { set: Partial<Record<BulkProperty, number>> }
  | { adjust: Partial<Record<BulkProperty, { amount?: number; percentage?: { rate: number } }>> }
  | undefined {
  const typed = text.trim().replace(/\s+/g, '');
  const set = typed.match(/^\d{1,9}(\.\d{1,2})?$/);
  if (set) return { set: { [property]: Number(typed) } };
  const percent = typed.match(/^([+-])(\d{1,3}(\.\d{1,2})?)%$/);
  if (percent) {
    const rate = Number(percent[2]) * (percent[1] === '-' ? -1 : 1);
    return rate === 0 ? undefined : { adjust: { [property]: { percentage: { rate } } } };
  }
  const amount = typed.match(/^([+-])(\d{1,9}(\.\d{1,2})?)$/);
  if (amount) {
    const value = Number(amount[2]) * (amount[1] === '-' ? -1 : 1);
    return value === 0 ? undefined : { adjust: { [property]: { amount: value } } };
  }
  return undefined;
}

const COLUMNS = [
  column.display({
    id: 'select',
    // the table's row selection (TanStack's handlers), not a form field: the column and the aria-label say what each box picks
    header: (header) => (
      <input
        type="checkbox"
        aria-label="Select every product on this page"
        checked={header.table.getIsAllRowsSelected()}
        onChange={header.table.getToggleAllRowsSelectedHandler()}
      />
    ),
    cell: (cell) => (
      <input
        type="checkbox"
        aria-label={`Select ${cell.row.original.name}`}
        checked={cell.row.getIsSelected()}
        onChange={cell.row.getToggleSelectedHandler()}
      />
    ),
  }),
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
  column.display({
    id: 'inventory',
    header: 'Inventory',
    cell: (cell) => (
      <>
        {inventoryLabel(cell.row.original)}
        {isLowOnStock(cell.row.original) ? (
          <>
            {' '}
            <span className="badge badge--warning" data-testid="low-stock">
              Low stock
            </span>
          </>
        ) : null}
      </>
    ),
  }),
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
  const [rowSelection, setRowSelection] = useState<Record<string, boolean>>({});
  const table = useReactTable({
    data: products.data?.items ?? [],
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (product) => product.id ?? '',
    state: { rowSelection },
    onRowSelectionChange: setRowSelection,
    enableRowSelection: true,
  });
  const bulk = useBulkProductChange();
  const [bulkProblem, setBulkProblem] = useState<string>();
  const [bulkDone, setBulkDone] = useState<string>();
  const selected = Object.keys(rowSelection).filter((key) => rowSelection[key]);

  async function submitBulk(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBulkProblem(undefined);
    setBulkDone(undefined);
    const form = event.currentTarget;
    const data = new FormData(form);
    const property = String(data.get('property') ?? 'price') as BulkProperty;
    const change = bulkChangeOf(property, String(data.get('value') ?? ''));
    if (!change) {
      setBulkProblem(
        `Type a new ${property} (12.50), a percentage (+10% or -10%) or an amount (+2 or -2.00).`,
      );
      return;
    }
    try {
      const result = await bulk.mutateAsync({ ids: selected, ...change });
      const { totalSuccesses, totalFailures } = result.bulkActionMetadata;
      setBulkDone(
        `The ${property} of ${totalSuccesses} product${totalSuccesses === 1 ? ' was' : 's were'} changed${
          totalFailures > 0 ? `; ${totalFailures} could not be changed` : ''
        }.`,
      );
      setRowSelection({});
      form.reset();
    } catch (error) {
      setBulkProblem(`Nothing was changed: ${(error as Error).message}.`);
    }
  }

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
            <Field
              compact
              label="Find a product"
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
      {selected.length > 0 ? (
        <form className="toolbar panel" onSubmit={submitBulk} aria-label="Change the selected products">
          <span>{selected.length} selected</span>
          <SelectField compact label="What to change" name="property" defaultValue="price">
            <option value="price">Price</option>
            <option value="cost">Cost</option>
            <option value="weight">Weight</option>
          </SelectField>
          <Field
            compact
            label="New value or change"
            name="value"
            placeholder="12.50, +10%, -2.00"
            hint="A number sets it; +/- an amount or a percentage moves it."
          />
          <button className="button button--primary" type="submit" disabled={bulk.isPending}>
            {bulk.isPending ? 'Changing…' : 'Apply to selected'}
          </button>
        </form>
      ) : null}
      {bulkProblem ? (
        <p className="form-alert" role="alert">
          {bulkProblem}
        </p>
      ) : null}
      {bulkDone ? (
        <p className="notice" role="status">
          {bulkDone}
        </p>
      ) : null}
      {products.isError ? (
        <ErrorNotice what="the products" error={products.error} retry={() => products.refetch()} />
      ) : products.isPending ? (
        <p role="status">Loading products…</p>
      ) : products.data.items.length === 0 ? (
        <p className="panel">
          {q ? 'No product name starts with that.' : 'No products yet. Create the first with “New product”.'}
        </p>
      ) : (
        <DataTable table={table} label="Products" busy={products.isFetching} rowTestId="product-row" />
      )}
      <Pager
        label="Pages of products"
        hasPrevious={page > 1}
        hasNext={Boolean(products.data?.hasNext)}
        onPrevious={() => go({ page: page > 2 ? String(page - 1) : '' })}
        onNext={() => go({ page: String(page + 1) })}
      />
    </>
  );
}
