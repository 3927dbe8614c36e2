import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, queryProducts, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A hidden collection is the merchant's own: a visitor reading a visible product that is in one
 * never learns its id, and a visitor's filter naming it finds nothing through it, as if it did not
 * exist. Admins see everything.
 */
describe.each(DIALECTS)('hidden collections on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  let productId: string;
  let shownId: string;
  let hiddenId: string;

  const ids = (answer: { body: any }) => answer.body.products.map((product: { id: string }) => product.id);
  const byVisitor = (filter: unknown) => queryProducts(platform, { query: { filter } }, visitor);

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    productId = (
      await createProduct(platform, {
        name: 'Layered Tee',
        priceData: { price: 25 },
        manageVariants: true,
        productOptions: [{ name: 'Size', choices: [{ description: 'S' }, { description: 'M' }] }],
      })
    ).id;
    const create = async (collection: Record<string, unknown>) =>
      (await admin(platform).post('/stores/v1/collections', { collection })).body.collection.id as string;
    shownId = await create({ name: 'Summer Picks' });
    hiddenId = await create({ name: 'Clearance Plan', visible: false });
    for (const id of [shownId, hiddenId]) {
      await admin(platform).post(`/stores/v1/collections/${id}/productIds`, { productIds: [productId] });
    }
  });
  afterAll(() => platform?.stop());

  it('leaves the hidden collection out of every document a visitor reads', async () => {
    const product = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${productId}`,
      undefined,
      visitor,
    );
    expect(product.body.product.collectionIds).toContain(shownId);
    expect(product.body.product.collectionIds).not.toContain(hiddenId);

    const listed = await byVisitor({ name: 'Layered Tee' });
    expect(listed.body.products[0].collectionIds).toEqual(product.body.product.collectionIds);
    const withVariants = await queryProducts(
      platform,
      { query: { filter: { name: 'Layered Tee' } }, includeVariants: true },
      visitor,
    );
    expect(JSON.stringify(withVariants.body)).not.toContain(hiddenId);

    const variants = await call(
      platform,
      'POST',
      '/stores-reader/v1/variants/query',
      { query: { filter: { productId } } },
      visitor,
    );
    expect(variants.body.variants).toHaveLength(2);
    for (const variant of variants.body.variants) {
      expect(variant.collectionIds).toContain(shownId);
      expect(variant.collectionIds).not.toContain(hiddenId);
    }
    const one = await call(
      platform,
      'GET',
      `/stores-reader/v1/variants/${variants.body.variants[0].id}`,
      undefined,
      visitor,
    );
    expect(one.body.variant.collectionIds).not.toContain(hiddenId);

    const availability = await call(
      platform,
      'POST',
      `/stores-reader/v1/products/${productId}/productOptionsAvailability`,
      { options: { Size: 'S' } },
      visitor,
    );
    const productVariants = await call(
      platform,
      'POST',
      `/stores-reader/v1/products/${productId}/variants/query`,
      {},
      visitor,
    );
    for (const answer of [availability, productVariants]) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(hiddenId);
    }
  });

  it("finds nothing through the hidden collection in a visitor's filter, as if it did not exist", async () => {
    expect(ids(await byVisitor({ collectionIds: { $hasSome: [hiddenId] } }))).toEqual([]);
    expect((await byVisitor({ collectionIds: { $hasSome: [hiddenId] } })).body.metadata.total).toBe(0);
    expect(ids(await byVisitor({ collectionIds: hiddenId }))).toEqual([]);
    expect(ids(await byVisitor({ collectionIds: { $hasAll: [shownId, hiddenId] } }))).toEqual([]);
    expect(ids(await byVisitor({ 'collections.id': { $in: [hiddenId] } }))).toEqual([]);
    // the visible one still finds it, and excluding the hidden one excludes nothing
    expect(ids(await byVisitor({ collectionIds: { $in: [shownId, hiddenId] } }))).toEqual([productId]);
    expect(
      ids(await byVisitor({ $and: [{ name: 'Layered Tee' }, { collectionIds: { $nin: [hiddenId] } }] })),
    ).toEqual([productId]);
    expect(
      ids(await byVisitor({ $or: [{ collectionIds: { $hasSome: [hiddenId] } }, { name: 'nothing' }] })),
    ).toEqual([]);
    const variants = await call(
      platform,
      'POST',
      '/stores-reader/v1/variants/query',
      { query: { filter: { collectionIds: { $hasSome: [hiddenId] } } } },
      visitor,
    );
    expect(variants.body.variants).toEqual([]);
  });

  it('shows admins every collection, in documents and filters', async () => {
    const product = await admin(platform).get(`/stores-reader/v1/products/${productId}`);
    expect(product.body.product.collectionIds).toEqual(expect.arrayContaining([shownId, hiddenId]));
    const listed = await queryProducts(
      platform,
      { query: { filter: { collectionIds: { $hasSome: [hiddenId] } } } },
      platform.adminApiKey,
    );
    expect(ids(listed)).toEqual([productId]);
    expect(listed.body.products[0].collectionIds).toContain(hiddenId);
    const variants = await call(
      platform,
      'POST',
      '/stores-reader/v1/variants/query',
      { query: { filter: { collectionIds: { $hasAll: [hiddenId] } } } },
      platform.adminApiKey,
    );
    expect(variants.body.variants).toHaveLength(2);
  });

  it('shows the collection to visitors as soon as it is made visible, and hides it again', async () => {
    // read first, so the visitor's answers are in the read cache when the collection changes
    expect(ids(await byVisitor({ collectionIds: { $hasSome: [hiddenId] } }))).toEqual([]);
    await admin(platform).patch(`/stores/v1/collections/${hiddenId}`, { collection: { visible: true } });
    expect(ids(await byVisitor({ collectionIds: { $hasSome: [hiddenId] } }))).toEqual([productId]);
    const product = await call(
      platform,
      'GET',
      `/stores-reader/v1/products/${productId}`,
      undefined,
      visitor,
    );
    expect(product.body.product.collectionIds).toContain(hiddenId);

    await admin(platform).patch(`/stores/v1/collections/${hiddenId}`, { collection: { visible: false } });
    expect(ids(await byVisitor({ collectionIds: { $hasSome: [hiddenId] } }))).toEqual([]);
    const again = await call(platform, 'GET', `/stores-reader/v1/products/${productId}`, undefined, visitor);
    expect(again.body.product.collectionIds).not.toContain(hiddenId);
  });

  it("reaches another process's visitors within a second or so", async () => {
    const second = await startTestPlatform({ dialect, sharing: platform });
    try {
      const secondVisitor = await visitorToken(second);
      const read = async () =>
        (await call(second, 'GET', `/stores-reader/v1/products/${productId}`, undefined, secondVisitor)).body
          .product.collectionIds as string[];
      expect(await read()).not.toContain(hiddenId);
      await admin(platform).patch(`/stores/v1/collections/${hiddenId}`, { collection: { visible: true } });
      await expect.poll(read, { timeout: 5000, interval: 200 }).toContain(hiddenId);
      await admin(platform).patch(`/stores/v1/collections/${hiddenId}`, { collection: { visible: false } });
      await expect.poll(read, { timeout: 5000, interval: 200 }).not.toContain(hiddenId);
    } finally {
      await second.stop();
    }
  });
});
