import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import {
  applicationCode,
  cartCalls,
  catalogLine,
  customLine,
  elevated,
  signInFrom,
  signUpFrom,
} from './cart-calls.ts';
import { createProduct, visitorToken } from './catalog-http.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A visitor who signs in keeps what they put in the cart: their visitor cart joins the member's, once,
 * however many tabs ask at the same moment.
 */
describe.each(DIALECTS)("a visitor's cart on signing in, on %s", (dialect) => {
  let platform: TestPlatform;
  let mug: any;
  let lamp: any;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    mug = await createProduct(platform, {
      name: 'Merge Mug',
      productType: 'physical',
      priceData: { price: 4 },
    });
    lamp = await createProduct(platform, {
      name: 'Merge Lamp',
      productType: 'physical',
      priceData: { price: 30 },
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("becomes the new member's cart, id and all, when they had none", async () => {
    const visitor = await visitorToken(platform);
    const before = await cartCalls(platform, visitor).add({ lineItems: [catalogLine(mug.id, 2)] });
    const member = await signUpFrom(platform, visitor, uniqueEmail('merge-new'));

    const [first, second] = await Promise.all([
      cartCalls(platform, member).get(),
      cartCalls(platform, member).get(),
    ]);
    expect(first.status).toBe(200);
    expect(second.body.cart).toEqual(first.body.cart);
    expect(first.body.cart).toMatchObject({
      id: before.body.cart.id,
      buyerInfo: { memberId: expect.any(String) },
      lineItems: [expect.objectContaining({ quantity: 2 })],
    });
    expect(first.body.cart.buyerInfo.visitorId).toBeUndefined();
    // the visitor's token no longer finds a cart of its own
    expect(applicationCode(await cartCalls(platform, visitor).get())).toBe('OWNED_CART_NOT_FOUND');
  });

  it("joins the member's cart exactly once when several tabs call at the same moment: quantities add, nothing dropped", async () => {
    const email = uniqueEmail('merge-two');
    const firstVisitor = await visitorToken(platform);
    const firstMember = await signUpFrom(platform, firstVisitor, email);
    const own = await cartCalls(platform, firstMember).add({ lineItems: [catalogLine(mug.id, 1)] });
    await cartCalls(platform, firstMember).patch({ cartInfo: { buyerNote: 'the member wrote this' } });

    // later, signed out, as a new visitor: another cart, then signing in again
    const secondVisitor = await visitorToken(platform);
    // a custom line (added by a server holding the admin key, on this visitor's cart) comes along too
    const visitorCart = await cartCalls(platform, elevated(secondVisitor)).add({
      lineItems: [catalogLine(mug.id, 2), catalogLine(lamp.id, 1)],
      customLineItems: [customLine('Gift wrap', '2.50')],
    });
    await cartCalls(platform, secondVisitor).patch({ cartInfo: { buyerNote: 'the visitor wrote this' } });
    const member = await signInFrom(platform, secondVisitor, email);

    // several tabs at once: four reads and two adds
    const tabs = cartCalls(platform, member);
    const answers = await Promise.all([
      tabs.get(),
      tabs.add({ lineItems: [catalogLine(lamp.id, 1)] }),
      tabs.get(),
      tabs.get(),
      tabs.add({ lineItems: [catalogLine(lamp.id, 1)] }),
      tabs.get(),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    const merged = (await cartCalls(platform, member).get()).body.cart;
    expect(merged.id).toBe(own.body.cart.id);
    expect(merged.buyerNote).toBe('the member wrote this');
    const quantities = Object.fromEntries(
      merged.lineItems.map((line: any) => [line.productName.original, line.quantity]),
    );
    expect(quantities).toEqual({ 'Merge Mug': 3, 'Merge Lamp': 3, 'Gift wrap': 1 });

    const visitorEvents = await readEvents(platform.services.database.db, {
      entityId: visitorCart.body.cart.id,
    });
    expect(visitorEvents.filter((event) => event.slug === 'deleted')).toHaveLength(1);
    expect(applicationCode(await cartCalls(platform, secondVisitor).get())).toBe('OWNED_CART_NOT_FOUND');
  });

  it("keeps the visitor's coupon when the member's cart has none, and the member's own when it has one", async () => {
    await platform.services.storeSettings.createCoupon({
      code: 'VISITOR10',
      discountType: 'PERCENTAGE',
      percentage: 10,
    } as any);
    await platform.services.storeSettings.createCoupon({
      code: 'MEMBER5',
      discountType: 'PERCENTAGE',
      percentage: 5,
    } as any);
    const couponOf = (cart: any) => cart.appliedDiscounts.map((discount: any) => discount.coupon?.code);

    const email = uniqueEmail('merge-coupon');
    const member = await signUpFrom(platform, await visitorToken(platform), email);
    await cartCalls(platform, member).add({ lineItems: [catalogLine(mug.id, 1)] });
    const visitor = await visitorToken(platform);
    await cartCalls(platform, visitor).add({ lineItems: [catalogLine(lamp.id, 1)] });
    expect((await cartCalls(platform, visitor).patch({ couponCode: 'VISITOR10' })).status).toBe(200);
    const merged = (await cartCalls(platform, await signInFrom(platform, visitor, email)).get()).body.cart;
    expect(merged.lineItems).toHaveLength(2);
    expect(couponOf(merged)).toEqual(['VISITOR10']);

    // the member's cart now holds a coupon: another visitor's does not replace it
    const later = await visitorToken(platform);
    await cartCalls(platform, later).patch({ couponCode: 'MEMBER5', lineItems: [catalogLine(mug.id, 1)] });
    const memberAgain = await signInFrom(platform, later, email);
    const kept = (await cartCalls(platform, memberAgain).get()).body.cart;
    expect(couponOf(kept)).toEqual(['VISITOR10']);
    expect(kept.lineItems.map((line: any) => line.quantity)).toEqual([2, 1]);
  });
});
