import { describe, expect, it } from 'vitest';
import {
  ApplicationError,
  CHECKOUTS,
  checkout,
  HOSTED_API_HOST,
  toPublicPath,
  ValidationError,
} from '../src/index.ts';
import type { RecordedRequest } from './support/loopback-server.ts';
import {
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
 * Each checkout call against a loopback server that records what arrives. Expectations are the wire
 * contract's checkout list, written out by hand: path ids repeated in the query of a GET and first in
 * the body of a POST; a visitor's client, since a buyer acts on their own checkout.
 */

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const LINE = {
  catalogReference: { appId: STORES_APP_ID, catalogItemId: 'p1', options: { variantId: 'v1' } },
  quantity: 2,
};
const ADDRESS = {
  country: 'US',
  subdivision: 'US-NY',
  city: 'New York',
  postalCode: '10001',
  addressLine: '350 Fifth Avenue',
};
/** The same address as the wire carries it: the hosted client's field order. */
const ADDRESS_ON_WIRE = {
  city: 'New York',
  subdivision: 'US-NY',
  country: 'US',
  postalCode: '10001',
  addressLine: '350 Fifth Avenue',
};

const CREATED = '2024-05-01T10:00:00.000Z';
const UPDATED = '2024-05-02T10:00:00.000Z';
const SLOT_FROM = '2024-05-03T09:00:00.000Z';
const SLOT_TO = '2024-05-03T12:00:00.000Z';
const BILLED = '2024-06-01T00:00:00.000Z';
const CHECKOUT_ON_WIRE = {
  id: 'ch1',
  cartId: 'cart1',
  currency: 'USD',
  lineItems: [
    {
      id: 'li1',
      ...LINE,
      productName: { original: 'Mug' },
      price: { amount: '12.50', formattedAmount: '$12.50' },
      lineItemPrice: { amount: '25.00', formattedAmount: '$25.00' },
    },
  ],
  priceSummary: { subtotal: { amount: '25.00' }, total: { amount: '27.50' } },
  shippingInfo: {
    carrierServiceOptions: [
      {
        carrierId: 'carrier-1',
        shippingOptions: [
          { code: 'standard', logistics: { deliveryTimeSlot: { from: SLOT_FROM, to: SLOT_TO } } },
        ],
      },
    ],
  },
  subscriptionCharges: { charges: [{ cycleFrom: 1, cycleBillingDate: BILLED }] },
  createdDate: CREATED,
  updatedDate: UPDATED,
};
/** The checkout as the SDK answers it: every date field a `Date`. */
const CHECKOUT = {
  ...CHECKOUT_ON_WIRE,
  shippingInfo: {
    carrierServiceOptions: [
      {
        carrierId: 'carrier-1',
        shippingOptions: [
          {
            code: 'standard',
            logistics: { deliveryTimeSlot: { from: new Date(SLOT_FROM), to: new Date(SLOT_TO) } },
          },
        ],
      },
    ],
  },
  subscriptionCharges: { charges: [{ cycleFrom: 1, cycleBillingDate: new Date(BILLED) }] },
  createdDate: new Date(CREATED),
  updatedDate: new Date(UPDATED),
};

function checkoutPlatform(request: RecordedRequest) {
  if (request.path.endsWith('/create-order'))
    return { body: { orderId: 'o1', paymentGatewayOrderId: 'gateway-1' } };
  if (request.path.endsWith('/checkout-url')) return { body: { checkoutUrl: 'https://shop.example/pay' } };
  if (request.path.endsWith('/mark-as-completed')) return { body: {} };
  return { body: { checkout: CHECKOUT_ON_WIRE } };
}

const server = await startWireServer(withVisitorTokens(checkoutPlatform));
const visitor = visitorClient(server, { checkout });
const checkoutCalls = () => moduleCalls(server);
const VISITOR = {
  authorization: VISITOR_ACCESS,
  trace: tracing('cartwheel.ecom.checkout.v1.CheckoutService', 'checkout'),
};

const calls: CallRow<typeof visitor>[] = [
  [
    'getCheckout',
    (c) => c.checkout.getCheckout('ch1'),
    { method: 'GET', path: '/ecom/v1/checkouts/ch1', query: { id: 'ch1' }, returns: CHECKOUT },
  ],
  [
    'getCheckoutByCartId',
    (c) => c.checkout.getCheckoutByCartId('cart1'),
    {
      method: 'GET',
      path: '/ecom/v1/checkouts/by-cart-id/cart1',
      query: { id: 'cart1' },
      returns: { checkout: CHECKOUT },
    },
  ],
  [
    'createCheckout',
    (c) =>
      c.checkout.createCheckout({
        lineItems: [LINE],
        channelType: 'WEB',
        checkoutInfo: { buyerInfo: { email: 'ada@example.com' }, billingInfo: { address: ADDRESS } },
      }),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts',
      body: {
        checkoutInfo: { buyerInfo: { email: 'ada@example.com' }, billingInfo: { address: ADDRESS_ON_WIRE } },
        lineItems: [LINE],
        channelType: 'WEB',
      },
      returns: CHECKOUT,
    },
  ],
  [
    'updateCheckout',
    (c) =>
      c.checkout.updateCheckout(
        'ch1',
        {
          buyerInfo: { email: 'ada@example.com' },
          billingInfo: { address: ADDRESS },
          shippingInfo: {
            shippingDestination: { address: ADDRESS },
            selectedCarrierServiceOption: { code: 'standard' },
          },
        },
        { couponCode: 'SAVE10' },
      ),
    {
      method: 'PATCH',
      path: '/ecom/v1/checkouts/ch1',
      body: {
        checkout: {
          buyerInfo: { email: 'ada@example.com' },
          billingInfo: { address: ADDRESS_ON_WIRE },
          shippingInfo: {
            shippingDestination: { address: ADDRESS_ON_WIRE },
            selectedCarrierServiceOption: { code: 'standard' },
          },
          id: 'ch1',
        },
        couponCode: 'SAVE10',
      },
      returns: CHECKOUT,
    },
  ],
  [
    'addToCheckout',
    (c) => c.checkout.addToCheckout('ch1', { lineItems: [LINE] }),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/add-to-checkout',
      body: { id: 'ch1', lineItems: [LINE] },
      returns: { checkout: CHECKOUT },
    },
  ],
  [
    'removeLineItems',
    (c) => c.checkout.removeLineItems('ch1', ['li1']),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/remove-line-items',
      body: { id: 'ch1', lineItemIds: ['li1'] },
      returns: { checkout: CHECKOUT },
    },
  ],
  [
    'updateLineItemsQuantity',
    (c) => c.checkout.updateLineItemsQuantity('ch1', [{ quantity: 2, id: 'li1' }]),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/update-line-items-quantity',
      body: { id: 'ch1', lineItems: [{ quantity: 2, id: 'li1' }] },
      returns: { checkout: CHECKOUT },
    },
  ],
  [
    'removeCoupon',
    (c) => c.checkout.removeCoupon('ch1'),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/remove-coupon',
      body: { id: 'ch1' },
      returns: { checkout: CHECKOUT },
    },
  ],
  [
    'createOrder',
    (c) => c.checkout.createOrder('ch1'),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/create-order',
      body: { id: 'ch1' },
      returns: { orderId: 'o1', paymentGatewayOrderId: 'gateway-1' },
    },
  ],
  [
    'getCheckoutUrl',
    (c) => c.checkout.getCheckoutUrl('ch1'),
    {
      method: 'GET',
      path: '/ecom/v1/checkouts/ch1/checkout-url',
      query: { id: 'ch1' },
      returns: { checkoutUrl: 'https://shop.example/pay' },
    },
  ],
  [
    'markCheckoutAsCompleted',
    (c) => c.checkout.markCheckoutAsCompleted('ch1', { orderId: 'o1' }),
    {
      method: 'POST',
      path: '/ecom/v1/checkouts/ch1/mark-as-completed',
      body: { id: 'ch1', orderId: 'o1' },
      returns: undefined,
    },
  ],
];

