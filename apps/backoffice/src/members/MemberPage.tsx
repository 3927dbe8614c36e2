import { Field, SelectField } from '@cartwheel/design';
import {
  type MemberStatusAction,
  useDeleteMember,
  useMember,
  useMemberStatusAction,
  useMembersQuery,
  useOrderSearch,
} from '@cartwheel/react';
import type { Member } from '@cartwheel/sdk';
import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useConfirmationFocus } from '../components/confirmation-focus.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { fulfillmentLabel, money, orderDate, paymentLabel } from '../orders/labels.ts';
import { useCan } from '../staff-session.ts';
import { memberName, STATUS_LABELS } from './labels.ts';
import './members.css';

/**
 * The status actions and the statuses each may start from: the platform's own rules
 * (members/status.ts), so a button shows only where the platform would take it, and the others say why.
 */
const STATUS_ACTIONS: Array<{
  action: MemberStatusAction;
  verb: string;
  from: (member: Member) => boolean;
  explain: string;
  done: string;
}> = [
  {
    action: 'approve',
    verb: 'Approve',
    from: (member) => ['PENDING', 'BLOCKED', 'OFFLINE'].includes(member.status ?? ''),
    explain: 'They can sign in to the store.',
    done: 'is approved: they can sign in',
  },
  {
    action: 'block',
    verb: 'Block',
    from: (member) => ['PENDING', 'APPROVED', 'OFFLINE'].includes(member.status ?? ''),
    explain: 'They are signed out everywhere and cannot sign in again until approved.',
    done: 'is blocked: they are signed out everywhere',
  },
  {
    action: 'disconnect',
    verb: 'Disconnect',
    from: (member) => ['PENDING', 'APPROVED'].includes(member.status ?? ''),
    explain: 'Their sign-ins end and they stay on as an offline contact; approving lets them back in.',
    done: 'is disconnected',
  },
  {
    action: 'mute',
    verb: 'Mute',
    from: (member) => member.activityStatus !== 'MUTED',
    explain: 'They can no longer post in the community; they can still sign in and shop.',
    done: 'is muted',
  },
  {
    action: 'unmute',
    verb: 'Unmute',
    from: (member) => member.activityStatus === 'MUTED',
    explain: 'They can post in the community again.',
    done: 'is unmuted',
  },
];

/** Why an action is not offered, in the member's current state. */
function whyNot(action: MemberStatusAction, member: Member): string {
  const status = STATUS_LABELS[member.status ?? ''] ?? member.status ?? 'unknown';
  if (action === 'mute') return 'Already muted.';
  if (action === 'unmute') return 'Not muted.';
  if (action === 'approve' && member.status === 'APPROVED') return 'Already approved.';
  if (action === 'block' && member.status === 'BLOCKED') return 'Already blocked.';
  return `Not possible while the member is ${status.toLowerCase()}.`;
}

/** `/admin/members/:id`: one member's profile, contact, addresses, orders, and their status actions. */
export function MemberPage() {
  const { id } = useParams();
  const member = useMember(id);
  const [deleted, setDeleted] = useState<string>();

  useEffect(() => {
    document.title = `${member.data ? memberName(member.data) : 'Member'} · Cartwheel back office`;
  }, [member.data]);

  if (deleted) {
    return (
      <>
        <h1>Member deleted</h1>
        <p
          className="notice"
          role="status"
          data-testid="member-deleted"
          tabIndex={-1}
          // the dialog and the page it was on are gone: the focus comes here, not to the body
          ref={(element) => element?.focus()}
        >
          {deleted}
        </p>
        <p>
          <Link to="/members">← All members</Link>
        </p>
      </>
    );
  }
  if (member.isError)
    return <ErrorNotice what="this member" error={member.error} retry={() => member.refetch()} />;
  if (member.isPending) return <p role="status">Loading the member…</p>;
  return <MemberDetails member={member.data} onDeleted={setDeleted} />;
}

