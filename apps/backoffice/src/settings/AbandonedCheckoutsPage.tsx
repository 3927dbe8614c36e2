import { useAbandonedCheckouts } from '@cartwheel/react';
import type { StoreAbandonedCheckout } from '@cartwheel/sdk';
import { useState } from 'react';
import { formatDate, RecordList } from './common.tsx';

const PERIODS = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 0, label: 'All time' },
] as const;

/** What a period's abandoned checkouts were worth, and how many of them (and how much) came back. */
export function recoveryOf(checkouts: readonly StoreAbandonedCheckout[]) {
  const cents = (checkout: StoreAbandonedCheckout) => Math.round(Number(checkout.totalPrice.amount) * 100);
  const recovered = checkouts.filter((checkout) => checkout.status === 'RECOVERED');
  return {
    count: checkouts.length,
    value: checkouts.reduce((sum, checkout) => sum + cents(checkout), 0) / 100,
    recovered: recovered.length,
    recoveredValue: recovered.reduce((sum, checkout) => sum + cents(checkout), 0) / 100,
    rate: checkouts.length === 0 ? 0 : recovered.length / checkouts.length,
  };
}

/** Abandoned checkouts over a period: each buyer, value and status, and the period's recovery rate. */
export function AbandonedCheckoutsPage() {
  const checkouts = useAbandonedCheckouts();
  const [days, setDays] = useState<number>(30);
  const since = days === 0 ? 0 : Date.now() - days * 24 * 60 * 60 * 1000;
  const inPeriod = (checkouts.data ?? []).filter((checkout) => Date.parse(checkout.createdDate) >= since);
  const summary = recoveryOf(inPeriod);
  const currency = inPeriod[0]?.currency ?? '';
  return (
    <>
      <h1>Abandoned checkouts</h1>
      <p>
        <label>
          Period{' '}
          <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
            {PERIODS.map((period) => (
              <option key={period.days} value={period.days}>
                {period.label}
              </option>
            ))}
          </select>
        </label>
      </p>
      <dl className="panel" data-testid="abandoned-summary">
        <dt>Abandoned</dt>
        <dd>
          {summary.count} worth {summary.value.toFixed(2)} {currency}
        </dd>
        <dt>Recovered</dt>
        <dd>
          {summary.recovered} worth {summary.recoveredValue.toFixed(2)} {currency}
        </dd>
        <dt>Recovery rate</dt>
        <dd>{Math.round(summary.rate * 100)}%</dd>
      </dl>
      <RecordList
        title="Checkouts"
        query={{ ...checkouts, data: checkouts.data ? inPeriod : undefined }}
        what="the abandoned checkouts"
        empty="No abandoned checkouts in this period: a checkout with a buyer email left unfinished for an hour shows here."
        nameHeader="Buyer"
        nameOf={(checkout) => checkout.buyerInfo.email}
        columns={[
          {
            header: 'Value',
            cell: (checkout) =>
              checkout.totalPrice.formattedAmount ?? `${checkout.totalPrice.amount} ${checkout.currency}`,
          },
          { header: 'Abandoned', cell: (checkout) => formatDate(checkout.createdDate) },
          {
            header: 'Reminder',
            cell: (checkout) =>
              checkout.activities.some((activity) => activity.type === 'EMAIL_SENT')
                ? 'Emailed'
                : 'Unsubscribed',
          },
          {
            header: 'Status',
            cell: (checkout) =>
              checkout.status === 'RECOVERED'
                ? `Recovered ${formatDate(checkout.checkoutRecoveredDate ?? null)}`
                : 'Abandoned',
          },
        ]}
      />
    </>
  );
}
