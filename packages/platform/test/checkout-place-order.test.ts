import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { admin, call, createProduct, visitorToken } from './catalog-http.ts';
import {
  adminOrder,
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  eventSlugs,
  expectBooksBalance,
  gatewayCharges,
  openStock,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
  variantStock,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Placing an order through the hosted checkout page: a paid order with its number, statuses, payment
 * and events, the cart gone and the stock down; declines, 3-D Secure, and the same attempt key
 * answering the same order and one charge.
 */
describe.each(DIALECTS)('placing an order on the hosted checkout page, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    // in the test's process: one test replaces its payment provider to lose the gateway's answer
    platform = await startTestPlatform({ dialect, inProcess: true });
    await shipToUs(platform);
  });
  afterAll(async () => {
    await platform?.stop();
  });
  // whatever a test did, every order's charge and every product's stock still add up
  afterEach(async () => {
    await expectBooksBalance(platform);
  });

  it('a paid order is APPROVED and PAID with the next number, its payment recorded, the cart deleted and the stock taken', async () => {
    const mug = await stockedProduct(platform, 'Paid Mug', 12.5, 10);
    const first = await shopperCheckout(platform, [{ productId: mug.id, quantity: 2 }]);
    const session = await checkoutSession(platform, first.auth, first.checkoutId);
    const page = pageCalls(platform, session);

    const shown = await page.session();
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.checkout.id).toBe(first.checkoutId);
    expect(shown.body.settings.currency).toBe('USD');
    expect(shown.body.callbacks.thankYouPageUrl).toBe('http://shop.test/thanks');
    const total = shown.body.checkout.priceSummary.total.amount;
    expect(total).toBe('30.00'); // 2 × 12.50 + 5.00 shipping

    const paid = await page.pay('attempt-1', CARDS.approved);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe('APPROVED');
    const orderId = paid.body.orderId as string;
    expect(paid.body.redirectUrl).toBe(`http://shop.test/thanks?orderId=${orderId}`);

    const order = (
      await call(platform, 'GET', `/ecom/v1/orders/${orderId}?id=${orderId}`, undefined, first.auth)
    ).body.order;
    expect(order).toMatchObject({
      id: orderId,
      status: 'APPROVED',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'NOT_FULFILLED',
      checkoutId: first.checkoutId,
      currency: 'USD',
      channelInfo: { type: 'WEB' },
      buyerInfo: { email: 'ada@example.com' },
      priceSummary: {
        subtotal: { amount: '25.00' },
        shipping: { amount: '5.00' },
        total: { amount: '30.00' },
      },
      billingInfo: { address: { city: 'New York', addressLine: '1 Main Street' } },
      shippingInfo: {
        code: 'standard',
        logistics: { shippingDestination: { address: { city: 'New York' } } },
      },
      recipientInfo: { address: { city: 'New York' } },
    });
    expect(order.lineItems).toHaveLength(1);
    expect(order.lineItems[0]).toMatchObject({
      productName: { original: 'Paid Mug' },
      quantity: 2,
      price: { amount: '12.50' },
      lineItemPrice: { amount: '25.00' },
      catalogReference: { catalogItemId: mug.id },
    });
    expect(order.lineItems[0].taxInfo).toBeDefined();
    expect(order.activities.map((activity: { type: string }) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_PAID',
    ]);
    expect(typeof order.activities[0].createdDate).toBe('string');
    expect(order.number).toMatch(/^\d+$/);

    const transactions = await call(
      platform,
      'GET',
      `/ecom/v1/payments/orders/${orderId}?orderId=${orderId}`,
      undefined,
      first.auth,
    );
    expect(transactions.status).toBe(200);
    const payments = transactions.body.orderTransactions.payments;
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      amount: { amount: '30.00' },
      status: 'APPROVED',
      regularPaymentDetails: {
        offlinePayment: false,
        paymentMethodName: 'creditCard',
        creditCardDetails: { network: 'VISA', lastFourDigits: '4242' },
      },
    });
    expect(payments[0].regularPaymentDetails.authorizationDetails).toBeUndefined();
    expect(transactions.body.orderTransactions.refunds).toEqual([]);

    // the cart is gone, the checkout completed, the stock down by what was sold
    const cart = await cartCalls(platform, first.auth).get();
    expect(cart.status).toBe(404);
    const checkout = await checkoutCalls(platform, first.auth).get(first.checkoutId);
    expect(checkout.body.checkout.completed).toBe(true);
    expect(await stockOf(platform, mug.id)).toBe(8);
    expect(JSON.stringify(await gatewayCharges(platform))).not.toContain('4242424242424242');

    expect(await eventSlugs(platform, orderId, 'order')).toEqual(['created', 'approved']);
    expect(await eventSlugs(platform, orderId, 'orderTransactions')).toEqual(['updated']);
    const checkoutEvents = await eventSlugs(platform, first.checkoutId);
    expect(checkoutEvents[0]).toBe('created');
    expect(checkoutEvents.at(-1)).toBe('completed');

    // the next order takes the next number
    const second = await shopperCheckout(platform, [{ productId: mug.id, quantity: 1 }]);
    const secondPaid = await pageCalls(
      platform,
      await checkoutSession(platform, second.auth, second.checkoutId),
    ).pay('attempt-1', CARDS.approved);
    expect(secondPaid.body.status).toBe('APPROVED');
    const secondOrder = await adminOrder(platform, secondPaid.body.orderId);
    expect(Number(secondOrder.number)).toBe(Number(order.number) + 1);
    expect(await stockOf(platform, mug.id)).toBe(7);

    // a later catalog change leaves the sold lines as they were
    await admin(platform).patch(`/stores/v1/products/${mug.id}`, {
      product: { id: mug.id, name: 'Renamed Mug', priceData: { price: 99 } },
    });
    const again = await adminOrder(platform, orderId);
    expect(again.lineItems[0].productName.original).toBe('Paid Mug');
    expect(again.lineItems[0].price.amount).toBe('12.50');

    // the session now says the checkout is done, with the way back to the thank-you page
    const after = await page.session();
    expect(after.body.completed).toEqual({
      orderId,
      redirectUrl: `http://shop.test/thanks?orderId=${orderId}`,
    });
  });

  it('choices written in another case are the variant priced, stocked and paid for, counted or not', async () => {
    for (const trackInventory of [true, false]) {
      const jacket = await createProduct(platform, {
        name: `Cased Jacket ${trackInventory ? 'counted' : 'uncounted'}`,
        productType: 'physical',
        priceData: { price: 40 },
        manageVariants: true,
        stock: trackInventory
          ? { trackInventory: true, quantity: 3 }
          : { trackInventory: false, inStock: true },
        productOptions: [
          { name: 'Size', choices: ['S', 'M'].map((size) => ({ value: size, description: size })) },
          { name: 'Color', choices: ['Navy', 'Red'].map((color) => ({ value: color, description: color })) },
        ],
      });
      // the navy M costs more than the others: its price says which variant the line is
      const priced = await admin(platform).patch(`/stores/v1/products/${jacket.id}/variants`, {
        variants: [{ choices: { Size: 'M', Color: 'Navy' }, price: 55 }],
      });
      expect(priced.status, JSON.stringify(priced.body)).toBe(200);
      await openStock(platform, jacket.id);
      const auth = await visitorToken(platform);
      const cart = cartCalls(platform, auth);
      const added = await cart.add({
        lineItems: [catalogLine(jacket.id, 2, { options: { size: 'm', color: ' navy' } })],
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.cart.lineItems[0]).toMatchObject({
        price: { amount: '55.00' },
        availability: { status: 'AVAILABLE' },
      });
      const created = await cart.createCheckout({ channelType: 'WEB' });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const checkoutId = created.body.checkoutId as string;
      expect((await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails())).status).toBe(200);

      const paid = await pageCalls(platform, await checkoutSession(platform, auth, checkoutId)).pay(
        `cased-${trackInventory}`,
        CARDS.approved,
      );
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const order = await adminOrder(platform, paid.body.orderId);
      expect(order.lineItems[0]).toMatchObject({ quantity: 2, price: { amount: '55.00' } });
      expect(order.priceSummary.total.amount).toBe('115.00'); // 2 × 55.00 + 5.00 shipping
      if (trackInventory) {
        expect(await variantStock(platform, jacket.id)).toEqual({
          'S/Navy': 3,
          'S/Red': 3,
          'M/Navy': 1,
          'M/Red': 3,
        });
      }
    }
  });

  it("the buyer's name from the page reaches the order, and the delivery option the checkout shows is the one ordered", async () => {
    const scarf = await stockedProduct(platform, 'Named Scarf', 20, 5);
    const shopper = await shopperCheckout(platform, [{ productId: scarf.id, quantity: 1 }], {
      details: false,
    });
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const updated = await page.update({
      email: 'grace@example.com',
      shippingAddress: {
        country: 'US',
        subdivision: 'US-NY',
        city: 'New York',
        postalCode: '10001',
        addressLine1: '2 Side St',
      },
      billingSameAsShipping: true,
      contactDetails: { firstName: 'Grace', lastName: 'Hopper' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    // no option chosen: the checkout shows the cheapest delivery as selected, and that one is ordered
    expect(updated.body.checkout.shippingInfo.selectedCarrierServiceOption.code).toBe('standard');

    const paid = await page.pay('named-1', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const order = await adminOrder(platform, paid.body.orderId);
    expect(order.shippingInfo.logistics.shippingDestination.contactDetails).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    expect(order.shippingInfo).toMatchObject({ code: 'standard', title: 'Standard' });
  });

  it('paying a checkout leaves in the cart what the shopper added after checking out, in another tab', async () => {
    const cup = await stockedProduct(platform, 'Tab Cup', 9, 10);
    const saucer = await stockedProduct(platform, 'Tab Saucer', 4, 10);
    const shopper = await shopperCheckout(platform, [{ productId: cup.id, quantity: 1 }]);
    const cart = cartCalls(platform, shopper.auth);
    // the other tab: a saucer, and a second cup
    await cart.add({ lineItems: [catalogLine(saucer.id, 1), catalogLine(cup.id, 1)] });
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const paid = await page.pay('pay-the-first-tab', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const left = (await cart.get()).body.cart;
    expect(left.lineItems.map((line: any) => [line.productName.original, line.quantity])).toEqual([
      ['Tab Cup', 1],
      ['Tab Saucer', 1],
    ]);
    expect(left.checkoutId).toBeNull();
    expect(await stockOf(platform, cup.id)).toBe(9);
  });

  it('a declined card leaves the cart, the checkout and the stock as they were, and another card pays', async () => {
    const lamp = await stockedProduct(platform, 'Declined Lamp', 40, 3);
    const shopper = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));

    const declined = await page.pay('first-try', CARDS.declined);
    expect(declined.status).toBeGreaterThanOrEqual(400);
    expect(declined.status).toBeLessThan(500);
    expect(applicationCode(declined)).toBe('CARD_DECLINED');
    expect(declined.body.details.applicationError.description).toMatch(/declined/i);
    expect(await stockOf(platform, lamp.id)).toBe(3);
    expect((await cartCalls(platform, shopper.auth).get()).status).toBe(200);
    expect(
      (await checkoutCalls(platform, shopper.auth).get(shopper.checkoutId)).body.checkout.completed,
    ).toBe(false);
    const none = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { checkoutId: shopper.checkoutId } },
    });
    expect(none.body.orders).toEqual([]);

    // the same key answers the same refusal; it does not charge again
    const chargesBefore = (await gatewayCharges(platform)).length;
    const repeated = await page.pay('first-try', CARDS.declined);
    expect(applicationCode(repeated)).toBe('CARD_DECLINED');
    expect((await gatewayCharges(platform)).length).toBe(chargesBefore);

    const funds = await page.pay('second-try', CARDS.insufficientFunds);
    expect(applicationCode(funds)).toBe('INSUFFICIENT_FUNDS');
    expect(await stockOf(platform, lamp.id)).toBe(3);

    const paid = await page.pay('third-try', CARDS.approved);
    expect(paid.body.status).toBe('APPROVED');
    expect(await stockOf(platform, lamp.id)).toBe(2);
    expect((await cartCalls(platform, shopper.auth).get()).status).toBe(404);
  });

  it('a 3-D Secure card holds the stock until the shopper completes the step, then pays', async () => {
    const chair = await stockedProduct(platform, 'Secure Chair', 80, 2);
    const shopper = await shopperCheckout(platform, [{ productId: chair.id, quantity: 1 }]);
    const session = await checkoutSession(platform, shopper.auth, shopper.checkoutId);
    const page = pageCalls(platform, session);

    const step = await page.pay('secure-1', CARDS.threeDSecure);
    expect(step.status, JSON.stringify(step.body)).toBe(200);
    expect(step.body.status).toBe('REQUIRES_ACTION');
    const actionUrl = new URL(step.body.actionUrl, platform.url);
    expect(actionUrl.pathname).toBe('/auth/checkout/confirm');
    expect(actionUrl.searchParams.get('session')).toBe(session);
    const attemptId = actionUrl.searchParams.get('attempt') as string;
    expect(await stockOf(platform, chair.id)).toBe(1); // held while the step is pending

    const attempt = await page.attempt(attemptId);
    expect(attempt.body).toMatchObject({
      attemptId,
      status: 'REQUIRES_ACTION',
      amount: { amount: '85.00' },
      currency: 'USD',
    });

    // the same key again answers the same step, not a second charge
    const again = await page.pay('secure-1', CARDS.threeDSecure);
    expect(again.body.actionUrl).toBe(step.body.actionUrl);

    const confirmed = await page.confirm(attemptId, true);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.status).toBe('APPROVED');
    const order = await adminOrder(platform, confirmed.body.orderId);
    expect(order).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID' });
    expect(await stockOf(platform, chair.id)).toBe(1);
    const confirmedAgain = await page.confirm(attemptId, true);
    expect(confirmedAgain.body.orderId).toBe(confirmed.body.orderId);
  });

  it('a failed 3-D Secure step is AUTHENTICATION_FAILED and gives the stock back', async () => {
    const desk = await stockedProduct(platform, 'Unsecured Desk', 150, 1);
    const shopper = await shopperCheckout(platform, [{ productId: desk.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));

    const step = await page.pay('secure-fail', CARDS.threeDSecure);
    const attemptId = new URL(step.body.actionUrl, platform.url).searchParams.get('attempt') as string;
    expect(await stockOf(platform, desk.id)).toBe(0);

    const failed = await page.confirm(attemptId, false);
    expect(applicationCode(failed)).toBe('AUTHENTICATION_FAILED');
    expect(await stockOf(platform, desk.id)).toBe(1);
    expect(
      (await checkoutCalls(platform, shopper.auth).get(shopper.checkoutId)).body.checkout.completed,
    ).toBe(false);

    const paid = await page.pay('after-fail', CARDS.approved);
    expect(paid.body.status).toBe('APPROVED');
    expect(await stockOf(platform, desk.id)).toBe(0);
  });

  it('the same attempt key sent again, or twice at once, makes one order and one charge', async () => {
    const rug = await stockedProduct(platform, 'Retried Rug', 60, 5);
    const shopper = await shopperCheckout(platform, [{ productId: rug.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const before = (await gatewayCharges(platform)).length;

    const answers = await Promise.all([
      page.pay('double-click', CARDS.approved),
      page.pay('double-click', CARDS.approved),
      page.pay('double-click', CARDS.approved),
    ]);
    for (const answer of answers) expect(answer.body.status, JSON.stringify(answer.body)).toBe('APPROVED');
    expect(new Set(answers.map((answer) => answer.body.orderId)).size).toBe(1);
    const retried = await page.pay('double-click', CARDS.approved);
    expect(retried.body.orderId).toBe(answers[0]!.body.orderId);
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
    expect(await stockOf(platform, rug.id)).toBe(4);
  });

  it('a charge whose answer was lost is finished by a retry of the same key: one order, one charge', async () => {
    const bench = await stockedProduct(platform, 'Lost Answer Bench', 70, 3);
    const shopper = await shopperCheckout(platform, [{ productId: bench.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const { providers } = platform.services.payments;
    const gateway = providers.default;
    // the gateway charges the card, then the connection drops before its answer arrives
    providers.register({
      id: gateway.id,
      methodName: gateway.methodName,
      acceptsRawCards: gateway.acceptsRawCards,
      cardEntry: gateway.cardEntry,
      authorize: async (request) => {
        await gateway.authorize(request);
        throw new Error('socket hang up');
      },
      completeAction: (request) => gateway.completeAction(request),
      settle: (key) => gateway.settle(key),
      capture: (request) => gateway.capture(request),
      void: (request) => gateway.void(request),
      refund: (request) => gateway.refund(request),
    });
    const before = (await gatewayCharges(platform)).length;
    let lost: Awaited<ReturnType<typeof page.pay>>;
    try {
      lost = await page.pay('lost-answer', CARDS.approved);
    } finally {
      providers.register(gateway);
    }
    expect(lost.status).toBe(409);
    expect(applicationCode(lost)).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    expect(await stockOf(platform, bench.id)).toBe(2); // held: the charge may have been made

    const retried = await page.pay('lost-answer', CARDS.approved);
    expect(retried.body.status, JSON.stringify(retried.body)).toBe('APPROVED');
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
    expect(await stockOf(platform, bench.id)).toBe(2);
    const transactions = await admin(platform).get(`/ecom/v1/payments/orders/${retried.body.orderId}`);
    expect(transactions.body.orderTransactions.payments).toHaveLength(1);
  });

  it('two tabs paying one checkout at once make one order and one charge', async () => {
    const vase = await stockedProduct(platform, 'Two Tab Vase', 30, 5);
    const shopper = await shopperCheckout(platform, [{ productId: vase.id, quantity: 1 }]);
    const session = await checkoutSession(platform, shopper.auth, shopper.checkoutId);
    const before = (await gatewayCharges(platform)).length;

    const [tabA, tabB] = await Promise.all([
      pageCalls(platform, session).pay('tab-a', CARDS.approved),
      pageCalls(platform, session).pay('tab-b', CARDS.approved),
    ]);
    expect(tabA.body.status, JSON.stringify(tabA.body)).toBe('APPROVED');
    expect(tabB.body.status, JSON.stringify(tabB.body)).toBe('APPROVED');
    expect(tabA.body.orderId).toBe(tabB.body.orderId);
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
    expect(await stockOf(platform, vase.id)).toBe(4);
    const transactions = await admin(platform).get(`/ecom/v1/payments/orders/${tabA.body.orderId}`);
    expect(transactions.body.orderTransactions.payments).toHaveLength(1);
  });

  it('card details that cannot be a card are field violations, and nothing is taken', async () => {
    const pen = await stockedProduct(platform, 'Careful Pen', 3, 4);
    const shopper = await shopperCheckout(platform, [{ productId: pen.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));

    const luhn = await page.payWith({
      attemptKey: 'bad-1',
      card: { number: '4242 4242 4242 4241', expiry: '12/40', cvc: '123' },
    });
    expect(luhn.status).toBe(400);
    expect(luhn.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual([
      'card.number',
    ]);
    const expired = await page.payWith({
      attemptKey: 'bad-2',
      card: { number: CARDS.approved, expiry: '01/20', cvc: '123' },
    });
    expect(
      expired.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field),
    ).toEqual(['card.expiry']);
    const cvc = await page.payWith({
      attemptKey: 'bad-3',
      card: { number: CARDS.approved, expiry: '12/40', cvc: '12' },
    });
    expect(cvc.body.details.validationError.fieldViolations.map((v: { field: string }) => v.field)).toEqual([
      'card.cvc',
    ]);
    expect(await stockOf(platform, pen.id)).toBe(4);

    const unknownSession = await pageCalls(platform, 'not-a-session').session();
    expect(unknownSession.status).toBe(404);
    expect(applicationCode(unknownSession)).toBe('CHECKOUT_SESSION_NOT_FOUND');
  });

  it('a store that only authorizes leaves the order APPROVED with its payment PENDING and authorization details', async () => {
    const set = (capture: string) =>
      admin(platform).patch('/api/cartwheel/payment-settings', { paymentSettings: { capture } });
    expect((await set('AUTHORIZE_ONLY')).body).toEqual({ paymentSettings: { capture: 'AUTHORIZE_ONLY' } });
    try {
      const clock = await stockedProduct(platform, 'Authorized Clock', 20, 2);
      const shopper = await shopperCheckout(platform, [{ productId: clock.id, quantity: 1 }]);
      const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
      const paid = await page.pay('authorize', CARDS.approved);
      expect(paid.body.status).toBe('APPROVED');
      const order = await adminOrder(platform, paid.body.orderId);
      expect(order).toMatchObject({
        status: 'APPROVED',
        paymentStatus: 'PENDING',
        fulfillmentStatus: 'NOT_FULFILLED',
      });
      const transactions = await admin(platform).get(`/ecom/v1/payments/orders/${paid.body.orderId}`);
      const [payment] = transactions.body.orderTransactions.payments;
      expect(payment.status).toBe('AUTHORIZED');
      expect(payment.regularPaymentDetails.authorizationDetails).toMatchObject({
        delayedCapture: true,
        captures: [],
      });
      expect(typeof payment.regularPaymentDetails.authorizationDetails.authorizedDate).toBe('string');
      const [charge] = (await gatewayCharges(platform)).filter(
        (row) => row.transaction_id === payment.regularPaymentDetails.gatewayTransactionId,
      );
      expect(charge?.captured).toBe(0);
    } finally {
      await set('IMMEDIATE');
    }
  });
});
