import { CheckboxField, Field } from '@cartwheel/design';
import {
  useCapturePayments,
  useOrderRefundability,
  useOrderTransactions,
  useRefundPayments,
  useRefundPreview,
  useVoidPayments,
} from '@cartwheel/react';
import type { Order, Payment, PaymentRefund, RefundItems } from '@cartwheel/sdk';
import { useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useConfirmationFocus } from '../components/confirmation-focus.ts';
import { useNotice } from '../components/notices.tsx';
import { useCan } from '../staff-session.ts';
import { money } from './labels.ts';

const PAYMENT_STATUS: Record<string, string> = {
  AUTHORIZED: 'Authorized, not captured',
  APPROVED: 'Captured',
  VOIDED: 'Voided',
  REFUNDED: 'Refunded',
  PARTIALLY_REFUNDED: 'Partly refunded',
  PENDING: 'Pending',
  DECLINED: 'Declined',
  CANCELED: 'Canceled',
};

const cents = (amount: string | undefined) => Math.round(Number(amount ?? 0) * 100);
const decimal = (value: number) => (value / 100).toFixed(2);

function methodOf(payment: Payment): string {
  const details = payment.regularPaymentDetails;
  const card = details?.creditCardDetails;
  if (card?.lastFourDigits) return `${card.brand ?? 'Card'} •••• ${card.lastFourDigits}`;
  return details?.paymentMethod ?? (payment.giftcardPaymentDetails ? 'Gift card' : 'Payment');
}

/**
 * The order's money: each payment with its status, capture (in full or part) and void of an
 * authorization, the refunds made, and a refund whose amount is previewed by the platform before
 * anything moves (lines and quantities, shipping, restock, the buyer's email), split over the payments
 * that can still give money back.
 */
