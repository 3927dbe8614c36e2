import { Field, SelectField } from '@cartwheel/design';
import { useCreateFulfillment } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { useCan } from '../staff-session.ts';
import { useLinesToShip } from './shipping.ts';

/** The carriers whose tracking link the platform fills in; any other name keeps the link given. */
const CARRIERS: Record<string, string> = {
  fedex: 'FedEx',
  ups: 'UPS',
  usps: 'USPS',
  dhl: 'DHL',
  canadaPost: 'Canada Post',
};

/**
 * The order's shipments with their tracking, and a form to ship what is left, in parts: a quantity per
 * line (what is left by default), a carrier and a tracking number. The order's status follows.
 */
export function Fulfillments({ order }: { order: Order }) {
  const { fulfillments, lines } = useLinesToShip(order);
  const create = useCreateFulfillment();
  const id = useId();
  const [done, setDone] = useState<string>();
  const canFulfil = useCan('fulfillments.manage');
  const anythingLeft = lines.some((entry) => entry.left > 0);
  const productName = (lineId: string | undefined) =>
    order.lineItems?.find((line) => line.id === lineId)?.productName?.original ?? 'An item';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(undefined);
    const form = new FormData(event.currentTarget);
    const lineItems = lines
      .map(({ line }) => ({ id: line.id ?? '', quantity: Number(form.get(`quantity-${line.id}`) || 0) }))
      .filter((line) => line.quantity > 0);
    if (lineItems.length === 0) return;
    const trackingNumber = String(form.get('trackingNumber') ?? '').trim();
    const shippingProvider = String(form.get('shippingProvider') ?? '');
    try {
      await create.mutateAsync({
        orderId: order.id ?? '',
        fulfillment: {
          lineItems,
          ...(trackingNumber ? { trackingInfo: { trackingNumber, shippingProvider } } : {}),
        },
      });
      setDone(`${lineItems.reduce((sum, line) => sum + line.quantity, 0)} item(s) marked as shipped.`);
    } catch {
      // shown below; what was typed stays
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Shipments</h2>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {fulfillments.data?.length ? (
        <ol className="shipments">
          {fulfillments.data.map((fulfillment) => (
            <li key={fulfillment.id} data-testid="fulfillment">
              {fulfillment.lineItems?.map((line) => `${line.quantity} × ${productName(line.id)}`).join(', ')}
              {fulfillment.trackingInfo?.trackingNumber ? (
                <span className="cell__second">
                  {CARRIERS[fulfillment.trackingInfo.shippingProvider ?? ''] ??
                    fulfillment.trackingInfo.shippingProvider}{' '}
                  {fulfillment.trackingInfo.trackingLink ? (
                    <a href={fulfillment.trackingInfo.trackingLink} target="_blank" rel="noreferrer">
                      {fulfillment.trackingInfo.trackingNumber}
                    </a>
                  ) : (
                    fulfillment.trackingInfo.trackingNumber
                  )}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing shipped yet.</p>
      )}
      {order.status === 'APPROVED' && anythingLeft && canFulfil ? (
        <form className="fulfil-form" onSubmit={submit}>
          <h3>Ship items</h3>
          {lines
            .filter((entry) => entry.left > 0)
            .map(({ line, left }) => (
              <div key={line.id} className="fulfil-line">
                <span>
                  {line.productName?.original} <span className="muted">({left} left to ship)</span>
                </span>
                <Field
                  compact
                  hideLabel
                  label={`Quantity of ${line.productName?.original} to ship`}
                  name={`quantity-${line.id}`}
                  type="number"
                  min={0}
                  max={left}
                  defaultValue={left}
                />
              </div>
            ))}
          <div className="field-row">
            <SelectField label="Carrier" name="shippingProvider" defaultValue="usps">
              {Object.entries(CARRIERS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
            <Field optional label="Tracking number" name="trackingNumber" maxLength={100} />
          </div>
          {create.isError ? (
            <p className="form-alert" role="alert">
              Nothing was marked as shipped: {create.error.message}
            </p>
          ) : null}
          <button className="button button--primary" type="submit" disabled={create.isPending}>
            {create.isPending ? 'Saving…' : 'Mark as shipped'}
          </button>
        </form>
      ) : null}
    </section>
  );
}
