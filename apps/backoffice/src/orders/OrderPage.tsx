import { useOrder } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { AddressBlock } from './AddressBlock.tsx';
import { AddressEditor } from './AddressEditor.tsx';
import { Fulfillments } from './Fulfillments.tsx';
import { contactName, fulfillmentLabel, money, orderDate, paymentLabel } from './labels.ts';
import { CancelOrder, OrderTagsEditor } from './OrderActions.tsx';
import { Payments } from './Payments.tsx';
import { Timeline } from './Timeline.tsx';
import './orders.css';

/** `/admin/orders/:id`: one order as it was sold: lines, buyer, addresses, totals and its timeline. */
export function OrderPage() {
  const { id } = useParams();
  const order = useOrder(id);

  useEffect(() => {
    document.title = `${order.data?.number ? `Order #${order.data.number}` : 'Order'} · Cartwheel back office`;
  }, [order.data?.number]);

  if (order.isError)
    return <ErrorNotice what="this order" error={order.error} retry={() => order.refetch()} />;
  if (order.isPending) return <p role="status">Loading the order…</p>;
  return <OrderDetails order={order.data} />;
}

function OrderDetails({ order }: { order: Order }) {
  const summary = order.priceSummary;
  return (
    <>
      <p>
        <Link to="/orders">← All orders</Link>
      </p>
      <h1>Order #{order.number}</h1>
      <p className="order-head">
        <span>{orderDate(order.createdDate)}</span>
        <span className="badge" data-testid="payment-status">
          {paymentLabel(order)}
        </span>
        <span className="badge" data-testid="fulfillment-status">
          {fulfillmentLabel(order)}
        </span>
        {order.status === 'CANCELED' ? (
          <span className="badge badge--danger" data-testid="order-status">
            Canceled
          </span>
        ) : null}
      </p>
      <div className="order-actions">
        <CancelOrder order={order} />
        <Link className="button" to={`/orders/${encodeURIComponent(order.id ?? '')}/packing-slip`}>
          Packing slip
        </Link>
      </div>

      <div className="order-grid">
        <section className="panel" aria-labelledby="lines-title">
          <h2 id="lines-title">Items</h2>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Price</th>
                <th scope="col">Quantity</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {order.lineItems?.map((line) => (
                <tr key={line.id} data-testid="order-line">
                  <td>
                    {line.productName?.original}
                    {line.descriptionLines?.map((description) => (
                      <span key={description.name?.original} className="muted cell__second">
                        {description.name?.original}:{' '}
                        {description.colorInfo?.original ?? description.plainText?.original}
                      </span>
                    ))}
                  </td>
                  <td>{money(line.price)}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.totalPriceAfterTax ?? line.lineItemPrice)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl className="totals">
            <dt>Subtotal</dt>
            <dd>{money(summary?.subtotal)}</dd>
            <dt>Shipping</dt>
            <dd>{money(summary?.shipping)}</dd>
            {Number(summary?.discount?.amount ?? 0) > 0 ? (
              <>
                <dt>Discount</dt>
                <dd>−{money(summary?.discount)}</dd>
              </>
            ) : null}
            <dt>Tax</dt>
            <dd>{money(summary?.tax)}</dd>
            <dt>Total</dt>
            <dd data-testid="order-total">{money(summary?.total)}</dd>
          </dl>
        </section>

        <section className="panel" aria-labelledby="buyer-title">
          <h2 id="buyer-title">Buyer</h2>
          <p>
            {contactName(order) ? (
              <>
                {contactName(order)}
                <br />
              </>
            ) : null}
            <a href={`mailto:${order.buyerInfo?.email ?? ''}`} data-testid="buyer-email">
              {order.buyerInfo?.email}
            </a>
            <br />
            {order.buyerInfo?.memberId ? (
              <Link to={`/members/${encodeURIComponent(order.buyerInfo.memberId)}`}>Member’s page</Link>
            ) : (
              <span className="muted">Guest</span>
            )}
          </p>
          <h3>Shipping</h3>
          {order.shippingInfo?.title ? <p>{order.shippingInfo.title}</p> : null}
          <AddressBlock
            value={order.shippingInfo?.logistics?.shippingDestination}
            testId="shipping-address"
          />
          <h3>Billing</h3>
          <AddressBlock value={order.billingInfo} testId="billing-address" />
          <AddressEditor order={order} />
        </section>
      </div>

      <Payments order={order} />

      <Fulfillments order={order} />

      <OrderTagsEditor order={order} />

      <Timeline order={order} />
    </>
  );
}
