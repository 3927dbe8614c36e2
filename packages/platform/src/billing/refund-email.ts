import type { OutgoingEmail } from '../email/mailer.ts';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

/**
 * The buyer's refund email (`sideEffects.notifications.sendCustomerEmail`): the order, the amount
 * refunded to each payment, and the merchant's message, as plain text and HTML (all escaped).
 */
export function refundEmail(refund: {
  to: string;
  storeName: string;
  orderNumber: string;
  orderUrl: string;
  total: string;
  payments: Array<{ method: string; amount: string }>;
  customMessage?: string | null | undefined;
}): OutgoingEmail {
  const subject = `Your refund for order #${refund.orderNumber}`;
  const lines = refund.payments.map((payment) => `${payment.amount} to ${payment.method}`);
  const text = [
    `${refund.storeName} refunded ${refund.total} of your order #${refund.orderNumber}.`,
    '',
    ...lines,
    ...(refund.customMessage ? ['', refund.customMessage] : []),
    '',
    `See your order: ${refund.orderUrl}`,
  ].join('\n');
  const html = [
    `<h1 style="font-size:20px">${escapeHtml(refund.storeName)} refunded ${escapeHtml(refund.total)}</h1>`,
    `<p>Order <strong>#${escapeHtml(refund.orderNumber)}</strong></p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    ...(refund.customMessage ? [`<p>${escapeHtml(refund.customMessage)}</p>`] : []),
    `<p><a href="${escapeHtml(refund.orderUrl)}">See your order</a></p>`,
  ].join('\n');
  return { kind: 'ORDER_REFUND', to: refund.to, subject, text, html };
}