export function Payments({ order }: { order: Order }) {
  const orderId = order.id ?? '';
  const transactions = useOrderTransactions(orderId);
  const capture = useCapturePayments();
  const voiding = useVoidPayments();
  const [done, setDone] = useNotice();
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  // the payment whose capture is being confirmed
  const [confirming, setConfirming] = useState<string>();
  const id = useId();
  const focus = useConfirmationFocus(done);
  const payments = transactions.data?.payments ?? [];
  const canCapture = useCan('orders.capture');
  const canVoid = useCan('orders.void');
  const canRefund = useCan('orders.refund');

  async function captureOne(payment: Payment) {
    setDone(undefined);
    const amount = amounts[payment.id ?? ''] ?? payment.amount?.amount ?? '';
    focus.confirm();
    try {
      await capture.mutateAsync({
        orderId,
        payments: [{ paymentId: payment.id ?? '', amount: { amount } }],
      });
      setConfirming(undefined);
      setDone(`Captured ${amount} of ${methodOf(payment)}.`);
    } catch {
      // shown in the dialog, which stays open
      focus.reset();
    }
  }

  async function voidOne(payment: Payment) {
    setDone(undefined);
    try {
      await voiding.mutateAsync({ orderId, paymentIds: [payment.id ?? ''] });
      setDone(`The authorization on ${methodOf(payment)} was voided: nothing was taken.`);
    } catch {
      // shown below
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Payments</h2>
      {done ? (
        <p className="notice" role="status" tabIndex={-1} ref={focus.notice}>
          {done}
        </p>
      ) : null}
      {voiding.error ? (
        <p className="form-alert" role="alert">
          Nothing moved: {voiding.error.message}
        </p>
      ) : null}
      {transactions.isPending ? (
        <p className="muted">Loading payments…</p>
      ) : payments.length === 0 ? (
        <p className="muted">No payments.</p>
      ) : (
        <ul className="payments">
          {payments.map((payment) => (
            <li key={payment.id} data-testid="payment">
              <span>
                {methodOf(payment)} · {money(payment.amount)} ·{' '}
                <span className="badge">{PAYMENT_STATUS[payment.status ?? ''] ?? payment.status}</span>
              </span>
              {payment.status === 'AUTHORIZED' && order.status !== 'CANCELED' && (canCapture || canVoid) ? (
                <span className="payment__actions">
                  {canCapture ? (
                    <Field
                      compact
                      label="Amount to capture"
                      inputMode="decimal"
                      value={amounts[payment.id ?? ''] ?? payment.amount?.amount ?? ''}
                      onChange={(event) =>
                        setAmounts((before) => ({ ...before, [payment.id ?? '']: event.target.value }))
                      }
                    />
                  ) : null}
                  {canCapture ? (
                    <ConfirmDialog
                      open={confirming === payment.id}
                      onOpenChange={(open) => {
                        setConfirming(open ? (payment.id ?? undefined) : undefined);
                        if (open) {
                          capture.reset();
                          focus.reset();
                        }
                      }}
                      trigger={
                        <button
                          className="button button--primary"
                          type="button"
                          disabled={capture.isPending || voiding.isPending}
                        >
                          Capture
                        </button>
                      }
                      title={`Capture ${amounts[payment.id ?? ''] ?? payment.amount?.amount ?? ''} from ${methodOf(payment)}?`}
                      description={
                        cents(amounts[payment.id ?? ''] ?? payment.amount?.amount) <
                        cents(payment.amount?.amount)
                          ? `The buyer is charged this much; the rest of the ${money(payment.amount)} authorized is released.`
                          : 'The buyer is charged the amount authorized.'
                      }
                      confirm="Capture payment"
                      busy={capture.isPending}
                      error={capture.isError ? `Nothing was captured: ${capture.error.message}` : undefined}
                      onConfirm={() => captureOne(payment)}
                      onCloseAutoFocus={focus.onCloseAutoFocus}
                    />
                  ) : null}
                  {canVoid ? (
                    <button
                      className="button"
                      type="button"
                      disabled={capture.isPending || voiding.isPending}
                      onClick={() => voidOne(payment)}
                    >
                      Void
                    </button>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {transactions.data?.refunds?.length ? (
        <>
          <h3>Refunds</h3>
          <ul className="payments">
            {transactions.data.refunds.map((refund) => (
              <li key={refund.id} data-testid="refund">
                {money(refund.summary?.refunded ?? refund.summary?.requestedRefund)}
                {refund.summary?.pending ? ' (pending)' : ''}
                {refund.details?.reason ? ` · ${refund.details.reason}` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {canRefund ? <RefundForm order={order} /> : null}
    </section>
  );
}

/** Lines and shipping to refund, previewed to the cent by the platform, then refunded on confirmation. */
function RefundForm({ order }: { order: Order }) {
  const orderId = order.id ?? '';
  const refundability = useOrderRefundability(orderId);
  const refund = useRefundPayments();
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [restock, setRestock] = useState<Record<string, boolean>>({});
  const [shipping, setShipping] = useState(false);
  const [notify, setNotify] = useState(true);
  const [done, setDone] = useNotice();
  const id = useId();

  const lines = (refundability.data?.lineItems ?? []).filter(
    (line) => (line.availableRefundQuantity ?? 0) > 0,
  );
  const shippingLeft = cents(refundability.data?.shipping?.availableRefundAmount?.amount);
  const refundable = (refundability.data?.payments ?? []).filter(
    (payment) => payment.refundable && cents(payment.payment?.monetary?.maxRefund?.amount) > 0,
  );
  const blocked = (refundability.data?.payments ?? []).filter((payment) => payment.nonRefundable);
  const lineItems = Object.entries(quantities)
    .filter(([, quantity]) => quantity > 0)
    .map(([lineItemId, quantity]) => ({ lineItemId, quantity }));
  const refundItems: RefundItems = { lineItems, ...(shipping ? { shipping: {} } : {}) };
  const anything = lineItems.length > 0 || shipping;
  const preview = useRefundPreview(orderId, refundItems, anything);
  const total =
    anything && preview.data?.available !== false ? cents(preview.data?.summary?.total?.amount) : 0;
  const name = (lineItemId: string | undefined) =>
    order.lineItems?.find((line) => line.id === lineItemId)?.productName?.original ?? 'An item';

  if (refundability.isPending || (lines.length === 0 && shippingLeft === 0)) return null;
  if (refundable.length === 0) {
    return (
      <p className="muted" data-testid="refund-unavailable">
        Nothing can be refunded now
        {blocked.length > 0 ? `: ${blocked.map((payment) => payment.nonRefundable?.reason).join(', ')}` : '.'}
      </p>
    );
  }

  async function submit() {
    setDone(undefined);
    // the preview's total, taken from each refundable payment in turn up to what it can give back
    let left = total;
    const paymentRefunds: PaymentRefund[] = [];
    for (const payment of refundable) {
      if (left <= 0) break;
      const take = Math.min(left, cents(payment.payment?.monetary?.maxRefund?.amount));
      paymentRefunds.push({
        paymentId: payment.payment?.paymentId ?? '',
        amount: { amount: decimal(take) },
        ...(payment.payment?.offlinePayment ? { externalRefund: true } : {}),
      });
      left -= take;
    }
    const restocked = lineItems.filter((line) => restock[line.lineItemId]);
    try {
      await refund.mutateAsync({
        orderId,
        paymentRefunds,
        refundItems,
        sideEffects: {
          ...(restocked.length > 0 ? { restock: { lineItems: restocked } } : {}),
          notifications: { sendCustomerEmail: notify },
        },
      });
      setDone(
        `Refunded ${money(preview.data?.summary?.total)}${restocked.length > 0 ? ', and the items put back in stock' : ''}.`,
      );
      setQuantities({});
      setRestock({});
      setShipping(false);
    } catch {
      // shown below; the choices stay
    }
  }

  return (
    <form
      className="refund-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id={`${id}-title`}>Refund</h3>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {lines.map((line) => (
        <div key={line.lineItemId} className="refund-line">
          <span>
            {name(line.lineItemId)}{' '}
            <span className="muted">({line.availableRefundQuantity} can be refunded)</span>
          </span>
          <Field
            compact
            hideLabel
            label={`Quantity of ${name(line.lineItemId)} to refund`}
            type="number"
            min={0}
            max={line.availableRefundQuantity}
            value={quantities[line.lineItemId ?? ''] ?? 0}
            onChange={(event) =>
              setQuantities((before) => ({
                ...before,
                [line.lineItemId ?? '']: Math.max(
                  0,
                  Math.min(line.availableRefundQuantity ?? 0, Math.floor(Number(event.target.value) || 0)),
                ),
              }))
            }
          />
          <CheckboxField
            label={`Put ${name(line.lineItemId)} back in stock`}
            checked={Boolean(restock[line.lineItemId ?? ''])}
            onChange={(event) =>
              setRestock((before) => ({ ...before, [line.lineItemId ?? '']: event.target.checked }))
            }
          />
        </div>
      ))}
      {shippingLeft > 0 ? (
        <CheckboxField
          label={`Refund shipping (${money(refundability.data?.shipping?.availableRefundAmount)})`}
          checked={shipping}
          onChange={(event) => setShipping(event.target.checked)}
        />
      ) : null}
      <CheckboxField
        label="Email the buyer about the refund"
        checked={notify}
        onChange={(event) => setNotify(event.target.checked)}
      />
      <p aria-live="polite" data-testid="refund-preview">
        {!anything
          ? 'Choose what to refund to see its amount.'
          : preview.data?.available === false
            ? `This cannot be refunded: ${preview.data.notAvailable?.errors?.[0]?.error?.applicationError?.description ?? 'not available'}`
            : preview.isFetching && !preview.data
              ? 'Working out the amount…'
              : `Refund total ${money(preview.data?.summary?.total)} (tax ${money(preview.data?.summary?.tax)})`}
      </p>
      {refund.isError ? (
        <p className="form-alert" role="alert">
          Nothing was refunded: {refund.error.message}
        </p>
      ) : null}
      <button
        className="button button--primary"
        type="submit"
        disabled={!anything || total <= 0 || preview.isFetching || refund.isPending}
      >
        {refund.isPending
          ? 'Refunding…'
          : total > 0
            ? `Refund ${money(preview.data?.summary?.total)}`
            : 'Refund'}
      </button>
    </form>
  );
}
