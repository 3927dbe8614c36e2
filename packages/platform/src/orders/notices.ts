import type { OutgoingEmail } from '../email/mailer.ts';

/**
 * The buyer's emails about a change the merchant made to their order: its cancellation (when the
 * merchant asks for it) and a shipment with its tracking. Plain text and HTML; everything the buyer
 * or the merchant wrote is escaped.
 */

export interface NoticeStore {
  storeName: string;
  /** The storefront's page of the order. */
  orderUrl: string;
}

interface NoticedOrder {
  id: string;
  number?: string;
  buyerInfo?: { email?: string | null };
  lineItems?: Array<{ id?: string; productName?: { original?: string }; quantity?: number }>;
}

export interface Shipment {
  lineItems: Array<{ id: string; quantity: number }>;
  trackingInfo?: {
    trackingNumber?: string | null;
    shippingProvider?: string | null;
    trackingLink?: string | null;
  };
}

/** The cancellation email, with the merchant's message; undefined for an order with no email. */
export function cancellationEmail(
  order: NoticedOrder,
  customMessage: string | undefined,
  store: NoticeStore,
): OutgoingEmail | undefined {
  const to = order.buyerInfo?.email;
  if (!to) return undefined;
  const number = order.number ?? order.id;
  const paragraphs = [
    `Your order #${number} at ${store.storeName} has been canceled.`,
    ...(customMessage ? [customMessage] : []),
  ];
  return {
    kind: 'ORDER_CANCELED',
    to,
    subject: `Your ${store.storeName} order #${number} was canceled`,
    text: [...paragraphs, `See your order: ${store.orderUrl}`].join('\n\n'),
    html: page([
      `<h1 style="font-size:20px">Order #${escapeHtml(number)} canceled</h1>`,
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
      `<p><a href="${escapeHtml(store.orderUrl)}">See your order</a></p>`,
    ]),
  };
}

/** The shipping confirmation: what was sent and how to track it; undefined for an order with no email. */
export function shippingConfirmation(
  order: NoticedOrder,
  shipment: Shipment,
  store: NoticeStore,
): OutgoingEmail | undefined {
  const to = order.buyerInfo?.email;
  if (!to) return undefined;
  const number = order.number ?? order.id;
  const names = new Map(
    (order.lineItems ?? []).map((line) => [line.id, line.productName?.original ?? 'Item']),
  );
  const items = shipment.lineItems.map((line) => `${line.quantity} × ${names.get(line.id) ?? 'Item'}`);
  const tracking = shipment.trackingInfo;
  const trackingLines = [
    ...(tracking?.shippingProvider ? [`Carrier: ${tracking.shippingProvider}`] : []),
    ...(tracking?.trackingNumber ? [`Tracking number: ${tracking.trackingNumber}`] : []),
    ...(tracking?.trackingLink ? [`Track it: ${tracking.trackingLink}`] : []),
  ];
  return {
    kind: 'SHIPPING_CONFIRMATION',
    to,
    subject: `Your ${store.storeName} order #${number} is on its way`,
    text: [
      `Items of your order #${number} at ${store.storeName} are on their way.`,
      items.join('\n'),
      ...(trackingLines.length > 0 ? [trackingLines.join('\n')] : []),
      `See your order: ${store.orderUrl}`,
    ].join('\n\n'),
    html: page([
      `<h1 style="font-size:20px">Order #${escapeHtml(number)} is on its way</h1>`,
      `<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`,
      ...(tracking?.shippingProvider ? [`<p>Carrier: ${escapeHtml(tracking.shippingProvider)}</p>`] : []),
      ...(tracking?.trackingNumber ? [`<p>Tracking number: ${escapeHtml(tracking.trackingNumber)}</p>`] : []),
      ...(tracking?.trackingLink
        ? [`<p><a href="${escapeHtml(tracking.trackingLink)}">Track your package</a></p>`]
        : []),
      `<p><a href="${escapeHtml(store.orderUrl)}">See your order</a></p>`,
    ]),
  };
}

const page = (body: string[]) =>
  [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827">',
    ...body,
    '</body></html>',
  ].join('\n');

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
