import { flexRender, type Table } from '@tanstack/react-table';

/**
 * A TanStack table as the back office shows its lists: a header row of column headers, a row per
 * item (named `rowTestId` for the browser tests), busy while the next page loads.
 */
export function DataTable<T>(props: { table: Table<T>; label: string; busy: boolean; rowTestId: string }) {
  const { table } = props;
  return (
    <div className="table-wrap">
      <table className="table" aria-busy={props.busy} aria-label={props.label}>
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
            <tr key={row.id} data-testid={props.rowTestId}>
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and Next for a list read a page at a time; a side that cannot move is disabled. */
export function Pager(props: {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
}) {
  return (
    <nav className="pager" aria-label={props.label}>
      <button
        className="button button--quiet"
        type="button"
        disabled={!props.hasPrevious}
        onClick={props.onPrevious}
      >
        Previous
      </button>
      <button className="button button--quiet" type="button" disabled={!props.hasNext} onClick={props.onNext}>
        Next
      </button>
    </nav>
  );
}
