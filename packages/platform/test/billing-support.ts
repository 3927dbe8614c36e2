import { expect } from 'vitest';
import type { Answer } from './catalog-http.ts';
import { admin } from './catalog-http.ts';
import { CARDS, checkoutCalls, checkoutSession, pageCalls, shopperCheckout } from './checkout-support.ts';
import type { TestPlatform } from './support/platform.ts';

/** Shared steps of the capture, void and refund tests. */

/** An admin call with an optional `Idempotency-Key`. */
export async function money(
  platform: TestPlatform,
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string; auth?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: options.auth ?? platform.adminApiKey };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.key) headers['Idempotency-Key'] = options.key;
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export const billing = (platform: TestPlatform) => {
  const path = '/ecom/v1/order-billing';
  const collector = (orderId: string) => `/ecom/v1/payments-collector/orders/${orderId}`;
  return {
    refundability: (orderId: string) =>
      money(platform, 'POST', `${path}/get-order-refundability`, { orderId }),
    calculate: (orderId: string, refundItems: unknown) =>
      money(platform, 'POST', `${path}/calculate-refund`, { orderId, refundItems }),
    refund: (orderId: string, body: Record<string, unknown>, key?: string) =>
      money(platform, 'POST', `${path}/refund-payments`, { orderId, ...body }, key ? { key } : {}),
    capture: (orderId: string, payments: unknown[], key?: string) =>
      money(
        platform,
        'POST',
        `${collector(orderId)}/capture-authorized-payments`,
        { ecomOrderId: orderId, payments },
        key ? { key } : {},
      ),
    billingCapture: (orderId: string, payments: unknown[], key?: string) =>
      money(
        platform,
        'POST',
        `${path}/capture-authorized-payments`,
        { orderId, payments },
        key ? { key } : {},
      ),
    void: (orderId: string, paymentIds: string[], key?: string) =>
      money(
        platform,
        'POST',
        `${collector(orderId)}/void-authorized-payments`,
        { ecomOrderId: orderId, paymentIds },
        key ? { key } : {},
      ),
    collectability: (orderId: string) =>
      money(platform, 'GET', `${collector(orderId)}/payment-collectability-status?ecomOrderId=${orderId}`),
    prepare: (orderId: string, amount: string) =>
      money(platform, 'POST', `${collector(orderId)}/prepare-payment-collection`, {
        ecomOrderId: orderId,
        amount: { amount },
      }),
    transactions: (orderId: string) =>
      money(platform, 'GET', `/ecom/v1/payments/orders/${orderId}?orderId=${orderId}`),
    addPayments: (orderId: string, payments: unknown[], key?: string) =>
      money(
        platform,
        'POST',
        `/ecom/v1/payments/orders/${orderId}/add-payment`,
        { orderId, payments },
        key ? { key } : {},
      ),
    updateStatus: (orderId: string, paymentId: string, status: string) =>
      money(
        platform,
        'POST',
        `/ecom/v1/payments/${paymentId}/orders/${orderId}/update-payment-transaction-status`,
        {
          paymentId,
          orderId,
          status,
        },
      ),
  };
};

/** Cents of a wire amount, as integers: every sum below is checked to the cent. */
export const cents = (amount: string | { amount: string }) =>
  Math.round(Number(typeof amount === 'string' ? amount : amount.amount) * 100);

/** Pays for `lines` on the hosted page (with `coupon` and merchant discounts applied) and answers the order's id. */
export async function buy(
  platform: TestPlatform,
  lines: Array<{ productId: string; quantity: number }>,
  options: {
    coupon?: string;
    card?: string;
    authorizeOnly?: boolean;
    auth?: string;
    merchantDiscounts?: (cartLineIds: string[]) => unknown[];
  } = {},
): Promise<string> {
  if (options.authorizeOnly) await setCapture(platform, 'AUTHORIZE_ONLY');
  try {
    const shopper = await shopperCheckout(platform, lines, {
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.merchantDiscounts ? { merchantDiscounts: options.merchantDiscounts } : {}),
    });
    if (options.coupon) {
      const patched = await checkoutCalls(platform, shopper.auth).patch(shopper.checkoutId, {
        couponCode: options.coupon,
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    }
    const paid = await pageCalls(
      platform,
      await checkoutSession(platform, shopper.auth, shopper.checkoutId),
    ).pay(`order-${shopper.checkoutId}`, options.card ?? CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    return paid.body.orderId as string;
  } finally {
    if (options.authorizeOnly) await setCapture(platform, 'IMMEDIATE');
  }
}

export async function setCapture(platform: TestPlatform, capture: 'IMMEDIATE' | 'AUTHORIZE_ONLY') {
  const answer = await admin(platform).patch('/api/cartwheel/payment-settings', {
    paymentSettings: { capture },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

export async function orderOf(platform: TestPlatform, orderId: string) {
  const answer = await admin(platform).get(`/ecom/v1/orders/${orderId}`);
  expect(answer.status).toBe(200);
  return answer.body.order;
}

export const code = (answer: Answer): string | undefined => answer.body?.details?.applicationError?.code;