function MemberDetails({ member, onDeleted }: { member: Member; onDeleted(what: string): void }) {
  const contact = member.contact;
  const name = [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
  return (
    <>
      <p>
        <Link to="/members">← All members</Link>
      </p>
      <h1>{memberName(member)}</h1>
      <p className="order-head">
        <span className="badge" data-testid="member-status">
          {STATUS_LABELS[member.status ?? ''] ?? member.status}
        </span>
        <span className="badge" data-testid="member-community">
          {member.activityStatus === 'MUTED' ? 'Muted' : 'Can post'}
        </span>
        <span className="badge">
          {member.privacyStatus === 'PRIVATE' ? 'Private profile' : 'Public profile'}
        </span>
      </p>

      <MemberActions member={member} onDeleted={onDeleted} />

      <div className="member-grid">
        <section className="panel" aria-labelledby="member-profile-title">
          <h2 id="member-profile-title">Profile</h2>
          <dl className="member-facts">
            <dt>Nickname</dt>
            <dd>{member.profile?.nickname || '—'}</dd>
            <dt>Title</dt>
            <dd>{member.profile?.title || '—'}</dd>
            <dt>Profile address</dt>
            <dd>{member.profile?.slug || '—'}</dd>
            <dt>Joined</dt>
            <dd>{orderDate(member.createdDate)}</dd>
            <dt>Last signed in</dt>
            <dd>{member.lastLoginDate ? orderDate(member.lastLoginDate) : 'Never'}</dd>
          </dl>
        </section>

        <section className="panel" aria-labelledby="member-contact-title">
          <h2 id="member-contact-title">Contact</h2>
          <dl className="member-facts">
            <dt>Name</dt>
            <dd>{name || '—'}</dd>
            <dt>Login email</dt>
            <dd data-testid="member-email">
              {member.loginEmail ? <a href={`mailto:${member.loginEmail}`}>{member.loginEmail}</a> : '—'}{' '}
              {member.loginEmail ? (
                <span className="muted">{member.loginEmailVerified ? '(verified)' : '(not verified)'}</span>
              ) : null}
            </dd>
            <dt>Other emails</dt>
            <dd>{contact?.emails?.length ? contact.emails.join(', ') : '—'}</dd>
            <dt>Phones</dt>
            <dd>{contact?.phones?.length ? contact.phones.join(', ') : '—'}</dd>
            <dt>Company</dt>
            <dd>{contact?.company || '—'}</dd>
          </dl>
          <h3>Addresses</h3>
          {contact?.addresses?.length ? (
            <ul className="member-addresses">
              {contact.addresses.map((address, index) => (
                <li key={address.id ?? index}>
                  <address>
                    {[
                      address.addressLine ??
                        [address.streetAddress?.number, address.streetAddress?.name]
                          .filter(Boolean)
                          .join(' '),
                      address.addressLine2,
                      [address.city, address.subdivision, address.postalCode].filter(Boolean).join(', '),
                      address.country,
                    ]
                      .filter(Boolean)
                      .map((line) => (
                        <span key={line} className="address-line">
                          {line}
                        </span>
                      ))}
                  </address>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No address saved.</p>
          )}
        </section>
      </div>

      <MemberOrders memberId={member.id ?? ''} />
    </>
  );
}

/** The member's orders, newest first: the same search as the orders table, by their member id. */
function MemberOrders({ memberId }: { memberId: string }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const orders = useOrderSearch(
    cursor
      ? { cursorPaging: { limit: 20, cursor } }
      : {
          filter: { 'buyerInfo.memberId': { $eq: memberId } },
          sort: [{ fieldName: 'createdDate', order: 'DESC' }],
          cursorPaging: { limit: 20 },
        },
  );
  const next = orders.data?.metadata.cursors.next;
  return (
    <section className="panel" aria-labelledby="member-orders-title">
      <h2 id="member-orders-title">Orders</h2>
      {orders.isError ? (
        <ErrorNotice what="their orders" error={orders.error} retry={() => orders.refetch()} />
      ) : orders.isPending ? (
        <p role="status">Loading their orders…</p>
      ) : orders.data.orders.length === 0 ? (
        <p className="muted">No orders yet: orders they place while signed in appear here.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Their orders" aria-busy={orders.isFetching}>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Total</th>
                <th scope="col">Payment</th>
                <th scope="col">Fulfillment</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.orders.map((order) => (
                <tr key={order.id} data-testid="member-order">
                  <td>
                    <Link to={`/orders/${encodeURIComponent(order.id ?? '')}`}>#{order.number}</Link>
                  </td>
                  <td>{orderDate(order.createdDate)}</td>
                  <td>{money(order.priceSummary?.total)}</td>
                  <td>{paymentLabel(order)}</td>
                  <td>{fulfillmentLabel(order)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursors.length > 0 || next ? (
        <nav className="pager" aria-label="Pages of their orders">
          <button
            className="button button--quiet"
            type="button"
            disabled={cursors.length === 0}
            onClick={() => setCursors((before) => before.slice(0, -1))}
          >
            Previous
          </button>
          <button
            className="button button--quiet"
            type="button"
            disabled={!next}
            onClick={() => next && setCursors((before) => [...before, next])}
          >
            Next
          </button>
        </nav>
      ) : null}
    </section>
  );
}

/**
 * The status actions the member's state allows, each behind a confirmation; the others say why they
 * are not offered. The page shows the new state as soon as the platform answers.
 */
function MemberActions({ member, onDeleted }: { member: Member; onDeleted(what: string): void }) {
  const canManage = useCan('members.manage');
  const act = useMemberStatusAction();
  const [pending, setPending] = useState<MemberStatusAction | 'delete'>();
  const [done, setDone] = useState<string>();
  const focus = useConfirmationFocus(done);
  const id = useId();
  if (!canManage) return null;

  async function run(action: MemberStatusAction, done: string) {
    setDone(undefined);
    focus.confirm();
    try {
      await act.mutateAsync({ id: member.id ?? '', action });
      setPending(undefined);
      setDone(`${memberName(member)} ${done}.`);
    } catch {
      // shown in the dialog, which stays open
      focus.reset();
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Status</h2>
      {done ? (
        <p className="notice" role="status" tabIndex={-1} ref={focus.notice} data-testid="member-action-done">
          {done}
        </p>
      ) : null}
      <ul className="member-actions">
        {STATUS_ACTIONS.map((rule) =>
          rule.from(member) ? (
            <li key={rule.action}>
              <ConfirmDialog
                open={pending === rule.action}
                onOpenChange={(open) => {
                  setPending(open ? rule.action : undefined);
                  if (open) {
                    act.reset();
                    focus.reset();
                  }
                }}
                trigger={
                  <button className="button" type="button">
                    {rule.verb}
                  </button>
                }
                title={`${rule.verb} ${memberName(member)}?`}
                description={rule.explain}
                confirm={rule.verb}
                busy={act.isPending}
                error={act.isError ? `Nothing changed: ${act.error.message}` : undefined}
                onConfirm={() => run(rule.action, rule.done)}
                onCloseAutoFocus={focus.onCloseAutoFocus}
              />
            </li>
          ) : rule.action === 'mute' || rule.action === 'unmute' ? null : (
            <li key={rule.action} className="muted" data-testid={`why-not-${rule.action}`}>
              {rule.verb}: {whyNot(rule.action, member)}
            </li>
          ),
        )}
        <li>
          <DeleteMember
            member={member}
            open={pending === 'delete'}
            onOpenChange={(open) => setPending(open ? 'delete' : undefined)}
            onDeleted={onDeleted}
          />
        </li>
      </ul>
    </section>
  );
}

/** Deletes the member after asking who receives their content (any other member, or nobody). */
function DeleteMember(props: {
  member: Member;
  open: boolean;
  onOpenChange(open: boolean): void;
  onDeleted(what: string): void;
}) {
  const { member } = props;
  const remove = useDeleteMember();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Member>();
  const candidates = useMembersQuery(
    { paging: { limit: 20 }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] },
    { fieldsets: ['FULL'], ...(search.trim() ? { search: { expression: search.trim() } } : {}) },
  );
  const others = (candidates.data?.items ?? []).filter((other) => other.id !== member.id);
  const assignee = chosen?.id ?? '';

  async function confirm() {
    try {
      await remove.mutateAsync({ id: member.id ?? '', ...(assignee ? { contentAssigneeId: assignee } : {}) });
      props.onDeleted(
        `${memberName(member)} was deleted; ${chosen ? `their content now belongs to ${memberName(chosen)}` : 'their content belongs to nobody'}. Their orders stay with the store.`,
      );
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <ConfirmDialog
      open={props.open}
      onOpenChange={(open) => {
        props.onOpenChange(open);
        if (open) remove.reset();
      }}
      trigger={
        <button className="button button--danger" type="button">
          Delete
        </button>
      }
      title={`Delete ${memberName(member)}?`}
      description="They are signed out and can never sign in again with this account. This cannot be undone."
      confirm="Delete member"
      busy={remove.isPending}
      error={remove.isError ? `The member was not deleted: ${remove.error.message}` : undefined}
      onConfirm={confirm}
    >
      <Field
        label="Find the member who receives their content"
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Name or email"
      />
      <SelectField
        label="Give their content to"
        hint={
          candidates.isFetching
            ? 'Looking for members…'
            : `${others.length} member${others.length === 1 ? '' : 's'} found.`
        }
        value={assignee}
        onChange={(event) =>
          setChosen(
            others.find((other) => other.id === event.target.value) ??
              (event.target.value === assignee ? chosen : undefined),
          )
        }
      >
        <option value="">Nobody</option>
        {chosen && !others.some((other) => other.id === chosen.id) ? (
          <option value={assignee}>{memberName(chosen)}</option>
        ) : null}
        {others.map((other) => (
          <option key={other.id} value={other.id ?? ''}>
            {memberName(other)}
            {other.loginEmail && other.loginEmail !== memberName(other) ? ` (${other.loginEmail})` : ''}
          </option>
        ))}
      </SelectField>
    </ConfirmDialog>
  );
}
