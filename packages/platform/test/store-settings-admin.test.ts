import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { admin, call, createProduct, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const fieldOf = (body: any) => body?.details?.validationError?.fieldViolations?.[0]?.field;
const codeOf = (body: any) => body?.details?.applicationError?.code;

describe.each(DIALECTS)('store settings admin API (%s)', (dialect) => {
  let platform: TestPlatform;
  let api: ReturnType<typeof admin>;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    api = admin(platform);
  });
  afterAll(() => platform?.stop());

  it('only the admin API key may read or change the settings', async () => {
    const visitor = `Bearer ${await visitorToken(platform)}`;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/cartwheel/store-settings'],
      ['PATCH', '/api/cartwheel/store-settings', { storeSettings: { taxIncludedInPrices: true } }],
      ['GET', '/ecom/v1/checkout-settings'],
      ['PATCH', '/ecom/v1/checkout-settings', { checkoutSettings: {} }],
      [
        'POST',
        '/api/cartwheel/tax-regions',
        { taxRegion: { name: 'NY', country: 'US', subdivision: 'US-NY', rate: '0.1' } },
      ],
      ['GET', '/api/cartwheel/shipping-regions'],
      ['GET', '/api/cartwheel/pickup-locations'],
      [
        'POST',
        '/api/cartwheel/coupons',
        { coupon: { code: 'FREE', discountType: 'PERCENTAGE', percentage: 100 } },
      ],
      [
        'POST',
        '/ecom/v1/discount-rules',
        { discountRule: { name: 'x', discounts: { values: [{ percentage: 50 }] } } },
      ],
      ['POST', '/ecom/v1/discount-rules/query', {}],
    ];
    for (const [method, path, body] of calls) {
      for (const auth of [undefined, visitor]) {
        const answer = await call(platform, method, path, body, auth);
        expect([401, 403], `${method} ${path} as ${auth ? 'visitor' : 'nobody'}`).toContain(answer.status);
      }
    }
    expect((await api.get('/api/cartwheel/tax-regions')).body).toEqual({ taxRegions: [] });
    expect((await api.get('/api/cartwheel/coupons')).body).toEqual({ coupons: [] });
  });

  it('store settings: currency, weight unit and tax mode change; wrong types are field violations', async () => {
    expect((await api.get('/api/cartwheel/store-settings')).body).toEqual({
      storeSettings: { currency: 'USD', weightUnit: 'KG', taxIncludedInPrices: false },
    });
    const changed = await api.patch('/api/cartwheel/store-settings', { storeSettings: { weightUnit: 'LB' } });
    expect(changed.body.storeSettings).toEqual({
      currency: 'USD',
      weightUnit: 'LB',
      taxIncludedInPrices: false,
    });

    const wrongType = await api.patch('/api/cartwheel/store-settings', {
      storeSettings: { taxIncludedInPrices: 'yes' },
    });
    expect(wrongType.status).toBe(400);
    expect(fieldOf(wrongType.body)).toBe('storeSettings.taxIncludedInPrices');
    const notACurrency = await api.patch('/api/cartwheel/store-settings', {
      storeSettings: { currency: 'ZZZ' },
    });
    expect(notACurrency.status).toBe(400);
    expect(fieldOf(notACurrency.body)).toBe('storeSettings.currency');
    const badUnit = await api.patch('/api/cartwheel/store-settings', {
      storeSettings: { weightUnit: 'STONE' },
    });
    expect(fieldOf(badUnit.body)).toBe('storeSettings.weightUnit');
  });

  it("checkout settings keep the brand's logo, its size, the header's alignment and the status", async () => {
    expect((await api.get('/ecom/v1/checkout-settings')).body).toEqual({
      checkoutSettings: {
        status: 'ACTIVE',
        checkoutPolicies: {},
        checkoutFields: {},
        checkoutBrand: { header: { logo: null, alignment: 'SIDE' } },
      },
    });
    const patched = await api.patch('/ecom/v1/checkout-settings', {
      checkoutSettings: {
        checkoutBrand: {
          header: { logo: { image: { url: 'https://example.com/logo.png' }, size: 'LARGE' } },
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.checkoutSettings.checkoutBrand.header).toEqual({
      logo: { image: { url: 'https://example.com/logo.png' }, size: 'LARGE' },
      alignment: 'SIDE',
    });
    expect(patched.body.checkoutSettings.updatedDate).toEqual(expect.any(String));
    // Cartwheel's first logo call sent the alignment beside the size: it is the header's
    const aligned = await api.patch('/ecom/v1/checkout-settings', {
      checkoutSettings: { checkoutBrand: { header: { logo: { alignment: 'CENTER' } } } },
    });
    expect(aligned.body.checkoutSettings.checkoutBrand.header).toMatchObject({
      logo: { size: 'LARGE', image: { url: 'https://example.com/logo.png' } },
      alignment: 'CENTER',
    });
    expect((await api.get('/ecom/v1/checkout-settings')).body).toEqual(aligned.body);
    const inactive = await api.patch('/ecom/v1/checkout-settings', {
      checkoutSettings: { status: 'INACTIVE' },
    });
    expect(inactive.body.checkoutSettings).toMatchObject({
      status: 'INACTIVE',
      checkoutBrand: aligned.body.checkoutSettings.checkoutBrand,
    });
    await api.patch('/ecom/v1/checkout-settings', { checkoutSettings: { status: 'ACTIVE' } });
    const paused = await api.patch('/ecom/v1/checkout-settings', { checkoutSettings: { status: 'PAUSED' } });
    expect(fieldOf(paused.body)).toBe('checkoutSettings.status');

    const huge = await api.patch('/ecom/v1/checkout-settings', {
      checkoutSettings: { checkoutBrand: { header: { logo: { size: 'HUGE' } } } },
    });
    expect(huge.status).toBe(400);
    expect(fieldOf(huge.body)).toBe('checkoutSettings.checkoutBrand.header.logo.size');
    // the current-settings call hides the brand; it has its own call
    expect(
      (await api.get('/api/cartwheel/store-settings')).body.storeSettings.checkoutSettings,
    ).toBeUndefined();
  });

  it('tax regions: one rate per place, real country codes, rates between 0 and 1', async () => {
    const ny = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'New York', country: 'us', subdivision: 'NY', rate: '0.08875', taxShipping: true },
    });
    expect(ny.status).toBe(200);
    expect(ny.body.taxRegion).toMatchObject({
      name: 'New York',
      country: 'US',
      subdivision: 'US-NY',
      rate: '0.08875',
      taxShipping: true,
    });
    expect(ny.body.taxRegion.id).toEqual(expect.any(String));

    const again = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'NY again', country: 'US', subdivision: 'US-NY', rate: '0.05' },
    });
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toBe('TAX_REGION_ALREADY_EXISTS');

    const notACountry = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'X', country: 'XX', rate: '0.1' },
    });
    expect(notACountry.status).toBe(400);
    expect(fieldOf(notACountry.body)).toBe('taxRegion.country');
    const tooHigh = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'X', country: 'DE', rate: '1.5' },
    });
    expect(fieldOf(tooHigh.body)).toBe('taxRegion.rate');
    const numberRate = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'X', country: 'DE', rate: 0.19 },
    });
    expect(numberRate.status).toBe(400);
    expect(fieldOf(numberRate.body)).toBe('taxRegion.rate');
    const missing = await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { country: 'DE', rate: '0.19' },
    });
    expect(fieldOf(missing.body)).toBe('taxRegion.name');

    const id = ny.body.taxRegion.id;
    const changed = await api.patch(`/api/cartwheel/tax-regions/${id}`, { id, taxRegion: { rate: '0.09' } });
    expect(changed.body.taxRegion).toMatchObject({ id, rate: '0.09', subdivision: 'US-NY' });
    expect((await api.get('/api/cartwheel/tax-regions')).body.taxRegions).toHaveLength(1);
    expect((await api.delete(`/api/cartwheel/tax-regions/${id}`)).status).toBe(200);
    const gone = await api.delete(`/api/cartwheel/tax-regions/${id}`);
    expect(gone.status).toBe(404);
    expect(codeOf(gone.body)).toBe('TAX_REGION_NOT_FOUND');
  });

  it('shipping regions and pickup locations: options are checked, unknown kinds refused', async () => {
    const region = await api.post('/api/cartwheel/shipping-regions', {
      shippingRegion: {
        name: 'Domestic',
        destinations: [{ country: 'US' }],
        options: [
          {
            code: 'standard',
            title: 'Standard',
            rate: { kind: 'FLAT_RATE', price: '5.99', freeShippingAbove: '75.00' },
          },
          {
            code: 'heavy',
            title: 'Freight',
            rate: {
              kind: 'BY_WEIGHT',
              weightBrackets: [
                { upToWeight: 10, price: '20.00' },
                { upToWeight: null, price: '45.00' },
              ],
            },
          },
        ],
      },
    });
    expect(region.status).toBe(200);
    expect(region.body.shippingRegion.options).toHaveLength(2);

    const noPrice = await api.post('/api/cartwheel/shipping-regions', {
      shippingRegion: {
        name: 'X',
        destinations: [{ country: 'US' }],
        options: [{ code: 'a', title: 'A', rate: { kind: 'FLAT_RATE' } }],
      },
    });
    expect(noPrice.status).toBe(400);
    expect(fieldOf(noPrice.body)).toBe('shippingRegion.options[0].rate.price');
    const unknownKind = await api.post('/api/cartwheel/shipping-regions', {
      shippingRegion: {
        name: 'X',
        destinations: [{ country: 'US' }],
        options: [{ code: 'a', title: 'A', rate: { kind: 'BY_MOOD', price: '1.00' } }],
      },
    });
    expect(fieldOf(unknownKind.body)).toBe('shippingRegion.options[0].rate.kind');
    const floatPrice = await api.post('/api/cartwheel/shipping-regions', {
      shippingRegion: {
        name: 'X',
        destinations: [{ country: 'US' }],
        options: [{ code: 'a', title: 'A', rate: { kind: 'FLAT_RATE', price: 5.99 } }],
      },
    });
    expect(fieldOf(floatPrice.body)).toBe('shippingRegion.options[0].rate.price');
    const noWhere = await api.post('/api/cartwheel/shipping-regions', {
      shippingRegion: { name: 'X', destinations: [], options: [] },
    });
    expect(fieldOf(noWhere.body)).toBe('shippingRegion.destinations');

    const pickup = await api.post('/api/cartwheel/pickup-locations', {
      pickupLocation: {
        code: 'shop',
        title: 'Pick up in store',
        address: { country: 'US', city: 'Brooklyn', addressLine: '1 Main St' },
      },
    });
    expect(pickup.status).toBe(200);
    expect(pickup.body.pickupLocation).toMatchObject({ pickupMethod: 'STORE_PICKUP', price: '0.00' });
    const sameCode = await api.post('/api/cartwheel/pickup-locations', {
      pickupLocation: {
        code: 'shop',
        title: 'Another',
        pickupMethod: 'PICKUP_POINT',
        address: { country: 'US' },
      },
    });
    expect(sameCode.status).toBe(409);
    const badMethod = await api.post('/api/cartwheel/pickup-locations', {
      pickupLocation: { code: 'p2', title: 'P', pickupMethod: 'DRONE', address: {} },
    });
    expect(fieldOf(badMethod.body)).toBe('pickupLocation.pickupMethod');
  });

  it('coupons: codes unique regardless of case, and checkCoupon refuses unknown, expired and future codes', async () => {
    const created = await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'Summer10', discountType: 'PERCENTAGE', percentage: 10 },
    });
    expect(created.status).toBe(200);
    expect(created.body.coupon).toMatchObject({ code: 'Summer10', name: 'Summer10', active: true });
    const sameCode = await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'SUMMER10', discountType: 'FREE_SHIPPING' },
    });
    expect(sameCode.status).toBe(409);
    expect(codeOf(sameCode.body)).toBe('COUPON_ALREADY_EXISTS');
    const noPercentage = await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'NOPE', discountType: 'PERCENTAGE' },
    });
    expect(fieldOf(noPercentage.body)).toBe('coupon.percentage');
    const overHundred = await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'NOPE', discountType: 'PERCENTAGE', percentage: 150 },
    });
    expect(fieldOf(overHundred.body)).toBe('coupon.percentage');
    const spaces = await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'NO PE', discountType: 'FREE_SHIPPING' },
    });
    expect(fieldOf(spaces.body)).toBe('coupon.code');

    await api.post('/api/cartwheel/coupons', {
      coupon: {
        code: 'OLD',
        discountType: 'FIXED_AMOUNT',
        fixedAmount: '5.00',
        expirationTime: '2020-01-01T00:00:00Z',
      },
    });
    await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'SOON', discountType: 'PERCENTAGE', percentage: 5, startTime: '2999-01-01T00:00:00Z' },
    });
    const pricing = platform.services.pricing;
    await expect(pricing.checkCoupon('summer10')).resolves.toBeUndefined();
    const refusal = (code: string) =>
      pricing.checkCoupon(code).then(
        () => null,
        (error) => error.application?.code,
      );
    expect(await refusal('NOSUCH')).toBe('COUPON_DOES_NOT_EXIST');
    expect(await refusal('OLD')).toBe('COUPON_IS_EXPIRED');
    expect(await refusal('SOON')).toBe('COUPON_IS_NOT_ACTIVE_YET');

    const id = created.body.coupon.id;
    await api.patch(`/api/cartwheel/coupons/${id}`, { coupon: { active: false } });
    expect(await refusal('SUMMER10')).toBe('COUPON_IS_DISABLED');
  });

  it('discount rules at the hosted paths: status from the time window, revisions, query and delete', async () => {
    const live = await api.post('/ecom/v1/discount-rules', {
      discountRule: {
        name: '15% over $50',
        active: true,
        trigger: { subtotalRange: { from: '50.00' } },
        discounts: { values: [{ discountType: 'PERCENTAGE', percentage: 15, targetType: 'ENTIRE_CART' }] },
      },
    });
    expect(live.status).toBe(200);
    expect(live.body.discountRule).toMatchObject({ name: '15% over $50', status: 'LIVE', revision: '1' });
    expect(live.body.discountRule.createdDate).toEqual(expect.any(String));
    expect(live.body.discountRule.updatedDate).toEqual(expect.any(String));
    const pending = await api.post('/ecom/v1/discount-rules', {
      discountRule: {
        name: 'later',
        activeTimeInfo: { start: '2999-01-01T00:00:00Z' },
        discounts: { values: [{ percentage: 5 }] },
      },
    });
    expect(pending.body.discountRule.status).toBe('PENDING');
    const expired = await api.post('/ecom/v1/discount-rules', {
      discountRule: {
        name: 'gone',
        activeTimeInfo: { start: '2020-01-01T00:00:00Z', end: '2020-02-01T00:00:00Z' },
        discounts: { values: [{ percentage: 5 }] },
      },
    });
    expect(expired.body.discountRule.status).toBe('EXPIRED');

    const backwards = await api.post('/ecom/v1/discount-rules', {
      discountRule: {
        name: 'x',
        activeTimeInfo: { start: '2020-02-01T00:00:00Z', end: '2020-01-01T00:00:00Z' },
        discounts: { values: [{ percentage: 5 }] },
      },
    });
    expect(fieldOf(backwards.body)).toBe('discountRule.activeTimeInfo.end');
    const noDiscount = await api.post('/ecom/v1/discount-rules', {
      discountRule: { name: 'x', discounts: { values: [] } },
    });
    expect(fieldOf(noDiscount.body)).toBe('discountRule.discounts.values');
    const badTrigger = await api.post('/ecom/v1/discount-rules', {
      discountRule: {
        name: 'x',
        trigger: { subtotalRange: { from: 50 } },
        discounts: { values: [{ percentage: 5 }] },
      },
    });
    expect(fieldOf(badTrigger.body)).toBe('discountRule.trigger.subtotalRange.from');

    const query = await api.post('/ecom/v1/discount-rules/query', { query: { cursorPaging: { limit: 2 } } });
    expect(query.body.discountRules.map((r: any) => r.name)).toEqual(['15% over $50', 'later']);
    expect(query.body.pagingMetadata).toMatchObject({ count: 2, hasNext: true });
    const next = await api.post('/ecom/v1/discount-rules/query', {
      query: { cursorPaging: { limit: 2, cursor: query.body.pagingMetadata.cursors.next } },
    });
    expect(next.body.discountRules.map((r: any) => r.name)).toEqual(['gone']);
    // a cursor it never gave, or a filter it cannot apply, is refused rather than ignored
    const badCursor = await api.post('/ecom/v1/discount-rules/query', {
      query: { cursorPaging: { cursor: '-5' } },
    });
    expect(fieldOf(badCursor.body)).toBe('query.cursorPaging.cursor');
    const filtered = await api.post('/ecom/v1/discount-rules/query', { query: { filter: { name: 'x' } } });
    expect(filtered.status).toBe(400);

    const id = live.body.discountRule.id;
    const renamed = await api.patch(`/ecom/v1/discount-rules/${id}`, {
      discountRule: { id, revision: '1', name: '15% off' },
    });
    expect(renamed.body.discountRule).toMatchObject({ name: '15% off', revision: '2', status: 'LIVE' });
    const stale = await api.patch(`/ecom/v1/discount-rules/${id}`, {
      discountRule: { revision: '1', name: 'lost' },
    });
    expect(stale.status).toBe(428);
    expect(codeOf(stale.body)).toBe('REVISION_MISMATCH');
    expect((await api.get(`/ecom/v1/discount-rules/${id}`)).body.discountRule.name).toBe('15% off');
    expect((await api.delete(`/ecom/v1/discount-rules/${id}`)).status).toBe(200);
    expect((await api.get(`/ecom/v1/discount-rules/${id}`)).status).toBe(404);
  });

  it('changes made at the same moment are all kept, and a code is taken once', async () => {
    const patches = await Promise.all([
      api.patch('/ecom/v1/checkout-settings', {
        checkoutSettings: { checkoutBrand: { header: { logo: { size: 'SMALL' } } } },
      }),
      api.patch('/ecom/v1/checkout-settings', {
        checkoutSettings: {
          checkoutBrand: { header: { logo: { image: { url: 'https://example.com/l.png' } } } },
        },
      }),
      api.patch('/api/cartwheel/store-settings', { storeSettings: { taxIncludedInPrices: true } }),
      api.patch('/api/cartwheel/store-settings', { storeSettings: { weightUnit: 'KG' } }),
    ]);
    expect(patches.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(
      (await api.get('/ecom/v1/checkout-settings')).body.checkoutSettings.checkoutBrand.header.logo,
    ).toMatchObject({
      size: 'SMALL',
      image: { url: 'https://example.com/l.png' },
    });
    expect((await api.get('/api/cartwheel/store-settings')).body.storeSettings).toMatchObject({
      taxIncludedInPrices: true,
      weightUnit: 'KG',
    });
    await api.patch('/api/cartwheel/store-settings', {
      storeSettings: { taxIncludedInPrices: false, weightUnit: 'LB' },
    });

    const sameCode = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.post('/api/cartwheel/coupons', { coupon: { code: 'RACE', discountType: 'FREE_SHIPPING' } }),
      ),
    );
    expect(sameCode.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);

    const rule = await api.post('/ecom/v1/discount-rules', {
      discountRule: { name: 'race', discounts: { values: [{ percentage: 5 }] } },
    });
    const id = rule.body.discountRule.id;
    const renames = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        api.patch(`/ecom/v1/discount-rules/${id}`, { discountRule: { revision: '1', name } }),
      ),
    );
    expect(renames.map((answer) => answer.status).sort()).toEqual([200, 428, 428]);
    const winner = renames.find((answer) => answer.status === 200)!.body.discountRule;
    expect((await api.get(`/ecom/v1/discount-rules/${id}`)).body.discountRule).toMatchObject({
      name: winner.name,
      revision: '2',
    });
    await api.delete(`/ecom/v1/discount-rules/${id}`);
  });

  it('what the admin sets is what the next price uses', async () => {
    const product = await createProduct(platform, {
      name: 'Settings Mug',
      productType: 'physical',
      priceData: { price: 40 },
      weight: 1,
    });
    await api.post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'Oregon', country: 'US', subdivision: 'US-OR', rate: '0.05' },
    });
    await api.post('/api/cartwheel/coupons', {
      coupon: { code: 'FIVEOFF', discountType: 'FIXED_AMOUNT', fixedAmount: '5.00' },
    });
    // a shopper's cart, priced by the platform that answers: coupon, shipping to Oregon and its tax
    const cart = cartCalls(platform, await visitorToken(platform));
    expect((await cart.add({ lineItems: [catalogLine(product.id, 1)] })).status).toBe(200);
    expect((await cart.patch({ couponCode: 'FIVEOFF' })).status).toBe(200);
    const estimate = await cart.estimate({
      shippingAddress: { country: 'US', subdivision: 'US-OR', city: 'Portland' },
      calculateTax: true,
      calculateShipping: true,
    });
    expect(estimate.status).toBe(200);
    // 40 - 5 = 35, 5% tax 1.75; the Domestic region's standard rate (free only from $75)
    const amount = (part: { amount: string } | undefined) => part?.amount;
    const summary = estimate.body.priceSummary;
    expect({
      subtotal: amount(summary.subtotal),
      shipping: amount(summary.shipping),
      tax: amount(summary.tax),
      discount: amount(summary.discount),
      total: amount(summary.total),
    }).toEqual({ subtotal: '40.00', shipping: '5.99', tax: '1.75', discount: '5.00', total: '42.74' });
    expect(estimate.body.weightUnit).toBe('LB');
    expect(estimate.body.shippingInfo.selectedCarrierServiceOption?.code).toBe('standard');
  });
});
