import { expect } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { type Answer, admin, call, createProduct, visitorToken } from './catalog-http.ts';
import type { TestPlatform } from './support/platform.ts';

/** Shared steps of the checkout, payment and order tests: a store that ships, shoppers, the hosted page. */

export const CARDS = {
  approved: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0025 0000 3155',
};

export const card = (number: string) => ({ number, expiry: '12/40', cvc: '123', holderName: 'Ada Shopper' });

export const ADDRESS = {
  country: 'US',
  subdivision: 'US-NY',
  city: 'New York',
  postalCode: '10001',
  addressLine1: '1 Main Street',
};

/** The store ships to the US at a flat $5.00 ('standard'). */
export async function shipToUs(platform: TestPlatform): Promise<void> {
  const answer = await admin(platform).post('/api/cartwheel/shipping-regions', {
    shippingRegion: {
      name: 'United States',
      destinations: [{ country: 'US' }],
      options: [{ code: 'standard', title: 'Standard', rate: { kind: 'FLAT_RATE', price: '5.00' } }],
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/** A physical product at `price` with `quantity` counted in stock. */
export async function stockedProduct(platform: TestPlatform, name: string, price: number, quantity: number) {
  return createProduct(platform, {
    name,
    productType: 'physical',
    priceData: { price },
    stock: { trackInventory: true, quantity },
  });
}

/** What a variant of a product holds now, read as an admin. */
export async function stockOf(platform: TestPlatform, productId: string): Promise<number> {
  const answer = await admin(platform).get(
    `/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`,
  );
  return answer.body.product.stock.quantity;
}

/** What each variant of a product holds now, by its choices (`M/Navy`), read as an admin. */
export async function variantStock(
  platform: TestPlatform,
  productId: string,
): Promise<Record<string, number>> {
  const answer = await admin(platform).get(
    `/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`,
  );
  return Object.fromEntries(
    answer.body.product.variants.map(
      (variant: { choices: Record<string, string>; stock: { quantity: number } }) => [
        Object.values(variant.choices).join('/'),
        variant.stock.quantity,
      ],
    ),
  );
}

export const checkoutCalls = (platform: TestPlatform, auth: string) => {
  const path = '/ecom/v1/checkouts';
  return {
    get: (id: string) => call(platform, 'GET', `${path}/${id}?id=${id}`, undefined, auth),
    byCart: (cartId: string) =>
      call(platform, 'GET', `${path}/by-cart-id/${cartId}?id=${cartId}`, undefined, auth),
    create: (body: unknown) => call(platform, 'POST', path, body, auth),
    patch: (id: string, body: unknown) => call(platform, 'PATCH', `${path}/${id}`, body, auth),
    add: (id: string, lineItems: unknown[]) =>
      call(platform, 'POST', `${path}/${id}/add-to-checkout`, { id, lineItems }, auth),
    removeLines: (id: string, lineItemIds: string[]) =>
      call(platform, 'POST', `${path}/${id}/remove-line-items`, { id, lineItemIds }, auth),
    setQuantities: (id: string, lineItems: unknown[]) =>
      call(platform, 'POST', `${path}/${id}/update-line-items-quantity`, { id, lineItems }, auth),
    removeCoupon: (id: string) => call(platform, 'POST', `${path}/${id}/remove-coupon`, { id }, auth),
    createOrder: (id: string) => call(platform, 'POST', `${path}/${id}/create-order`, { id }, auth),
    checkoutUrl: (id: string) =>
      call(platform, 'GET', `${path}/${id}/checkout-url?id=${id}`, undefined, auth),
    markCompleted: (id: string) => call(platform, 'POST', `${path}/${id}/mark-as-completed`, { id }, auth),
  };
};

/** The buyer's details every order needs, as the hosted client's PATCH sends them. */
export const buyerDetails = (email = 'ada@example.com') => ({
  checkout: {
    buyerInfo: { email },
    billingInfo: { address: ADDRESS },
    shippingInfo: {
      shippingDestination: { address: ADDRESS },
      selectedCarrierServiceOption: { code: 'standard' },
    },
  },
});

/** A shopper's cart of `lines` turned into a checkout: answers the shopper's token, cart and checkout ids. */
export async function shopperCheckout(
  platform: TestPlatform,
  lines: Array<{ productId: string; quantity: number }>,
  options: { auth?: string; details?: boolean } = {},
): Promise<{ auth: string; cartId: string; checkoutId: string }> {
  const auth = options.auth ?? (await visitorToken(platform));
  const cart = cartCalls(platform, auth);
  const added = await cart.add({
    lineItems: lines.map((line) => catalogLine(line.productId, line.quantity)),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const created = await cart.createCheckout({ channelType: 'WEB' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const checkoutId = created.body.checkoutId as string;
  if (options.details !== false) {
    const patched = await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails());
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  }
  return { auth, cartId: added.body.cart.id, checkoutId };
}

/** A hosted checkout page session for the checkout, as the storefront's redirect session makes it. */
export async function checkoutSession(
  platform: TestPlatform,
  auth: string,
  checkoutId: string,
  callbacks: Record<string, string> = {
    postFlowUrl: 'http://shop.test/cart',
    thankYouPageUrl: 'http://shop.test/thanks',
  },
): Promise<string> {
  const answer = await call(
    platform,
    'POST',
    '/_api/redirects-api/v1/redirect-session',
    { ecomCheckout: { checkoutId }, callbacks },
    auth,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const fullUrl = new URL(answer.body.redirectSession.fullUrl);
  expect(fullUrl.pathname).toBe('/auth/checkout');
  return fullUrl.searchParams.get('session') as string;
}

/** The hosted checkout page's calls, each with its session header and no access token. */
export const pageCalls = (platform: TestPlatform, session: string) => {
  const send = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { 'X-Checkout-Session': session };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${platform.url}/_api/checkout-page/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    session: () => send('GET', '/session'),
    update: (body: unknown) => send('POST', '/update', body),
    removeCoupon: () => send('POST', '/remove-coupon', {}),
    pay: (attemptKey: string, number: string) => send('POST', '/pay', { attemptKey, card: card(number) }),
    payWith: (body: unknown) => send('POST', '/pay', body),
    attempt: (attemptId: string) => send('GET', `/attempts/${attemptId}`),
    confirm: (attemptId: string, approve: boolean) =>
      send('POST', `/attempts/${attemptId}/confirm`, { approve }),
  };
};

/** The order, as an admin reads it. */
export const adminOrder = async (platform: TestPlatform, orderId: string) =>
  (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;

/** Charges the test gateway made, by the ledger (a key closed as never charged is no charge). */
export const gatewayCharges = (platform: TestPlatform) =>
  platform.services.database.db
    .selectFrom('gateway_charges')
    .selectAll()
    .where('status', '<>', 'CLOSED')
    .execute();

/** Events written for an entity, as `slug`s in order. */
export async function eventSlugs(platform: TestPlatform, entityId: string): Promise<string[]> {
  return (await readEvents(platform.services.database.db, { entityId })).map((event) => event.slug);
}

export const applicationCode = (answer: Answer): string | undefined =>
  answer.body?.details?.applicationError?.code;
export const violatedFields = (answer: Answer): string[] =>
  (answer.body?.details?.validationError?.fieldViolations ?? []).map((v: { field: string }) => v.field);

/** A whole purchase: `auth`'s cart of one product, checked out and paid on the hosted page. */
export async function placeOrder(
  platform: TestPlatform,
  productId: string,
  options: { auth?: string; quantity?: number } = {},
): Promise<{ auth: string; orderId: string; checkoutId: string }> {
  const shopper = await shopperCheckout(platform, [{ productId, quantity: options.quantity ?? 1 }], {
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const paid = await pageCalls(
    platform,
    await checkoutSession(platform, shopper.auth, shopper.checkoutId),
  ).pay(`order-${shopper.checkoutId}`, CARDS.approved);
  expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
  return { auth: shopper.auth, orderId: paid.body.orderId, checkoutId: shopper.checkoutId };
}
