import { describe, expect, it } from 'vitest';
import {
  type AddToCartRequest,
  ApplicationError,
  CURRENT_CART,
  currentCart,
  HOSTED_API_HOST,
  toPublicPath,
} from '../src/index.ts';
import type { RecordedRequest } from './support/loopback-server.ts';
import {
  adminClient,
  type CallRow,
  expectRowsCover,
  expectWireCall,
  moduleCalls,
  startWireServer,
  tracing,
  VISITOR_ACCESS,
  visitorClient,
  withVisitorTokens,
} from './support/wire-calls.ts';

/**
 * Each current-cart call against a loopback server that records what arrives. Expectations are the
 * wire contract's "Calls" list, written out by hand; a visitor's client, since cart calls act on the
 * caller's own cart.
 */

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

/** Sent as given: the wire body is the request itself. */
const ADD_TO_CART: AddToCartRequest = {
  lineItems: [
    {
      catalogReference: { appId: STORES_APP_ID, catalogItemId: 'p1', options: { variantId: 'v1' } },
      quantity: 2,
    },
  ],
  customLineItems: [
    {
      productName: { original: 'Gift wrap' },
      price: '5',
      quantity: 1,
      itemType: { preset: 'PHYSICAL' },
    },
  ],
};

const CREATED = '2024-05-01T10:00:00.000Z';
const UPDATED = '2024-05-02T10:00:00.000Z';
const CART_ON_WIRE = {
  id: 'cart-1',
  currency: 'USD',
  lineItems: [
    {
      id: 'li1',
      quantity: 2,
      catalogReference: { appId: STORES_APP_ID, catalogItemId: 'p1', options: { variantId: 'v1' } },
      productName: { original: 'Mug' },
      price: { amount: '12.50', formattedAmount: '$12.50' },
    },
  ],
  createdDate: CREATED,
  updatedDate: UPDATED,
};
const CART = { ...CART_ON_WIRE, createdDate: new Date(CREATED), updatedDate: new Date(UPDATED) };

