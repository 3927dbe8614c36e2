import { useCartReplacedByOrder, useOrder } from '@cartwheel/react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { ErrorMessage, Loading, NotFound } from '../components/Status.tsx';
import { OrderSummary, orderDate } from './OrderSummary.tsx';

/**
 * `/thank-you?orderId=...`: where the hosted checkout page sends the buyer once the order is paid. The
 * order is read with the buyer's own token (visitor or member); the cart it came from is gone.
 */
export function ThankYouPage() {
  useDocumentTitle('Thank you');
  const [params] = useSearchParams();
  const orderId = params.get('orderId') ?? undefined;
  const order = useOrder(orderId);
  useCartReplacedByOrder(orderId);

  if (!orderId) {
    return (
      <NotFound title="No order to show">
        <p>This page shows an order once it is placed.</p>
      </NotFound>
    );
  }
  if (order.isPending) return <Loading label="Loading your order…" />;
  if (order.isError) {
    return <ErrorMessage what="your order" error={order.error} retry={() => order.refetch()} />;
  }
  return (
    <section className="order-page">
      <h1>Thank you for your order</h1>
      <p className="order-page__lead">
        Order <strong data-testid="order-number">#{order.data.number}</strong>
        {order.data.createdDate ? <>, placed {orderDate(order.data.createdDate)}</> : null}.
        {order.data.buyerInfo?.email ? ` We'll send updates to ${order.data.buyerInfo.email}.` : ''}
      </p>
      <OrderSummary order={order.data} />
      <p>
        <Link to="/products" className="button">
          Continue shopping
        </Link>
      </p>
    </section>
  );
}
