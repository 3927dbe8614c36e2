import type { FulfillmentStatus, Order, OrderPaymentStatus, Price } from '@cartwheel/sdk';

/** The payment statuses a merchant filters by, in the words the back office shows. */
export const PAYMENT_LABELS: Partial<Record<OrderPaymentStatus, string>> = {
  PAID: 'Paid',
  PENDING: 'Awaiting capture',
  NOT_PAID: 'Not paid',
  PARTIALLY_PAID: 'Partially paid',
  PARTIALLY_REFUNDED: 'Partially refunded',
  FULLY_REFUNDED: 'Refunded',
  CANCELED: 'Voided',
  DECLINED: 'Declined',
};

export const FULFILLMENT_LABELS: Partial<Record<FulfillmentStatus, string>> = {
  NOT_FULFILLED: 'Not fulfilled',
  PARTIALLY_FULFILLED: 'Partially fulfilled',
  FULFILLED: 'Fulfilled',
  CANCELED: 'Canceled',
};

export function paymentLabel(order: Order): string {
  return (order.paymentStatus && PAYMENT_LABELS[order.paymentStatus]) ?? order.paymentStatus ?? '—';
}

export function fulfillmentLabel(order: Order): string {
  if (order.status === 'CANCELED') return 'Canceled';
  return (
    (order.fulfillmentStatus && FULFILLMENT_LABELS[order.fulfillmentStatus]) ?? order.fulfillmentStatus ?? '—'
  );
}

export function money(price: Price | undefined): string {
  return price?.formattedAmount || price?.amount || '—';
}

/** The billing contact's name, or '' when the buyer gave none. */
export function contactName(order: Order): string {
  const contact = order.billingInfo?.contactDetails;
  return [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
}

export function buyerName(order: Order): string {
  return contactName(order) || order.buyerInfo?.email || 'Guest';
}

export function orderDate(date: Date | string | undefined): string {
  if (!date) return '—';
  return new Date(date).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
