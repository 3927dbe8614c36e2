import { STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

describe.each(DIALECTS)('demo store settings (%s)', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: true });
  });
  afterAll(() => platform?.stop());

  it('a seeded start has US dollars, US tax regions, US shipping, store pickup, a posters rule and WELCOME10', async () => {
    const api = admin(platform);
    expect((await api.get('/api/cartwheel/store-settings')).body.storeSettings).toEqual({
      currency: 'USD',
      weightUnit: 'LB',
      taxIncludedInPrices: false,
    });
    const taxRegions = (await api.get('/api/cartwheel/tax-regions')).body.taxRegions;
    // made in one moment, so in no particular order
    expect(taxRegions.map((r: any) => [r.subdivision, r.rate]).sort()).toEqual([
      ['US-CA', '0.0725'],
      ['US-NY', '0.08875'],
      ['US-OR', '0'],
    ]);
    const [region] = (await api.get('/api/cartwheel/shipping-regions')).body.shippingRegions;
    expect(
      region.options.map((o: any) => [o.code, o.title, o.rate.price, o.rate.freeShippingAbove ?? null]),
    ).toEqual([
      ['standard', 'Standard', '5.99', '75.00'],
      ['express', 'Express', '14.99', null],
    ]);
    const [pickup] = (await api.get('/api/cartwheel/pickup-locations')).body.pickupLocations;
    expect(pickup).toMatchObject({
      title: 'Pick up in store',
      pickupMethod: 'STORE_PICKUP',
      address: { city: 'Brooklyn' },
    });
    const rules = (await api.post('/ecom/v1/discount-rules/query', {})).body.discountRules;
    expect(rules).toEqual([expect.objectContaining({ name: '10% off posters', status: 'LIVE' })]);
    await expect(platform.services.pricing.checkCoupon('welcome10')).resolves.toBeUndefined();
  });

  it('a demo poster and tee to New York with WELCOME10: the posters rule, the coupon, shipping and tax add up', async () => {
    const catalog = platform.services.catalog;
    const posters = await catalog.collectionBySlug('posters', { admin: true });
    const tees = await catalog.collectionBySlug('t-shirts', { admin: true });
    const inCollection = async (collectionId: string) => {
      const answer = JSON.parse(
        await catalog.queryProductsJson(
          { query: { filter: { collectionIds: { $hasSome: [collectionId] } }, paging: { limit: 100 } } },
          { admin: true },
        ),
      );
      return answer.products as any[];
    };
    // an in-stock poster without options or a catalog discount, and a tee variant in stock
    const poster = (await inCollection(posters.id as string)).find(
      (p) => p.stock.inStock && !p.manageVariants && p.discount?.type === 'NONE',
    );
    const tee = (await inCollection(tees.id as string)).find((p) => p.stock.inStock && p.manageVariants);
    expect(poster).toBeDefined();
    expect(tee).toBeDefined();
    const variants = await catalog.queryProductVariants(tee.id, {}, { admin: true });
    const teeVariant = variants.variants?.find((v) => v.stock?.inStock && (v.stock.quantity ?? 0) > 0);

    const priced = await platform.services.pricing.price({
      lines: [
        { id: 'poster', quantity: 1, catalogReference: { appId: STORES_APP_ID, catalogItemId: poster.id } },
        {
          id: 'tee',
          quantity: 1,
          catalogReference: {
            appId: STORES_APP_ID,
            catalogItemId: tee.id,
            options: { variantId: teeVariant?.id },
          },
        },
      ],
      couponCode: 'WELCOME10',
      shippingAddress: { country: 'US', subdivision: 'US-NY', city: 'New York' },
    });
    expect(priced.lineItems.map((item) => item.availability?.status)).toEqual(['AVAILABLE', 'AVAILABLE']);
    expect(priced.appliedDiscounts.map((d) => (d.discountRule ? 'rule' : d.coupon?.code))).toEqual([
      'rule',
      'WELCOME10',
    ]);
    expect(priced.appliedDiscounts[0]?.lineItemIds).toEqual(['poster']);
    expect(priced.taxSummary.calculationDetails?.rateType).toBe('MANUAL_RATE');

    const cents = (text: string) => Math.round(Number(text) * 100);
    const { subtotal, shipping, tax, discount, total } = priced.amounts;
    expect(cents(total)).toBe(cents(subtotal) + cents(shipping) - cents(discount) + cents(tax));
    const discounted = cents(subtotal) - cents(discount);
    expect(cents(shipping)).toBe(discounted >= 7500 ? 0 : 599);
    expect(priced.shippingInfo.carrierServiceOptions?.[0]?.shippingOptions?.map((o) => o.code)).toEqual([
      'standard',
      'express',
      'store-pickup',
    ]);
  });

  it('a demo store seeded before store settings existed gets them on its next start, once', async () => {
    // the database as an older version left it: the demo catalog, no store settings, no claim for them
    const { db } = platform.services.database;
    for (const table of [
      'store_settings',
      'tax_regions',
      'shipping_regions',
      'pickup_locations',
      'discount_rules',
      'coupons',
    ] as const) {
      await db.deleteFrom(table).execute();
    }
    await db.deleteFrom('settings').where('key', '=', 'demo.store_settings_seeded_at').execute();

    const upgraded = await startTestPlatform({ dialect, seedDemo: true, sharing: platform });
    try {
      const api = admin(upgraded);
      expect((await api.get('/api/cartwheel/tax-regions')).body.taxRegions).toHaveLength(3);
      await expect(upgraded.services.pricing.checkCoupon('WELCOME10')).resolves.toBeUndefined();
      // the merchant then removes a tax region: a later start does not put it back
      const [region] = (await api.get('/api/cartwheel/tax-regions')).body.taxRegions;
      expect((await api.delete(`/api/cartwheel/tax-regions/${region.id}`)).status).toBe(200);
    } finally {
      await upgraded.stop();
    }
    const later = await startTestPlatform({ dialect, seedDemo: true, sharing: platform });
    try {
      expect((await admin(later).get('/api/cartwheel/tax-regions')).body.taxRegions).toHaveLength(2);
    } finally {
      await later.stop();
    }
  });

  it('a store whose merchant set their own settings before the upgrade keeps exactly those', async () => {
    const { db } = platform.services.database;
    await db.deleteFrom('settings').where('key', '=', 'demo.store_settings_seeded_at').execute();
    const before = (await admin(platform).get('/api/cartwheel/tax-regions')).body.taxRegions;
    const restarted = await startTestPlatform({ dialect, seedDemo: true, sharing: platform });
    try {
      expect((await admin(restarted).get('/api/cartwheel/tax-regions')).body.taxRegions).toEqual(before);
    } finally {
      await restarted.stop();
    }
  });
});
