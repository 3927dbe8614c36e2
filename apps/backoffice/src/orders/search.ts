import type { Filter, OrderSearch } from '@cartwheel/sdk';

/** Whether archived orders are listed: hidden unless the merchant asks. */
export type ArchivedChoice = '' | 'include' | 'only';

/** What the orders table is showing, as it is kept in the page's address (so a view can be shared). */
export interface OrdersView {
  /** An order number, a buyer's email, or the billing contact's first or last name. */
  q: string;
  payment: string;
  fulfillment: string;
  /** A tag the orders hold (`tags.tags.tagIds`). */
  tag: string;
  /** Created on or after this day, on or before that one (`YYYY-MM-DD`, the merchant's time zone). */
  from: string;
  to: string;
  /** Totals at least / at most (decimal amounts, as typed). */
  min: string;
  max: string;
  archived: ArchivedChoice;
  /** Newest or oldest first. */
  order: 'DESC' | 'ASC';
}

/** The address parameters a view is kept in, in the order a saved view stores them. */
export const VIEW_PARAMS = [
  'q',
  'payment',
  'fulfillment',
  'tag',
  'from',
  'to',
  'min',
  'max',
  'archived',
  'order',
] as const;

export const PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d+(\.\d+)?$/;

export function viewOf(params: URLSearchParams): OrdersView {
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) ? value : '';
  };
  const amount = (name: string) => {
    const value = params.get(name)?.trim() ?? '';
    return AMOUNT.test(value) ? value : '';
  };
  const archived = params.get('archived');
  return {
    q: params.get('q')?.trim() ?? '',
    payment: params.get('payment') ?? '',
    fulfillment: params.get('fulfillment') ?? '',
    tag: params.get('tag')?.trim() ?? '',
    from: day('from'),
    to: day('to'),
    min: amount('min'),
    max: amount('max'),
    archived: archived === 'include' || archived === 'only' ? archived : '',
    order: params.get('order') === 'ASC' ? 'ASC' : 'DESC',
  };
}

/**
 * The filter a view asks of `searchOrders` (and of the export), or undefined for every order. The
 * search box's text is not part of it: the platform's free search reads it (`searchOf`), which finds
 * an order number with or without its #, or part of the buyer's email or name.
 */
export function filterOf(view: OrdersView): Filter | undefined {
  const parts: Filter[] = [];
  if (view.payment) parts.push({ paymentStatus: { $eq: view.payment } });
  if (view.fulfillment) parts.push({ fulfillmentStatus: { $eq: view.fulfillment } });
  if (view.tag) parts.push({ 'tags.tags.tagIds': { $hasSome: [view.tag] } });
  // days are the merchant's own: from its first moment to its last, in the browser's time zone
  if (view.from) parts.push({ createdDate: { $gte: new Date(`${view.from}T00:00:00`).toISOString() } });
  if (view.to) parts.push({ createdDate: { $lte: new Date(`${view.to}T23:59:59.999`).toISOString() } });
  if (view.min) parts.push({ 'priceSummary.total.amount': { $gte: Number(view.min) } });
  if (view.max) parts.push({ 'priceSummary.total.amount': { $lte: Number(view.max) } });
  if (view.archived === '') parts.push({ archived: { $eq: false } });
  else if (view.archived === 'only') parts.push({ archived: { $eq: true } });
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { $and: parts };
}

/** The hosted platform's search for a view (a page of it after `cursor`). */
export function searchOf(view: OrdersView, cursor?: string): OrderSearch {
  // a cursor carries its search's filter and sort; the hosted platform wants it alone
  if (cursor) return { cursorPaging: { limit: PAGE_SIZE, cursor } };
  const filter = filterOf(view);
  return {
    ...(filter ? { filter } : {}),
    ...(view.q ? { search: { expression: view.q } } : {}),
    sort: [{ fieldName: 'createdDate', order: view.order }],
    cursorPaging: { limit: PAGE_SIZE },
  };
}

/** Whether the view narrows the orders at all (archived hidden is the default, not a narrowing). */
export function isFiltered(view: OrdersView): boolean {
  return VIEW_PARAMS.some((name) => name !== 'order' && view[name] !== '');
}
