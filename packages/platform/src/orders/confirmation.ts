import type { Address, DescriptionLine, FullAddressContactDetails } from '@cartwheel/sdk';
import type { OutgoingEmail } from '../email/mailer.ts';
import type { OrderPrice } from './model.ts';

/** What the confirmation reads of an order document (`OrderService`'s wire order). */
export interface ConfirmedOrder {
  id: string;
  number?: string;
  createdDate: string;
  lineItems: Array<{
    productName?: { original?: string; translated?: string | null };
    quantity: number;
    descriptionLines?: DescriptionLine[];
    lineItemPrice?: OrderPrice;
  }>;
  buyerInfo?: { email?: string | null };
  buyerNote?: string | null;
  billingInfo?: { address?: Address; contactDetails?: FullAddressContactDetails };
  shippingInfo?: {
    title?: string;
    logistics?: {
      shippingDestination?: { address?: Address; contactDetails?: FullAddressContactDetails };
      pickupDetails?: { address?: Address };
    };
  };
  priceSummary: Record<'subtotal' | 'shipping' | 'tax' | 'discount' | 'total', OrderPrice>;
}

/** The store as the confirmation names it, and where the buyer reads the order. */
export interface ConfirmationStore {
  storeName: string;
  /** The storefront's page of the order (`<PUBLIC_URL>/account/orders/<id>`). */
  orderUrl: string;
}

/**
 * The order confirmation a buyer gets when their order is placed: its number, lines, totals,
 * addresses and a link to the order, as plain text and as HTML (everything the buyer or merchant
 * wrote escaped). Undefined for an order without an email to send it to.
 */
export function orderConfirmation(
  order: ConfirmedOrder,
  store: ConfirmationStore,
): OutgoingEmail | undefined {
  const to = order.buyerInfo?.email;
  if (!to) return undefined;
  const number = order.number ?? order.id;
  const placed = new Date(order.createdDate).toLocaleDateString('en-US', {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  const lines = order.lineItems.map((line) => ({
    name: line.productName?.translated || line.productName?.original || 'Item',
    options: (line.descriptionLines ?? []).map(describe).filter(Boolean).join(', '),
    quantity: line.quantity,
    amount: line.lineItemPrice?.formattedAmount ?? '',
  }));
  const summary = order.priceSummary;
  const totals: Array<[string, string]> = [
    ['Subtotal', summary.subtotal.formattedAmount],
    ...(order.shippingInfo ? [['Shipping', summary.shipping.formattedAmount] as [string, string]] : []),
    ...(Number(summary.discount.amount) > 0
      ? [['Discount', `-${summary.discount.formattedAmount}`] as [string, string]]
      : []),
    ...(Number(summary.tax.amount) > 0 ? [['Tax', summary.tax.formattedAmount] as [string, string]] : []),
    ['Total', summary.total.formattedAmount],
  ];
  const logistics = order.shippingInfo?.logistics;
  const places: Array<[string, string[]]> = [];
  if (logistics?.pickupDetails?.address) {
    places.push([
      `Pick up (${order.shippingInfo?.title ?? 'pickup'})`,
      addressLines(logistics.pickupDetails.address),
    ]);
  } else if (logistics?.shippingDestination?.address) {
    const { address, contactDetails } = logistics.shippingDestination;
    const method = order.shippingInfo?.title ? ` (${order.shippingInfo.title})` : '';
    places.push([`Shipping to${method}`, [...nameLines(contactDetails), ...addressLines(address)]]);
  }
  if (order.billingInfo?.address) {
    places.push([
      'Billing address',
      [...nameLines(order.billingInfo.contactDetails), ...addressLines(order.billingInfo.address)],
    ]);
  }
  const subject = `Your ${store.storeName} order #${number}`;

  const text = [
    `Thank you for your order at ${store.storeName}.`,
    `Order #${number}, placed ${placed}.`,
    lines
      .map(
        (line) =>
          `${line.quantity} × ${line.name}${line.options ? ` (${line.options})` : ''}: ${line.amount}`,
      )
      .join('\n'),
    totals.map(([label, amount]) => `${label}: ${amount}`).join('\n'),
    ...places.map(([label, rows]) => [`${label}:`, ...rows].join('\n')),
    ...(order.buyerNote ? [`Your note: ${order.buyerNote}`] : []),
    `See your order: ${store.orderUrl}`,
  ].join('\n\n');

  const cell = 'padding:4px 8px;border-bottom:1px solid #e5e7eb';
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827">',
    `<h1 style="font-size:20px">Thank you for your order at ${escapeHtml(store.storeName)}</h1>`,
    `<p>Order <strong>#${escapeHtml(number)}</strong>, placed ${escapeHtml(placed)}.</p>`,
    '<table style="border-collapse:collapse">',
    '<tr><th align="left">Item</th><th align="right">Qty</th><th align="right">Price</th></tr>',
    ...lines.map(
      (line) =>
        `<tr><td style="${cell}">${escapeHtml(line.name)}${line.options ? `<br><small>${escapeHtml(line.options)}</small>` : ''}</td>` +
        `<td align="right" style="${cell}">${line.quantity}</td><td align="right" style="${cell}">${escapeHtml(line.amount)}</td></tr>`,
    ),
    ...totals.map(
      ([label, amount]) =>
        `<tr><td colspan="2" align="right">${label === 'Total' ? `<strong>${label}</strong>` : label}</td>` +
        `<td align="right">${label === 'Total' ? `<strong>${escapeHtml(amount)}</strong>` : escapeHtml(amount)}</td></tr>`,
    ),
    '</table>',
    ...places.map(
      ([label, rows]) =>
        `<h2 style="font-size:16px">${escapeHtml(label)}</h2><p>${rows.map(escapeHtml).join('<br>')}</p>`,
    ),
    ...(order.buyerNote ? [`<p>Your note: ${escapeHtml(order.buyerNote)}</p>`] : []),
    `<p><a href="${escapeHtml(store.orderUrl)}">See your order</a></p>`,
    '</body></html>',
  ].join('\n');

  return { kind: 'ORDER_CONFIRMATION', to, subject, text, html };
}

function describe(line: DescriptionLine): string {
  const name = line.name?.translated || line.name?.original;
  const value =
    line.plainText?.translated ||
    line.plainText?.original ||
    line.colorInfo?.translated ||
    line.colorInfo?.original;
  return name && value ? `${name}: ${value}` : (value ?? '');
}

function nameLines(contact: FullAddressContactDetails | undefined): string[] {
  const name = [contact?.firstName, contact?.lastName].filter(Boolean).join(' ');
  return [name, contact?.company ?? ''].filter(Boolean);
}

/** An address as it is written on an envelope: street, city line, country. */
function addressLines(address: Address): string[] {
  const street = address.streetAddress
    ? [address.streetAddress.number, address.streetAddress.name].filter(Boolean).join(' ') +
      (address.streetAddress.apt ? `, ${address.streetAddress.apt}` : '')
    : '';
  const city = [address.city, address.subdivisionFullname ?? address.subdivision, address.postalCode]
    .filter(Boolean)
    .join(' ');
  return [
    address.addressLine || street,
    address.addressLine2,
    city,
    address.countryFullname ?? address.country,
  ].filter((line): line is string => Boolean(line));
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
