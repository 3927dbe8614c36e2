import { Field } from '@cartwheel/design';
import { type BulkOrderAction, type BulkOrderOutcome, useBulkOrderAction } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';

type Kind = 'add-tag' | 'remove-tag' | 'archive' | 'unarchive' | 'fulfil' | 'capture';

const ACTIONS: Record<Kind, { label: string; title: (count: number) => string; description: string }> = {
  'add-tag': {
    label: 'Add tag…',
    title: (count) => `Add a tag to ${count} ${count === 1 ? 'order' : 'orders'}`,
    description: 'The tag is added to every selected order; orders that hold it already keep it.',
  },
  'remove-tag': {
    label: 'Remove tag…',
    title: (count) => `Remove a tag from ${count} ${count === 1 ? 'order' : 'orders'}`,
    description: 'The tag is taken off every selected order that holds it.',
  },
  archive: {
    label: 'Archive',
    title: (count) => `Archive ${count} ${count === 1 ? 'order' : 'orders'}`,
    description: 'Archived orders leave the list unless "Archived" asks for them; nothing else changes.',
  },
  unarchive: {
    label: 'Unarchive',
    title: (count) => `Unarchive ${count} ${count === 1 ? 'order' : 'orders'}`,
    description: 'The orders show in the list again.',
  },
  fulfil: {
    label: 'Mark as fulfilled',
    title: (count) => `Mark ${count} ${count === 1 ? 'order' : 'orders'} as fulfilled`,
    description: 'Everything left to ship on each order is recorded as shipped, without tracking.',
  },
  capture: {
    label: 'Capture payments',
    title: (count) => `Capture the authorized payments of ${count} ${count === 1 ? 'order' : 'orders'}`,
    description: 'Each authorized payment is captured in full: the buyer is charged.',
  },
};

/**
 * The actions on the orders selected in the table, each confirmed first and answered with a result per
 * order (done, or why not). The outcome stays until the next action, another view of the list, or until
 * it is dismissed.
 */
export function BulkBar({ selected, onDone }: { selected: Order[]; onDone(): void }) {
  const action = useBulkOrderAction();
  const [open, setOpen] = useState<Kind>();
  const [tag, setTag] = useState('');
  const [outcome, setOutcome] = useState<{ title: string; results: BulkOrderOutcome[] }>();
  const numberOf = new Map(selected.map((order) => [order.id ?? '', order.number]));
  const [numbers, setNumbers] = useState(numberOf);

  const needsTag = open === 'add-tag' || open === 'remove-tag';

  async function run(kind: Kind) {
    let request: BulkOrderAction;
    if (kind === 'add-tag' || kind === 'remove-tag') {
      const name = tag.trim();
      if (!name) return;
      request =
        kind === 'add-tag'
          ? { kind: 'tag', assign: [name], unassign: [] }
          : { kind: 'tag', assign: [], unassign: [name] };
    } else if (kind === 'archive' || kind === 'unarchive') {
      request = { kind: 'archive', archived: kind === 'archive' };
    } else request = { kind };
    try {
      const results = await action.mutateAsync({ orders: selected, action: request });
      setNumbers(numberOf);
      setOutcome({ title: ACTIONS[kind].title(selected.length), results });
      setOpen(undefined);
      setTag('');
      onDone();
    } catch {
      // shown in the dialog
    }
  }

  const succeeded = outcome?.results.filter((result) => result.succeeded).length ?? 0;

  return (
    <>
      {selected.length > 0 ? (
        // biome-ignore lint/a11y/useSemanticElements: a toolbar of buttons, not a form group
        <div className="toolbar bulk-bar" role="group" aria-label="Selected orders">
          <span>
            {selected.length} {selected.length === 1 ? 'order' : 'orders'} selected
          </span>
          {(Object.keys(ACTIONS) as Kind[]).map((kind) => (
            <ConfirmDialog
              key={kind}
              trigger={
                <button className="button button--quiet" type="button">
                  {ACTIONS[kind].label}
                </button>
              }
              title={ACTIONS[kind].title(selected.length)}
              description={ACTIONS[kind].description}
              confirm={ACTIONS[kind].label.replace('…', '')}
              busy={action.isPending || (needsTag && !tag.trim())}
              error={open === kind && action.error ? action.error.message : undefined}
              open={open === kind}
              onOpenChange={(isOpen) => {
                action.reset();
                setOpen(isOpen ? kind : undefined);
              }}
              onConfirm={() => run(kind)}
            >
              {kind === 'add-tag' || kind === 'remove-tag' ? (
                <Field
                  label="Tag"
                  value={tag}
                  onChange={(event) => setTag(event.target.value)}
                  autoComplete="off"
                />
              ) : null}
            </ConfirmDialog>
          ))}
        </div>
      ) : null}
      {outcome ? (
        <section className="panel" aria-label="Outcome of the last action">
          <p role="status">
            {outcome.title}: {succeeded} of {outcome.results.length} done.
          </p>
          <ul data-testid="bulk-outcome">
            {outcome.results.map((result) => (
              <li key={result.orderId}>
                #{numbers.get(result.orderId) ?? result.orderId}:{' '}
                {result.succeeded ? 'done' : `failed — ${result.reason ?? 'refused'}`}
              </li>
            ))}
          </ul>
          <button className="button button--quiet" type="button" onClick={() => setOutcome(undefined)}>
            Dismiss
          </button>
        </section>
      ) : null}
    </>
  );
}
