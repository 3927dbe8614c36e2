import { DEFAULT_VARIANT_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/database.ts';
import { cartCalls, catalogLine, signUpFrom } from './cart-calls.ts';
import { admin, createProduct, visitorToken } from './catalog-http.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A cart's priced answer is kept and served again (carts/fast-path.ts) only while nothing it was
 * priced from has changed: each GET here follows a change that must show, never a stale price or stock.
 */
describe.each(DIALECTS)('kept cart answers on %s', (dialect) => {
  let platform: TestPlatform;
  /** A second process over the same database, as behind a load balancer. */
  let other: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    other = await startTestPlatform({ dialect, sharing: platform });
  });
  afterAll(async () => {
    await other?.stop();
    await platform?.stop();
  });

  /** A shopper of `platform` with a cart holding `quantity` of a new product priced `price`. */
  const shopperWith = async (product: Record<string, unknown>, quantity = 1) => {
    const made = await createProduct(platform, { productType: 'physical', ...product });
    const cart = cartCalls(platform, await visitorToken(platform));
    expect((await cart.add({ lineItems: [catalogLine(made.id, quantity)] })).status).toBe(200);
    return { product: made, cart };
  };
  const lineOf = async (cart: ReturnType<typeof cartCalls>) => (await cart.get()).body.cart.lineItems[0];

  it('shows a catalog price change made between two reads', async () => {
    const { product, cart } = await shopperWith({ name: 'Kept Mug', priceData: { price: 10 } });
    const subtotal = async () => (await cart.estimate()).body.priceSummary.subtotal.amount;
    expect((await lineOf(cart)).price.amount).toBe('10.00');
    expect((await lineOf(cart)).price.amount).toBe('10.00'); // served again, unchanged
    expect(await subtotal()).toBe('10.00');
    await admin(platform).patch(`/stores/v1/products/${product.id}`, {
      product: { priceData: { price: 12 } },
    });
    expect((await lineOf(cart)).price.amount).toBe('12.00');
    expect(await subtotal()).toBe('12.00');
  });

  it('shows stock an order took between two reads', async () => {
    const { product, cart } = await shopperWith(
      { name: 'Kept Vase', priceData: { price: 30 }, stock: { trackInventory: true, quantity: 5 } },
      3,
    );
    expect((await lineOf(cart)).availability).toEqual({ status: 'AVAILABLE', quantityAvailable: 5 });
    const { db } = platform.services.database;
    await inTransaction(db, (trx) =>
      platform.services.catalog.takeStock(trx, [
        { productId: product.id, variantId: DEFAULT_VARIANT_ID, quantity: 4 },
      ]),
    );
    expect((await lineOf(cart)).availability).toEqual({
      status: 'PARTIALLY_AVAILABLE',
      quantityAvailable: 1,
    });
    await inTransaction(db, (trx) =>
      platform.services.catalog.returnStock(trx, [
        { productId: product.id, variantId: DEFAULT_VARIANT_ID, quantity: 4 },
      ]),
    );
    expect((await lineOf(cart)).availability).toEqual({ status: 'AVAILABLE', quantityAvailable: 5 });
  });

  it("shows a price changed through another process's connection between two reads", async () => {
    const { product, cart } = await shopperWith({ name: 'Kept Lamp', priceData: { price: 40 } });
    expect((await lineOf(cart)).price.amount).toBe('40.00');
    expect(
      (await admin(other).patch(`/stores/v1/products/${product.id}`, { product: { visible: false } })).status,
    ).toBe(200);
    expect((await lineOf(cart)).availability.status).toBe('NOT_FOUND');
    await admin(other).patch(`/stores/v1/products/${product.id}`, {
      product: { visible: true, priceData: { price: 44 } },
    });
    expect((await lineOf(cart)).price.amount).toBe('44.00');
  });

  it('applies a discount rule created through another process, and one that starts between two reads', async () => {
    const { cart } = await shopperWith({ name: 'Kept Rug', priceData: { price: 100 } });
    const total = async () => (await cart.get()).body.cart.appliedDiscounts;
    expect(await total()).toEqual([]);
    const rule = (percentage: number, start?: string) => ({
      discountRule: {
        name: `${percentage}% off`,
        active: true,
        ...(start ? { activeTimeInfo: { start } } : {}),
        discounts: { values: [{ discountType: 'PERCENTAGE', percentage, targetType: 'ENTIRE_CART' }] },
      },
    });
    // the answer kept now must not outlive the moment the rule starts
    const startsAt = new Date(Date.now() + 1500).toISOString();
    const later = await admin(other).post('/ecom/v1/discount-rules', rule(20, startsAt));
    expect(later.status).toBe(200);
    expect(await total()).toEqual([]);
    expect(await total()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(startsAt) - Date.now() + 50));
    expect((await total()).map((applied: any) => applied.discountRule?.name?.original)).toEqual(['20% off']);
    await admin(other).delete(`/ecom/v1/discount-rules/${later.body.discountRule.id}`);
    expect(await total()).toEqual([]);
  });

  it('shows a store settings change made through another process between two reads', async () => {
    const { cart } = await shopperWith({ name: 'Kept Bowl', priceData: { price: 8 } });
    const before = (await cart.get()).body.cart;
    const weightUnit = before.weightUnit === 'KG' ? 'LB' : 'KG';
    await admin(other).patch('/api/cartwheel/store-settings', { storeSettings: { weightUnit } });
    expect((await cart.get()).body.cart.weightUnit).toBe(weightUnit);
  });

  it("shows another process's change to the cart itself", async () => {
    const { product, cart } = await shopperWith({ name: 'Kept Cup', priceData: { price: 3 } });
    expect((await lineOf(cart)).price.amount).toBe('3.00');
    // one shopper's token works on both processes
    const shopper = await visitorToken(platform);
    const here = cartCalls(platform, shopper);
    const there = cartCalls(other, shopper);
    await here.add({ lineItems: [catalogLine(product.id, 1)] });
    expect((await here.get()).body.cart.lineItems[0].quantity).toBe(1);
    await there.add({ lineItems: [catalogLine(product.id, 2)] });
    expect((await here.get()).body.cart.lineItems[0].quantity).toBe(3);
  });

  // A change starts from the cart row this process kept with its last answer, without reading it
  // (carts/fast-path.ts, CartFastPath.change): it must write only what a read would have let it write.
  describe('a change made from the cart this process last answered', () => {
    // a cart is kept with an answer once it has a revision and versions to key it: after the call
    // that makes it, the shopper's next look at it keeps it
    const quantities = (cart: any) =>
      Object.fromEntries(cart.lineItems.map((line: any) => [line.productName.original, line.quantity]));

    it("keeps another process's change to the cart made since", async () => {
      const tea = await createProduct(platform, {
        name: 'Kept Tea',
        productType: 'physical',
        priceData: { price: 5 },
      });
      const shopper = await visitorToken(platform);
      const here = cartCalls(platform, shopper);
      await here.add({ lineItems: [catalogLine(tea.id, 1)] });
      expect(quantities((await here.get()).body.cart)).toEqual({ 'Kept Tea': 1 });
      await cartCalls(other, shopper).add({ lineItems: [catalogLine(tea.id, 2)] });
      const answered = (await here.add({ lineItems: [catalogLine(tea.id, 1)] })).body.cart;
      expect(quantities(answered)).toEqual({ 'Kept Tea': 4 });
      expect(quantities((await here.get()).body.cart)).toEqual({ 'Kept Tea': 4 });
    });

    it('answers a price changed through another process since', async () => {
      const jam = await createProduct(platform, {
        name: 'Kept Jam',
        productType: 'physical',
        priceData: { price: 6 },
      });
      const here = cartCalls(platform, await visitorToken(platform));
      await here.add({ lineItems: [catalogLine(jam.id, 1)] });
      expect((await here.get()).body.cart.lineItems[0].price.amount).toBe('6.00');
      await admin(other).patch(`/stores/v1/products/${jam.id}`, { product: { priceData: { price: 7 } } });
      const line = (await here.add({ lineItems: [catalogLine(jam.id, 1)] })).body.cart.lineItems[0];
      expect([line.quantity, line.price.amount, line.lineItemPrice.amount]).toEqual([2, '7.00', '14.00']);
    });

    it('refuses a product hidden through another process since, and keeps the cart as it was', async () => {
      const kept = await createProduct(platform, {
        name: 'Kept Pen',
        productType: 'physical',
        priceData: { price: 2 },
      });
      const hidden = await createProduct(platform, {
        name: 'Kept Ink',
        productType: 'physical',
        priceData: { price: 3 },
      });
      const here = cartCalls(platform, await visitorToken(platform));
      await here.add({ lineItems: [catalogLine(kept.id, 1)] });
      await here.get();
      await admin(other).patch(`/stores/v1/products/${hidden.id}`, { product: { visible: false } });
      const refused = await here.add({ lineItems: [catalogLine(hidden.id, 1)] });
      expect(refused.status).toBe(400);
      expect(refused.body.details.applicationError.code).toBe('PRODUCT_NOT_FOUND');
      expect(quantities((await here.get()).body.cart)).toEqual({ 'Kept Pen': 1 });
    });

    it('starts a new cart when another process deleted the one it answered', async () => {
      const salt = await createProduct(platform, {
        name: 'Kept Salt',
        productType: 'physical',
        priceData: { price: 1 },
      });
      const shopper = await visitorToken(platform);
      const here = cartCalls(platform, shopper);
      await here.add({ lineItems: [catalogLine(salt.id, 5)] });
      const first = (await here.get()).body.cart;
      expect((await cartCalls(other, shopper).delete()).status).toBe(200);
      const second = (await here.add({ lineItems: [catalogLine(salt.id, 1)] })).body.cart;
      expect(second.id).not.toBe(first.id);
      expect(quantities(second)).toEqual({ 'Kept Salt': 1 });
    });

    it("merges the member's visitor cart made since, before adding", async () => {
      const soap = await createProduct(platform, {
        name: 'Kept Soap',
        productType: 'physical',
        priceData: { price: 4 },
      });
      const towel = await createProduct(platform, {
        name: 'Kept Towel',
        productType: 'physical',
        priceData: { price: 9 },
      });
      const visitor = await visitorToken(platform);
      const member = cartCalls(platform, await signUpFrom(platform, visitor, uniqueEmail('kept-merge')));
      await member.add({ lineItems: [catalogLine(soap.id, 1)] });
      await member.get();
      // the tab still signed out, on the other process, fills its visitor cart
      await cartCalls(other, visitor).add({ lineItems: [catalogLine(towel.id, 2)] });
      const answered = (await member.add({ lineItems: [catalogLine(soap.id, 1)] })).body.cart;
      expect(quantities(answered)).toEqual({ 'Kept Soap': 2, 'Kept Towel': 2 });
      expect(quantities((await member.get()).body.cart)).toEqual({ 'Kept Soap': 2, 'Kept Towel': 2 });
    });
  });
});
