import { useLoggedIn, useOrder } from '@cartwheel/react';
import { HttpError } from '@cartwheel/sdk';
import { Link, Navigate, useParams } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { ErrorMessage, Loading, NotFound } from '../components/Status.tsx';
import { OrderSummary, orderDate, orderStatusLabel } from './OrderSummary.tsx';

/** `/account/orders/:id`: one of the signed-in member's orders. */
export function OrderPage() {
  const { id } = useParams();
  useDocumentTitle('Your order');
  const loggedIn = useLoggedIn();
  const order = useOrder(loggedIn ? id : undefined);

  if (!loggedIn) {
    return (
      <Navigate to={`/account/sign-in?returnTo=${encodeURIComponent(`/account/orders/${id}`)}`} replace />
    );
  }
  if (order.isPending) return <Loading label="Loading your order…" />;
  if (order.isError) {
    if (order.error instanceof HttpError && [403, 404].includes(order.error.status)) {
      return (
        <NotFound title="We couldn't find that order">
          <p>It may belong to another account.</p>
        </NotFound>
      );
    }
    return <ErrorMessage what="your order" error={order.error} retry={() => order.refetch()} />;
  }
  return (
    <section className="order-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/account">Your account</Link> <span aria-hidden="true">/</span>{' '}
        <span aria-current="page">Order #{order.data.number}</span>
      </nav>
      <h1>Order #{order.data.number}</h1>
      <p className="order-page__lead">
        Placed {orderDate(order.data.createdDate)} ·{' '}
        <span data-testid="order-status">{orderStatusLabel(order.data)}</span>
      </p>
      <OrderSummary order={order.data} />
    </section>
  );
}
