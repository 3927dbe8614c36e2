import { useOrder } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { useStoreName } from '../config.ts';
import { AddressBlock } from './AddressBlock.tsx';
import { useLinesToShip } from './shipping.ts';
import './orders.css';

/**
 * `/admin/orders/:id/packing-slip`: what goes in the box, to print: the store, the order's number and
 * date, where it ships, and each line still to ship with its SKU and options. No prices: the slip
 * travels with the parcel. The print style shows the slip alone.
 */
export function PackingSlipPage() {
  const { id } = useParams();
  const order = useOrder(id);

  useEffect(() => {
    document.title = `Packing slip${order.data?.number ? ` for order #${order.data.number}` : ''} · Cartwheel back office`;
  }, [order.data?.number]);

  if (order.isError)
    return <ErrorNotice what="this order" error={order.error} retry={() => order.refetch()} />;
  if (order.isPending) return <p role="status">Loading the order…</p>;
  return <PackingSlip order={order.data} refreshOrder={order.refetch} />;
}

function PackingSlip({ order, refreshOrder }: { order: Order; refreshOrder: () => Promise<unknown> }) {
  const storeName = useStoreName();
  const toShip = useLinesToShip(order);
  // what is in the box must be what is left now, not what this tab read before: read it again first
  const [fresh, setFresh] = useState(false);
  const { refresh } = toShip;
  const lines = toShip.lines.filter((entry) => entry.left > 0);
  const logistics = order.shippingInfo?.logistics;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the slip opens
  useEffect(() => {
    void Promise.all([refreshOrder(), refresh()]).finally(() => setFresh(true));
  }, []);

  return (
    <article className="packing-slip" aria-labelledby="slip-title">
      <p className="no-print">
        <Link to={`/orders/${encodeURIComponent(order.id ?? '')}`}>← Order #{order.number}</Link>
      </p>
      <div className="packing-slip__head">
        <div>
          <p className="packing-slip__store" data-testid="slip-store">
            {storeName ?? ' '}
          </p>
          <h1 id="slip-title">Packing slip · Order #{order.number}</h1>
          <p data-testid="slip-date">
            Ordered{' '}
            {order.createdDate
              ? new Date(order.createdDate).toLocaleDateString(undefined, { dateStyle: 'long' })
              : '—'}
          </p>
        </div>
        <button className="button button--primary no-print" type="button" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <section aria-labelledby="slip-ship-to">
        <h2 id="slip-ship-to">Ship to</h2>
        {logistics?.pickupDetails ? (
          <>
            <p>Picked up by the buyer at:</p>
            <AddressBlock value={{ address: logistics.pickupDetails.address }} />
          </>
        ) : (
          <AddressBlock value={logistics?.shippingDestination} testId="slip-ship-address" />
        )}
        {order.shippingInfo?.title ? <p className="muted">{order.shippingInfo.title}</p> : null}
      </section>
      <section aria-labelledby="slip-items">
        <h2 id="slip-items">Items</h2>
        {toShip.error ? (
          <p className="form-alert" role="alert">
            We couldn't read what was shipped already: {toShip.error.message}
          </p>
        ) : toShip.isPending || !fresh ? (
          <p role="status">Working out what is left to ship…</p>
        ) : lines.length === 0 ? (
          <p data-testid="slip-nothing">Nothing is left to ship on this order.</p>
        ) : (
          <table className="table packing-slip__lines">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">SKU</th>
                <th scope="col">Quantity</th>
              </tr>
            </thead>
            <tbody>
              {lines.map(({ line, left }) => (
                <tr key={line.id} data-testid="slip-line">
                  <td>
                    {line.productName?.original}
                    {line.descriptionLines?.map((description) => (
                      <span key={description.name?.original} className="cell__second">
                        {description.name?.original}:{' '}
                        {description.colorInfo?.original ?? description.plainText?.original}
                      </span>
                    ))}
                  </td>
                  <td>{line.physicalProperties?.sku || '—'}</td>
                  <td data-testid="slip-quantity">{left}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </article>
  );
}
