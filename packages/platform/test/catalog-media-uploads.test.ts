import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, queryProducts, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(DIALECTS)('media uploads on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());

  it('keeps an uploaded image, serves its bytes, and a product shows it once added by its URL', async () => {
    const answer = await admin(platform).post('/api/cartwheel/media', {
      contentType: 'image/png',
      data: PNG.toString('base64'),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.media).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const { url } = answer.body.media as { url: string };
    expect(url).toMatch(/\/media\/uploads\/upl[0-9a-f]{32}\.png$/);

    const served = await fetch(url.replace(/^https?:\/\/[^/]+/, platform.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    const product = await createProduct(platform, {
      name: `Uploaded ${dialect}`,
      productType: 'physical',
      priceData: { price: 5 },
    });
    const added = await admin(platform).post(`/stores/v1/products/${product.id}/media`, { media: [{ url }] });
    expect(added.status).toBe(200);
    const seen = await queryProducts(
      platform,
      { query: { filter: { name: `Uploaded ${dialect}` } } },
      await visitorToken(platform),
    );
    expect(seen.body.products[0].media.mainMedia.image.url).toMatch(
      /\/media\/uploads\/upl[0-9a-f]{32}\.png$/,
    );
  });

  it('refuses a type it does not take, bytes that are not the type named, and an empty image', async () => {
    const svg = await admin(platform).post('/api/cartwheel/media', {
      contentType: 'image/svg+xml',
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
    });
    expect(svg.status).toBe(400);
    expect(svg.body.details.validationError.fieldViolations[0].field).toBe('contentType');
    const lying = await admin(platform).post('/api/cartwheel/media', {
      contentType: 'image/jpeg',
      data: PNG.toString('base64'),
    });
    expect(lying.status).toBe(400);
    expect(lying.body.details.validationError.fieldViolations[0].description).toBe(
      'is not a image/jpeg image',
    );
    const empty = await admin(platform).post('/api/cartwheel/media', { contentType: 'image/png', data: '' });
    expect(empty.status).toBe(400);
  });

  it('refuses an image over 2 MiB', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    const answer = await admin(platform).post('/api/cartwheel/media', {
      contentType: 'image/png',
      data: big.toString('base64'),
    });
    expect(answer.status).toBe(400);
  });

  it('refuses a visitor, and answers NOT_FOUND for an image it does not keep', async () => {
    const visitor = await call(
      platform,
      'POST',
      '/api/cartwheel/media',
      { contentType: 'image/png', data: PNG.toString('base64') },
      await visitorToken(platform),
    );
    expect(visitor.status).toBe(403);
    const missing = await fetch(`${platform.url}/media/uploads/upl${'0'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
  });
});
