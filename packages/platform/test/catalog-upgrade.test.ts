import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandIdOf, ribbonIdOf } from '../src/catalog/v3-model.ts';
import { connectDatabase } from '../src/db/database.ts';
import { migrateTo } from '../src/db/migrations.ts';
import { admin, call, queryProducts } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A store saved by an older Cartwheel opens in this one with nothing lost: its collections' counts
 * and listings are built from the products it holds.
 */
const ALL_PRODUCTS = '00000000-000000-000000-000000000001';
const BEFORE_LISTINGS = '0007_catalog_covering_indexes';

const products = [
  { id: 'p-1', name: 'Old Lamp', price: 40, visible: 1, brand: 'Old Works', ribbon: 'Sale' },
  { id: 'p-2', name: 'Old Rug', price: 90, visible: 1, brand: '', ribbon: '' },
  { id: 'p-3', name: 'Old Vase', price: 15, visible: 0, brand: '', ribbon: '' },
  { id: 'p-4', name: 'Old Clock', price: 60, visible: 1, brand: 'Old Works', ribbon: '' },
];
const memberships = [
  ['p-1', 'c-home'],
  ['p-2', 'c-home'],
  ['p-3', 'c-home'],
  ['p-4', 'c-gifts'],
  ['p-1', 'c-gifts'],
];

describe.each(DIALECTS)('a catalog saved before listings, opened on %s', (dialect) => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      dialect,
      async prepare(options) {
        const database = connectDatabase(options);
        try {
          await migrateTo(database.db, BEFORE_LISTINGS);
          const db = database.db as unknown as Kysely<any>; // the schema as it was, not as the types say
          for (const [index, product] of products.entries()) {
            const doc = JSON.stringify({
              id: product.id,
              name: product.name,
              priceData: { price: product.price },
            });
            await db
              .insertInto('products')
              .values({
                id: product.id,
                numeric_id: 1000 + index,
                slug: product.id,
                name: product.name,
                name_lower: product.name.toLowerCase(),
                price: product.price,
                discounted_price: product.price,
                visible: product.visible,
                inventory_status: 'IN_STOCK',
                in_stock: 1,
                product_type: 'physical',
                sku: '',
                brand: product.brand,
                ribbon: product.ribbon,
                created_date: `2026-01-0${index + 1}T00:00:00.000Z`,
                last_updated: `2026-01-0${index + 1}T00:00:00.000Z`,
                record: '{}',
                doc,
                doc_merchant: doc,
                variants_doc: '[]',
                variants_doc_merchant: '[]',
              })
              .execute();
          }
          for (const id of ['c-home', 'c-gifts']) {
            await db
              .insertInto('collections')
              .values({
                id,
                slug: id,
                name: id,
                description: null,
                visible: 1,
                media: '{}',
                created_date: '2026-01-01T00:00:00.000Z',
                updated_date: '2026-01-01T00:00:00.000Z',
              })
              .execute();
          }
          for (const [productId, collectionId] of memberships) {
            await db
              .insertInto('product_collections')
              .values({ product_id: productId, collection_id: collectionId })
              .execute();
          }
          const { rows } = await sql<{ n: number }>`select count(*) as n from products`.execute(db);
          expect(Number(rows[0]?.n)).toBe(products.length);
        } finally {
          await database.close();
        }
      },
    });
  });
  afterAll(() => platform?.stop());

  it('counts every collection’s products, hidden ones for admins only', async () => {
    const expected: Record<string, [number, number]> = {
      [ALL_PRODUCTS]: [3, 4],
      'c-home': [2, 3],
      'c-gifts': [2, 2],
    };
    for (const [id, [visible, all]] of Object.entries(expected)) {
      expect(
        (await call(platform, 'GET', `/v2/collections/${id}`)).body.collection.assignedProductsCount,
      ).toBe(visible);
      expect((await admin(platform).get(`/v2/collections/${id}`)).body.collection.assignedProductsCount).toBe(
        all,
      );
    }
  });

  it('pages a collection in the order of the products’ own prices and names', async () => {
    const page = (sort: unknown, auth?: string) =>
      queryProducts(
        platform,
        { query: { filter: { collectionIds: { $hasSome: ['c-home'] } }, sort, paging: { limit: 1 } } },
        auth,
      );
    const byPrice = await page([{ fieldName: 'price', order: 'DESC' }]);
    expect(byPrice.body.products.map((p: { id: string }) => p.id)).toEqual(['p-2']);
    expect(byPrice.body.metadata.total).toBe(2);
    const byName = await page([{ fieldName: 'name', order: 'ASC' }], platform.adminApiKey);
    expect(byName.body.products.map((p: { id: string }) => p.id)).toEqual(['p-1']);
    expect(byName.body.metadata.total).toBe(3);
  });

  it('makes v3 brands and ribbons of the names its products had, with the ids v3 showed for them, counted', async () => {
    const brands = await call(platform, 'POST', '/stores/v3/brands/query', {
      query: {},
      fields: ['ASSIGNED_PRODUCTS_COUNT'],
    });
    expect(brands.body.brands).toMatchObject([
      { id: brandIdOf('Old Works'), name: 'Old Works', assignedProductsCount: 2 },
    ]);
    const ribbons = await call(platform, 'POST', '/stores/v3/ribbons/query', {
      fields: ['ASSIGNED_PRODUCT_COUNT'],
    });
    expect(ribbons.body.ribbons).toMatchObject([
      { id: ribbonIdOf('Sale'), name: 'Sale', assignedProductCount: 1 },
    ]);
  });

  it('keeps counting as the old products go', async () => {
    expect((await admin(platform).delete('/stores/v1/products/p-2')).status).toBe(200);
    const counts = async (id: string) => [
      (await call(platform, 'GET', `/v2/collections/${id}`)).body.collection.assignedProductsCount,
      (await admin(platform).get(`/v2/collections/${id}`)).body.collection.assignedProductsCount,
    ];
    expect(await counts('c-home')).toEqual([1, 2]);
    expect(await counts(ALL_PRODUCTS)).toEqual([2, 3]);
  });
});
