import { Field, SelectField } from '@cartwheel/design';
import { useCreateFulfillment, useDeleteFulfillment, useUpdateFulfillment } from '@cartwheel/react';
import type { Fulfillment, Order } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useNotice } from '../components/notices.tsx';
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

/** A carrier's name as the merchant knows it: one of `CARRIERS`, or the name given. */
const carrierName = (provider: string | null | undefined) => CARRIERS[provider ?? ''] ?? provider ?? '';

/**
 * The order's shipments with their tracking, each one's tracking editable and each deletable (its items
 * are to ship again), and a form to ship what is left, in parts: a quantity per line (what is left by
 * default), a carrier and a tracking number. The form starts fresh after each shipment. The order's
 * status follows.
 */
export function Fulfillments({ order }: { order: Order }) {
  const { fulfillments, lines } = useLinesToShip(order);
  const create = useCreateFulfillment();
  const id = useId();
  const [done, setDone] = useNotice();
  const canFulfil = useCan('fulfillments.manage');
  const anythingLeft = lines.some((entry) => entry.left > 0);
  const productName = (lineId: string | undefined) =>
    order.lineItems?.find((line) => line.id === lineId)?.productName?.original ?? 'An item';
  const describe = (fulfillment: Fulfillment) =>
    fulfillment.lineItems?.map((line) => `${line.quantity} × ${productName(line.id)}`).join(', ') ?? '';
  // a new form after each change to the shipments: no tracking number of the last parcel, what is left
  const shipmentsSeen = fulfillments.data?.map((fulfillment) => fulfillment.id).join() ?? '';

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
          {fulfillments.data.map((fulfillment, index) => (
            <li key={fulfillment.id} data-testid="fulfillment">
              {describe(fulfillment)}
              {fulfillment.trackingInfo?.trackingNumber ? (
                <span className="cell__second">
                  {carrierName(fulfillment.trackingInfo.shippingProvider)}{' '}
                  {fulfillment.trackingInfo.trackingLink ? (
                    <a href={fulfillment.trackingInfo.trackingLink} target="_blank" rel="noreferrer">
                      {fulfillment.trackingInfo.trackingNumber}
                    </a>
                  ) : (
                    fulfillment.trackingInfo.trackingNumber
                  )}
                </span>
              ) : null}
              {canFulfil && order.status !== 'CANCELED' ? (
                <span className="shipment__actions">
                  <EditTracking
                    orderId={order.id ?? ''}
                    fulfillment={fulfillment}
                    shipment={`shipment ${index + 1} (${describe(fulfillment)})`}
                    onDone={setDone}
                  />
                  <DeleteShipment
                    orderId={order.id ?? ''}
                    fulfillment={fulfillment}
                    shipment={`shipment ${index + 1} (${describe(fulfillment)})`}
                    onDone={setDone}
                  />
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing shipped yet.</p>
      )}
      {order.status === 'APPROVED' && anythingLeft && canFulfil ? (
        <form key={shipmentsSeen} className="fulfil-form" onSubmit={submit}>
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

/** The shipment's carrier and tracking number, changed after the merchant confirms. */
function EditTracking(props: {
  orderId: string;
  fulfillment: Fulfillment;
  shipment: string;
  onDone(text: string): void;
}) {
  const update = useUpdateFulfillment();
  const tracking = props.fulfillment.trackingInfo;
  const [open, setOpen] = useState(false);
  const [carrier, setCarrier] = useState(tracking?.shippingProvider ?? 'usps');
  const [number, setNumber] = useState(tracking?.trackingNumber ?? '');

  async function save() {
    const trackingNumber = number.trim();
    if (!trackingNumber) return;
    try {
      await update.mutateAsync({
        orderId: props.orderId,
        fulfillmentId: props.fulfillment.id ?? '',
        fulfillment: { trackingInfo: { trackingNumber, shippingProvider: carrier } },
      });
      setOpen(false);
      props.onDone(`The tracking of ${props.shipment} is now ${carrierName(carrier)} ${trackingNumber}.`);
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          update.reset();
          setCarrier(tracking?.shippingProvider ?? 'usps');
          setNumber(tracking?.trackingNumber ?? '');
        }
      }}
      trigger={
        <button
          className="button button--quiet"
          type="button"
          aria-label={`Edit tracking of ${props.shipment}`}
        >
          Edit tracking
        </button>
      }
      title="Edit the tracking"
      description={`Of ${props.shipment}. The buyer is not emailed again.`}
      confirm="Save tracking"
      busy={update.isPending || !number.trim()}
      error={update.isError ? `The tracking was not changed: ${update.error.message}` : undefined}
      onConfirm={save}
    >
      <SelectField label="Carrier" value={carrier} onChange={(event) => setCarrier(event.target.value)}>
        {Object.entries(CARRIERS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
        {carrier in CARRIERS ? null : <option value={carrier}>{carrier}</option>}
      </SelectField>
      <Field
        label="Tracking number"
        value={number}
        maxLength={100}
        autoComplete="off"
        onChange={(event) => setNumber(event.target.value)}
      />
    </ConfirmDialog>
  );
}

/** Deletes the shipment after the merchant confirms: its items are to ship again (and the order may be canceled). */
function DeleteShipment(props: {
  orderId: string;
  fulfillment: Fulfillment;
  shipment: string;
  onDone(text: string): void;
}) {
  const remove = useDeleteFulfillment();
  const [open, setOpen] = useState(false);

  async function confirm() {
    try {
      await remove.mutateAsync({ orderId: props.orderId, fulfillmentId: props.fulfillment.id ?? '' });
      setOpen(false);
      props.onDone(`Deleted ${props.shipment}: its items are to ship again.`);
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) remove.reset();
      }}
      trigger={
        <button className="button button--quiet" type="button" aria-label={`Delete ${props.shipment}`}>
          Delete
        </button>
      }
      title={`Delete ${props.shipment}?`}
      description="Its items count as not shipped again, and the order's status follows. Nothing is sent to the buyer."
      confirm="Delete shipment"
      busy={remove.isPending}
      error={remove.isError ? `The shipment was not deleted: ${remove.error.message}` : undefined}
      onConfirm={confirm}
    />
  );
}
