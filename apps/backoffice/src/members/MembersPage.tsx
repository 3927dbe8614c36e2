import { Field } from '@cartwheel/design';
import {
  type BulkMemberAction,
  type BulkMembersOutcome,
  useBulkMembers,
  useMembersQuery,
} from '@cartwheel/react';
import type { BulkMembersJobProgress, Member } from '@cartwheel/sdk';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { DataTable, Pager } from '../components/DataTable.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { StatusFilter } from '../components/StatusFilter.tsx';
import { orderDate } from '../orders/labels.ts';
import { useCan } from '../staff-session.ts';
import { memberName, STATUS_LABELS } from './labels.ts';
import '../orders/orders.css';

const PAGE_SIZE = 50;

const ACTIONS: Record<BulkMemberAction, { verb: string; done: string; explain: string }> = {
  approve: { verb: 'Approve', done: 'approved', explain: 'They can sign in to the store.' },
  block: {
    verb: 'Block',
    done: 'blocked',
    explain: 'They are signed out everywhere and cannot sign in again.',
  },
  delete: {
    verb: 'Delete',
    done: 'deleted',
    explain: 'Their accounts are removed; their orders stay with the store. This cannot be undone.',
  },
};

const column = createColumnHelper<Member>();

/**
 * `/admin/members`: every member, newest first, found by name or email and narrowed by status; rows
 * are selected for approve, block or delete, which run as the platform's bulk calls and report a result
 * per member.
 */
