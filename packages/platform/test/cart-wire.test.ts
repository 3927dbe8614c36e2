import { DEFAULT_VARIANT_ID, STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/database.ts';
import { readEvents } from '../src/events/outbox.ts';
import { MAX_LINES } from '../src/pricing/line-limits.ts';
import { applicationCode, cartCalls, catalogLine, customLine, elevated } from './cart-calls.ts';
import { admin, call, createProduct, createSizedProduct, fieldsOf, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The nine current-cart calls over real HTTP: their answers' shapes, and their refusals. */
describe.each(DIALECTS)('the current cart on %s', (dialect) => {
  let platform: TestPlatform;
  let mug: any; // 12.50, no options
  let tee: any; // 20.00, sizes S and M as variants
  let hidden: any;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    mug = await createProduct(platform, {
      name: 'Cart Mug',
      productType: 'physical',
      priceData: { price: 12.5 },
    });
    tee = await createSizedProduct(platform, 'Cart Tee', 20);
    hidden = await createProduct(platform, { name: 'Cart Hidden', priceData: { price: 5 }, visible: false });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const shopper = async () => cartCalls(platform, await visitorToken(platform));
  /** A server acting on a new shopper's cart: it may add custom lines. */
  const elevatedShopper = async () => cartCalls(platform, elevated(await visitorToken(platform)));

  it('answers 404 OWNED_CART_NOT_FOUND to GET and estimate-totals before anything was added', async () => {
    const cart = await shopper();
    const got = await cart.get();
    expect(got.status).toBe(404);
    expect(applicationCode(got)).toBe('OWNED_CART_NOT_FOUND');
    const estimate = await cart.estimate();
    expect(estimate.status).toBe(404);
    expect(applicationCode(estimate)).toBe('OWNED_CART_NOT_FOUND');
  });

  it('creates the cart on add-to-cart and answers it in the wire shape, priced', async () => {
    const cart = await elevatedShopper();
    const added = await cart.add({
      lineItems: [catalogLine(mug.id, 2)],
      customLineItems: [customLine('Gift wrap', '5', 1)],
    });
    expect(added.status).toBe(200);
    const wire = added.body.cart;
    expect(wire).toMatchObject({
      id: expect.any(String),
      buyerInfo: { visitorId: expect.any(String) },
      currency: expect.any(String),
      conversionCurrency: wire.currency,
      taxIncludedInPrices: expect.any(Boolean),
      weightUnit: expect.stringMatching(/^(KG|LB)$/),
      checkoutId: null,
      appliedDiscounts: [],
    });
    expect(wire.createdDate).toMatch(ISO_DATE);
    expect(wire.updatedDate).toMatch(ISO_DATE);
    expect(wire.lineItems).toHaveLength(2);
    const [mugLine, wrapLine] = wire.lineItems;
    expect(mugLine).toMatchObject({
      id: expect.any(String),
      quantity: 2,
      catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id },
      productName: { original: 'Cart Mug' },
      price: { amount: '12.50' },
      lineItemPrice: { amount: '25.00' },
    });
    expect(wrapLine).toMatchObject({ quantity: 1, price: { amount: '5.00' } });
    expect(mugLine.id).not.toBe(wrapLine.id);

    const got = await cart.get();
    expect(got.status).toBe(200);
    expect(got.body.cart).toEqual(wire);
  });

  it('grows the line of an item already in the cart instead of adding another', async () => {
    const cart = await shopper();
    const first = await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const lineId = first.body.cart.lineItems[0].id;
    const again = await cart.add({ lineItems: [catalogLine(mug.id, 3), catalogLine(mug.id, 1)] });
    expect(again.body.cart.lineItems).toEqual([expect.objectContaining({ id: lineId, quantity: 5 })]);
  });

  it('keeps different variants of one product on their own lines', async () => {
    const [small, medium] = tee.variants.map((variant: { id: string }) => variant.id);
    const cart = await shopper();
    await cart.add({ lineItems: [catalogLine(tee.id, 1, { variantId: small })] });
    const both = await cart.add({
      lineItems: [
        catalogLine(tee.id, 1, { variantId: medium }),
        catalogLine(tee.id, 2, { variantId: small }),
      ],
    });
    const lines = both.body.cart.lineItems;
    expect(lines.map((line: any) => [line.catalogReference.options.variantId, line.quantity])).toEqual([
      [small, 3],
      [medium, 1],
    ]);
  });

  it('adds a variant named by its choices, as the hosted storefront names it', async () => {
    const cart = await shopper();
    const added = await cart.add({ lineItems: [catalogLine(tee.id, 1, { options: { Size: 'M' } })] });
    expect(added.status).toBe(200);
    expect(added.body.cart.lineItems[0]).toMatchObject({
      catalogReference: { options: { options: { Size: 'M' } } },
      availability: { status: 'AVAILABLE' },
    });
  });

  it('grows one line when the same variant is named by its id, by its choices, or in another case', async () => {
    const medium = tee.variants.find((variant: any) => variant.choices.Size === 'M').id;
    const cart = await shopper();
    await cart.add({ lineItems: [catalogLine(tee.id, 1, { options: { Size: 'M' } })] });
    await cart.add({ lineItems: [catalogLine(tee.id, 2, { variantId: medium })] });
    const grown = await cart.add({ lineItems: [catalogLine(tee.id, 3, { options: { size: 'm' } })] });
    expect(grown.status).toBe(200);
    expect(grown.body.cart.lineItems).toEqual([
      expect.objectContaining({
        quantity: 6,
        catalogReference: expect.objectContaining({ options: { options: { Size: 'M' } } }),
      }),
    ]);
    // a product without options: no options and its one variant by id are one item too
    const plain = await shopper();
    await plain.add({ lineItems: [catalogLine(mug.id, 1)] });
    const both = await plain.add({ lineItems: [catalogLine(mug.id, 1, { variantId: DEFAULT_VARIANT_ID })] });
    expect(both.body.cart.lineItems.map((line: any) => line.quantity)).toEqual([2]);
  });

  it('refuses a product that does not exist or is hidden, or a variant it lacks, and adds nothing', async () => {
    const cart = await shopper();
    await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const missing = await cart.add({
      lineItems: [catalogLine(mug.id, 1), catalogLine('no-such-product', 1)],
    });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(['lineItems[1].catalogReference.catalogItemId']);
    expect(applicationCode(missing)).toBe('PRODUCT_NOT_FOUND');
    const invisible = await cart.add({ lineItems: [catalogLine(hidden.id, 1)] });
    expect(fieldsOf(invisible)).toEqual(['lineItems[0].catalogReference.catalogItemId']);
    const noVariant = await cart.add({
      lineItems: [catalogLine(mug.id, 1, { variantId: 'no-such-variant' })],
    });
    expect(fieldsOf(noVariant)).toEqual(['lineItems[0].catalogReference.options']);
    const noChoice = await cart.add({ lineItems: [catalogLine(tee.id, 1, { options: { Size: 'XXL' } })] });
    expect(fieldsOf(noChoice)).toEqual(['lineItems[0].catalogReference.options']);
    expect((await cart.get()).body.cart.lineItems).toEqual([expect.objectContaining({ quantity: 1 })]);
  });

  it('keeps a line whose product is hidden later, marked NOT_FOUND, and refuses adding more of it', async () => {
    const vase = await createProduct(platform, {
      name: 'Cart Vase',
      productType: 'physical',
      priceData: { price: 9 },
    });
    const cart = await elevatedShopper();
    await cart.add({ lineItems: [catalogLine(vase.id, 1)], customLineItems: [customLine('Wrap', '1')] });
    expect(
      (await admin(platform).patch(`/stores/v1/products/${vase.id}`, { product: { visible: false } })).status,
    ).toBe(200);
    const got = await cart.get();
    expect(got.body.cart.lineItems[0]).toMatchObject({
      catalogReference: { catalogItemId: vase.id },
      availability: { status: 'NOT_FOUND' },
    });
    const more = await cart.add({ lineItems: [catalogLine(vase.id, 1)] });
    expect(fieldsOf(more)).toEqual(['lineItems[0].catalogReference.catalogItemId']);
    expect((await cart.get()).body.cart.lineItems.map((line: any) => line.quantity)).toEqual([1, 1]);
  });

  it('changes nothing when a PATCH names a product the store does not sell', async () => {
    await platform.services.storeSettings.createCoupon({
      code: 'PATCHTEN',
      discountType: 'PERCENTAGE',
      percentage: 10,
    } as any);
    const cart = await shopper();
    const added = await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const refused = await cart.patch({
      couponCode: 'PATCHTEN',
      cartInfo: { buyerNote: 'x' },
      lineItems: [catalogLine('no-such-product', 1)],
    });
    expect(fieldsOf(refused)).toEqual(['lineItems[0].catalogReference.catalogItemId']);
    expect((await cart.get()).body.cart).toEqual(added.body.cart);
  });

  it('refuses malformed lines with field violations naming them', async () => {
    const cart = await shopper();
    const cases: Array<[unknown, string, string]> = [
      [{ lineItems: [{ ...catalogLine(mug.id), quantity: 0 }] }, 'lineItems[0].quantity', 'MIN'],
      [{ lineItems: [{ ...catalogLine(mug.id), quantity: 1.5 }] }, 'lineItems[0].quantity', 'FORMAT'],
      [{ lineItems: [{ ...catalogLine(mug.id), quantity: 100_001 }] }, 'lineItems[0].quantity', 'MAX'],
      [
        { lineItems: [{ catalogReference: { appId: 'another-app', catalogItemId: mug.id } }] },
        'lineItems[0].catalogReference.appId',
        'INVALID_ENUM_VALUE',
      ],
      [{ lineItems: [{ quantity: 1 }] }, 'lineItems[0].catalogReference', 'REQUIRED_FIELD'],
      [{ customLineItems: [customLine('Wrap', '5.001')] }, 'customLineItems[0].price', 'FORMAT'],
      [{ customLineItems: [customLine('Wrap', '-5')] }, 'customLineItems[0].price', 'FORMAT'],
      [{ customLineItems: [{ ...customLine('Wrap', '5'), price: 5 }] }, 'customLineItems[0].price', 'FORMAT'],
      [{ customLineItems: [{ price: '5' }] }, 'customLineItems[0].productName', 'REQUIRED_FIELD'],
    ];
    for (const [body, field, rule] of cases) {
      const answer = await cart.add(body);
      expect(answer.status, field).toBe(400);
      expect(answer.body.details.validationError.fieldViolations[0]).toMatchObject({
        field,
        violatedRule: rule,
      });
    }
    expect((await cart.get()).status).toBe(404);
  });

  it('sets quantities, refusing a line id the cart does not hold and a quantity under 1', async () => {
    const cart = await elevatedShopper();
    const added = await cart.add({
      lineItems: [catalogLine(mug.id, 1)],
      customLineItems: [customLine('Wrap', '2')],
    });
    const [mugLine, wrapLine] = added.body.cart.lineItems;
    const updated = await cart.setQuantities([
      { id: mugLine.id, quantity: 4 },
      { id: wrapLine.id, quantity: 2 },
    ]);
    expect(updated.status).toBe(200);
    expect(updated.body.cart.lineItems.map((line: any) => line.quantity)).toEqual([4, 2]);
    expect(updated.body.cart.lineItems[0].lineItemPrice.amount).toBe('50.00');

    const unknown = await cart.setQuantities([
      { id: mugLine.id, quantity: 9 },
      { id: 'no-such-line', quantity: 1 },
    ]);
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['lineItems[1].id']);
    const zero = await cart.setQuantities([{ id: mugLine.id, quantity: 0 }]);
    expect(fieldsOf(zero)).toEqual(['lineItems[0].quantity']);
    expect((await cart.get()).body.cart.lineItems.map((line: any) => line.quantity)).toEqual([4, 2]);
  });

  it('removes the named lines and ignores ids the cart does not hold', async () => {
    const cart = await elevatedShopper();
    const added = await cart.add({
      lineItems: [catalogLine(mug.id)],
      customLineItems: [customLine('Wrap', '2')],
    });
    const [mugLine, wrapLine] = added.body.cart.lineItems;
    const removed = await cart.removeLines([mugLine.id, 'no-such-line']);
    expect(removed.status).toBe(200);
    expect(removed.body.cart.lineItems.map((line: any) => line.id)).toEqual([wrapLine.id]);
  });

  it('refuses an unknown coupon and changes nothing; remove-coupon answers the cart', async () => {
    const cart = await shopper();
    const added = await cart.add({ lineItems: [catalogLine(mug.id)] });
    const refused = await cart.patch({
      couponCode: 'NO-SUCH-CODE',
      cartInfo: { buyerNote: 'leave at door' },
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(applicationCode(refused)).toEqual(expect.any(String));
    const after = await cart.get();
    expect(after.body.cart.buyerNote).toBeNull();
    expect(after.body.cart.updatedDate).toBe(added.body.cart.updatedDate);
    const removed = await cart.removeCoupon();
    expect(removed.status).toBe(200);
    expect(removed.body.cart.appliedDiscounts).toEqual([]);
  });

  it('applies one coupon at a time with PATCH couponCode, refuses an expired one, and remove-coupon clears it', async () => {
    const settings = platform.services.storeSettings;
    await settings.createCoupon({ code: 'TEN', discountType: 'PERCENTAGE', percentage: 10 } as any);
    await settings.createCoupon({
      code: 'FIVEOFF',
      discountType: 'FIXED_AMOUNT',
      fixedAmount: '5.00',
    } as any);
    await settings.createCoupon({
      code: 'OLD',
      discountType: 'PERCENTAGE',
      percentage: 50,
      expirationTime: '2020-01-01T00:00:00.000Z',
    } as any);
    const couponOf = (answer: any) => answer.body.cart.appliedDiscounts.map((d: any) => d.coupon?.code);
    const cart = await shopper();
    await cart.add({ lineItems: [catalogLine(mug.id, 2)] });

    const ten = await cart.patch({ couponCode: 'TEN' });
    expect(ten.status).toBe(200);
    expect(couponOf(ten)).toEqual(['TEN']);
    const replaced = await cart.patch({ couponCode: 'FIVEOFF' });
    expect(couponOf(replaced)).toEqual(['FIVEOFF']);

    const expired = await cart.patch({ couponCode: 'OLD' });
    expect(expired.status).toBeGreaterThanOrEqual(400);
    expect(expired.status).toBeLessThan(500);
    expect(couponOf(await cart.get())).toEqual(['FIVEOFF']);

    const removed = await cart.removeCoupon();
    expect(removed.status).toBe(200);
    expect(removed.body.cart.appliedDiscounts).toEqual([]);
  });

  it("updates the cart's info and adds lines with PATCH", async () => {
    const cart = await shopper();
    const patched = await cart.patch({
      cartInfo: {
        buyerNote: 'ring twice',
        contactInfo: { address: { country: 'US', city: 'Boston' }, contactDetails: { firstName: 'Ada' } },
        selectedShippingOption: { code: 'standard' },
      },
      lineItems: [catalogLine(mug.id, 2)],
    });
    expect(patched.status).toBe(200);
    expect(patched.body.cart).toMatchObject({
      buyerNote: 'ring twice',
      contactInfo: { address: { country: 'US', city: 'Boston' }, contactDetails: { firstName: 'Ada' } },
      selectedShippingOption: { code: 'standard' },
      lineItems: [expect.objectContaining({ quantity: 2 })],
    });
  });

  it('lets only a caller holding the admin API key set merchant discounts or override fields', async () => {
    const token = await visitorToken(platform);
    const cart = cartCalls(platform, token);
    const added = await cart.add({ lineItems: [catalogLine(mug.id)] });
    const discounts = await cart.patch({
      merchantDiscounts: [{ amount: '1.00' }],
      cartInfo: { buyerNote: 'x' },
    });
    expect(discounts.status).toBe(403);
    expect(applicationCode(discounts)).toBe('PERMISSION_DENIED');
    const overrides = await cart.add({
      lineItems: [{ ...catalogLine(mug.id), catalogOverrideFields: { price: '0.01' } }],
    });
    expect(overrides.status).toBe(403);
    // a custom line names its own price: only a server holding the admin key may add one
    for (const body of [{ customLineItems: [customLine('Anything', '0.01')] }]) {
      const custom = await cart.add(body);
      expect(custom.status).toBe(403);
      expect(custom.body.details.applicationError.data.field).toBe('customLineItems');
      expect((await cart.patch(body)).status).toBe(403);
    }
    const unchanged = await cart.get();
    expect(unchanged.body.cart.buyerNote).toBeNull();
    expect(unchanged.body.cart.lineItems).toEqual(added.body.cart.lineItems);

    // the visitor's token with the admin key after it: elevated, on that visitor's cart
    const elevated = cartCalls(platform, `${token},${platform.adminApiKey}`);
    const allowed = await elevated.patch({ merchantDiscounts: [{ amount: '1.00' }] });
    expect(allowed.status).toBe(200);
    expect(allowed.body.cart.id).toBe(added.body.cart.id);
  });

  it('takes a merchant percentage discount of the items before other discounts, to the cent', async () => {
    await platform.services.storeSettings.createCoupon({
      code: 'PCT-FIVEOFF',
      discountType: 'FIXED_AMOUNT',
      fixedAmount: '5.00',
    } as any);
    const cart = await elevatedShopper();
    const added = await cart.add({
      lineItems: [catalogLine(mug.id, 3), catalogLine(tee.id, 1, { options: { Size: 'S' } })],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const [mugLine, teeLine] = added.body.cart.lineItems.map((line: { id: string }) => line.id);
    const merchantOf = (answer: any) =>
      answer.body.appliedDiscounts
        .filter((discount: any) => discount.merchantDiscount)
        .map((discount: any) => [
          discount.merchantDiscount.amount.amount,
          discount.merchantDiscount.percentage,
          discount.lineItemIds,
        ]);

    // 12.5% of the mugs' 37.50 is 4.6875: 4.69, taken of their price before the coupon's 5.00
    const both = await cart.patch({
      couponCode: 'PCT-FIVEOFF',
      merchantDiscounts: [{ percentage: 12.5, lineItemIds: [mugLine] }],
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    const estimate = await cart.estimate();
    expect(merchantOf(estimate)).toEqual([['4.69', 12.5, [mugLine]]]);
    expect(estimate.body.priceSummary.subtotal.amount).toBe('57.50');
    expect(estimate.body.priceSummary.discount.amount).toBe('9.69');

    // the whole cart at 33.33%: 57.50 x 0.3333 = 19.16475 -> 19.16, split over the lines to the cent
    await cart.patch({ merchantDiscounts: [{ percentage: 33.33 }] });
    const whole = await cart.estimate();
    const [wholeDiscount] = merchantOf(whole);
    expect(wholeDiscount.slice(0, 2)).toEqual(['19.16', 33.33]);
    expect(whole.body.priceSummary.discount.amount).toBe('24.16');
    const lineDiscounts = whole.body.calculatedLineItems.map((line: any) =>
      Number(line.pricesBreakdown.totalDiscount.amount),
    );
    expect(lineDiscounts.reduce((sum: number, each: number) => sum + each, 0).toFixed(2)).toBe('24.16');

    // a percentage never takes more than the items still cost: the coupon took 5.00 x 20/57.50 = 1.74
    // of the tee already, so 100% of it is the 18.26 left
    await cart.patch({ merchantDiscounts: [{ percentage: 100, lineItemIds: [teeLine] }] });
    const all = await cart.estimate();
    expect(merchantOf(all)[0].slice(0, 2)).toEqual(['18.26', 100]);
    expect(all.body.priceSummary.discount.amount).toBe('23.26');
    expect(all.body.priceSummary.subtotal.amount).toBe('57.50');

    // an amount or a percentage, one of them, in range; nothing changes on a refusal
    for (const [discounts, fields] of [
      [[{}], ['merchantDiscounts[0]']],
      [[{ percentage: 10 }, { amount: '1.00', percentage: 10 }], ['merchantDiscounts[1]']],
      [[{ percentage: 0 }], ['merchantDiscounts[0].percentage']],
      [[{ percentage: 100.5 }], ['merchantDiscounts[0].percentage']],
      [[{ percentage: '10' }], ['merchantDiscounts[0].percentage']],
    ] as const) {
      const refused = await cart.patch({ merchantDiscounts: discounts });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(fieldsOf(refused), JSON.stringify(discounts)).toEqual(fields);
    }
    expect(merchantOf(await cart.estimate())[0].slice(0, 2)).toEqual(['18.26', 100]);

    // the checkout of the cart is priced with the same percentage
    const created = await cart.createCheckout({ channelType: 'WEB', email: 'pct@example.com' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkout = await call(
      platform,
      'GET',
      `/ecom/v1/checkouts/${created.body.checkoutId}`,
      undefined,
      platform.adminApiKey,
    );
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(merchantOf({ body: checkout.body.checkout })).toEqual([['18.26', 100, [teeLine]]]);
    expect(checkout.body.checkout.priceSummary.discount.amount).toBe('23.26');
  });

  it('tells an admin API key alone that it has no current cart', async () => {
    const answer = await admin(platform).get('/ecom/v1/carts/current');
    expect(answer.status).toBe(403);
    expect(applicationCode(answer)).toBe('NO_CURRENT_CART');
  });

  it('refuses callers without a token', async () => {
    const answer = await call(platform, 'POST', '/ecom/v1/carts/current/add-to-cart', { lineItems: [] });
    expect(answer.status).toBe(401);
  });

  it('keeps each visitor to their own cart', async () => {
    const first = await elevatedShopper();
    const second = await elevatedShopper();
    const mine = await first.add({ lineItems: [catalogLine(mug.id, 1)] });
    const theirs = await second.add({ customLineItems: [customLine('Wrap', '2')] });
    expect(mine.body.cart.id).not.toBe(theirs.body.cart.id);
    expect((await first.get()).body.cart.lineItems).toHaveLength(1);
    expect((await second.get()).body.cart.lineItems[0].productName.original).toBe('Wrap');
  });

  it(`holds at most ${MAX_LINES} lines`, async () => {
    const cart = await elevatedShopper();
    const lines = Array.from({ length: MAX_LINES }, (_, index) => customLine(`Line ${index}`, '1'));
    expect((await cart.add({ customLineItems: lines })).status).toBe(200);
    const over = await cart.add({ customLineItems: [customLine('One too many', '1')] });
    expect(over.status).toBe(400);
    expect(applicationCode(over)).toBe('CART_LINES_LIMIT_EXCEEDED');
    expect((await cart.get()).body.cart.lineItems).toHaveLength(MAX_LINES);
  });

  it('estimates totals: the cart, its lines and every total', async () => {
    const cart = await shopper();
    await cart.add({ lineItems: [catalogLine(mug.id, 2)] });
    const estimate = await cart.estimate({ calculateTax: true, calculateShipping: true });
    expect(estimate.status).toBe(200);
    expect(estimate.body).toMatchObject({
      cart: { lineItems: [expect.objectContaining({ quantity: 2 })] },
      calculatedLineItems: [expect.objectContaining({ lineItemId: estimate.body.cart.lineItems[0].id })],
      priceSummary: { subtotal: { amount: '25.00' }, total: { amount: expect.any(String) } },
      currency: estimate.body.cart.currency,
      payNow: estimate.body.priceSummary,
      payLater: { total: { amount: expect.stringMatching(/^0\.?0*$/) } },
      appliedDiscounts: [],
      violations: expect.any(Array),
    });
  });

  it('creates a checkout of the cart, answering only its id, and remembers it on the cart', async () => {
    const cart = await shopper();
    expect(applicationCode(await cart.createCheckout())).toBe('OWNED_CART_NOT_FOUND');
    const added = await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const created = await cart.createCheckout({ channelType: 'WEB', email: 'ada@example.com' });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ checkoutId: expect.any(String) });
    const got = await cart.get();
    expect(got.body.cart).toMatchObject({ id: added.body.cart.id, checkoutId: created.body.checkoutId });

    await cart.removeLines([added.body.cart.lineItems[0].id]);
    const empty = await cart.createCheckout();
    expect(empty.status).toBe(428);
    expect(applicationCode(empty)).toBe('CART_IS_EMPTY');
  });

  it('is gone once the order that bought all of it is approved', async () => {
    const cart = await shopper();
    const added = await cart.add({ lineItems: [catalogLine(mug.id, 2)] });
    const { carts, database } = platform.services;
    const bought = [
      { id: 'l1', quantity: 2, catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id } },
    ];
    await inTransaction(database.db, (trx) => carts.removeBought(trx, added.body.cart.id, bought));
    expect(applicationCode(await cart.get())).toBe('OWNED_CART_NOT_FOUND');
    const events = await readEvents(database.db, { entityId: added.body.cart.id });
    expect(events.map((event) => event.slug)).toEqual(['created', 'deleted']);
  });

  it('keeps what an approved order did not buy: items added and quantities raised after checking out', async () => {
    const cart = await elevatedShopper();
    await cart.add({
      lineItems: [catalogLine(mug.id, 3), catalogLine(tee.id, 1, { options: { Size: 'S' } })],
      customLineItems: [customLine('Engraving', '4.00')],
    });
    const before = (await cart.get()).body.cart;
    const { carts, database } = platform.services;
    const [mugLine, , engraving] = before.lineItems;
    // the order bought one mug and the engraving; the tee was added (and two mugs more) after checkout
    const bought = [
      { id: 'other-id', quantity: 1, catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id } },
      {
        id: engraving.id,
        quantity: 1,
        custom: { productName: { original: 'Engraving' }, price: '4.00' } as any,
      },
    ];
    await inTransaction(database.db, (trx) => carts.removeBought(trx, before.id, bought));
    const after = (await cart.get()).body.cart;
    expect(after.id).toBe(before.id);
    expect(after.lineItems.map((line: any) => [line.id, line.productName.original, line.quantity])).toEqual([
      [mugLine.id, 'Cart Mug', 2],
      [before.lineItems[1].id, 'Cart Tee', 1],
    ]);
    const events = await readEvents(database.db, { entityId: before.id });
    expect(events.at(-1)?.slug).toBe('updated');
  });

  it('announces a change with the cart as stored: lines, buyer, note, checkout and dates', async () => {
    const cart = await shopper();
    const added = await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const patched = await cart.patch({
      cartInfo: { buyerNote: 'a "quoted" \\ note' },
    });
    expect(patched.status).toBe(200);
    const events = await readEvents(platform.services.database.db, { entityId: added.body.cart.id });
    const stored = {
      id: added.body.cart.id,
      lineItems: [
        {
          id: added.body.cart.lineItems[0].id,
          quantity: 2,
          catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id },
        },
      ],
      buyerInfo: { visitorId: added.body.cart.buyerInfo.visitorId },
      couponCode: null,
      merchantDiscounts: [],
      buyerNote: null,
      checkoutId: null,
      createdDate: added.body.cart.createdDate,
    };
    expect(events.map((event) => event.payload.cart)).toEqual([
      {
        ...stored,
        lineItems: [{ ...stored.lineItems[0], quantity: 1 }],
        updatedDate: added.body.cart.updatedDate,
      },
      { ...stored, updatedDate: expect.any(String) },
      {
        ...stored,
        buyerNote: 'a "quoted" \\ note',
        updatedDate: patched.body.cart.updatedDate,
      },
    ]);
  });

  it('deletes the cart, answering {}, and announces created, updated and deleted', async () => {
    const cart = await shopper();
    const created = await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    await cart.add({ lineItems: [catalogLine(mug.id, 1)] });
    const deleted = await cart.delete();
    expect(deleted).toEqual({ status: 200, body: {} });
    expect((await cart.get()).status).toBe(404);
    expect(await cart.delete()).toEqual({ status: 200, body: {} });
    const events = await readEvents(platform.services.database.db, { entityId: created.body.cart.id });
    expect(events.map((event) => `${event.entity} ${event.slug}`)).toEqual([
      'cart created',
      'cart updated',
      'cart deleted',
    ]);
    expect(events[1]?.payload.cart).toMatchObject({ lineItems: [expect.objectContaining({ quantity: 2 })] });
  });
});
