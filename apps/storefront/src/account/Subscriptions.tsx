import {
  useCancelSubscriptionContract,
  useMySubscriptionContracts,
  usePauseSubscriptionContract,
  useResumeSubscriptionContract,
} from '@cartwheel/react';
import type { SubscriptionContract } from '@cartwheel/sdk';
import { money } from '../cart/PriceSummaryList.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { orderDate } from '../orders/OrderSummary.tsx';
import { unexpectedFailureMessage } from './messages.ts';

const STATUS_LABELS: Record<string, string> = {
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  CANCELED: 'Canceled',
  ENDED: 'Ended',
  PAYMENT_FAILED: 'Payment failed',
};

/** How often a contract renews, in words: "Every day", "Every 2 weeks". */
function everyLabel(contract: SubscriptionContract): string {
  const settings = contract.subscriptionSettings;
  const unit = (settings?.frequency ?? 'MONTH').toLowerCase();
  const interval = settings?.interval ?? 1;
  return interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}s`;
}

/** The account page's subscriptions: each with what it sends, how often, its next order, and its controls. */
export function Subscriptions() {
  const contracts = useMySubscriptionContracts({ cursorPaging: { limit: 50 } });
  const pause = usePauseSubscriptionContract();
  const resume = useResumeSubscriptionContract();
  const cancel = useCancelSubscriptionContract();
  const failure = pause.error ?? resume.error ?? cancel.error;
  const busy = pause.isPending || resume.isPending || cancel.isPending;

  if (contracts.isPending) return <Loading label="Loading your subscriptions…" />;
  if (contracts.isError)
    return (
      <ErrorMessage what="your subscriptions" error={contracts.error} retry={() => contracts.refetch()} />
    );
  const list = contracts.data.subscriptionContracts ?? [];
  if (list.length === 0) return null;
  return (
    <section className="account-section" aria-labelledby="subscriptions-title">
      <h2 id="subscriptions-title">Your subscriptions</h2>
      {failure ? (
        <p role="alert" className="form-alert">
          {unexpectedFailureMessage(failure)}
        </p>
      ) : null}
      <ul className="subscription-list">
        {list.map((contract) => {
          const name = contract.lineItems?.[0]?.productName?.original ?? contract.title ?? 'Subscription';
          const label = `${name}, ${everyLabel(contract).toLowerCase()}`;
          return (
            <li key={contract.id} data-testid="subscription" aria-label={label}>
              <p>
                <strong>{name}</strong> — {contract.title}: {everyLabel(contract)},{' '}
                {money(contract.priceSummary?.total)}
              </p>
              <p>
                Status:{' '}
                <span data-testid="subscription-status">
                  {STATUS_LABELS[contract.status ?? ''] ?? contract.status}
                </span>
                {contract.nextBillingDate && contract.status === 'ACTIVE'
                  ? ` · next order ${orderDate(contract.nextBillingDate)}`
                  : ''}
              </p>
              <div className="subscription-actions">
                {contract.status === 'ACTIVE' ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={busy}
                    onClick={() => pause.mutate(contract.id as string)}
                  >
                    Pause
                  </button>
                ) : null}
                {contract.status === 'PAUSED' ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={busy}
                    onClick={() => resume.mutate(contract.id as string)}
                  >
                    Resume
                  </button>
                ) : null}
                {contract.status === 'ACTIVE' || contract.status === 'PAUSED' ? (
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={busy}
                    onClick={() => {
                      if (window.confirm(`Cancel ${name}? No more orders will be made.`))
                        cancel.mutate(contract.id as string);
                    }}
                  >
                    Cancel subscription
                  </button>
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
