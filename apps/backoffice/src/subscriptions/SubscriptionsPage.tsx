import {
  useCancelSubscriptionContract,
  usePauseSubscriptionContract,
  useResumeSubscriptionContract,
  useSubscriptionContracts,
} from '@cartwheel/react';
import type { SubscriptionContract, SubscriptionContractStatus } from '@cartwheel/sdk';
import { useState } from 'react';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ChangeError } from '../settings/common.tsx';

const STATUSES: Array<{ value: SubscriptionContractStatus | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'ACTIVE', label: 'Active' },
  { value: 'PAUSED', label: 'Paused' },
  { value: 'PAYMENT_FAILED', label: 'Payment failed' },
  { value: 'CANCELED', label: 'Canceled' },
  { value: 'ENDED', label: 'Ended' },
];

const every = (contract: SubscriptionContract) => {
  const settings = contract.subscriptionSettings;
  const unit = (settings?.frequency ?? 'MONTH').toLowerCase();
  const interval = settings?.interval ?? 1;
  const cycles = settings?.billingCycles ? `, ${settings.billingCycles} times` : '';
  return `${interval === 1 ? `every ${unit}` : `every ${interval} ${unit}s`}${cycles}`;
};

/**
 * The store's subscription contracts (issue 34), oldest first, by status: what each sends and to whom,
 * how often, its cycles billed, its next order or its last declined renewal; paused, resumed or
 * canceled here as a member does from their account.
 */
export function SubscriptionsPage() {
  const [status, setStatus] = useState<SubscriptionContractStatus | ''>('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const contracts = useSubscriptionContracts({
    ...(status ? { filter: { status } } : {}),
    cursorPaging: { limit: 50, ...(cursor ? { cursor } : {}) },
  });
  const pause = usePauseSubscriptionContract();
  const resume = useResumeSubscriptionContract();
  const cancel = useCancelSubscriptionContract();
  const busy = pause.isPending || resume.isPending || cancel.isPending;
  const failure = pause.error ?? resume.error ?? cancel.error;
  const next = contracts.data?.pagingMetadata?.cursors?.next;

  return (
    <section aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title">Subscriptions</h1>
      <label>
        Status{' '}
        <select
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as SubscriptionContractStatus | '');
            setCursors([]);
          }}
        >
          {STATUSES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <ChangeError error={failure} what="the subscription" />
      {contracts.isPending ? (
        <p>Loading subscriptions…</p>
      ) : contracts.isError ? (
        <ErrorNotice what="subscriptions" error={contracts.error} retry={() => contracts.refetch()} />
      ) : (contracts.data.subscriptionContracts ?? []).length === 0 ? (
        <p>No subscriptions yet.</p>
      ) : (
        <table aria-busy={contracts.isFetching}>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Buyer</th>
              <th scope="col">Renews</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
              <th scope="col">Next order</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(contracts.data.subscriptionContracts ?? []).map((contract) => {
              const id = contract.id as string;
              const name = contract.lineItems?.[0]?.productName?.original ?? contract.title ?? '';
              return (
                <tr key={id} data-testid="subscription-row">
                  <td>
                    {name} <small>({contract.title})</small>
                  </td>
                  <td>{contract.buyerInfo?.email ?? ''}</td>
                  <td>
                    {every(contract)} · {contract.cyclesBilled ?? 0} billed
                  </td>
                  <td>
                    {contract.priceSummary?.total?.formattedAmount ?? contract.priceSummary?.total?.amount}
                  </td>
                  <td>
                    {STATUSES.find((option) => option.value === contract.status)?.label ?? contract.status}
                    {contract.renewalFailure ? (
                      <small>
                        {' '}
                        — {contract.renewalFailure.code} ({contract.renewalFailure.failedAttempts} failed)
                      </small>
                    ) : null}
                  </td>
                  <td>
                    {contract.nextBillingDate ? new Date(contract.nextBillingDate).toLocaleString() : '—'}
                  </td>
                  <td>
                    {contract.status === 'ACTIVE' ? (
                      <button type="button" disabled={busy} onClick={() => pause.mutate(id)}>
                        Pause
                      </button>
                    ) : null}
                    {contract.status === 'PAUSED' || contract.status === 'PAYMENT_FAILED' ? (
                      <button type="button" disabled={busy} onClick={() => resume.mutate(id)}>
                        Resume
                      </button>
                    ) : null}
                    {contract.status === 'ACTIVE' ||
                    contract.status === 'PAUSED' ||
                    contract.status === 'PAYMENT_FAILED' ? (
                      <button type="button" disabled={busy} onClick={() => cancel.mutate(id)}>
                        Cancel
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {cursors.length || next ? (
        <p>
          <button
            type="button"
            disabled={cursors.length === 0}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Previous
          </button>{' '}
          <button type="button" disabled={!next} onClick={() => next && setCursors([...cursors, next])}>
            Next
          </button>
        </p>
      ) : null}
    </section>
  );
}
