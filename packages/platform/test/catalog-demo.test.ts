import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, queryProducts } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

describe.each(DIALECTS)('the demo store on %s', (dialect) => {
  let platform: TestPlatform;
  let products: any[];
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: true });
    const first = await queryProducts(platform, { query: { paging: { limit: 100 } }, includeVariants: true });
    products = first.body.products;
  });
  afterAll(() => platform?.stop());

  it('holds at least 40 visible products, physical and digital, over at least 5 collections', async () => {
    expect(products.length).toBeGreaterThanOrEqual(40);
    expect(new Set(products.map((p) => p.productType))).toEqual(new Set(['physical', 'digital']));
    const collections = await call(platform, 'POST', '/v2/collections/query', {
      query: { paging: { limit: 100 } },
    });
    const named = collections.body.collections.filter((c: any) => c.slug !== 'all-products');
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(named.map((c: any) => c.slug)).toEqual(
      expect.arrayContaining(['t-shirts', 'mugs', 'posters', 'accessories', 'digital']),
    );
    for (const collection of named) expect(collection.numberOfProducts).toBeGreaterThan(0);
    const tees = await call(platform, 'GET', '/stores-reader/v1/collections/slug/t-shirts');
    const inTees = await queryProducts(platform, {
      query: { filter: { collectionIds: tees.body.collection.id } },
    });
    expect(inTees.body.metadata.total).toBe(tees.body.collection.numberOfProducts);
  });

  it('has products out of stock, partially out of stock, discounted, priced per unit, with ribbons and brands', async () => {
    const statuses = new Set(products.map((p) => p.stock.inventoryStatus));
    expect(statuses).toEqual(new Set(['IN_STOCK', 'OUT_OF_STOCK', 'PARTIALLY_OUT_OF_STOCK']));
    expect(new Set(products.map((p) => p.discount.type))).toEqual(new Set(['NONE', 'AMOUNT', 'PERCENT']));
    const coffee = products.find((p) => p.name === 'House Blend Coffee 250 g');
    expect(coffee.priceData.pricePerUnit).toBe(5.6);
    expect(products.filter((p) => p.ribbon === 'Sale').length).toBeGreaterThan(0);
    expect(products.filter((p) => p.ribbon === 'New').length).toBeGreaterThan(0);
    expect(products.every((p) => p.brand)).toBe(true);
    expect(products.every((p) => p.media.mainMedia?.image?.url?.endsWith('.svg'))).toBe(true);
  });

  it('has color options whose choices show their own image, and variants with their own prices', async () => {
    const withColor = products.filter((p) => p.productOptions.some((o: any) => o.optionType === 'color'));
    expect(withColor.length).toBeGreaterThan(3);
    for (const product of withColor) {
      const color = product.productOptions.find((o: any) => o.optionType === 'color');
      for (const choice of color.choices) {
        expect(choice.value).toMatch(/^#[0-9a-f]{6}$/);
        expect(choice.media.mainMedia.image.url).toContain('--');
      }
    }
    const tumbler = products.find((p) => p.name === 'Insulated Travel Tumbler');
    expect(tumbler.variants.map((v: any) => v.variant.priceData.price)).toEqual([29, 32, 35]);
    expect(tumbler.priceRange).toEqual({ minValue: 29, maxValue: 35 });
  });

  it('is the same store on every seed: ids come from names', async () => {
    const other = await startTestPlatform({ dialect: 'sqlite', seedDemo: true });
    try {
      const again = await queryProducts(other, { query: { paging: { limit: 100 } } });
      expect(
        again.body.products.map((p: any) => [p.id, p.name, p.priceData.price, p.stock.quantity]),
      ).toEqual(products.map((p) => [p.id, p.name, p.priceData.price, p.stock.quantity]));
    } finally {
      await other.stop();
    }
  });

  it('serves the images it names', async () => {
    const url = new URL(products[0].media.mainMedia.image.url);
    const image = await fetch(`${platform.url}${url.pathname}`);
    expect(image.status).toBe(200);
    expect(await image.text()).toMatch(/^<svg /);
  });
});