describe('checkout calls on the wire (wire contract, Checkout)', () => {
  it.each(calls)(
    'checkout.%s sends the request the wire contract lists and returns what the hosted client returns',
    async (_name, call, expected) => {
      const result = await call(visitor);
      expectWireCall(checkoutCalls(), expected, VISITOR);
      expect(result).toEqual(expected.returns);
    },
  );

  it('covers every method of the checkout module', () => {
    expectRowsCover(calls, Object.keys(checkout));
  });

  it('maps /v1/checkouts to /ecom/v1/checkouts on the hosted API host and on any other host', () => {
    expect(toPublicPath(CHECKOUTS, HOSTED_API_HOST, '/v1/checkouts/ch1')).toBe('/ecom/v1/checkouts/ch1');
    expect(toPublicPath(CHECKOUTS, 'localhost:4000', '/v1/checkouts/ch1/create-order')).toBe(
      '/ecom/v1/checkouts/ch1/create-order',
    );
  });

  it('escapes a checkout id so it stays one path segment, and copies it as given', async () => {
    await visitor.checkout.getCheckout('a/b c');
    const request = checkoutCalls()[0]!;
    expect(request.path).toBe('/ecom/v1/checkouts/a%2Fb%20c');
    expect(request.query.get('id')).toBe('a/b c');
  });

  it("turns a checkout's dates into Dates: created, updated, delivery slots, subscription billing", async () => {
    const read = await visitor.checkout.getCheckout('ch1');
    expect(read.createdDate).toEqual(new Date(CREATED));
    expect(read.updatedDate).toEqual(new Date(UPDATED));
    const slot =
      read.shippingInfo?.carrierServiceOptions?.[0]?.shippingOptions?.[0]?.logistics?.deliveryTimeSlot;
    expect(slot?.from).toEqual(new Date(SLOT_FROM));
    expect(slot?.to).toEqual(new Date(SLOT_TO));
    expect(read.subscriptionCharges?.charges?.[0]?.cycleBillingDate).toEqual(new Date(BILLED));
    const { checkout: changed } = await visitor.checkout.removeCoupon('ch1');
    expect(changed.updatedDate).toBeInstanceOf(Date);
  });

  it('leaves out of the body the options the caller did not give', async () => {
    await visitor.checkout.createOrder('ch1', {});
    await visitor.checkout.addToCheckout('ch1');
    await visitor.checkout.updateCheckout('ch1', {});
    expect(checkoutCalls().map((request) => request.body)).toEqual([
      { id: 'ch1' },
      { id: 'ch1' },
      { checkout: { id: 'ch1' } },
    ]);
  });

  it('raises a refused order as the application error the platform sent', async () => {
    server.respond = withVisitorTokens(() => ({
      status: 409,
      headers: { 'x-request-id': 'req-7' },
      body: {
        message: 'not enough in stock',
        details: {
          applicationError: {
            code: 'OUT_OF_STOCK',
            description: 'Only 1 Mug is left',
            data: { lineItemIds: ['li1'] },
          },
        },
      },
    }));
    const refused = visitor.checkout.createOrder('ch1');
    await expect(refused).rejects.toBeInstanceOf(ApplicationError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      code: 'OUT_OF_STOCK',
      description: 'Only 1 Mug is left',
      data: { lineItemIds: ['li1'] },
      requestId: 'req-7',
    });
  });

  it('raises missing buyer details as field violations', async () => {
    server.respond = withVisitorTokens(() => ({
      status: 400,
      body: {
        message: 'invalid checkout',
        details: {
          validationError: {
            fieldViolations: [
              {
                field: 'shippingAddress.city',
                description: 'is required',
                violatedRule: 'REQUIRED_FIELD',
              },
            ],
          },
        },
      },
    }));
    const refused = visitor.checkout.updateCheckout('ch1', { billingInfo: { address: { country: 'US' } } });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      fieldViolations: [{ field: 'shippingAddress.city', description: 'is required' }],
    });
  });
});
