import { DEFAULT_VARIANT_ID, STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { createProduct, createSizedProduct, visitorToken } from './catalog-http.ts';
import { checkoutCalls, violatedFields } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * What a checkout's line calls take, beside the cart's: one catalog reference schema for both, so a
 * checkout refuses what a cart refuses, at the same field; and the hosted client's lines still fit.
 */
describe.each(DIALECTS)('checkout line input, on %s', (dialect) => {
  let platform: TestPlatform;
  let mug: any; // no options
  let tee: any; // sizes S and M as variants

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    mug = await createProduct(platform, {
      name: 'Input Mug',
      productType: 'physical',
      priceData: { price: 9 },
    });
    tee = await createSizedProduct(platform, 'Input Tee', 20);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  /** Catalog references the cart's add-to-cart refuses, each with the field it names. */
  const junk = (productId: string): Array<[string, Record<string, unknown>, string]> =>
    [
      ['variantId an object', { options: { variantId: {} } }, 'options.variantId'],
      ['variantId a number', { options: { variantId: 1 } }, 'options.variantId'],
      ['variantId a list', { options: { variantId: ['x'] } }, 'options.variantId'],
      ['options text', { options: { options: 'x' } }, 'options.options'],
      ['an option value an object', { options: { options: { Size: { a: 1 } } } }, 'options.options.Size'],
      ['an empty appId', { appId: '' }, 'appId'],
      ['no appId', { appId: undefined }, 'appId'],
    ].map(([name, change, field]) => [
      name as string,
      { appId: STORES_APP_ID, catalogItemId: productId, ...(change as object) },
      `lineItems[0].catalogReference.${field}`,
    ]);

  it("create and add-to-checkout refuse the catalog references add-to-cart refuses, at the same field, and take the hosted client's", async () => {
    const auth = await visitorToken(platform);
    const cart = cartCalls(platform, auth);
    const calls = checkoutCalls(platform, auth);
    const open = await calls.create({ lineItems: [catalogLine(mug.id, 1)], channelType: 'WEB' });
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const id = open.body.checkout.id as string;

    for (const [name, catalogReference, field] of junk(mug.id)) {
      const line = { catalogReference: JSON.parse(JSON.stringify(catalogReference)), quantity: 1 };
      const carted = await cart.add({ lineItems: [line] });
      const created = await calls.create({ lineItems: [line], channelType: 'WEB' });
      const added = await calls.add(id, [line]);
      expect([carted.status, violatedFields(carted)], `cart, ${name}`).toEqual([400, [field]]);
      expect([created.status, violatedFields(created)], `create, ${name}`).toEqual([400, [field]]);
      expect([added.status, violatedFields(added)], `add-to-checkout, ${name}`).toEqual([400, [field]]);
      expect(created.body.details.validationError.fieldViolations).toEqual(
        carted.body.details.validationError.fieldViolations,
      );
    }
    // nothing refused reached the checkout
    expect((await calls.get(id)).body.checkout.lineItems).toHaveLength(1);

    // what the hosted client sends is still taken: options by variant id, by choice, or none
    const taken = await calls.create({
      lineItems: [
        catalogLine(mug.id, 1, { variantId: DEFAULT_VARIANT_ID }),
        catalogLine(tee.id, 2, { options: { Size: 'M' } }),
        { catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id, options: null }, quantity: 1 },
      ],
      channelType: 'WEB',
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const addedToo = await calls.add(taken.body.checkout.id, [
      catalogLine(tee.id, 1, { options: { Size: 'S' } }),
    ]);
    expect(addedToo.status, JSON.stringify(addedToo.body)).toBe(200);
    expect(addedToo.body.checkout.lineItems.map((line: any) => line.catalogReference.catalogItemId)).toEqual(
      expect.arrayContaining([mug.id, tee.id]),
    );
  });

  it('update-line-items-quantity and remove-line-items refuse an empty list, as the cart does', async () => {
    const auth = await visitorToken(platform);
    const cart = cartCalls(platform, auth);
    const calls = checkoutCalls(platform, auth);
    const created = await calls.create({ lineItems: [catalogLine(mug.id, 1)], channelType: 'WEB' });
    const id = created.body.checkout.id as string;

    const cartQuantities = await cart.setQuantities([]);
    const quantities = await calls.setQuantities(id, []);
    expect([cartQuantities.status, violatedFields(cartQuantities)]).toEqual([400, ['lineItems']]);
    expect([quantities.status, violatedFields(quantities)]).toEqual([400, ['lineItems']]);
    const cartRemoved = await cart.removeLines([]);
    const removed = await calls.removeLines(id, []);
    expect([cartRemoved.status, violatedFields(cartRemoved)]).toEqual([400, ['lineItemIds']]);
    expect([removed.status, violatedFields(removed)]).toEqual([400, ['lineItemIds']]);

    // one line is still a change both take
    const line = created.body.checkout.lineItems[0];
    const one = await calls.setQuantities(id, [{ id: line.id, quantity: 2 }]);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.checkout.lineItems[0].quantity).toBe(2);
  });
});
