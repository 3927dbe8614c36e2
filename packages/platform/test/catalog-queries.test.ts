import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, fieldsOf, getStructured, queryProducts } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** Five products with known names, prices, types and stock; every query is scoped to their brand. */
const BRAND = 'Query Brand';
const names = (answer: { body: any }) => answer.body.products.map((p: any) => p.name);

describe.each(DIALECTS)('catalog queries on %s', (dialect) => {
  let platform: TestPlatform;
  const ids: Record<string, string> = {};
  let mugsId: string;
  let saleId: string;
  const scoped = (filter: Record<string, unknown>) => ({ $and: [{ brand: BRAND }, filter] });
  const query = (filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    queryProducts(platform, { query: { filter: scoped(filter), ...extra } });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    const specs = [
      { name: 'Alpha Mug', priceData: { price: 10 }, sku: 'ALP-1', ribbon: 'New' },
      { name: 'Beta Mug', priceData: { price: 20 }, sku: 'BET-1', discount: { type: 'AMOUNT', value: 5 } },
      { name: 'Gamma Poster', priceData: { price: 30 }, stock: { trackInventory: true, quantity: 0 } },
      { name: 'Delta Ebook', priceData: { price: 5 }, productType: 'digital' },
      { name: 'Epsilon 100% Cotton Tee', priceData: { price: 20 } },
    ];
    for (const spec of specs) {
      const product = await createProduct(platform, { ...spec, brand: BRAND });
      ids[spec.name] = product.id;
    }
    mugsId = (await admin(platform).post('/stores/v1/collections', { collection: { name: 'Query Mugs' } }))
      .body.collection.id;
    saleId = (await admin(platform).post('/stores/v1/collections', { collection: { name: 'Query Sale' } }))
      .body.collection.id;
    await admin(platform).post(`/stores/v1/collections/${mugsId}/productIds`, {
      productIds: [ids['Alpha Mug'], ids['Beta Mug']],
    });
    await admin(platform).post(`/stores/v1/collections/${saleId}/productIds`, {
      productIds: [ids['Beta Mug'], ids['Gamma Poster']],
    });
  });
  afterAll(() => platform?.stop());

  it('sorts by name, price, createdDate, lastUpdated and numericId with a stable tie-break on id', async () => {
    expect(names(await query({}, { sort: [{ fieldName: 'name', order: 'DESC' }] }))).toEqual([
      'Gamma Poster',
      'Epsilon 100% Cotton Tee',
      'Delta Ebook',
      'Beta Mug',
      'Alpha Mug',
    ]);
    const byPrice = await query({}, { sort: [{ fieldName: 'price', order: 'ASC' }] });
    expect(names(byPrice).slice(0, 2)).toEqual(['Delta Ebook', 'Alpha Mug']);
    const tied = byPrice.body.products.filter((p: any) => p.priceData.price === 20).map((p: any) => p.id);
    expect(tied).toEqual([...tied].sort());
    expect(names(await query({}, { sort: [{ fieldName: 'numericId', order: 'ASC' }] }))[0]).toBe('Alpha Mug');
    expect(names(await query({}, { sort: [{ fieldName: 'createdDate', order: 'DESC' }] }))[0]).toBe(
      'Epsilon 100% Cotton Tee',
    );
    expect(names(await query({}, { sort: [{ fieldName: 'lastUpdated', order: 'ASC' }] }))).toHaveLength(5);
  });

  it('filters with equality, $eq, $ne, $gt, $gte, $lt and $lte on price', async () => {
    expect(names(await query({ price: 10 }))).toEqual(['Alpha Mug']);
    expect(names(await query({ 'priceData.price': { $eq: 30 } }))).toEqual(['Gamma Poster']);
    expect(names(await query({ price: { $ne: 20 } }))).toHaveLength(3);
    expect(names(await query({ price: { $gt: 20 } }))).toEqual(['Gamma Poster']);
    expect(names(await query({ price: { $gte: 20 } }))).toHaveLength(3);
    expect(names(await query({ price: { $lt: 10 } }))).toEqual(['Delta Ebook']);
    expect(names(await query({ price: { $lte: 10, $gt: 5 } }))).toEqual(['Alpha Mug']);
    expect(names(await query({ discountedPrice: 15 }))).toEqual(['Beta Mug']);
  });

  it('filters with $in, $nin, $startsWith, $contains and $exists', async () => {
    expect(names(await query({ id: { $in: [ids['Alpha Mug'], ids['Delta Ebook']] } }))).toEqual([
      'Alpha Mug',
      'Delta Ebook',
    ]);
    expect(names(await query({ _id: ids['Beta Mug'] }))).toEqual(['Beta Mug']);
    expect(names(await query({ name: { $nin: ['Alpha Mug', 'Beta Mug'] } }))).toHaveLength(3);
    expect(names(await query({ name: { $startsWith: 'GAM' } }))).toEqual(['Gamma Poster']);
    expect(names(await query({ name: { $contains: 'mug' } }))).toEqual(['Alpha Mug', 'Beta Mug']);
    expect(names(await query({ name: { $contains: '100%' } }))).toEqual(['Epsilon 100% Cotton Tee']);
    expect(names(await query({ name: { $contains: '_' } }))).toEqual([]);
    expect(names(await query({ sku: { $exists: true } }))).toEqual(['Alpha Mug', 'Beta Mug']);
    expect(names(await query({ ribbon: { $exists: false } }))).toHaveLength(4);
    expect(names(await query({ slug: { $startsWith: 'delta' } }))).toEqual(['Delta Ebook']);
  });

  it('filters by collections with eq, $in, $hasSome, $hasAll and collections.id', async () => {
    expect(names(await query({ collectionIds: mugsId }))).toEqual(['Alpha Mug', 'Beta Mug']);
    expect(names(await query({ collections: { $in: [saleId] } }))).toEqual(['Beta Mug', 'Gamma Poster']);
    expect(names(await query({ collectionIds: { $hasSome: [mugsId, saleId] } }))).toHaveLength(3);
    expect(names(await query({ collectionIds: { $hasAll: [mugsId, saleId] } }))).toEqual(['Beta Mug']);
    expect(names(await query({ 'collections.id': { $hasSome: [mugsId] } }))).toEqual([
      'Alpha Mug',
      'Beta Mug',
    ]);
    expect(
      names(await query({ collectionIds: { $hasSome: ['00000000-000000-000000-000000000001'] } })),
    ).toHaveLength(5);
  });

  it('filters by stock, inventory status, product type, visibility, dates and numeric id', async () => {
    expect(names(await query({ 'stock.inventoryStatus': 'OUT_OF_STOCK' }))).toEqual(['Gamma Poster']);
    expect(names(await query({ inventoryStatus: { $in: ['IN_STOCK'] } }))).toHaveLength(4);
    expect(names(await query({ 'stock.inStock': false }))).toEqual(['Gamma Poster']);
    expect(names(await query({ productType: 'digital' }))).toEqual(['Delta Ebook']);
    expect(names(await query({ visible: true }))).toHaveLength(5);
    const all = await query({}, { sort: [{ fieldName: 'numericId', order: 'ASC' }] });
    const third = all.body.products[2];
    expect(names(await query({ numericId: { $gte: third.numericId } }))).toHaveLength(3);
    expect(names(await query({ createdDate: { $gte: third.createdDate } })).length).toBeGreaterThanOrEqual(3);
    expect(names(await query({ lastUpdated: { $lt: '2000-01-01T00:00:00.000Z' } }))).toEqual([]);
  });

  it('combines conditions with $and, $or and $not', async () => {
    expect(names(await query({ $or: [{ price: 5 }, { price: 30 }] }))).toEqual([
      'Gamma Poster',
      'Delta Ebook',
    ]);
    expect(names(await query({ $not: { name: { $contains: 'mug' } } }))).toHaveLength(3);
    expect(
      names(
        await query({
          $and: [{ price: { $gte: 10 } }, { $or: [{ sku: 'ALP-1' }, { productType: 'digital' }] }],
        }),
      ),
    ).toEqual(['Alpha Mug']);
  });

  it('finds names containing a phrase through the name index, and follows renames and deletes', async () => {
    const search = async (needle: string) => {
      const answer = await queryProducts(platform, {
        query: { filter: { brand: 'Search Brand', name: { $contains: needle } }, paging: { limit: 100 } },
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.metadata.total).toBe(answer.body.products.length);
      return names(answer);
    };
    const lantern = await createProduct(platform, {
      name: 'Zephyr "Night" Lantern',
      priceData: { price: 7 },
      brand: 'Search Brand',
    });
    const lamp = await createProduct(platform, {
      name: 'Zephyr Day Lamp',
      priceData: { price: 8 },
      brand: 'Search Brand',
    });
    expect(await search('PHYR')).toEqual(['Zephyr "Night" Lantern', 'Zephyr Day Lamp']); // inside a word, any case
    expect(await search('"night" lan')).toEqual(['Zephyr "Night" Lantern']); // quotes are text, not syntax
    expect(await search('yr d')).toEqual(['Zephyr Day Lamp']);
    expect(await search('zephyr day lamps')).toEqual([]);
    expect(await search('ph')).toEqual(['Zephyr "Night" Lantern', 'Zephyr Day Lamp']); // too short for trigrams

    const renamed = await admin(platform).patch(`/stores/v1/products/${lantern.id}`, {
      product: { name: 'Aurora Lantern' },
    });
    expect(renamed.status).toBe(200);
    expect(await search('night')).toEqual([]);
    expect(await search('rora lan')).toEqual(['Aurora Lantern']);
    expect((await admin(platform).delete(`/stores/v1/products/${lantern.id}`)).status).toBe(200);
    expect(await search('aurora')).toEqual([]);
    expect((await admin(platform).delete(`/stores/v1/products/${lamp.id}`)).status).toBe(200);
  });

  it('pages with offset and limit and reports the total', async () => {
    const first = await query({}, { paging: { limit: 2, offset: 0 } });
    expect(first.body.metadata).toEqual({ count: 2, offset: 0, total: 5, tooManyToCount: false });
    const last = await query({}, { paging: { limit: 2, offset: 4 } });
    expect(last.body.metadata).toEqual({ count: 1, offset: 4, total: 5, tooManyToCount: false });
    const beyond = await query({}, { paging: { limit: 2, offset: 10 } });
    expect(beyond.body.metadata).toEqual({ count: 0, offset: 10, total: 5, tooManyToCount: false });
    const all = await queryProducts(platform, {});
    expect(all.body.metadata).toMatchObject({ offset: 0, total: 5 });
  });

  it('includes variants only when asked', async () => {
    const without = await query({ name: 'Alpha Mug' });
    expect(without.body.products[0].variants).toBeUndefined();
    const withVariants = await queryProducts(platform, {
      query: { filter: scoped({ name: 'Alpha Mug' }) },
      includeVariants: true,
    });
    expect(withVariants.body.products[0].variants).toHaveLength(1);
    const viaGet = await getStructured(platform, '/stores-reader/v1/products/query', {
      query: { filter: scoped({ name: 'Alpha Mug' }) },
      includeVariants: true,
    });
    expect(viaGet.body).toEqual(withVariants.body);
  });

  it('refuses unknown fields, unknown operators, bad sorts and oversized pages with field violations', async () => {
    const unknownField = await queryProducts(platform, { query: { filter: { color: 'red' } } });
    expect(unknownField.status).toBe(400);
    expect(fieldsOf(unknownField)).toEqual(['query.filter.color']);
    const unknownOperator = await queryProducts(platform, { query: { filter: { price: { $near: 3 } } } });
    expect(fieldsOf(unknownOperator)).toEqual(['query.filter.price.$near']);
    const badValue = await queryProducts(platform, { query: { filter: { price: { $gt: 'cheap' } } } });
    expect(fieldsOf(badValue)).toEqual(['query.filter.price.$gt']);
    const badEnum = await queryProducts(platform, { query: { filter: { inventoryStatus: 'MAYBE' } } });
    expect(fieldsOf(badEnum)).toEqual(['query.filter.inventoryStatus']);
    const badSort = await queryProducts(platform, { query: { sort: [{ fieldName: 'color' }] } });
    expect(fieldsOf(badSort)).toEqual(['query.sort[0].fieldName']);
    const badOrder = await queryProducts(platform, { query: { sort: [{ fieldName: 'name', order: 'UP' }] } });
    expect(fieldsOf(badOrder)).toEqual(['query.sort[0].order']);
    const tooMany = await queryProducts(platform, { query: { paging: { limit: 101 } } });
    expect(tooMany.status).toBe(400);
    expect(fieldsOf(tooMany)).toEqual(['query.paging.limit']);
    const negative = await queryProducts(platform, { query: { paging: { offset: -1 } } });
    expect(fieldsOf(negative)).toEqual(['query.paging.offset']);
    const variants = await call(platform, 'POST', '/stores-reader/v1/variants/query', {
      query: { filter: { color: 'red' } },
    });
    expect(fieldsOf(variants)).toEqual(['query.filter.color']);
  });
});
