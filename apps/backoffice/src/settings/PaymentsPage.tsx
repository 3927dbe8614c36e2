import { Field, type RadioChoice, RadioGroupField, SubmitButton } from '@cartwheel/design';
import { usePaymentSettings, useReconciliation, useUpdatePaymentSettings } from '@cartwheel/react';
import type { CaptureMode, ReconciledSide, ReconciliationDifferenceKind } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ChangeError, Notice, placeViolations, SettingsObjectPage } from './common.tsx';

const CAPTURE_MODES: ReadonlyArray<RadioChoice<CaptureMode>> = [
  { value: 'IMMEDIATE', label: 'Capture the payment at once' },
  { value: 'AUTHORIZE_ONLY', label: 'Authorize only (capture it later from the order)' },
];

/**
 * Payments: whether a paid checkout is captured at once or only authorized, to be captured from the
 * order; and a check of the store's payments against the provider's own records.
 */
export function PaymentsPage() {
  return (
    <SettingsObjectPage heading="Payments" query={usePaymentSettings()} what="the payment settings">
      {(settings) => (
        <>
          <CaptureForm capture={settings.capture} />
          <ReconcilePanel />
        </>
      )}
    </SettingsObjectPage>
  );
}

const DIFFERENCES: Record<ReconciliationDifferenceKind, string> = {
  NOT_IN_CARTWHEEL: 'Taken by the provider, no order here',
  NOT_AT_PROVIDER: 'Paid here, unknown to the provider',
  AMOUNT_DIFFERS: 'Amounts differ',
  STATE_DIFFERS: 'Captured or released at one side only',
  CAPTURED_DIFFERS: 'Captured amounts differ',
  REFUNDED_DIFFERS: 'Refunded amounts differ',
};
const STATES: Record<ReconciledSide['state'], string> = {
  AUTHORIZED: 'authorized',
  CAPTURED: 'captured',
  CANCELED: 'released',
  PENDING: 'awaiting the bank',
};

const counted = (count: number, thing: string) => `${count} ${thing}${count === 1 ? '' : 's'}`;

/** `YYYY-MM-DD` of today moved by `days`, as a date input holds it. */
const dayInput = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The store's payments beside the provider's records of a period, and every difference, for the merchant to act on. */
function ReconcilePanel() {
  const [period, setPeriod] = useState<{ from: string; to: string }>();
  const { register, handleSubmit } = useForm({ defaultValues: { from: dayInput(-7), to: dayInput(1) } });
  const check = useReconciliation(period);
  const submit = handleSubmit((values) =>
    setPeriod({ from: new Date(values.from).toISOString(), to: new Date(values.to).toISOString() }),
  );
  const found = check.data;
  const side = (money: ReconciledSide | null) =>
    money
      ? `${money.amount} ${money.currency}, ${STATES[money.state]}${
          Number(money.refundedAmount) > 0 ? `, ${money.refundedAmount} refunded` : ''
        }`
      : '—';
  return (
    <section className="panel" aria-labelledby="reconcile-heading">
      <h2 id="reconcile-heading">Check payments against the provider</h2>
      <p className="muted">
        Compares this store's payments with the payment provider's own records: money taken with no order,
        orders the provider never took money for, and payments captured or released outside the store.
      </p>
      <form className="form__row" onSubmit={submit} noValidate>
        <Field label="From" type="date" {...register('from')} />
        <Field label="Until (not included)" type="date" {...register('to')} />
        <SubmitButton pending={check.isFetching} pendingText="Checking…">
          Check payments
        </SubmitButton>
      </form>
      {check.isError ? (
        <ErrorNotice what="the check" error={check.error} retry={() => check.refetch()} />
      ) : null}
      {found ? (
        <div role="status">
          <p>
            {found.providers
              .map((provider) =>
                provider.compared
                  ? `${provider.providerId}: ${counted(provider.payments, 'payment')}, ${counted(provider.charges, 'charge')}`
                  : `${provider.providerId}: cannot list its charges, not compared`,
              )
              .join('; ')}
            .
          </p>
          <p>
            {found.differences.length === 0
              ? 'No differences: the books agree.'
              : `${found.differences.length} ${found.differences.length === 1 ? 'difference' : 'differences'}.`}
          </p>
        </div>
      ) : null}
      {found?.differences.length ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Differences between the store and the provider</caption>
            <thead>
              <tr>
                <th scope="col">Difference</th>
                <th scope="col">Order</th>
                <th scope="col">Transaction</th>
                <th scope="col">Here</th>
                <th scope="col">At the provider</th>
              </tr>
            </thead>
            <tbody>
              {found.differences.map((difference) => (
                <tr key={`${difference.providerId} ${difference.transactionId} ${difference.kind}`}>
                  <td>{DIFFERENCES[difference.kind]}</td>
                  <td>
                    {difference.orderId ? (
                      <Link to={`/orders/${difference.orderId}`}>Open the order</Link>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    <code>{difference.transactionId}</code>
                  </td>
                  <td>{side(difference.cartwheel)}</td>
                  <td>{side(difference.provider)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function CaptureForm({ capture }: { capture: CaptureMode }) {
  const update = useUpdatePaymentSettings();
  const [saved, setSaved] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<{ capture: CaptureMode }>({
    defaultValues: { capture },
  });
  const submit = handleSubmit(async (values) => {
    setSaved(undefined);
    try {
      const answer = await update.mutateAsync(values);
      reset(answer);
      setSaved(
        answer.capture === 'AUTHORIZE_ONLY'
          ? 'Saved: new orders are only authorized; capture them from the order.'
          : 'Saved: new orders are captured at once.',
      );
    } catch (error) {
      placeViolations(error, ['capture'], (_field, message) => setError('capture', { message }));
    }
  });
  return (
    <form className="panel" onSubmit={submit} noValidate>
      <Notice>{saved}</Notice>
      <ChangeError error={update.error} what="Saving" />
      <RadioGroupField
        legend="When a buyer pays"
        options={CAPTURE_MODES}
        error={formState.errors.capture?.message}
        announce
        {...register('capture')}
      />
      <SubmitButton pending={update.isPending} pendingText="Saving…">
        Save payment settings
      </SubmitButton>
    </form>
  );
}
