import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { admin, call } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A store saved by an older Cartwheel, whose documents name the public address of the process that
 * wrote them, opens with links that name the address of the process answering; once upgraded,
 * nothing stored names an address.
 */
const OLD_ADDRESS = 'http://old-shop.example:4000';
const BEFORE_ADDRESS_FREE_LINKS = '0022_oauth_authorization_requests';
const AT = '2026-01-01T00:00:00.000Z';

const image = (stem: string) => ({ url: `${OLD_ADDRESS}/media/${stem}.svg`, width: 800, height: 800 });
const productDoc = {
  id: 'p-lamp',
  name: 'Old Lamp',
  slug: 'old-lamp',
  visible: true,
  productPageUrl: { base: OLD_ADDRESS, path: '/product-page/old-lamp' },
  media: { mainMedia: { id: 'old-lamp', image: image('old-lamp') }, items: [{ image: image('old-lamp') }] },
  priceData: { price: 40 },
};
const orderDoc = {
  lineItems: [
    {
      id: 'line-1',
      productName: { original: 'Old Lamp' },
      quantity: 1,
      image: image('old-lamp'),
      url: { relativePath: '/product-page/old-lamp', url: `${OLD_ADDRESS}/product-page/old-lamp` },
    },
  ],
  buyerInfo: { visitorId: 'v-1', contactId: null, email: 'old@example.com' },
  priceSummary: { total: { amount: '40.00', formattedAmount: '$40.00' } },
  activities: [],
};

describe.each(DIALECTS)('a store whose stored links name its old address, opened on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      async prepare(options) {
        const database = connectDatabase(options);
        try {
          await migrateTo(database.db, BEFORE_ADDRESS_FREE_LINKS);
          const db = database.db as unknown as Kysely<any>; // the schema as it was, not as the types say
          const doc = JSON.stringify(productDoc);
          await db
            .insertInto('products')
            .values({
              id: productDoc.id,
              numeric_id: 1000,
              slug: productDoc.slug,
              name: productDoc.name,
              name_lower: productDoc.name.toLowerCase(),
              price: 40,
              discounted_price: 40,
              visible: 1,
              inventory_status: 'IN_STOCK',
              in_stock: 1,
              product_type: 'physical',
              sku: '',
              brand: '',
              ribbon: '',
              created_date: AT,
              last_updated: AT,
              record: JSON.stringify({ media: [{ id: 'old-lamp', image: image('old-lamp') }] }),
              doc,
              doc_merchant: doc,
              variants_doc: '[]',
              variants_doc_merchant: '[]',
            })
            .execute();
          await db
            .insertInto('collections')
            .values({
              id: 'c-lamps',
              slug: 'lamps',
              name: 'Lamps',
              description: null,
              visible: 1,
              media: JSON.stringify({ mainMedia: { image: image('lamps') } }),
              created_date: AT,
              updated_date: AT,
              product_count: 0,
              visible_product_count: 0,
              listing_version: 0,
            })
            .execute();
          await db
            .insertInto('orders')
            .values({
              id: 'o-1',
              number: 10001,
              status: 'APPROVED',
              payment_status: 'PAID',
              fulfillment_status: 'NOT_FULFILLED',
              checkout_id: null,
              visitor_id: 'v-1',
              member_id: null,
              created_at: AT,
              updated_at: AT,
              doc: JSON.stringify(orderDoc),
              holds_stock: 0,
            })
            .execute();
        } finally {
          await database.close();
        }
      },
    });
  });
  afterAll(() => platform?.stop());

  it('answers every such link with the address of the process answering', async () => {
    const product = await call(platform, 'GET', `/stores-reader/v1/products/${productDoc.id}`);
    expect(product.body.product.productPageUrl.base).toBe(platform.services.config.publicUrl);
    expect(product.body.product.media.mainMedia.image.url).toBe(
      `${platform.services.config.publicUrl}/media/old-lamp.svg`,
    );
    const collection = await call(platform, 'GET', '/v2/collections/c-lamps');
    expect(collection.body.collection.media.mainMedia.image.url).toBe(
      `${platform.services.config.publicUrl}/media/lamps.svg`,
    );
    const order = await admin(platform).get('/ecom/v1/orders/o-1');
    expect(order.body.order.lineItems[0].image.url).toBe(
      `${platform.services.config.publicUrl}/media/old-lamp.svg`,
    );
    expect(order.body.order.lineItems[0].url.url).toBe(
      `${platform.services.config.publicUrl}/product-page/old-lamp`,
    );
  });

  it('keeps no address in what it stores', async () => {
    const db = platform.services.database.db;
    const stored = [
      ...(await db.selectFrom('products').select(['record', 'doc', 'doc_merchant']).execute()),
      ...(await db.selectFrom('collections').select('media').execute()),
      ...(await db.selectFrom('orders').select('doc').execute()),
    ];
    expect(JSON.stringify(stored)).not.toContain('old-shop.example');
  });
});
