import { useMyOrders } from '@cartwheel/react';
import { useState } from 'react';
import { Link } from 'react-router';
import { money } from '../cart/PriceSummaryList.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { orderDate, orderStatusLabel } from './OrderSummary.tsx';
import './orders.css';

const PAGE_SIZE = 10;

/** The account page's order history: number, date, status and total, newest first, a page at a time. */
export function OrderHistory() {
  // the cursors of the pages before this one, so "Newer orders" can go back
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const orders = useMyOrders(cursor ? { limit: PAGE_SIZE, cursor } : { limit: PAGE_SIZE });
  const next = orders.data?.metadata.cursors.next;

  return (
    <section className="account-section order-history" aria-labelledby="order-history-title">
      <h2 id="order-history-title">Your orders</h2>
      {orders.isPending ? (
        <Loading label="Loading your orders…" />
      ) : orders.isError ? (
        <ErrorMessage what="your orders" error={orders.error} retry={() => orders.refetch()} />
      ) : orders.data.orders.length === 0 ? (
        <p>You haven't placed an order yet.</p>
      ) : (
        <>
          <table className="order-history__table" aria-busy={orders.isFetching}>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Status</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.orders.map((order) => (
                <tr key={order.id} data-testid="order-row">
                  <td>
                    <Link to={`/account/orders/${order.id}`}>#{order.number}</Link>
                  </td>
                  <td>{orderDate(order.createdDate)}</td>
                  <td>{orderStatusLabel(order)}</td>
                  <td>{money(order.priceSummary?.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {cursors.length || next ? (
            <div className="order-history__paging">
              <button
                type="button"
                className="button button--secondary"
                disabled={cursors.length === 0}
                onClick={() => setCursors(cursors.slice(0, -1))}
              >
                Newer orders
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={!next || orders.data.metadata.hasNext === false}
                onClick={() => next && setCursors([...cursors, next])}
              >
                Older orders
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
