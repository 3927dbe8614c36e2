import type { Filter, OrderSearch } from '@cartwheel/sdk';

/** What the orders table is showing, as it is kept in the page's address (so a view can be shared). */
export interface OrdersView {
  /** An order number, or a buyer's email. */
  q: string;
  payment: string;
  fulfillment: string;
  /** Newest or oldest first. */
  order: 'DESC' | 'ASC';
}

export const PAGE_SIZE = 50;

export function viewOf(params: URLSearchParams): OrdersView {
  return {
    q: params.get('q')?.trim() ?? '',
    payment: params.get('payment') ?? '',
    fulfillment: params.get('fulfillment') ?? '',
    order: params.get('order') === 'ASC' ? 'ASC' : 'DESC',
  };
}

/**
 * The hosted platform's search for a view: a number (with or without `#`) finds that order, an email
 * the orders bought with it (the platform keeps emails in lower case); the statuses narrow the rest.
 */
export function searchOf(view: OrdersView, cursor?: string): OrderSearch {
  // a cursor carries its search's filter and sort; the hosted platform wants it alone
  if (cursor) return { cursorPaging: { limit: PAGE_SIZE, cursor } };
  const parts: Filter[] = [];
  const number = /^#?(\d+)$/.exec(view.q);
  if (number) parts.push({ number: { $eq: Number(number[1]) } });
  else if (view.q) parts.push({ 'buyerInfo.email': { $eq: view.q.toLowerCase() } });
  if (view.payment) parts.push({ paymentStatus: { $eq: view.payment } });
  if (view.fulfillment) parts.push({ fulfillmentStatus: { $eq: view.fulfillment } });
  const filter = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { $and: parts };
  return {
    ...(filter ? { filter } : {}),
    sort: [{ fieldName: 'createdDate', order: view.order }],
    cursorPaging: { limit: PAGE_SIZE },
  };
}
