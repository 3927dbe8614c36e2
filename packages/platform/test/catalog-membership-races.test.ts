import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, queryProducts } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Fifty admins' calls at the same moment, adding one product to and removing it from several
 * collections (each call also relists the product's documents): on PostgreSQL these once deadlocked
 * and about half answered 500. Every call is answered, none with a 5xx, and the counters agree with
 * the memberships that came out.
 */
describe.each(DIALECTS)('membership changes made at once on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;
  let neighbourId: string;
  const collections: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    productId = (await createProduct(platform, { name: 'Contested Tee', priceData: { price: 10 } })).id;
    neighbourId = (await createProduct(platform, { name: 'Neighbour Mug', priceData: { price: 5 } })).id;
    for (let i = 0; i < 5; i++) {
      const answer = await admin(platform).post('/stores/v1/collections', {
        collection: { name: `Race ${i}` },
      });
      collections.push(answer.body.collection.id);
    }
  });
  afterAll(() => platform?.stop());

  it('answers all 50 calls, none with a 5xx, and counts each collection right', async () => {
    const calls = Array.from({ length: 50 }, (_, i) => {
      const collectionId = collections[i % collections.length] as string;
      // both products in some calls: two rows locked per call, in whatever order the caller lists them
      const productIds = i % 3 === 0 ? [neighbourId, productId] : [productId];
      const path = `/stores/v1/collections/${collectionId}/productIds${i % 2 === 0 ? '' : '/delete'}`;
      return admin(platform).post(path, { productIds });
    });
    const answers = await Promise.all(calls);
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.filter((status) => status >= 500),
      JSON.stringify(answers.find((a) => a.status >= 500)?.body),
    ).toEqual([]);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const product = (await admin(platform).get(`/stores-reader/v1/products/${productId}`)).body.product;
    const neighbour = (await admin(platform).get(`/stores-reader/v1/products/${neighbourId}`)).body.product;
    for (const collectionId of collections) {
      const collection = (await admin(platform).get(`/v2/collections/${collectionId}`)).body.collection;
      const listed = await queryProducts(
        platform,
        { query: { filter: { collectionIds: { $hasSome: [collectionId] } } } },
        platform.adminApiKey,
      );
      const members = listed.body.products.map((member: { id: string }) => member.id).sort();
      const expected = [product, neighbour]
        .filter((candidate) => candidate.collectionIds.includes(collectionId))
        .map((candidate) => candidate.id)
        .sort();
      expect(members).toEqual(expected);
      expect(collection.numberOfProducts).toBe(expected.length);
      expect(listed.body.metadata.total).toBe(expected.length);
    }
  });

  it('answers membership changes, product updates and a collection delete made at once, none with a 5xx', async () => {
    const doomed = collections[4] as string;
    const calls = Array.from({ length: 50 }, (_, i) => {
      const collectionId = collections[i % 4] as string;
      const productIds = i % 3 === 0 ? [productId, neighbourId] : [neighbourId];
      switch (i % 5) {
        case 0:
          return admin(platform).post(`/stores/v1/collections/${collectionId}/productIds`, { productIds });
        case 1:
          return admin(platform).post(`/stores/v1/collections/${doomed}/productIds`, { productIds });
        case 2:
          // a new price moves the sort keys the listings copy, in every collection of the product
          return admin(platform).patch(`/stores/v1/products/${productIds[0]}`, {
            product: { priceData: { price: 10 + i }, visible: i % 2 === 0 },
          });
        case 3:
          return admin(platform).post(`/stores/v1/collections/${collectionId}/productIds/delete`, {
            productIds,
          });
        default:
          return i === 24
            ? admin(platform).delete(`/stores/v1/collections/${doomed}`)
            : admin(platform).post('/stores/v1/bulk/products/update', {
                ids: [neighbourId, productId],
                set: { price: 30 + i },
              });
      }
    });
    const answers = await Promise.all(calls);
    const failures = answers.filter((answer) => answer.status >= 500);
    expect(failures, JSON.stringify(failures[0]?.body)).toEqual([]);
    // the only refusal allowed: adding to the collection after it was deleted
    for (const answer of answers.filter((answer) => answer.status !== 200)) {
      expect(answer.status).toBe(404);
    }

    const products = [
      (await admin(platform).get(`/stores-reader/v1/products/${productId}`)).body.product,
      (await admin(platform).get(`/stores-reader/v1/products/${neighbourId}`)).body.product,
    ];
    expect((await admin(platform).get(`/v2/collections/${doomed}`)).status).toBe(404);
    for (const product of products) expect(product.collectionIds).not.toContain(doomed);
    for (const collectionId of collections.slice(0, 4)) {
      const members = products.filter((product) => product.collectionIds.includes(collectionId));
      const asAdmin = (await admin(platform).get(`/v2/collections/${collectionId}`)).body.collection;
      expect(asAdmin.numberOfProducts).toBe(members.length);
      const asVisitor = (await call(platform, 'GET', `/v2/collections/${collectionId}`)).body.collection;
      expect(asVisitor.numberOfProducts).toBe(members.filter((product) => product.visible).length);
    }
  });
});
