import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from './cart-calls.ts';
import { admin, call, queryProducts, visitorToken } from './catalog-http.ts';
import { checkoutCalls, placeOrder, shipToUs, stockedProduct } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Two processes of one store over one database, each configured with its own public address
 * (PUBLIC_URL): each answers the links to the platform's own images and pages with its own address,
 * whichever process wrote what they link, and starting or stopping one changes nothing the other
 * answers.
 */
const ADDRESS = {
  first: 'http://shop-one.test',
  second: 'http://shop-two.test',
  third: 'http://shop-three.test',
};

describe.each(DIALECTS)('links to the platform on two processes over one %s database', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform | undefined;
  let productId: string;
  let collectionId: string;
  let shopper: { auth: string; orderId: string; checkoutId: string };
  let cartOwner: string;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect, env: { PUBLIC_URL: ADDRESS.first } });
    second = await startTestPlatform({ dialect, sharing: first, env: { PUBLIC_URL: ADDRESS.second } });
    // written through the second, read through both
    await shipToUs(second);
    productId = (await stockedProduct(second, 'Reading Lamp', 40, 100)).id;
    expect(
      (await admin(second).post(`/stores/v1/products/${productId}/media`, { media: [{ mediaId: 'lamp' }] }))
        .status,
    ).toBe(200);
    const collection = await admin(second).post('/stores/v1/collections', {
      collection: { name: 'Lamps', media: { mediaId: 'lamps' } },
    });
    collectionId = collection.body.collection.id;
    await admin(second).post(`/stores/v1/collections/${collectionId}/productIds`, {
      productIds: [productId],
    });
    shopper = await placeOrder(second, productId);
    cartOwner = await visitorToken(second);
    expect((await cartCalls(second, cartOwner).add({ lineItems: [catalogLine(productId, 2)] })).status).toBe(
      200,
    );
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  /** Every answer a shopper or the admin gets that links to the platform, as text. */
  async function answers(platform: TestPlatform): Promise<Record<string, string>> {
    const text = async (answer: Promise<{ status: number; body: unknown }>) => {
      const { status, body } = await answer;
      expect(status, JSON.stringify(body)).toBe(200);
      return JSON.stringify(body);
    };
    return {
      products: await text(queryProducts(platform, { query: {}, includeVariants: true })),
      product: await text(call(platform, 'GET', `/stores-reader/v1/products/${productId}`)),
      merchantProduct: await text(
        admin(platform).get(`/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`),
      ),
      variants: await text(call(platform, 'POST', '/stores-reader/v1/variants/query', { query: {} })),
      collection: await text(call(platform, 'GET', `/v2/collections/${collectionId}`)),
      cart: await text(cartCalls(platform, cartOwner).get()),
      checkout: await text(checkoutCalls(platform, shopper.auth).get(shopper.checkoutId)),
      order: await text(call(platform, 'GET', `/ecom/v1/orders/${shopper.orderId}`, undefined, shopper.auth)),
    };
  }

  function expectLinksTo(texts: Record<string, string>, own: string, others: string[]) {
    for (const [what, text] of Object.entries(texts)) {
      expect(text, what).toContain(`"${own}/media/`);
      expect(text, what).not.toContain('\\u0000');
      for (const other of others) expect(text, what).not.toContain(other);
    }
  }

  it('each process answers links to its own address', async () => {
    expectLinksTo(await answers(first), ADDRESS.first, [ADDRESS.second]);
    expectLinksTo(await answers(second!), ADDRESS.second, [ADDRESS.first]);

    const product = (await call(first, 'GET', `/stores-reader/v1/products/${productId}`)).body.product;
    expect(product.productPageUrl).toEqual({ base: ADDRESS.first, path: '/product-page/reading-lamp' });
    const line = (await cartCalls(second!, cartOwner).get()).body.cart.lineItems[0];
    expect(line.url.url).toBe(`${ADDRESS.second}/product-page/reading-lamp`);
    expect(line.image.url).toBe(`${ADDRESS.second}/media/lamp.svg`);
    const order = (await call(first, 'GET', `/ecom/v1/orders/${shopper.orderId}`, undefined, shopper.auth))
      .body.order;
    expect(order.lineItems[0].image.url).toBe(`${ADDRESS.first}/media/lamp.svg`);
  });

  it('serves the images its links name', async () => {
    for (const platform of [first, second!]) {
      const product = (await call(platform, 'GET', `/stores-reader/v1/products/${productId}`)).body.product;
      const image = new URL(product.media.mainMedia.image.url);
      const served = await fetch(`${platform.url}${image.pathname}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toContain('svg');
    }
  });

  it('an image sent back as an answer named it stays the platform’s own', async () => {
    const named = (await admin(second!).get(`/v2/collections/${collectionId}`)).body.collection;
    const updated = await admin(second!).patch(`/stores/v1/collections/${collectionId}`, {
      collection: { media: { mainMedia: { image: { url: named.media.mainMedia.image.url } } } },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const read = (await call(first, 'GET', `/v2/collections/${collectionId}`)).body.collection;
    expect(read.media.mainMedia.image.url).toBe(`${ADDRESS.first}/media/lamps.svg`);
  });

  it('stopping one process and starting another under a new address changes nothing the first answers', async () => {
    const before = await answers(first);
    await second!.stop();
    second = await startTestPlatform({ dialect, sharing: first, env: { PUBLIC_URL: ADDRESS.third } });
    expectLinksTo(await answers(second), ADDRESS.third, [ADDRESS.first, ADDRESS.second]);
    expect(await answers(first)).toEqual(before);

    // nothing stored names any process's address
    const db = first.services.database.db;
    const stored = [
      ...(await db.selectFrom('products').select(['record', 'doc', 'variants_doc_merchant']).execute()),
      ...(await db.selectFrom('collections').select('media').execute()),
      ...(await db.selectFrom('checkouts').select('priced').execute()),
      ...(await db.selectFrom('orders').select('doc').execute()),
    ];
    expect(JSON.stringify(stored)).not.toMatch(/shop-(one|two|three)\.test/);
  });
});
