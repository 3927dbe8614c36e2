import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, queryProducts, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A collection's page is read from its listing (memberships carrying the products' sort keys) and a
 * total from counters kept in the collection's row. These tests hold both to the truth: a model of
 * the catalog kept here, after every kind of write, and after writes made at the same moment.
 */
const ALL_PRODUCTS = '00000000-000000-000000-000000000001';

interface Modelled {
  name: string;
  price: number;
  visible: boolean;
  collections: Set<string>;
}

describe.each(DIALECTS)('collection listings and counters on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  const model = new Map<string, Modelled>();
  const collections: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
  });
  afterAll(() => platform?.stop());

  const members = (collectionId: string, visibleOnly: boolean) =>
    [...model.entries()]
      .filter(([, product]) => collectionId === ALL_PRODUCTS || product.collections.has(collectionId))
      .filter(([, product]) => product.visible || !visibleOnly);
  const byPriceDesc = (entries: Array<[string, Modelled]>) =>
    entries
      .sort(([idA, a], [idB, b]) => b.price - a.price || (idA < idB ? -1 : idA > idB ? 1 : 0))
      .map(([id]) => id);

  /** Every page of a query, two products at a time, so the totals come from counting, not the page. */
  async function everyPage(filter: unknown, auth: string) {
    const ids: string[] = [];
    const totals = new Set<number>();
    for (let offset = 0; ; offset += 2) {
      const answer = await queryProducts(
        platform,
        { query: { filter, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 2, offset } } },
        auth,
      );
      expect(answer.status).toBe(200);
      ids.push(...answer.body.products.map((product: { id: string }) => product.id));
      totals.add(answer.body.metadata.total);
      if (answer.body.products.length < 2) break;
    }
    return { ids, totals: [...totals] };
  }

  /** What visitors and admins read of every collection agrees with the model. */
  async function expectAgreement() {
    for (const collectionId of [ALL_PRODUCTS, ...collections]) {
      const visible = members(collectionId, true);
      const all = members(collectionId, false);
      const v1 = await call(
        platform,
        'GET',
        `/stores-reader/v1/collections/${collectionId}`,
        undefined,
        visitor,
      );
      expect(v1.body.collection.numberOfProducts, `visitor count of ${collectionId}`).toBe(visible.length);
      const v2 = await admin(platform).get(`/v2/collections/${collectionId}`);
      expect(v2.body.collection.assignedProductsCount, `admin count of ${collectionId}`).toBe(all.length);

      const filter = { collectionIds: { $hasSome: [collectionId] } };
      const seen = await everyPage(filter, visitor);
      expect(seen.ids).toEqual(byPriceDesc(visible));
      expect(seen.totals).toEqual([visible.length]);
      const managed = await everyPage(filter, platform.adminApiKey);
      expect(managed.ids).toEqual(byPriceDesc(all));
      expect(managed.totals).toEqual([all.length]);
    }
    const listed = await admin(platform).post('/v2/collections/query', { query: {} });
    for (const collection of listed.body.collections) {
      expect(collection.assignedProductsCount).toBe(members(collection.id, false).length);
    }
  }

  async function create(name: string, price: number, visible = true) {
    const product = await createProduct(platform, { name, priceData: { price }, visible });
    model.set(product.id, { name, price, visible, collections: new Set() });
    return product.id as string;
  }

  async function addTo(collectionId: string, productIds: string[]) {
    const answer = await admin(platform).post(`/stores/v1/collections/${collectionId}/productIds`, {
      productIds,
    });
    expect(answer.status).toBe(200);
    for (const id of productIds) model.get(id)?.collections.add(collectionId);
  }

  async function update(id: string, product: Record<string, unknown>) {
    const answer = await admin(platform).patch(`/stores/v1/products/${id}`, { product });
    expect(answer.status).toBe(200);
    const modelled = model.get(id) as Modelled;
    if (typeof product.visible === 'boolean') modelled.visible = product.visible;
    const price = (product.priceData as { price?: number } | undefined)?.price;
    if (price !== undefined) modelled.price = price;
  }

  it('agree with the products after every kind of catalog write', async () => {
    const hat = await create('Listing Hat', 30);
    const scarf = await create('Listing Scarf', 12);
    const gloves = await create('Listing Gloves', 18, false);
    const socks = await create('Listing Socks', 12);
    const coat = await create('Listing Coat', 120);
    for (const name of ['Listing Winter', 'Listing Sale']) {
      const answer = await admin(platform).post('/stores/v1/collections', { collection: { name } });
      collections.push(answer.body.collection.id);
    }
    const [winter, sale] = collections as [string, string];
    await expectAgreement();

    await addTo(winter, [hat, scarf, gloves, coat]);
    await addTo(sale, [scarf, socks, coat]);
    await addTo(winter, [hat]); // already there: counted once
    await expectAgreement();

    await update(coat, { priceData: { price: 9 } }); // the listing's sort keys follow the product
    await update(scarf, { visible: false });
    await update(gloves, { visible: true });
    await expectAgreement();

    const bulk = await admin(platform).post('/stores/v1/bulk/products/update', {
      ids: [hat, socks],
      set: { price: 50 },
    });
    expect(bulk.body.bulkActionMetadata.totalSuccesses).toBe(2);
    for (const id of [hat, socks]) (model.get(id) as Modelled).price = 50;
    await expectAgreement();

    const removed = await admin(platform).post(`/stores/v1/collections/${winter}/productIds/delete`, {
      productIds: [hat, socks], // socks is not in winter: nothing to count
    });
    expect(removed.status).toBe(200);
    model.get(hat)?.collections.delete(winter);
    await expectAgreement();

    expect((await admin(platform).delete(`/stores/v1/products/${coat}`)).status).toBe(200);
    model.delete(coat);
    expect((await admin(platform).delete(`/stores/v1/products/${coat}`)).status).toBe(404);
    await expectAgreement();

    expect((await admin(platform).delete(`/stores/v1/collections/${sale}`)).status).toBe(200);
    collections.splice(collections.indexOf(sale), 1);
    for (const product of model.values()) product.collections.delete(sale);
    await expectAgreement();
  });

  it('answers a collection however the filter names it, with other conditions too', async () => {
    const [winter] = collections as [string];
    const expected = (keep: (product: Modelled) => boolean) =>
      byPriceDesc(members(winter, true).filter(([, product]) => keep(product)));
    const filters: Array<[unknown, (product: Modelled) => boolean]> = [
      [{ collectionIds: winter }, () => true],
      [{ 'collections.id': { $eq: winter } }, () => true],
      [{ collectionIds: { $in: [winter] } }, () => true],
      [{ collectionIds: { $hasAll: [winter, ALL_PRODUCTS] } }, () => true],
      [{ $and: [{ collectionIds: { $hasSome: [winter] } }, { price: { $gt: 15 } }] }, (p) => p.price > 15],
      [
        { collectionIds: { $hasSome: [winter] }, name: { $startsWith: 'listing s' } },
        (p) => p.name.startsWith('Listing S'),
      ],
      [
        { $and: [{ collectionIds: { $hasSome: [winter] } }, { $or: [{ price: 18 }, { price: 50 }] }] },
        (p) => [18, 50].includes(p.price),
      ],
    ];
    for (const [filter, keep] of filters) {
      const seen = await everyPage(filter, visitor);
      expect(seen.ids, JSON.stringify(filter)).toEqual(expected(keep));
      expect(seen.totals, JSON.stringify(filter)).toEqual([expected(keep).length]);
    }
    // two collections at once: only the products in both
    const other = (
      await admin(platform).post('/stores/v1/collections', { collection: { name: 'Listing Other' } })
    ).body.collection.id as string;
    const [first] = members(winter, true).map(([id]) => id);
    await addTo(other, [first as string]);
    collections.push(other);
    const both = await everyPage({ collectionIds: { $hasAll: [winter, other] } }, visitor);
    expect(both.ids).toEqual([first]);
    await expectAgreement();
  });

  it('count every write made at the same moment exactly once', async () => {
    const [winter] = collections as [string];
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, index) => create(`Listing Rush ${index}`, 5 + index, index % 3 !== 0)),
    );
    // the same products added by several calls at once: each lands once
    const batches = [ids.slice(0, 6), ids.slice(3, 9), ids.slice(6, 12)];
    const adds = await Promise.all(
      batches.map((batch) =>
        admin(platform).post(`/stores/v1/collections/${winter}/productIds`, { productIds: batch }),
      ),
    );
    expect(adds.map((answer) => answer.status)).toEqual([200, 200, 200]);
    for (const id of ids) model.get(id)?.collections.add(winter);
    await expectAgreement();

    // a product hidden while it leaves the collection, another shown while it joins
    const [leaving, joining] = [ids[4], ids[0]] as [string, string];
    model.get(joining)?.collections.delete(winter);
    await admin(platform).post(`/stores/v1/collections/${winter}/productIds/delete`, {
      productIds: [joining],
    });
    await Promise.all([
      update(leaving, { visible: false }),
      admin(platform).post(`/stores/v1/collections/${winter}/productIds/delete`, { productIds: [leaving] }),
      update(joining, { visible: true }),
      addTo(winter, [joining]),
    ]);
    model.get(leaving)?.collections.delete(winter);
    await expectAgreement();

    // the same product deleted twice at once: one delete wins, the count moves once
    const deletes = await Promise.all(
      [ids[1], ids[1], ids[2]].map((id) => admin(platform).delete(`/stores/v1/products/${id}`)),
    );
    expect(deletes.map((answer) => answer.status).sort()).toEqual([200, 200, 404]);
    model.delete(ids[1] as string);
    model.delete(ids[2] as string);
    await expectAgreement();
  });
});
