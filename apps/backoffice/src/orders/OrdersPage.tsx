import { Field, SelectField } from '@cartwheel/design';
import { useOrderSearch } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import {
  createColumnHelper,
  getCoreRowModel,
  type RowSelectionState,
  useReactTable,
} from '@tanstack/react-table';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, Pager } from '../components/DataTable.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { StatusFilter } from '../components/StatusFilter.tsx';
import { BulkBar } from './BulkBar.tsx';
import { ExportButton } from './Export.tsx';
import {
  buyerName,
  FULFILLMENT_LABELS,
  fulfillmentLabel,
  money,
  orderDate,
  PAYMENT_LABELS,
  paymentLabel,
} from './labels.ts';
import { SavedViews } from './SavedViews.tsx';
import { isFiltered, searchOf, viewOf } from './search.ts';
import { UrlField } from './UrlField.tsx';
import './orders.css';

const column = createColumnHelper<Order>();

// the view's two ranges, each a field for its start and its end
const DATE_RANGE = [
  ['from', 'From'],
  ['to', 'To'],
] as const;
const TOTAL_RANGE = [
  ['min', 'Total at least'],
  ['max', 'Total at most'],
] as const;

const COLUMNS = [
  column.display({
    id: 'select',
    // the table's row selection (TanStack's handlers), not a form field: the column and the aria-label say what each box picks
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label="Select every order on this page"
        checked={table.getIsAllRowsSelected()}
        ref={(box) => {
          if (box) box.indeterminate = table.getIsSomeRowsSelected();
        }}
        onChange={table.getToggleAllRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        aria-label={`Select order #${row.original.number}`}
        checked={row.getIsSelected()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  }),
  column.accessor('number', {
    header: 'Order',
    cell: (cell) => (
      <Link to={`/orders/${encodeURIComponent(cell.row.original.id ?? '')}`} data-testid="order-link">
        #{cell.getValue()}
      </Link>
    ),
  }),
  column.accessor('createdDate', { header: 'Date', cell: (cell) => orderDate(cell.getValue()) }),
  column.display({
    id: 'buyer',
    header: 'Buyer',
    cell: (cell) => (
      <>
        {buyerName(cell.row.original)}
        <span className="muted cell__second">{cell.row.original.buyerInfo?.email}</span>
      </>
    ),
  }),
  column.display({
    id: 'total',
    header: 'Total',
    cell: (cell) => money(cell.row.original.priceSummary?.total),
  }),
  column.display({
    id: 'payment',
    header: 'Payment',
    cell: (cell) => <span className="badge">{paymentLabel(cell.row.original)}</span>,
  }),
  column.display({
    id: 'fulfillment',
    header: 'Fulfillment',
    cell: (cell) =>
      cell.row.original.status === 'CANCELED' ? (
        <span className="badge badge--danger">Canceled</span>
      ) : (
        <span className="badge">{fulfillmentLabel(cell.row.original)}</span>
      ),
  }),
  column.display({
    id: 'tags',
    header: 'Tags',
    cell: (cell) => (
      <span data-testid="order-tags">
        {(cell.row.original.tags?.tags?.tagIds ?? []).map((tag) => (
          <span key={tag} className="badge badge--tag">
            {tag}
          </span>
        ))}
        {cell.row.original.archived ? <span className="badge">Archived</span> : null}
      </span>
    ),
  }),
];

/**
 * `/admin/orders`: every order, newest first, 50 at a time, found by number or buyer email and narrowed
 * by payment and fulfillment status. The view lives in the address, so it can be bookmarked and shared.
 */
export function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const view = viewOf(params);
  // the cursors of the pages before this one, so "Previous" can go back; another view starts again
  const viewKey = params.toString();
  const [paging, setPaging] = useState<{ view: string; cursors: string[] }>({ view: viewKey, cursors: [] });
  const cursors = paging.view === viewKey ? paging.cursors : [];
  const setCursors = (change: (before: string[]) => string[]) =>
    setPaging({ view: viewKey, cursors: change(cursors) });
  const search = searchOf(view, cursors.at(-1));
  const orders = useOrderSearch(search);
  // the selection is of this page's rows, by order id; another page or view starts with none
  const [selection, setSelection] = useState<{ page: string; rows: RowSelectionState }>({
    page: '',
    rows: {},
  });
  const pageKey = `${viewKey}|${cursors.at(-1) ?? ''}`;
  const rowSelection = selection.page === pageKey ? selection.rows : {};
  const table = useReactTable({
    data: orders.data?.orders ?? [],
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (order) => order.id ?? '',
    enableRowSelection: true,
    state: { rowSelection },
    onRowSelectionChange: (change) =>
      setSelection({
        page: pageKey,
        rows: typeof change === 'function' ? change(rowSelection) : change,
      }),
  });
  const selected = table.getSelectedRowModel().rows.map((row) => row.original);
  const next = orders.data?.metadata.cursors.next;

  useEffect(() => {
    document.title = 'Orders · Cartwheel back office';
  }, []);

  function change(name: string, value: string) {
    const changed = new URLSearchParams(params);
    if (value) changed.set(name, value);
    else changed.delete(name);
    setParams(changed);
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    change('q', String(new FormData(event.currentTarget).get('q') ?? '').trim());
  }

  return (
    <>
      <h1>Orders</h1>
      <SavedViews />
      <div className="toolbar">
        <search>
          <form className="toolbar__search" onSubmit={submitSearch}>
            <UrlField
              compact
              label="Find an order"
              name="q"
              type="search"
              value={view.q}
              placeholder="Order number, buyer email or name"
            />
            <button className="button" type="submit">
              Search
            </button>
          </form>
        </search>
        <StatusFilter
          label="Payment"
          labels={PAYMENT_LABELS}
          value={view.payment}
          onChoose={(status) => change('payment', status)}
        />
        <StatusFilter
          label="Fulfillment"
          labels={FULFILLMENT_LABELS}
          value={view.fulfillment}
          onChoose={(status) => change('fulfillment', status)}
        />
        <UrlField compact optional label="Tag" value={view.tag} onCommit={(tag) => change('tag', tag)} />
        {DATE_RANGE.map(([name, label]) => (
          <Field
            key={name}
            compact
            optional
            label={label}
            type="date"
            value={view[name]}
            onChange={(event) => change(name, event.target.value)}
          />
        ))}
        {TOTAL_RANGE.map(([name, label]) => (
          <UrlField
            key={name}
            compact
            optional
            label={label}
            inputMode="decimal"
            size={8}
            value={view[name]}
            onCommit={(amount) => change(name, amount)}
          />
        ))}
        <SelectField
          compact
          label="Archived"
          value={view.archived}
          onChange={(event) => change('archived', event.target.value)}
        >
          <option value="">Hidden</option>
          <option value="include">Shown too</option>
          <option value="only">Only archived</option>
        </SelectField>
        <SelectField
          compact
          label="Sort"
          value={view.order}
          onChange={(event) => change('order', event.target.value === 'ASC' ? 'ASC' : '')}
        >
          <option value="DESC">Newest first</option>
          <option value="ASC">Oldest first</option>
        </SelectField>
      </div>

      <div className="toolbar">
        <ExportButton view={view} />
      </div>
      {/* another view of the list is a new start: the last action's outcome goes */}
      <BulkBar
        key={params.toString()}
        selected={selected}
        onDone={() => setSelection({ page: pageKey, rows: {} })}
      />

      {orders.isError ? (
        <ErrorNotice what="the orders" error={orders.error} retry={() => orders.refetch()} />
      ) : orders.isPending ? (
        <p role="status">Loading orders…</p>
      ) : orders.data.orders.length === 0 ? (
        <p className="panel">
          {isFiltered(view)
            ? 'No order matches this search. Clear the filters to see every order.'
            : 'No orders yet. Orders appear here as shoppers check out.'}
        </p>
      ) : (
        <DataTable table={table} label="Orders" busy={orders.isFetching} rowTestId="order-row" />
      )}

      <Pager
        label="Pages of orders"
        hasPrevious={cursors.length > 0}
        hasNext={Boolean(next)}
        onPrevious={() => setCursors((before) => before.slice(0, -1))}
        onNext={() => next && setCursors((before) => [...before, next])}
      />
    </>
  );
}
