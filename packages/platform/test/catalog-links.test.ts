import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config.ts';
import { startPlatform } from '../src/platform.ts';
import { admin, call, queryProducts } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, TEST_ADMIN_API_KEY, type TestPlatform } from './support/platform.ts';

/**
 * A store moves: its demo catalog was rendered under one public address, and the platform starts
 * again under another. Every link to its own images and product pages follows it.
 */
const OLD_ADDRESS = 'http://old-shop.example:4000';

describe.each(DIALECTS)('a store started under a new PUBLIC_URL on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      async prepare({ dataDir, databaseUrl }) {
        const before = await startPlatform({
          ...configFromEnv({
            PORT: '0',
            HOST: '127.0.0.1',
            PUBLIC_URL: OLD_ADDRESS,
            DATA_DIR: dataDir,
            LOG_LEVEL: 'silent',
            CARTWHEEL_ADMIN_API_KEY: TEST_ADMIN_API_KEY,
            CARTWHEEL_SEED_DEMO: 'true',
          }),
          databaseUrl,
        });
        await before.close();
      },
    });
  });
  afterAll(() => platform?.stop());

  it('serves product and collection links under the new address, and the images load there', async () => {
    const answer = await queryProducts(platform, {
      query: { paging: { limit: 100 } },
      includeVariants: true,
    });
    expect(answer.body.products.length).toBeGreaterThan(40);
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(OLD_ADDRESS);
    const product = answer.body.products[0];
    expect(product.productPageUrl.base).toBe(platform.url);
    const image = product.media.mainMedia.image.url as string;
    expect(image.startsWith(`${platform.url}/media/`)).toBe(true);
    const served = await fetch(image);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toContain('svg');

    const merchant = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${product.id}?includeMerchantSpecificData=true`,
      undefined,
      platform.adminApiKey,
    );
    expect(JSON.stringify(merchant.body)).not.toContain(OLD_ADDRESS);
    const collections = await admin(platform).post('/v2/collections/query', { query: {} });
    expect(JSON.stringify(collections.body)).not.toContain(OLD_ADDRESS);
    expect(JSON.stringify(collections.body)).toContain(`${platform.url}/media/`);
  });

  it('renders later writes under the new address too', async () => {
    const answer = await queryProducts(platform, { query: { paging: { limit: 1 } } });
    const id = answer.body.products[0].id;
    const renamed = await admin(platform).patch(`/stores/v1/products/${id}`, {
      product: { ribbon: 'Moved' },
    });
    expect(renamed.status).toBe(200);
    expect(JSON.stringify(renamed.body)).not.toContain(OLD_ADDRESS);
    expect(renamed.body.product.productPageUrl.base).toBe(platform.url);
  });
});
