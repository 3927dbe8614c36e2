import { DEFAULT_VARIANT_ID, STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { createProduct, createSizedProduct, visitorToken } from './catalog-http.ts';
import { applicationCode, checkoutCalls, violatedFields } from './checkout-support.ts';
import { EDGE_DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * What a checkout's line calls take, beside the cart's: one catalog reference schema for both, so a
 * checkout refuses what a cart refuses, at the same field; and the hosted client's lines still fit.
 */
describe.each(EDGE_DIALECTS)('checkout line input, on %s', (dialect) => {
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

  it('a checkout holds what a cart holds: 100,000 of one line however its choices are spelled, and 300 lines', async () => {
    const auth = await visitorToken(platform);
    const calls = checkoutCalls(platform, auth);
    const created = await calls.create({
      lineItems: [catalogLine(tee.id, 100_000, { options: { Size: 'M' } })],
      channelType: 'WEB',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.checkout.id as string;
    const [line] = created.body.checkout.lineItems;

    // the same variant again, by its choices in another case, grows that line: past the limit
    for (const options of [{ options: { size: ' m' } }, { options: { Size: 'M' } }]) {
      const added = await calls.add(id, [catalogLine(tee.id, 100_000, options)]);
      expect(added.status, JSON.stringify(added.body)).toBe(400);
      expect(applicationCode(added)).toBe('LINE_QUANTITY_LIMIT_EXCEEDED');
      expect(added.body.details.applicationError.data).toEqual({ lineItemId: line.id, maxQuantity: 100_000 });
    }
    const once = await calls.add(id, [catalogLine(tee.id, 1, { options: { size: 'm' } })]);
    expect(applicationCode(once)).toBe('LINE_QUANTITY_LIMIT_EXCEEDED');
    const kept = (await calls.get(id)).body.checkout;
    expect(kept.lineItems.map((item: any) => item.quantity)).toEqual([100_000]);
    expect(kept.priceSummary.subtotal.amount).toBe('2000000.00');

    // one call naming one item twice is one line, as in a cart
    const twice = await calls.create({
      lineItems: [catalogLine(mug.id, 60_000), catalogLine(mug.id, 60_000)],
      channelType: 'WEB',
    });
    expect(applicationCode(twice)).toBe('LINE_QUANTITY_LIMIT_EXCEEDED');
    const tooMany = await calls.setQuantities(id, [{ id: line.id, quantity: 100_001 }]);
    expect([tooMany.status, violatedFields(tooMany)]).toEqual([400, ['lineItems[0].quantity']]);

    // 300 lines are held; a 301st is refused
    const poster = await createProduct(platform, {
      name: 'Input Poster',
      productType: 'physical',
      priceData: { price: 1 },
      manageVariants: true,
      productOptions: [
        { name: 'Width', choices: range(20).map((n) => ({ value: `W${n}`, description: `W${n}` })) },
        { name: 'Height', choices: range(16).map((n) => ({ value: `H${n}`, description: `H${n}` })) },
      ],
    });
    const posterLine = (index: number) =>
      catalogLine(poster.id, 1, {
        options: { Width: `W${index % 20}`, Height: `H${Math.floor(index / 20)}` },
      });
    const full = await calls.create({ lineItems: range(300).map(posterLine), channelType: 'WEB' });
    expect(full.status, JSON.stringify(full.body).slice(0, 300)).toBe(200);
    expect(full.body.checkout.lineItems).toHaveLength(300);
    const over = await calls.add(full.body.checkout.id, [posterLine(300)]);
    expect(over.status).toBe(400);
    expect(applicationCode(over)).toBe('CHECKOUT_LINES_LIMIT_EXCEEDED');
    expect(over.body.details.applicationError.data).toEqual({ maxLineItems: 300 });
  });
});

const range = (count: number) => Array.from({ length: count }, (_, index) => index);
