import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpFrom } from './cart-calls.ts';
import { admin, call, visitorToken } from './catalog-http.ts';
import { checkoutCalls, placeOrder, shipToUs, shopperCheckout, stockedProduct } from './checkout-support.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Who reads what: a checkout and its order belong to the visitor or member who bought; another shopper
 * is told they do not exist; a member's search lists only their own orders; the admin key reads all.
 */
describe.each(DIALECTS)('checkout and order access, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Access Poster', 10, 100)).id;
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const get = (path: string, auth?: string) => call(platform, 'GET', path, undefined, auth);
  const post = (path: string, body: unknown, auth?: string) => call(platform, 'POST', path, body, auth);

  it('another visitor cannot read, change, order or open a session for my checkout', async () => {
    const mine = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    const stranger = await visitorToken(platform);
    const theirs = checkoutCalls(platform, stranger);

    expect((await checkoutCalls(platform, mine.auth).get(mine.checkoutId)).status).toBe(200);
    expect((await theirs.get(mine.checkoutId)).status).toBe(404);
    expect((await theirs.byCart(mine.cartId)).status).toBe(404);
    expect((await theirs.patch(mine.checkoutId, { couponCode: null })).status).toBe(404);
    expect((await theirs.createOrder(mine.checkoutId)).status).toBe(404);
    expect((await theirs.checkoutUrl(mine.checkoutId)).status).toBe(404);
    const session = await post(
      '/_api/redirects-api/v1/redirect-session',
      { ecomCheckout: { checkoutId: mine.checkoutId }, callbacks: { postFlowUrl: 'http://shop.test/' } },
      stranger,
    );
    expect(session.status).toBe(404);
    expect((await admin(platform).get(`/ecom/v1/checkouts/${mine.checkoutId}`)).status).toBe(200);
    expect((await get(`/ecom/v1/checkouts/${mine.checkoutId}`)).status).toBe(401);
  });

  it('another visitor cannot read my order or its transactions; I can, and so can the admin', async () => {
    const { auth, orderId } = await placeOrder(platform, productId);
    const stranger = await visitorToken(platform);

    expect((await get(`/ecom/v1/orders/${orderId}`, auth)).status).toBe(200);
    expect((await get(`/ecom/v1/orders/${orderId}`, stranger)).status).toBe(404);
    expect((await get(`/ecom/v1/payments/orders/${orderId}`, stranger)).status).toBe(404);
    const listed = await post('/ecom/v1/payments/list-by-ids', { orderIds: [orderId] }, stranger);
    expect(listed.body.orderTransactions).toEqual([]);
    const own = await post('/ecom/v1/payments/list-by-ids', { orderIds: [orderId, 'unknown-order'] }, auth);
    expect(own.body.orderTransactions.map((entry: { orderId: string }) => entry.orderId)).toEqual([orderId]);
    expect(own.body.orderTransactions[0].payments).toHaveLength(1);
    expect((await admin(platform).get(`/ecom/v1/orders/${orderId}`)).status).toBe(200);
    expect((await get(`/ecom/v1/orders/${orderId}`)).status).toBe(401);

    const mySearch = await post('/ecom/v1/orders/search', {}, auth);
    expect(mySearch.body.orders.map((order: { id: string }) => order.id)).toEqual([orderId]);
    const strangerSearch = await post('/ecom/v1/orders/search', {}, stranger);
    expect(strangerSearch.body.orders).toEqual([]);
  });

  it("a member's search lists only their own orders, and another member's order is not found", async () => {
    const ann = await signUpFrom(platform, await visitorToken(platform), uniqueEmail('ann'));
    const bob = await signUpFrom(platform, await visitorToken(platform), uniqueEmail('bob'));
    const annFirst = await placeOrder(platform, productId, { auth: ann });
    const annSecond = await placeOrder(platform, productId, { auth: ann });
    const bobs = await placeOrder(platform, productId, { auth: bob });

    const annSearch = await post('/ecom/v1/orders/search', { search: {} }, ann);
    expect(annSearch.status).toBe(200);
    expect(annSearch.body.orders.map((order: { id: string }) => order.id)).toEqual([
      annSecond.orderId,
      annFirst.orderId,
    ]);
    expect(annSearch.body.orders[0].buyerInfo.memberId).toBeTruthy();
    // a filter naming another member's id still finds only her own (none)
    const bobsMemberId = (await get(`/ecom/v1/orders/${bobs.orderId}`, bob)).body.order.buyerInfo.memberId;
    const prying = await post(
      '/ecom/v1/orders/search',
      { search: { filter: { 'buyerInfo.memberId': { $eq: bobsMemberId } } } },
      ann,
    );
    expect(prying.body.orders).toEqual([]);
    expect((await get(`/ecom/v1/orders/${bobs.orderId}`, ann)).status).toBe(404);

    const all = await admin(platform).post('/ecom/v1/orders/search', {
      search: { cursorPaging: { limit: 100 } },
    });
    const ids = all.body.orders.map((order: { id: string }) => order.id);
    expect(ids).toEqual(expect.arrayContaining([annFirst.orderId, annSecond.orderId, bobs.orderId]));
    const byMember = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.memberId': bobsMemberId } },
    });
    expect(byMember.body.orders.map((order: { id: string }) => order.id)).toEqual([bobs.orderId]);
  });
});
