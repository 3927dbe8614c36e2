import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** `POST /api/cartwheel/products/{id}/media/order`: the merchant's order of a product's images. */
describe.each(DIALECTS)('product media order on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;
  let mediaIds: string[];
  const order = (ids: unknown, auth?: string) =>
    call(platform, 'POST', `/api/cartwheel/products/${productId}/media/order`, { mediaIds: ids }, auth);
  const media = async () =>
    (
      await call(
        platform,
        'GET',
        `/stores-reader/v1/products/${productId}`,
        undefined,
        await visitorToken(platform),
      )
    ).body.product.media;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    productId = (
      await createProduct(platform, {
        name: `Ordered ${dialect}`,
        productType: 'physical',
        priceData: { price: 5 },
      })
    ).id;
    const added = await admin(platform).post(`/stores/v1/products/${productId}/media`, {
      media: ['a', 'b', 'c'].map((name) => ({ url: `https://images.example.com/${name}.png` })),
    });
    expect(added.status).toBe(200);
    mediaIds = (await media()).items.map((item: { id: string }) => item.id);
    expect(mediaIds).toHaveLength(3);
  });
  afterAll(() => platform?.stop());

  it('puts the images in the order named, and the first becomes the main image shoppers see', async () => {
    const [a, b, c] = mediaIds as [string, string, string];
    const answer = await call(
      platform,
      'POST',
      `/api/cartwheel/products/${productId}/media/order`,
      { mediaIds: [c, a, b] },
      platform.adminApiKey,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const seen = await media();
    expect(seen.items.map((item: { id: string }) => item.id)).toEqual([c, a, b]);
    expect(seen.mainMedia.id).toBe(c);
    expect(seen.mainMedia.image.url).toBe('https://images.example.com/c.png');
  });

  it('refuses an order that leaves an image out, names one twice or names one the product lacks', async () => {
    const [a, b, c] = mediaIds as [string, string, string];
    const fieldsOf = (body: any) =>
      body.details.validationError.fieldViolations.map((violation: { field: string }) => violation.field);
    const missing = await order([a, b], platform.adminApiKey);
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual(['mediaIds']);
    const twice = await order([a, a, b], platform.adminApiKey);
    expect(twice.status).toBe(400);
    expect(fieldsOf(twice.body)).toEqual(['mediaIds[1]']);
    const stranger = await order([a, b, 'abc0123456789'], platform.adminApiKey);
    expect(stranger.status).toBe(400);
    expect(fieldsOf(stranger.body)).toEqual(['mediaIds[2]']);
    const notAList = await order('abc', platform.adminApiKey);
    expect(notAList.status).toBe(400);
    // nothing moved
    expect((await media()).items.map((item: { id: string }) => item.id)).toEqual([c, a, b]);
  });

  it('is for those who may manage products: a shopper is refused', async () => {
    const refused = await order([...mediaIds].reverse(), await visitorToken(platform));
    expect(refused.status).toBe(403);
  });
});
