import { STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine, signUpFrom } from './cart-calls.ts';
import { admin, createProduct, visitorToken } from './catalog-http.ts';
import {
  ADDRESS,
  adminOrder,
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  eventSlugs,
  expectBooksBalance,
  gatewayCharges,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
  violatedFields,
} from './checkout-support.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The checkout calls as the hosted client sends them: created from a cart or from lines, changed (and
 * re-priced) by its owner, and turned into an order by create-order once nothing is missing.
 */
describe.each(DIALECTS)('checkout calls, on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    const coupon = await admin(platform).post('/api/cartwheel/coupons', {
      coupon: { code: 'TENOFF', discountType: 'PERCENTAGE', percentage: 10 },
    });
    expect(coupon.status, JSON.stringify(coupon.body)).toBe(200);
  });
  afterAll(async () => {
    await platform?.stop();
  });
  // whatever a test did, every order's charge and every product's stock still add up
  afterEach(async () => {
    await expectBooksBalance(platform);
  });

  it("a checkout made from lines is the caller's, re-priced by each change, with the hosted client's addressLine1 read", async () => {
    const tee = await stockedProduct(platform, 'Api Tee', 20, 10);
    const cap = await stockedProduct(platform, 'Api Cap', 8, 10);
    const auth = await visitorToken(platform);
    const calls = checkoutCalls(platform, auth);

    const created = await calls.create({ lineItems: [catalogLine(tee.id, 1)], channelType: 'WEB' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkout = created.body.checkout;
    expect(checkout).toMatchObject({ completed: false, channelType: 'WEB', currency: 'USD', cartId: null });
    expect(checkout.lineItems[0]).toMatchObject({ productName: { original: 'Api Tee' }, quantity: 1 });
    expect(checkout.priceSummary.subtotal.amount).toBe('20.00');
    expect(typeof checkout.createdDate).toBe('string');
    expect(checkout.buyerInfo.visitorId).toBeDefined();
    const id = checkout.id as string;

    const patched = await calls.patch(id, { ...buyerDetails('bea@example.com'), couponCode: 'TENOFF' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.checkout.buyerInfo.email).toBe('bea@example.com');
    expect(patched.body.checkout.billingInfo.address.addressLine).toBe(ADDRESS.addressLine1);
    expect(patched.body.checkout.shippingInfo.shippingDestination.address.city).toBe('New York');
    expect(patched.body.checkout.shippingInfo.selectedCarrierServiceOption.code).toBe('standard');
    expect(patched.body.checkout.priceSummary.shipping.amount).toBe('5.00');
    expect(patched.body.checkout.appliedDiscounts.length).toBeGreaterThan(0);
    expect(patched.body.checkout.priceSummary.total.amount).toBe('23.00'); // 20 − 10% + 5

    const added = await calls.add(id, [catalogLine(cap.id, 2)]);
    expect(added.body.checkout.lineItems).toHaveLength(2);
    const capLine = added.body.checkout.lineItems.find(
      (line: any) => line.catalogReference.catalogItemId === cap.id,
    );
    const quantity = await calls.setQuantities(id, [{ id: capLine.id, quantity: 3 }]);
    expect(quantity.body.checkout.lineItems.find((line: any) => line.id === capLine.id).quantity).toBe(3);
    const removed = await calls.removeLines(id, [capLine.id]);
    expect(removed.body.checkout.lineItems).toHaveLength(1);
    const uncouponed = await calls.removeCoupon(id);
    expect(uncouponed.body.checkout.appliedDiscounts).toEqual([]);
    expect(uncouponed.body.checkout.priceSummary.total.amount).toBe('25.00');

    const unknownCoupon = await calls.patch(id, { couponCode: 'NOPE' });
    expect(applicationCode(unknownCoupon)).toBe('COUPON_DOES_NOT_EXIST');

    const url = await calls.checkoutUrl(id);
    expect(url.status).toBe(200);
    expect(new URL(url.body.checkoutUrl).pathname).toBe('/auth/checkout');
    expect(new URL(url.body.checkoutUrl).searchParams.get('session')).toBeTruthy();

    expect(await eventSlugs(platform, id)).toEqual([
      'created',
      'updated',
      'updated',
      'updated',
      'updated',
      'updated',
    ]);
  });

  it('create-order refuses with what is missing: lines, email, billing address, destination and carrier option', async () => {
    const book = await stockedProduct(platform, 'Order Rules Book', 15, 10);
    const shopper = await shopperCheckout(platform, [{ productId: book.id, quantity: 1 }], {
      details: false,
    });
    const calls = checkoutCalls(platform, shopper.auth);

    const missing = await calls.createOrder(shopper.checkoutId);
    expect(missing.status).toBe(400);
    expect(violatedFields(missing)).toEqual(
      expect.arrayContaining([
        'checkout.buyerInfo.email',
        'checkout.billingInfo.address',
        'checkout.shippingInfo.shippingDestination.address',
        'checkout.shippingInfo.selectedCarrierServiceOption.code',
      ]),
    );

    const partial = await calls.patch(shopper.checkoutId, {
      checkout: { buyerInfo: { email: 'not-an-email' }, billingInfo: { address: { country: 'US' } } },
    });
    expect(partial.status).toBe(200);
    const stillMissing = await calls.createOrder(shopper.checkoutId);
    expect(violatedFields(stillMissing)).toEqual(
      expect.arrayContaining([
        'checkout.buyerInfo.email',
        'checkout.billingInfo.address.city',
        'checkout.billingInfo.address.addressLine',
      ]),
    );

    const wrongType = await calls.patch(shopper.checkoutId, { checkout: { buyerInfo: { email: 42 } } });
    expect(wrongType.status).toBe(400);
    expect(violatedFields(wrongType)).toEqual(['checkout.buyerInfo.email']);

    const emptied = await calls.removeLines(shopper.checkoutId, [
      (await calls.get(shopper.checkoutId)).body.checkout.lineItems[0].id,
    ]);
    expect(emptied.body.checkout.lineItems).toEqual([]);
    const empty = await calls.createOrder(shopper.checkoutId);
    expect(applicationCode(empty)).toBe('EMPTY_CHECKOUT');
    expect(await stockOf(platform, book.id)).toBe(10);
  });

  it('create-order with something to pay makes an INITIALIZED, NOT_PAID order with a gateway order, once, holding no stock', async () => {
    const kettle = await stockedProduct(platform, 'Api Kettle', 35, 5);
    const shopper = await shopperCheckout(platform, [{ productId: kettle.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);

    const created = await calls.createOrder(shopper.checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.paymentGatewayOrderId).toBeTruthy();
    const order = await adminOrder(platform, created.body.orderId);
    expect(order).toMatchObject({
      status: 'INITIALIZED',
      paymentStatus: 'NOT_PAID',
      checkoutId: shopper.checkoutId,
    });
    expect(order.number).toMatch(/^\d+$/);
    expect(await stockOf(platform, kettle.id)).toBe(5);
    expect(await eventSlugs(platform, created.body.orderId)).toEqual(['created']);

    const again = await calls.createOrder(shopper.checkoutId);
    expect(again.body.orderId).toBe(created.body.orderId);
    expect(await stockOf(platform, kettle.id)).toBe(5);

    // search never lists an INITIALIZED order
    const search = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { id: { $eq: created.body.orderId } } },
    });
    expect(search.body.orders).toEqual([]);

    // paid later on the hosted page, it is that same order that is approved, its stock taken then;
    // the page saving the details it shows (and the client patching them again) changes nothing
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const repatched = await calls.patch(shopper.checkoutId, buyerDetails());
    expect(repatched.status, JSON.stringify(repatched.body)).toBe(200);
    const shown = (await page.session()).body.checkout;
    const saved = await page.update({
      email: shown.buyerInfo.email,
      shippingAddress: shown.shippingInfo.shippingDestination.address,
      billingSameAsShipping: true,
      selectedShippingOption: { code: shown.shippingInfo.selectedCarrierServiceOption.code },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await adminOrder(platform, created.body.orderId)).status).toBe('INITIALIZED');
    const paid = await page.pay('pay-the-created-order', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect(paid.body.orderId).toBe(created.body.orderId);
    const approved = await adminOrder(platform, created.body.orderId);
    expect(approved).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID', number: order.number });
    expect(approved.activities.map((activity: { type: string }) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_PAID',
    ]);
    expect(await stockOf(platform, kettle.id)).toBe(4);
    expect(await eventSlugs(platform, created.body.orderId, 'order')).toEqual([
      'created',
      'updated',
      'approved',
    ]);
  });

  it('a checkout changed after create-order cancels that unpaid order; paying makes the order anew', async () => {
    const pot = await stockedProduct(platform, 'Changed Pot', 20, 10);
    const shopper = await shopperCheckout(platform, [{ productId: pot.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const created = await calls.createOrder(shopper.checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await stockOf(platform, pot.id)).toBe(10);

    // the buyer wants three after all: the order made for one can no longer be what they pay
    const [line] = (await calls.get(shopper.checkoutId)).body.checkout.lineItems;
    const changed = await calls.setQuantities(shopper.checkoutId, [{ id: line.id, quantity: 3 }]);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await stockOf(platform, pot.id)).toBe(10);
    const canceled = await adminOrder(platform, created.body.orderId);
    expect(canceled.status).toBe('CANCELED');
    expect(canceled.activities.map((activity: { type: string }) => activity.type)).toEqual([
      'ORDER_PLACED',
      'ORDER_CANCELED',
    ]);
    expect(await eventSlugs(platform, created.body.orderId)).toEqual(['created', 'updated', 'canceled']);

    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const paid = await page.pay('pay-the-changed-checkout', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect(paid.body.orderId).not.toBe(created.body.orderId);
    const order = await adminOrder(platform, paid.body.orderId);
    expect(order.lineItems.map((item: { quantity: number }) => item.quantity)).toEqual([3]);
    expect(order.priceSummary.total.amount).toBe(changed.body.checkout.priceSummary.total.amount);
    expect(await stockOf(platform, pot.id)).toBe(7);
  });

  it("an unpaid order keeps no stock from other buyers: the last one goes to who pays first, and the order's payment then finds it gone", async () => {
    const lamp = await stockedProduct(platform, 'Last Lamp', 40, 1);
    const hoarder = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const hoarding = checkoutCalls(platform, hoarder.auth);
    const unpaid = await hoarding.createOrder(hoarder.checkoutId);
    expect(unpaid.status, JSON.stringify(unpaid.body)).toBe(200);
    // completing the checkout (no change can cancel its order now) holds nothing either
    expect((await hoarding.markCompleted(hoarder.checkoutId)).status).toBe(200);
    const later = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const late = await checkoutCalls(platform, later.auth).createOrder(later.checkoutId);
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(await stockOf(platform, lamp.id)).toBe(1);

    const buyer = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const page = pageCalls(platform, await checkoutSession(platform, buyer.auth, buyer.checkoutId));
    const bought = await page.pay('buy-the-last-lamp', CARDS.approved);
    expect(bought.body.status, JSON.stringify(bought.body)).toBe('APPROVED');
    expect(await stockOf(platform, lamp.id)).toBe(0);

    // the order created while the lamp was there, paid after it sold: out of stock, and no charge
    const charges = (await gatewayCharges(platform)).length;
    const latePage = pageCalls(platform, await checkoutSession(platform, later.auth, later.checkoutId));
    const refused = await latePage.pay('pay-after-it-sold-out', CARDS.approved);
    expect(refused.status).toBe(428);
    expect(applicationCode(refused)).toBe('OUT_OF_STOCK');
    expect((await gatewayCharges(platform)).length).toBe(charges);
    expect((await adminOrder(platform, late.body.orderId)).status).toBe('INITIALIZED');
    expect(await stockOf(platform, lamp.id)).toBe(0);
  });

  it('a checkout whose created order is being paid takes no change until that payment is over', async () => {
    const jug = await stockedProduct(platform, 'Paying Jug', 15, 5);
    const shopper = await shopperCheckout(platform, [{ productId: jug.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const created = await calls.createOrder(shopper.checkoutId);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const waiting = await page.pay('jug-3ds', CARDS.threeDSecure);
    expect(waiting.body.status, JSON.stringify(waiting.body)).toBe('REQUIRES_ACTION');

    const [line] = (await calls.get(shopper.checkoutId)).body.checkout.lineItems;
    const refused = await calls.setQuantities(shopper.checkoutId, [{ id: line.id, quantity: 2 }]);
    expect(refused.status).toBe(428);
    expect(applicationCode(refused)).toBe('PAYMENT_IN_PROGRESS');
    expect((await adminOrder(platform, created.body.orderId)).status).toBe('INITIALIZED');
    expect(await stockOf(platform, jug.id)).toBe(4);
  });

  it('a checkout whose payment waits on 3-D Secure takes no change, through the API or the page; what is paid is what was confirmed', async () => {
    const lamp = await stockedProduct(platform, 'Confirmed Lamp', 23.3, 10);
    const shopper = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const waiting = await page.pay('lamp-3ds', CARDS.threeDSecure);
    expect(waiting.body.status, JSON.stringify(waiting.body)).toBe('REQUIRES_ACTION');
    const attemptId = new URL(waiting.body.actionUrl, platform.url).searchParams.get('attempt') as string;
    expect((await page.attempt(attemptId)).body.amount.amount).toBe('28.30'); // 23.30 + 5.00 shipping

    const [line] = (await calls.get(shopper.checkoutId)).body.checkout.lineItems;
    const other = await stockedProduct(platform, 'Unwanted Shade', 5, 10);
    const changes = [
      calls.setQuantities(shopper.checkoutId, [{ id: line.id, quantity: 3 }]),
      calls.add(shopper.checkoutId, [catalogLine(other.id, 1)]),
      calls.removeLines(shopper.checkoutId, [line.id]),
      calls.patch(shopper.checkoutId, { couponCode: 'TENOFF' }),
      calls.patch(shopper.checkoutId, buyerDetails('someone.else@example.com')),
      page.update({ email: 'page.change@example.com' }),
      page.update({ couponCode: 'TENOFF' }),
      calls.createOrder(shopper.checkoutId),
    ];
    for (const refused of await Promise.all(changes)) {
      expect([refused.status, applicationCode(refused)], JSON.stringify(refused.body)).toEqual([
        428,
        'PAYMENT_IN_PROGRESS',
      ]);
    }
    const unchanged = (await calls.get(shopper.checkoutId)).body.checkout;
    expect(unchanged.lineItems.map((item: { quantity: number }) => item.quantity)).toEqual([1]);
    expect(unchanged.priceSummary.total.amount).toBe('28.30');

    const confirmed = await page.confirm(attemptId, true);
    expect(confirmed.body.status, JSON.stringify(confirmed.body)).toBe('APPROVED');
    const order = await adminOrder(platform, confirmed.body.orderId);
    expect(order.lineItems.map((item: { quantity: number }) => item.quantity)).toEqual([1]);
    expect(order.priceSummary.total.amount).toBe('28.30');
    const completed = (await calls.get(shopper.checkoutId)).body.checkout;
    expect(completed.completed).toBe(true);
    expect(completed.priceSummary.total.amount).toBe('28.30');
    const charges = (await gatewayCharges(platform)).filter((charge) =>
      charge.idempotency_key.startsWith(`${order.id}:`),
    );
    expect(charges.map((charge) => [charge.status, charge.amount])).toEqual([['APPROVED', '28.30']]);
    expect(await stockOf(platform, lamp.id)).toBe(9);
    expect((await cartCalls(platform, shopper.auth).get()).status).toBe(404);
  });

  it('a checkout takes changes again once its 3-D Secure step has failed or run out of time', async () => {
    const rug = await stockedProduct(platform, 'Stepped Rug', 30, 10);
    const shopper = await shopperCheckout(platform, [{ productId: rug.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const [line] = (await calls.get(shopper.checkoutId)).body.checkout.lineItems;
    const attemptOf = (answer: { body: { actionUrl: string } }) =>
      new URL(answer.body.actionUrl, platform.url).searchParams.get('attempt') as string;

    const failed = attemptOf(await page.pay('rug-3ds-failed', CARDS.threeDSecure));
    expect(applicationCode(await page.confirm(failed, false))).toBe('AUTHENTICATION_FAILED');
    const two = await calls.setQuantities(shopper.checkoutId, [{ id: line.id, quantity: 2 }]);
    expect(two.status, JSON.stringify(two.body)).toBe(200);

    const lapsed = attemptOf(await page.pay('rug-3ds-lapsed', CARDS.threeDSecure));
    expect(await stockOf(platform, rug.id)).toBe(8);
    await platform.services.database.db
      .updateTable('checkout_attempts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', lapsed)
      .execute();
    const three = await page.update({ email: 'late.rug@example.com' });
    expect(three.status, JSON.stringify(three.body)).toBe(200);
    // the lapsed step gave its stock back, and its confirmation is refused
    expect(await stockOf(platform, rug.id)).toBe(10);
    expect(applicationCode(await page.confirm(lapsed, true))).toBe('AUTHENTICATION_EXPIRED');
    const paid = await page.pay('rug-paid', CARDS.approved);
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect((await adminOrder(platform, paid.body.orderId)).lineItems[0].quantity).toBe(2);
    expect(await stockOf(platform, rug.id)).toBe(8);
  });

  it("a signed-in member's checkout starts with their account email and name; a visitor's with none", async () => {
    const scarf = await stockedProduct(platform, 'Member Scarf', 18, 5);
    const email = uniqueEmail('member-checkout');
    const member = await signUpFrom(platform, await visitorToken(platform), email);
    const fromCart = await shopperCheckout(platform, [{ productId: scarf.id, quantity: 1 }], {
      auth: member,
      details: false,
    });
    const checkout = (await checkoutCalls(platform, member).get(fromCart.checkoutId)).body.checkout;
    expect(checkout.buyerInfo).toMatchObject({ email, memberId: expect.any(String) });
    expect(checkout.billingInfo.contactDetails).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    const fromLines = await checkoutCalls(platform, member).create({ lineItems: [catalogLine(scarf.id, 1)] });
    expect(fromLines.body.checkout.buyerInfo.email).toBe(email);

    const visitor = await shopperCheckout(platform, [{ productId: scarf.id, quantity: 1 }], {
      details: false,
    });
    const visitorCheckout = (await checkoutCalls(platform, visitor.auth).get(visitor.checkoutId)).body
      .checkout;
    expect(visitorCheckout.buyerInfo.email ?? null).toBeNull();
    expect(visitorCheckout.billingInfo.contactDetails).toBeUndefined();
  });

  it('create-order with nothing to pay approves the order, completes the checkout and deletes the cart', async () => {
    const freebie = await createProduct(platform, {
      name: 'Free Sticker',
      productType: 'digital',
      priceData: { price: 0 },
    });
    const auth = await visitorToken(platform);
    const cart = cartCalls(platform, auth);
    await cart.add({ lineItems: [catalogLine(freebie.id, 1)] });
    const { checkoutId } = (await cart.createCheckout({ email: 'free@example.com' })).body;
    const calls = checkoutCalls(platform, auth);

    const created = await calls.createOrder(checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.paymentGatewayOrderId).toBeUndefined();
    const order = await adminOrder(platform, created.body.orderId);
    expect(order).toMatchObject({
      status: 'APPROVED',
      paymentStatus: 'PAID',
      fulfillmentStatus: 'FULFILLED',
    });
    expect(order.priceSummary.total.amount).toBe('0.00');
    expect((await calls.get(checkoutId)).body.checkout.completed).toBe(true);
    expect((await cart.get()).status).toBe(404);

    const late = await calls.patch(checkoutId, { couponCode: 'TENOFF' });
    expect(applicationCode(late)).toBe('CHECKOUT_ALREADY_COMPLETED');
  });

  it('a checkout is found by its cart, and mark-as-completed completes it', async () => {
    const plate = await stockedProduct(platform, 'Api Plate', 9, 5);
    const shopper = await shopperCheckout(platform, [{ productId: plate.id, quantity: 1 }]);
    const calls = checkoutCalls(platform, shopper.auth);
    const found = await calls.byCart(shopper.cartId);
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body.checkout.id).toBe(shopper.checkoutId);
    expect(found.body.checkout.cartId).toBe(shopper.cartId);

    const marked = await calls.markCompleted(shopper.checkoutId);
    expect(marked.status).toBe(200);
    expect((await calls.get(shopper.checkoutId)).body.checkout.completed).toBe(true);
    expect((await eventSlugs(platform, shopper.checkoutId)).at(-1)).toBe('completed');
  });

  it('bad input is a field violation, never a 500', async () => {
    const auth = await visitorToken(platform);
    const calls = checkoutCalls(platform, auth);
    const noReference = await calls.create({ lineItems: [{ quantity: 1 }] });
    expect(noReference.status).toBe(400);
    expect(violatedFields(noReference)).toEqual(['lineItems[0].catalogReference']);
    const zero = await calls.create({
      lineItems: [{ quantity: 0, catalogReference: { appId: STORES_APP_ID, catalogItemId: 'x' } }],
    });
    expect(violatedFields(zero)).toEqual(['lineItems[0].quantity']);
    const otherApp = await calls.create({
      lineItems: [{ quantity: 1, catalogReference: { appId: 'another-app', catalogItemId: 'x' } }],
    });
    expect(violatedFields(otherApp)).toEqual(['lineItems[0].catalogReference.appId']);
    const channel = await calls.create({ lineItems: [], channelType: 'CARRIER_PIGEON' });
    expect(violatedFields(channel)).toEqual(['channelType']);
    const missing = await calls.get('no-such-checkout');
    expect(missing.status).toBe(404);
  });
});
