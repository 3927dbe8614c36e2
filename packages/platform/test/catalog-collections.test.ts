import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, getStructured, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

const ALL_PRODUCTS = '00000000-000000-000000-000000000001';

describe.each(DIALECTS)('catalog collections on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());

  it('creates a collection, reads it by slug on v1 and v2, and counts its products', async () => {
    const created = await admin(platform).post('/stores/v1/collections', {
      collection: { name: 'Summer Things', description: 'Sun and sea.' },
    });
    expect(created.status).toBe(200);
    const collection = created.body.collection;
    expect(collection).toMatchObject({
      name: 'Summer Things',
      slug: 'summer-things',
      visible: true,
      numberOfProducts: 0,
    });

    const a = await createProduct(platform, { name: 'Sun Hat', priceData: { price: 20 } });
    const b = await createProduct(platform, { name: 'Beach Towel', priceData: { price: 25 } });
    const added = await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds`, {
      id: collection.id,
      productIds: [a.id, b.id],
    });
    expect(added.status).toBe(200);

    const v1 = await call(platform, 'GET', '/stores-reader/v1/collections/slug/summer-things');
    expect(v1.body.collection).toMatchObject({ id: collection.id, numberOfProducts: 2 });
    const v2 = await call(platform, 'GET', `/v2/collections/${collection.id}`);
    expect(v2.body.collection).toMatchObject({ slug: 'summer-things', assignedProductsCount: 2 });
    const v2slug = await call(platform, 'GET', '/v2/collections/slug/summer-things');
    expect(v2slug.body.collection.id).toBe(collection.id);

    const product = await call(platform, 'GET', `/stores-reader/v1/products/${a.id}`);
    expect(product.body.product.collectionIds).toEqual([ALL_PRODUCTS, collection.id]);

    await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds/delete`, {
      productIds: [a.id],
    });
    expect(
      (await call(platform, 'GET', `/v2/collections/${collection.id}`)).body.collection.assignedProductsCount,
    ).toBe(1);
    expect(
      (await call(platform, 'GET', `/stores-reader/v1/products/${a.id}`)).body.product.collectionIds,
    ).toEqual([ALL_PRODUCTS]);
  });

  it('names the collection on the product and each of its store variants, as visitors and admins read them', async () => {
    const { collection } = (
      await admin(platform).post('/stores/v1/collections', { collection: { name: 'Layers' } })
    ).body;
    const tee = await createProduct(platform, {
      name: 'Layer Tee',
      priceData: { price: 15 },
      manageVariants: true,
      productOptions: [
        {
          optionType: 'drop_down',
          name: 'Size',
          choices: ['S', 'M'].map((value) => ({ value, description: value })),
        },
      ],
    });
    const collectionsSeen = async () => {
      const visitorRead = (await call(platform, 'GET', `/stores-reader/v1/products/${tee.id}`)).body.product;
      const adminRead = (
        await admin(platform).get(`/stores-reader/v1/products/${tee.id}?includeMerchantSpecificData=true`)
      ).body.product;
      const variants = (
        await call(platform, 'POST', '/stores-reader/v1/variants/query', {
          query: { filter: { productId: tee.id } },
        })
      ).body.variants;
      expect(variants).toHaveLength(2);
      return [
        visitorRead.collectionIds,
        adminRead.collectionIds,
        ...variants.map((variant: { collectionIds: string[] }) => variant.collectionIds),
      ];
    };
    expect(await collectionsSeen()).toEqual(Array(4).fill([ALL_PRODUCTS]));
    const before = (await admin(platform).get(`/stores-reader/v1/products/${tee.id}`)).body.product;

    await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds`, {
      productIds: [tee.id],
    });
    expect(await collectionsSeen()).toEqual(Array(4).fill([ALL_PRODUCTS, collection.id].sort()));
    const after = (await admin(platform).get(`/stores-reader/v1/products/${tee.id}`)).body.product;
    // only the collections moved: the product itself, its variants and prices are as they were
    expect({ ...after, collectionIds: before.collectionIds }).toEqual(before);

    await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds/delete`, {
      productIds: [tee.id],
    });
    expect(await collectionsSeen()).toEqual(Array(4).fill([ALL_PRODUCTS]));
  });

  it('keeps every product in All Products, which cannot be changed or deleted', async () => {
    const all = await call(platform, 'GET', `/v2/collections/${ALL_PRODUCTS}`);
    expect(all.status).toBe(200);
    const before = all.body.collection.numberOfProducts;
    await createProduct(platform, { name: 'Counted Candle', priceData: { price: 9 } });
    expect(
      (await call(platform, 'GET', `/v2/collections/${ALL_PRODUCTS}`)).body.collection.numberOfProducts,
    ).toBe(before + 1);
    expect((await admin(platform).delete(`/stores/v1/collections/${ALL_PRODUCTS}`)).status).toBe(428);
    expect(
      (
        await admin(platform).patch(`/stores/v1/collections/${ALL_PRODUCTS}`, {
          collection: { name: 'Mine' },
        })
      ).status,
    ).toBe(428);
  });

  it('updates and deletes a collection, taking it off its products', async () => {
    const { collection } = (
      await admin(platform).post('/stores/v1/collections', { collection: { name: 'Winter' } })
    ).body;
    const product = await createProduct(platform, { name: 'Wool Scarf', priceData: { price: 30 } });
    await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds`, {
      productIds: [product.id],
    });
    const patched = await admin(platform).patch(`/stores/v1/collections/${collection.id}`, {
      collection: { id: collection.id, name: 'Winter Warmers', slug: 'winter-warmers', visible: false },
    });
    expect(patched.body.collection).toMatchObject({
      name: 'Winter Warmers',
      slug: 'winter-warmers',
      visible: false,
    });
    expect((await call(platform, 'GET', '/v2/collections/slug/winter-warmers')).status).toBe(404);
    expect((await admin(platform).get('/v2/collections/slug/winter-warmers')).status).toBe(200);

    expect((await admin(platform).delete(`/stores/v1/collections/${collection.id}`)).status).toBe(200);
    expect((await admin(platform).get(`/v2/collections/${collection.id}`)).status).toBe(404);
    const read = await call(platform, 'GET', `/stores-reader/v1/products/${product.id}`);
    expect(read.body.product.collectionIds).toEqual([ALL_PRODUCTS]);
  });

  it('refuses a duplicate slug, an unknown collection and unknown products', async () => {
    await admin(platform).post('/stores/v1/collections', { collection: { name: 'Gifts', slug: 'gifts' } });
    const duplicate = await admin(platform).post('/stores/v1/collections', {
      collection: { name: 'Other', slug: 'gifts' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.details.applicationError.code).toBe('ALREADY_EXISTS');
    const missing = await call(platform, 'GET', '/v2/collections/nope');
    expect(missing.status).toBe(404);
    expect(
      (await admin(platform).post('/stores/v1/collections/nope/productIds', { productIds: ['x'] })).status,
    ).toBe(404);
    const gifts = (await call(platform, 'GET', '/v2/collections/slug/gifts')).body.collection;
    expect(
      (await admin(platform).post(`/stores/v1/collections/${gifts.id}/productIds`, { productIds: ['nope'] }))
        .status,
    ).toBe(404);
    const noName = await admin(platform).post('/stores/v1/collections', { collection: {} });
    expect(noName.status).toBe(400);
  });

  it('queries collections with offset paging, the cursor form, the .r GET and its POST fallback', async () => {
    const visitor = await visitorToken(platform);
    for (const name of ['Paged A', 'Paged B', 'Paged C']) {
      await admin(platform).post('/stores/v1/collections', { collection: { name } });
    }
    const request = {
      query: {
        filter: { name: { $startsWith: 'Paged' } },
        sort: [{ fieldName: 'name', order: 'DESC' }],
        paging: { limit: 2, offset: 0 },
      },
    };
    const viaPost = await call(platform, 'POST', '/v2/collections/query', request, visitor);
    expect(viaPost.status).toBe(200);
    expect(viaPost.body.collections.map((c: any) => c.name)).toEqual(['Paged C', 'Paged B']);
    expect(viaPost.body.metadata).toEqual({ count: 2, offset: 0, total: 3, tooManyToCount: false });
    const viaGet = await getStructured(platform, '/v2/collections/query', request, visitor);
    expect(viaGet.body).toEqual(viaPost.body);

    const cursorFirst = await call(platform, 'POST', '/v2/collections/query', {
      query: {
        filter: { name: { $startsWith: 'Paged' } },
        sort: [{ fieldName: 'name' }],
        cursorPaging: { limit: 2 },
      },
    });
    expect(cursorFirst.body.metadata).toMatchObject({ count: 2, hasNext: true });
    const cursorNext = await call(platform, 'POST', '/v2/collections/query', {
      query: {
        filter: { name: { $startsWith: 'Paged' } },
        sort: [{ fieldName: 'name' }],
        cursorPaging: { limit: 2, cursor: cursorFirst.body.metadata.cursors.next },
      },
    });
    expect(cursorNext.body.collections.map((c: any) => c.name)).toEqual(['Paged C']);
    expect(cursorNext.body.metadata).toMatchObject({ count: 1, hasNext: false });
  });
});