export function MembersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const members = useMembersQuery(
    {
      ...(status ? { filter: { status: { $eq: status } } } : {}),
      sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      paging: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    },
    { fieldsets: ['FULL'], ...(q ? { search: { expression: q } } : {}) },
  );
  const [selected, setSelected] = useState<Record<string, boolean>>({});
  const [progress, setProgress] = useState<BulkMembersJobProgress>();
  const bulk = useBulkMembers(setProgress);
  const [pending, setPending] = useState<BulkMemberAction>();
  const [outcome, setOutcome] = useState<{ action: BulkMemberAction; result: BulkMembersOutcome }>();
  const canManage = useCan('members.manage');
  const rows = members.data?.items ?? [];
  const chosen = rows
    .filter((member) => member.id && selected[member.id])
    .map((member) => member.id as string);

  useEffect(() => {
    document.title = 'Members · Cartwheel back office';
  }, []);

  const table = useReactTable({
    data: rows,
    getRowId: (member) => member.id ?? '',
    columns: [
      column.display({
        id: 'select',
        // the table's row selection (TanStack's handlers), not a form field: the column and the aria-label say what each box picks
        header: () => (
          <input
            type="checkbox"
            aria-label="Select every member on this page"
            checked={rows.length > 0 && chosen.length === rows.length}
            onChange={(event) =>
              setSelected(
                event.target.checked ? Object.fromEntries(rows.map((member) => [member.id ?? '', true])) : {},
              )
            }
          />
        ),
        cell: (cell) => (
          <input
            type="checkbox"
            aria-label={`Select ${memberName(cell.row.original)}`}
            checked={Boolean(selected[cell.row.id])}
            onChange={(event) =>
              setSelected((before) => ({ ...before, [cell.row.id]: event.target.checked }))
            }
          />
        ),
      }),
      column.display({
        id: 'member',
        header: 'Member',
        cell: (cell) => (
          <>
            <Link to={`/members/${encodeURIComponent(cell.row.original.id ?? '')}`} data-testid="member-link">
              {memberName(cell.row.original)}
            </Link>
            <span className="muted cell__second">{cell.row.original.loginEmail}</span>
          </>
        ),
      }),
      column.accessor('status', {
        header: 'Status',
        cell: (cell) => (
          <span className="badge">{STATUS_LABELS[cell.getValue() ?? ''] ?? cell.getValue()}</span>
        ),
      }),
      column.accessor('activityStatus', {
        header: 'Community',
        cell: (cell) => (cell.getValue() === 'MUTED' ? 'Muted' : 'Active'),
      }),
      column.accessor('createdDate', { header: 'Joined', cell: (cell) => orderDate(cell.getValue()) }),
    ],
    getCoreRowModel: getCoreRowModel(),
  });

  function go(changes: Record<string, string>) {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    setSelected({});
    setParams(next);
  }

  function submitSearch(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    go({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim(), page: '' });
  }

  async function run(action: BulkMemberAction) {
    setOutcome(undefined);
    setProgress(undefined);
    try {
      const result = await bulk.mutateAsync({ action, ids: chosen });
      setOutcome({ action, result });
      setSelected({});
      setPending(undefined);
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <>
      <h1>Members</h1>
      <div className="toolbar">
        <search>
          <form className="toolbar__search" onSubmit={submitSearch}>
            <Field
              compact
              label="Find a member"
              name="q"
              type="search"
              defaultValue={q}
              key={q}
              placeholder="Name or email"
            />
            <button className="button" type="submit">
              Search
            </button>
          </form>
        </search>
        <StatusFilter
          label="Status"
          labels={STATUS_LABELS}
          value={status}
          onChoose={(chosen) => go({ status: chosen, page: '' })}
        />
      </div>

      {canManage ? (
        <div className="bulk-bar" aria-live="polite">
          <span>{chosen.length === 0 ? 'Select members to act on them.' : `${chosen.length} selected`}</span>
          {(Object.keys(ACTIONS) as BulkMemberAction[]).map((action) => (
            <ConfirmDialog
              key={action}
              open={pending === action}
              onOpenChange={(open) => {
                setPending(open ? action : undefined);
                if (open) bulk.reset();
              }}
              trigger={
                <button className="button" type="button" disabled={chosen.length === 0 || bulk.isPending}>
                  {ACTIONS[action].verb}
                </button>
              }
              title={`${ACTIONS[action].verb} ${chosen.length} member${chosen.length === 1 ? '' : 's'}?`}
              description={ACTIONS[action].explain}
              confirm={ACTIONS[action].verb}
              busy={bulk.isPending}
              error={bulk.isError ? `Nothing more was done: ${bulk.error.message}` : undefined}
              onConfirm={() => run(action)}
            >
              {bulk.isPending && progress ? (
                <p role="status">
                  {(progress.bulkActionMetadata.totalSuccesses ?? 0) +
                    (progress.bulkActionMetadata.totalFailures ?? 0)}{' '}
                  of {chosen.length} done…
                </p>
              ) : null}
            </ConfirmDialog>
          ))}
        </div>
      ) : null}

      {outcome ? <Outcome action={outcome.action} result={outcome.result} members={rows} /> : null}

      {members.isError ? (
        <ErrorNotice what="the members" error={members.error} retry={() => members.refetch()} />
      ) : members.isPending ? (
        <p role="status">Loading members…</p>
      ) : rows.length === 0 ? (
        <p className="panel">
          {q || status
            ? 'No member matches this search.'
            : 'No members yet. Shoppers who sign up appear here.'}
        </p>
      ) : (
        <DataTable table={table} label="Members" busy={members.isFetching} rowTestId="member-row" />
      )}
      <Pager
        label="Pages of members"
        hasPrevious={page > 1}
        hasNext={Boolean(members.data?.hasNext)}
        onPrevious={() => go({ page: page > 2 ? String(page - 1) : '' })}
        onNext={() => go({ page: String(page + 1) })}
      />
    </>
  );
}

/** What a bulk action did: how many, and each failure with its reason. */
function Outcome({
  action,
  result,
  members,
}: {
  action: BulkMemberAction;
  result: BulkMembersOutcome;
  members: Member[];
}) {
  const failures = result.results.filter((item) => item.itemMetadata?.success === false);
  const named = (memberId: string | null | undefined) =>
    members.find((member) => member.id === memberId)?.loginEmail ?? memberId ?? 'A member';
  return (
    <div className={failures.length > 0 ? 'form-alert' : 'notice'} role="status" data-testid="bulk-outcome">
      <p>
        {result.succeeded} member{result.succeeded === 1 ? '' : 's'} {ACTIONS[action].done}
        {result.failed > 0 ? `, ${result.failed} not` : ''}.
      </p>
      {failures.length > 0 ? (
        <ul>
          {failures.map((item) => (
            <li key={item.itemMetadata?.id ?? item.itemMetadata?.originalIndex}>
              {named(item.itemMetadata?.id)}:{' '}
              {item.itemMetadata?.error?.description ?? item.itemMetadata?.error?.code}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
