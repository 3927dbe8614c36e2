import { DEFAULT_VARIANT_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  admin,
  call,
  createProduct,
  fieldsOf,
  getStructured,
  queryProducts,
  visitorToken,
} from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const TEE = {
  name: 'Test Tee',
  priceData: { price: 20 },
  costAndProfitData: { itemCost: 8 },
  discount: { type: 'PERCENT', value: 10 },
  manageVariants: true,
  stock: { trackInventory: true, quantity: 5 },
  productOptions: [
    {
      name: 'Size',
      optionType: 'drop_down',
      choices: [
        { value: 'S', description: 'S' },
        { value: 'M', description: 'M' },
      ],
    },
    {
      name: 'Color',
      optionType: 'color',
      choices: [
        { value: '#ff0000', description: 'Red' },
        { value: '#0000ff', description: 'Blue' },
      ],
    },
  ],
};

describe.each(DIALECTS)('catalog products on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  it('computes the discounted price, formats it, and shows cost only to an admin asking for merchant data', async () => {
    const created = await createProduct(platform, {
      name: 'Discount Mug',
      priceData: { price: 12.5 },
      discount: { type: 'AMOUNT', value: 2.5 },
      costAndProfitData: { itemCost: 4 },
    });
    expect(created.priceData).toMatchObject({
      currency: 'USD',
      price: 12.5,
      discountedPrice: 10,
      formatted: { price: '$12.50', discountedPrice: '$10.00' },
    });
    expect(created.slug).toBe('discount-mug');
    expect(created.variants).toHaveLength(1);
    expect(created.variants[0].id).toBe(DEFAULT_VARIANT_ID);

    const publicRead = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${created.id}?includeMerchantSpecificData=true`,
    );
    expect(publicRead.status).toBe(200);
    expect(publicRead.body.product.priceData.discountedPrice).toBe(10);
    expect(publicRead.body.product.costAndProfitData).toBeUndefined();
    expect(publicRead.body.product.variants[0].variant.costAndProfitData).toBeUndefined();

    const visitorRead = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${created.id}?includeMerchantSpecificData=true`,
      undefined,
      visitor,
    );
    expect(visitorRead.body.product.costAndProfitData).toBeUndefined();

    const adminWithout = await admin(platform).get(`/stores-reader/v1/products/${created.id}`);
    expect(adminWithout.body.product.costAndProfitData).toBeUndefined();
    const adminWith = await admin(platform).get(
      `/stores-reader/v1/products/${created.id}?includeMerchantSpecificData=true`,
    );
    expect(adminWith.body.product.costAndProfitData).toMatchObject({
      itemCost: 4,
      profit: 6,
      profitMargin: 0.6,
    });
  });

  it('applies a percent discount to each variant price', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Percent Tee' });
    expect(tee.priceData.discountedPrice).toBe(18);
    const updated = await admin(platform).patch(`/stores/v1/products/${tee.id}/variants`, {
      variants: [{ choices: { Size: 'M' }, price: 25.5 }],
    });
    expect(updated.status).toBe(200);
    const medium = updated.body.variants.filter((v: any) => v.choices.Size === 'M');
    expect(medium).toHaveLength(2);
    for (const variant of medium) {
      expect(variant.variant.priceData).toMatchObject({ price: 25.5, discountedPrice: 22.95 });
    }
    const read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.priceRange).toEqual({ minValue: 20, maxValue: 25.5 });
  });

  it('prices per unit: 250 G of coffee at $14 is $5.60 per 100 G', async () => {
    const coffee = await createProduct(platform, {
      name: 'Unit Coffee',
      priceData: { price: 14 },
      pricePerUnitData: {
        totalQuantity: 250,
        totalMeasurementUnit: 'G',
        baseQuantity: 100,
        baseMeasurementUnit: 'G',
      },
    });
    expect(coffee.priceData.pricePerUnit).toBe(5.6);
    expect(coffee.priceData.formatted.pricePerUnit).toBe('$5.60');
    const kilo = await createProduct(platform, {
      name: 'Unit Coffee Kilo',
      priceData: { price: 40 },
      discount: { type: 'PERCENT', value: 50 },
      pricePerUnitData: {
        totalQuantity: 1,
        totalMeasurementUnit: 'KG',
        baseQuantity: 100,
        baseMeasurementUnit: 'G',
      },
    });
    expect(kilo.priceData.pricePerUnit).toBe(2);
    const mismatch = await admin(platform).post('/stores/v1/products', {
      product: {
        name: 'Unit Mismatch',
        priceData: { price: 1 },
        pricePerUnitData: {
          totalQuantity: 1,
          totalMeasurementUnit: 'L',
          baseQuantity: 100,
          baseMeasurementUnit: 'G',
        },
      },
    });
    expect(mismatch.status).toBe(400);
    expect(fieldsOf(mismatch)).toEqual(['product.pricePerUnitData.baseMeasurementUnit']);
  });

  it('generates one variant per combination of choices and derives the inventory status from their stock', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Stock Tee' });
    expect(tee.variants.map((v: any) => v.choices)).toEqual([
      { Size: 'S', Color: 'Red' },
      { Size: 'S', Color: 'Blue' },
      { Size: 'M', Color: 'Red' },
      { Size: 'M', Color: 'Blue' },
    ]);
    expect(new Set(tee.variants.map((v: any) => v.id)).size).toBe(4);
    expect(tee.stock).toEqual({
      trackInventory: true,
      quantity: 20,
      inStock: true,
      inventoryStatus: 'IN_STOCK',
    });

    const partial = await admin(platform).patch(`/stores/v1/products/${tee.id}/variants`, {
      variants: [{ choices: { Color: 'Red' }, stock: { quantity: 0 } }],
    });
    expect(partial.status).toBe(200);
    let read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.stock).toMatchObject({
      quantity: 10,
      inStock: true,
      inventoryStatus: 'PARTIALLY_OUT_OF_STOCK',
    });
    const red = read.body.product.productOptions[1].choices.find((c: any) => c.description === 'Red');
    expect(red.inStock).toBe(false);

    await admin(platform).patch(`/stores/v1/products/${tee.id}/variants`, {
      variants: [{ choices: { Color: 'Blue' }, stock: { quantity: 0 } }],
    });
    read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.stock).toMatchObject({
      quantity: 0,
      inStock: false,
      inventoryStatus: 'OUT_OF_STOCK',
    });
  });

  it('resolves a selection to its variant, and each choice to its stock given the other choices', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Availability Tee' });
    await admin(platform).patch(`/stores/v1/products/${tee.id}/variants`, {
      variants: [{ choices: { Size: 'M', Color: 'Blue' }, stock: { quantity: 0 }, price: 30 }],
    });
    const path = `/stores-reader/v1/products/${tee.id}/productOptionsAvailability`;

    const partial = await call(platform, 'POST', path, { options: { Size: 'M' } }, visitor);
    expect(partial.status).toBe(200);
    expect(partial.body.selectedVariant).toBeNull();
    expect(partial.body.availableForPurchase).toBe(false);
    const colors = partial.body.productOptions.find((o: any) => o.name === 'Color').choices;
    expect(colors.map((c: any) => [c.description, c.inStock])).toEqual([
      ['Red', true],
      ['Blue', false],
    ]);

    const soldOut = await call(platform, 'POST', path, { options: { Size: 'M', Color: 'Blue' } });
    expect(soldOut.body.selectedVariant).toMatchObject({
      inStock: false,
      price: { price: 30, discountedPrice: 27 },
    });
    expect(soldOut.body.availableForPurchase).toBe(false);

    const available = await call(platform, 'POST', path, { options: { Size: 'S', Color: 'Blue' } });
    const expected = tee.variants.find((v: any) => v.choices.Size === 'S' && v.choices.Color === 'Blue');
    expect(available.body.selectedVariant).toMatchObject({ id: expected.id, inStock: true, quantity: 5 });
    expect(available.body.availableForPurchase).toBe(true);

    const unknown = await call(platform, 'POST', path, { options: { Size: 'XXL' } });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['options.Size']);
    const noOption = await call(platform, 'POST', path, { options: { Fabric: 'Silk' } });
    expect(fieldsOf(noOption)).toEqual(['options.Fabric']);
  });

  it('queries a product’s variants by choices and ids, and store variants by product', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Variant Query Tee' });
    const byChoice = await call(platform, 'POST', `/stores-reader/v1/products/${tee.id}/variants/query`, {
      choices: { Color: 'Red' },
    });
    expect(byChoice.status).toBe(200);
    expect(byChoice.body.variants).toHaveLength(2);
    expect(byChoice.body.metadata).toMatchObject({ count: 2, offset: 0, total: 2 });

    const byId = await call(platform, 'POST', `/stores-reader/v1/products/${tee.id}/variants/query`, {
      variantIds: [tee.variants[3].id],
      includeMerchantSpecificData: true,
    });
    expect(byId.body.variants.map((v: any) => v.id)).toEqual([tee.variants[3].id]);
    expect(byId.body.variants[0].variant.costAndProfitData).toBeUndefined();

    const badChoice = await call(platform, 'POST', `/stores-reader/v1/products/${tee.id}/variants/query`, {
      choices: { Color: 'Green' },
    });
    expect(badChoice.status).toBe(400);
    expect(fieldsOf(badChoice)).toEqual(['choices.Color']);

    const store = await call(platform, 'POST', '/stores-reader/v1/variants/query', {
      query: { filter: { productId: tee.id, 'stock.inStock': true }, paging: { limit: 3 } },
    });
    expect(store.status).toBe(200);
    expect(store.body.metadata).toEqual({ count: 3, offset: 0, total: 4, tooManyToCount: false });
    const first = store.body.variants[0];
    expect(first.productId).toBe(tee.id);
    expect(first.id).toBe(`${tee.id}-${first.variantId}`);

    const single = await call(platform, 'GET', `/stores-reader/v1/variants/${first.id}`);
    expect(single.body.variant).toMatchObject({ id: first.id, productName: 'Variant Query Tee' });
    const missing = await call(platform, 'GET', `/stores-reader/v1/variants/${tee.id}-nope`);
    expect(missing.status).toBe(404);
  });

  it('updates only the fields sent, and ignores the id copied into the body', async () => {
    const product = await createProduct(platform, {
      name: 'Patch Lamp',
      priceData: { price: 50 },
      brand: 'Lumo',
      ribbon: 'New',
    });
    const patched = await admin(platform).patch(`/stores/v1/products/${product.id}`, {
      product: { id: 'someone-else', description: 'A warm light.', priceData: { price: 45 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.product).toMatchObject({
      id: product.id,
      name: 'Patch Lamp',
      description: 'A warm light.',
      brand: 'Lumo',
    });
    expect(patched.body.product.priceData.price).toBe(45);
    expect(new Date(patched.body.product.lastUpdated).getTime()).toBeGreaterThanOrEqual(
      new Date(product.lastUpdated).getTime(),
    );

    expect((await admin(platform).post(`/stores/v1/products/${product.id}/remove-brand`)).status).toBe(200);
    expect((await admin(platform).post(`/stores/v1/products/${product.id}/remove-ribbon`)).status).toBe(200);
    const read = await call(platform, 'GET', `/stores-reader/v1/products/${product.id}`);
    expect(read.body.product).toMatchObject({ brand: '', ribbon: '', ribbons: [] });
  });

  it('resets variants to the product’s price and drops options back to the default variant', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Reset Tee' });
    await admin(platform).patch(`/stores/v1/products/${tee.id}/variants`, {
      variants: [{ choices: { Size: 'S' }, price: 99, sku: 'X' }],
    });
    expect((await admin(platform).post(`/stores/v1/products/${tee.id}/variants/resetToDefault`)).status).toBe(
      200,
    );
    let read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.variants.map((v: any) => v.variant.priceData.price)).toEqual([20, 20, 20, 20]);

    expect((await admin(platform).delete(`/stores/v1/products/${tee.id}/options`)).status).toBe(200);
    read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.productOptions).toEqual([]);
    expect(read.body.product.manageVariants).toBe(false);
    expect(read.body.product.variants.map((v: any) => v.id)).toEqual([DEFAULT_VARIANT_ID]);
  });

  it('adds media by URL and by platform image id, links it to a choice, and removes it', async () => {
    const tee = await createProduct(platform, { ...TEE, name: 'Media Tee' });
    const added = await admin(platform).post(`/stores/v1/products/${tee.id}/media`, {
      media: [
        { url: 'https://images.example.com/tee.jpg' },
        { mediaId: 'media-tee--ff0000', choice: { option: 'Color', choice: 'Red' } },
      ],
    });
    expect(added.status).toBe(200);
    let read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    const items = read.body.product.media.items;
    expect(items).toHaveLength(2);
    expect(read.body.product.media.mainMedia.image.url).toBe('https://images.example.com/tee.jpg');
    expect(items[1].image).toMatchObject({
      url: expect.stringMatching(/\/media\/media-tee--ff0000\.svg$/),
      width: 800,
      height: 800,
    });
    const red = read.body.product.productOptions[1].choices[0];
    expect(red.media.items.map((m: any) => m.id)).toEqual(['media-tee--ff0000']);

    const urlId = items[0].id;
    await admin(platform).patch(`/stores/v1/products/${tee.id}/choices/media`, {
      media: [{ option: 'Color', choice: 'Blue', mediaIds: [urlId] }],
    });
    const availability = await call(
      platform,
      'POST',
      `/stores-reader/v1/products/${tee.id}/productOptionsAvailability`,
      {
        options: { Color: 'Blue' },
      },
    );
    expect(availability.body.media.items.map((m: any) => m.id)).toEqual([urlId]);

    await admin(platform).post(`/stores/v1/products/${tee.id}/choices/media/delete`, {
      media: [{ option: 'Color', choice: 'Blue', mediaIds: [urlId] }],
    });
    await admin(platform).post(`/stores/v1/products/${tee.id}/media/delete`, {
      mediaIds: ['media-tee--ff0000'],
    });
    read = await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`);
    expect(read.body.product.media.items.map((m: any) => m.id)).toEqual([urlId]);
    expect(
      read.body.product.productOptions[1].choices.every((c: any) => (c.media.items ?? []).length === 0),
    ).toBe(true);

    const badChoice = await admin(platform).patch(`/stores/v1/products/${tee.id}/choices/media`, {
      media: [{ option: 'Color', choice: 'Green', mediaIds: [urlId] }],
    });
    expect(badChoice.status).toBe(400);

    const svg = await fetch(`${platform.url}/media/media-tee--ff0000.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.headers.get('cache-control')).toContain('max-age=31536000');
    expect(await svg.text()).toContain('>MT</text>');
  });

  it('sets and adjusts price, cost and weight in bulk, failing only the unknown ids', async () => {
    const a = await createProduct(platform, {
      name: 'Bulk A',
      priceData: { price: 10 },
      costAndProfitData: { itemCost: 5 },
      weight: 1,
    });
    const b = await createProduct(platform, { name: 'Bulk B', priceData: { price: 30 }, weight: 2 });
    const set = await admin(platform).post('/stores/v1/bulk/products/update', {
      ids: [a.id, 'missing', b.id],
      set: { price: 9.99 },
    });
    expect(set.status).toBe(200);
    expect(set.body.bulkActionMetadata).toEqual({
      totalSuccesses: 2,
      totalFailures: 1,
      undetailedFailures: 0,
    });
    expect(set.body.results[1].itemMetadata).toMatchObject({
      id: 'missing',
      originalIndex: 1,
      success: false,
    });

    const adjust = await admin(platform).post('/stores/v1/bulk/products/adjust-properties', {
      ids: [a.id, b.id],
      adjust: { price: { percentage: -10 }, weight: { amount: 0.5 } },
    });
    expect(adjust.body.bulkActionMetadata.totalSuccesses).toBe(2);
    const read = await admin(platform).get(`/stores-reader/v1/products/${a.id}`);
    expect(read.body.product.priceData.price).toBe(8.99);
    expect(read.body.product.weight).toBe(1.5);

    // the hosted client's shape: a rate, and rounding to a whole number on request
    await admin(platform).post('/stores/v1/bulk/products/adjust-properties', {
      ids: [b.id],
      adjust: { price: { percentage: { rate: 10, roundToInt: true } } },
    });
    const rounded = (await admin(platform).get(`/stores-reader/v1/products/${b.id}`)).body.product;
    expect(Number.isInteger(rounded.priceData.price)).toBe(true);

    const tooMuch = await admin(platform).post('/stores/v1/bulk/products/adjust-properties', {
      ids: [a.id],
      adjust: { price: { amount: -100 } },
    });
    expect(tooMuch.body.results[0].itemMetadata.success).toBe(false);
    expect(
      (await admin(platform).get(`/stores-reader/v1/products/${a.id}`)).body.product.priceData.price,
    ).toBe(8.99);

    const badSet = await admin(platform).post('/stores/v1/bulk/products/update', {
      ids: [a.id],
      set: { price: -1 },
    });
    expect(badSet.status).toBe(400);
    expect(fieldsOf(badSet)).toEqual(['set.price']);
  });

  it('refuses every write to a visitor token with 403 and leaves the catalog unchanged', async () => {
    const product = await createProduct(platform, { name: 'Guarded Vase', priceData: { price: 40 } });
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/stores/v1/products', { product: { name: 'Sneaky', priceData: { price: 1 } } }],
      ['PATCH', `/stores/v1/products/${product.id}`, { product: { name: 'Hacked' } }],
      ['DELETE', `/stores/v1/products/${product.id}`, undefined],
      [
        'PATCH',
        `/stores/v1/products/${product.id}/variants`,
        { variants: [{ variantIds: [DEFAULT_VARIANT_ID], price: 1 }] },
      ],
      ['POST', '/stores/v1/bulk/products/update', { ids: [product.id], set: { price: 1 } }],
      ['POST', '/stores/v1/collections', { collection: { name: 'Sneaky' } }],
      ['POST', `/stores/v1/products/${product.id}/remove-brand`, {}],
    ];
    for (const [method, path, body] of writes) {
      const answer = await call(platform, method, path, body, visitor);
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    const anonymous = await call(platform, 'POST', '/stores/v1/products', {
      product: { name: 'Anon', priceData: { price: 1 } },
    });
    expect(anonymous.status).toBe(401);

    const read = await call(platform, 'GET', `/stores-reader/v1/products/${product.id}`);
    expect(read.body.product).toMatchObject({ name: 'Guarded Vase', priceData: { price: 40 } });
    const sneaky = await queryProducts(platform, {
      query: { filter: { name: { $in: ['Sneaky', 'Anon'] } } },
    });
    expect(sneaky.body.metadata.total).toBe(0);
  });

  it('hides invisible products from visitors but not from admins', async () => {
    const hidden = await createProduct(platform, {
      name: 'Secret Drop',
      priceData: { price: 5 },
      visible: false,
    });
    expect(
      (await call(platform, 'GET', `/stores-reader/v1/products/${hidden.id}`, undefined, visitor)).status,
    ).toBe(404);
    expect((await admin(platform).get(`/stores-reader/v1/products/${hidden.id}`)).status).toBe(200);
    const filter = { query: { filter: { name: 'Secret Drop' } }, includeHiddenProducts: true };
    expect((await queryProducts(platform, filter, visitor)).body.products).toHaveLength(0);
    expect((await queryProducts(platform, filter, platform.adminApiKey)).body.products).toHaveLength(1);
  });

  it('answers bad input with field violations naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'Bad', priceData: { price: -1 } }, 'product.priceData.price'],
      [{ name: 'Bad', priceData: { price: 1.999 } }, 'product.priceData.price'],
      [{ name: 'Bad', priceData: { price: 'abc' } }, 'product.priceData.price'],
      [{ name: 'Bad' }, 'product.priceData.price'],
      [{ priceData: { price: 1 } }, 'product.name'],
      [
        { name: 'Bad', priceData: { price: 1 }, discount: { type: 'PERCENT', value: 120 } },
        'product.discount.value',
      ],
      [{ name: 'Bad', priceData: { price: 1 }, productType: 'service' }, 'product.productType'],
    ];
    for (const [product, field] of cases) {
      const answer = await admin(platform).post('/stores/v1/products', { product });
      expect(answer.status, JSON.stringify(product)).toBe(400);
      expect(fieldsOf(answer)).toContain(field);
    }
    const badVariant = await admin(platform).post('/stores/v1/products', {
      product: { ...TEE, name: 'Bad Variant Tee' },
    });
    const variants = await admin(platform).patch(
      `/stores/v1/products/${badVariant.body.product.id}/variants`,
      {
        variants: [{ choices: { Size: 'XXL' }, price: 1 }],
      },
    );
    expect(variants.status).toBe(400);
    expect(fieldsOf(variants)).toEqual(['variants[0].choices.Size']);
  });

  it('refuses a duplicate slug with ALREADY_EXISTS and answers unknown ids with 404', async () => {
    await createProduct(platform, { name: 'Slug One', slug: 'taken-slug', priceData: { price: 1 } });
    const duplicate = await admin(platform).post('/stores/v1/products', {
      product: { name: 'Slug Two', slug: 'taken-slug', priceData: { price: 1 } },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.details.applicationError.code).toBe('ALREADY_EXISTS');
    const derived = await createProduct(platform, { name: 'Taken Slug', priceData: { price: 1 } });
    expect(derived.slug).toBe('taken-slug-2');

    const missing = await call(
      platform,
      'GET',
      '/stores-reader/v1/products/00000000-0000-0000-0000-00000000dead',
    );
    expect(missing.status).toBe(404);
    expect(missing.body.details.applicationError.code).toBe('PRODUCT_NOT_FOUND');
    expect((await admin(platform).patch('/stores/v1/products/nope', { product: { name: 'x' } })).status).toBe(
      404,
    );
    expect((await admin(platform).delete('/stores/v1/products/nope')).status).toBe(404);
  });

  it('deletes a product so that it is gone from reads and queries', async () => {
    const product = await createProduct(platform, { name: 'Doomed Plant', priceData: { price: 3 } });
    expect((await admin(platform).delete(`/stores/v1/products/${product.id}`)).status).toBe(200);
    expect((await call(platform, 'GET', `/stores-reader/v1/products/${product.id}`)).status).toBe(404);
    expect(
      (await queryProducts(platform, { query: { filter: { id: product.id } } })).body.metadata.total,
    ).toBe(0);
    const variants = await call(platform, 'POST', '/stores-reader/v1/variants/query', {
      query: { filter: { productId: product.id } },
    });
    expect(variants.body.metadata.total).toBe(0);
  });

  it('answers the .r GET form and its POST fallback alike', async () => {
    await createProduct(platform, { name: 'Fallback Bowl', priceData: { price: 7 } });
    const request = { query: { filter: { name: { $startsWith: 'fallback' } }, paging: { limit: 5 } } };
    const viaGet = await getStructured(platform, '/stores-reader/v1/products/query-platformized', request);
    const viaPost = await queryProducts(platform, request);
    expect(viaGet.status).toBe(200);
    expect(viaGet.body).toEqual(viaPost.body);
    expect(viaGet.body.products.map((p: any) => p.name)).toEqual(['Fallback Bowl']);
  });
});
