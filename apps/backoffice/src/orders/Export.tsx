import { useOrdersExport } from '@cartwheel/react';
import { useEffect, useRef } from 'react';
import { filterOf, type OrdersView } from './search.ts';

/**
 * "Export CSV": the orders the table's filters find (every page, not only the one shown), streamed from
 * the platform with the count so far, then saved as a file.
 */
export function ExportButton({ view }: { view: OrdersView }) {
  const { state, start } = useOrdersExport();
  const url = useRef<string | undefined>(undefined);

  useEffect(
    () => () => {
      if (url.current) URL.revokeObjectURL(url.current);
    },
    [],
  );

  async function exportOrders() {
    const filter = filterOf(view);
    const csv = await start({
      ...(filter ? { filter } : {}),
      ...(view.q ? { search: view.q } : {}),
      sort: { fieldName: 'createdDate', order: view.order },
    });
    if (!csv) return;
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = URL.createObjectURL(csv);
    // the browser saves the file the export gathered: a link to it, followed once, never shown
    const link = document.createElement('a');
    link.href = url.current;
    link.download = `orders-${new Date().toISOString().slice(0, 10)}.csv`;
    link.click();
  }

  return (
    <>
      <button
        className="button"
        type="button"
        disabled={state.status === 'running'}
        onClick={() => void exportOrders()}
      >
        Export CSV
      </button>
      {state.status === 'running' ? (
        <p role="status" data-testid="export-progress">
          Exporting… {state.rows.toLocaleString()} orders so far
        </p>
      ) : state.status === 'done' ? (
        <p role="status" data-testid="export-progress">
          Exported {state.rows.toLocaleString()} {state.rows === 1 ? 'order' : 'orders'}.
        </p>
      ) : state.status === 'failed' ? (
        <p className="form-alert" role="alert">
          The export stopped after {state.rows.toLocaleString()} orders: {state.error.message}
        </p>
      ) : null}
    </>
  );
}