const ADDRESS = { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001' };
const SHIPPING_OPTION = { code: 'standard', carrierId: 'carrier-1' };

function cartPlatform(request: RecordedRequest) {
  if (request.path.endsWith('/create-checkout')) return { body: { checkoutId: 'checkout-1' } };
  if (request.path.endsWith('/estimate-totals'))
    return { body: { cart: CART_ON_WIRE, currency: 'USD', priceSummary: { total: { amount: '25.00' } } } };
  if (request.method === 'DELETE') return { body: {} };
  return { body: { cart: CART_ON_WIRE } };
}

const server = await startWireServer(withVisitorTokens(cartPlatform));
const visitor = visitorClient(server, { currentCart });
const cartCalls = () => moduleCalls(server);
const VISITOR = {
  authorization: VISITOR_ACCESS,
  trace: tracing('cartwheel.ecom.cart.v1.CurrentCartService', 'cart'),
};

/** Current-cart calls carry no query, so no row lists one. */
const calls: CallRow<typeof visitor>[] = [
  [
    'getCurrentCart',
    (c) => c.currentCart.getCurrentCart(),
    { method: 'GET', path: '/ecom/v1/carts/current', returns: CART },
  ],
  [
    'updateCurrentCart',
    (c) =>
      c.currentCart.updateCurrentCart({
        cartInfo: { buyerNote: 'ring twice' },
        couponCode: 'SAVE10',
        merchantDiscounts: [{ amount: '2.00', lineItemIds: ['li1'] }],
        lineItems: [{ id: 'li1', quantity: 3 }],
        customLineItems: [{ productName: { original: 'Gift wrap' }, price: '5', quantity: 1 }],
      }),
    {
      method: 'PATCH',
      path: '/ecom/v1/carts/current',
      body: {
        cartInfo: { buyerNote: 'ring twice' },
        couponCode: 'SAVE10',
        merchantDiscounts: [{ amount: '2.00', lineItemIds: ['li1'] }],
        lineItems: [{ id: 'li1', quantity: 3 }],
        customLineItems: [{ productName: { original: 'Gift wrap' }, price: '5', quantity: 1 }],
      },
      returns: CART,
    },
  ],
  [
    'addToCurrentCart',
    (c) => c.currentCart.addToCurrentCart(ADD_TO_CART),
    {
      method: 'POST',
      path: '/ecom/v1/carts/current/add-to-cart',
      body: ADD_TO_CART,
      returns: { cart: CART },
    },
  ],
  [
    'removeLineItemsFromCurrentCart',
    (c) => c.currentCart.removeLineItemsFromCurrentCart(['li1', 'li2']),
    {
      method: 'POST',
      path: '/ecom/v1/carts/current/remove-line-items',
      body: { lineItemIds: ['li1', 'li2'] },
      returns: { cart: CART },
    },
  ],
  [
    'updateCurrentCartLineItemQuantity',
    (c) => c.currentCart.updateCurrentCartLineItemQuantity([{ id: 'li1', quantity: 3 }]),
    {
      method: 'POST',
      path: '/ecom/v1/carts/current/update-line-items-quantity',
      body: { lineItems: [{ id: 'li1', quantity: 3 }] },
      returns: { cart: CART },
    },
  ],
  [
    'removeCouponFromCurrentCart',
    (c) => c.currentCart.removeCouponFromCurrentCart(),
    { method: 'POST', path: '/ecom/v1/carts/current/remove-coupon', body: {}, returns: { cart: CART } },
  ],
  [
    'createCheckoutFromCurrentCart',
    (c) =>
      c.currentCart.createCheckoutFromCurrentCart({
        channelType: 'WEB',
        shippingAddress: ADDRESS,
        billingAddress: ADDRESS,
        selectedShippingOption: SHIPPING_OPTION,
        email: 'a@b.c',
      }),
    {
      method: 'POST',
      path: '/ecom/v1/carts/current/create-checkout',
      body: {
        channelType: 'WEB',
        shippingAddress: ADDRESS,
        billingAddress: ADDRESS,
        selectedShippingOption: SHIPPING_OPTION,
        email: 'a@b.c',
      },
      returns: { checkoutId: 'checkout-1' },
    },
  ],
  [
    'estimateCurrentCartTotals',
    (c) =>
      c.currentCart.estimateCurrentCartTotals({
        shippingAddress: ADDRESS,
        calculateTax: true,
        calculateShipping: true,
      }),
    {
      method: 'POST',
      path: '/ecom/v1/carts/current/estimate-totals',
      body: { shippingAddress: ADDRESS, calculateTax: true, calculateShipping: true },
      returns: { cart: CART, currency: 'USD', priceSummary: { total: { amount: '25.00' } } },
    },
  ],
  [
    'deleteCurrentCart',
    (c) => c.currentCart.deleteCurrentCart(),
    { method: 'DELETE', path: '/ecom/v1/carts/current', returns: undefined },
  ],
];

describe('current cart calls on the wire (wire contract, Calls)', () => {
  it.each(calls)(
    'currentCart.%s sends the request the wire contract lists and returns what the hosted client returns',
    async (_name, call, expected) => {
      const result = await call(visitor);
      expectWireCall(cartCalls(), expected, VISITOR);
      expect(result).toEqual(expected.returns);
    },
  );

  it('covers every method of the current cart module', () => {
    expectRowsCover(calls, Object.keys(currentCart));
  });

  it('maps /v1/carts to /ecom/v1/carts on the hosted API host and on any other host', () => {
    expect(toPublicPath(CURRENT_CART, HOSTED_API_HOST, '/v1/carts/current')).toBe('/ecom/v1/carts/current');
    expect(toPublicPath(CURRENT_CART, 'localhost:4000', '/v1/carts/current/add-to-cart')).toBe(
      '/ecom/v1/carts/current/add-to-cart',
    );
  });

  it('sends an admin API key raw in Authorization, with no Bearer prefix', async () => {
    const admin = adminClient(server, { currentCart });
    await admin.currentCart.getCurrentCart();
    expect(cartCalls()[0]?.headers.authorization).toBe('admin-key');
  });

  it('leaves out of the body the fields the caller did not give', async () => {
    await visitor.currentCart.updateCurrentCart({ couponCode: 'SAVE10' });
    await visitor.currentCart.estimateCurrentCartTotals();
    expect(cartCalls().map((request) => request.body)).toEqual([{ couponCode: 'SAVE10' }, {}]);
  });

  it("turns a cart answer's createdDate and updatedDate into Dates", async () => {
    const cart = await visitor.currentCart.getCurrentCart();
    expect(cart.createdDate).toBeInstanceOf(Date);
    expect(cart.createdDate?.toISOString()).toBe(CREATED);
    expect(cart.updatedDate).toEqual(new Date(UPDATED));
    const { cart: added } = await visitor.currentCart.addToCurrentCart({ lineItems: [] });
    expect(added.createdDate).toBeInstanceOf(Date);
    const totals = await visitor.currentCart.estimateCurrentCartTotals();
    expect(totals.cart?.updatedDate).toBeInstanceOf(Date);
  });

  it('raises a refused change as the application error the platform sent', async () => {
    server.respond = withVisitorTokens(() => ({
      status: 400,
      headers: { 'x-request-id': 'req-42' },
      body: {
        message: 'coupon SAVE10 has expired',
        details: {
          applicationError: {
            code: 'COUPON_EXPIRED',
            description: 'The coupon is no longer valid',
            data: { couponCode: 'SAVE10' },
          },
        },
      },
    }));
    const refused = visitor.currentCart.updateCurrentCart({ couponCode: 'SAVE10' });
    await expect(refused).rejects.toBeInstanceOf(ApplicationError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      code: 'COUPON_EXPIRED',
      description: 'The coupon is no longer valid',
      data: { couponCode: 'SAVE10' },
      requestId: 'req-42',
    });
  });

  it('raises a missing cart (404 before anything was added) as an application error coded 404', async () => {
    server.respond = withVisitorTokens(() => ({
      status: 404,
      statusText: 'Not Found',
      body: { message: 'no current cart' },
    }));
    const missing = visitor.currentCart.getCurrentCart();
    await expect(missing).rejects.toBeInstanceOf(ApplicationError);
    await expect(missing).rejects.toMatchObject({ status: 404, code: '404', description: 'Not Found' });
  });
});
