import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, call, createProduct, getStructured, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The products query's text search (`query.search.expression`): what a shopper types in the
 * storefront's search box finds a product by its name, its description, a SKU (its own or a
 * variant's) or the name of a collection it is in, case-insensitively, with the products whose names
 * match first. A collection the visitor may not see finds nothing for them.
 */
describe.each(DIALECTS)('text search over the catalog on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    const product = (name: string, extra: Record<string, unknown> = {}) =>
      createProduct(platform, { name, productType: 'physical', priceData: { price: 10 }, ...extra });
    await product('Enamel Pot', { description: '<p>Holds as much as a big <b>MUG</b> of soup.</p>' });
    await product('Stoneware Mug', { priceData: { price: 30 } });
    await product('Camp Cup', { sku: 'MUG-0042' });
    const tin = await product('Tin Cup');
    await product('Dinner Plate', { description: 'A plate for a meal.' });
    await product('Travel mug', { priceData: { price: 20 } });
    const secret = await product('Lidded Bowl');
    const collection = async (name: string, visible: boolean, productId: string) => {
      const created = await admin(platform).post('/stores/v1/collections', { collection: { name, visible } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = created.body.collection.id;
      const added = await admin(platform).post(`/stores/v1/collections/${id}/productIds`, {
        id,
        productIds: [productId],
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    };
    await collection('Mugs & Cups', true, tin.id);
    await collection('Mug clearance plan', false, secret.id);
  });
  afterAll(() => platform?.stop());

  async function search(query: Record<string, unknown>, auth = visitor) {
    const answer = await call(platform, 'POST', '/stores-reader/v1/products/query', { query }, auth);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return {
      names: (answer.body.products as Array<{ name: string }>).map((item) => item.name),
      total: answer.body.metadata?.total as number | undefined,
    };
  }

  it('finds by name, description, SKU and collection name, the name matches first', async () => {
    const found = await search({ search: { expression: 'mug' }, paging: { limit: 10 } });
    // names first (in the catalog's own order), then the rest in that order
    expect(found.names).toEqual(['Stoneware Mug', 'Travel mug', 'Enamel Pot', 'Camp Cup', 'Tin Cup']);
    expect(found.total).toBe(5);
  });

  it('keeps the name matches first under a sort of the shopper’s, and each tier in that sort', async () => {
    const found = await search({
      search: { expression: 'MUG' },
      sort: [{ fieldName: 'price', order: 'DESC' }],
      paging: { limit: 10 },
    });
    expect(found.names.slice(0, 2)).toEqual(['Stoneware Mug', 'Travel mug']);
    expect(found.names.slice(2).sort()).toEqual(['Camp Cup', 'Enamel Pot', 'Tin Cup']);
  });

  it('pages through the ranked answer and narrows with a filter, by GET as by POST', async () => {
    const second = await search({ search: { expression: 'mug' }, paging: { limit: 2, offset: 2 } });
    expect(second.names).toEqual(['Enamel Pot', 'Camp Cup']);
    const narrowed = await getStructured(
      platform,
      '/stores-reader/v1/products/query-platformized',
      { query: { search: { expression: 'mug' }, filter: { name: { $startsWith: 'T' } } } },
      visitor,
    );
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(narrowed.body.products.map((item: { name: string }) => item.name)).toEqual([
      'Travel mug',
      'Tin Cup',
    ]);
  });

  it('a collection the visitor may not see finds nothing for them; the admin finds it', async () => {
    const visitorFinds = await search({ search: { expression: 'clearance' } });
    expect(visitorFinds.names).toEqual([]);
    const adminFinds = await search({ search: { expression: 'clearance' } }, platform.adminApiKey);
    expect(adminFinds.names).toEqual(['Lidded Bowl']);
  });

  it('a blank expression searches nothing; markup and LIKE wildcards are not matched', async () => {
    expect((await search({ search: { expression: '  ' }, paging: { limit: 100 } })).total).toBe(7);
    expect((await search({ search: { expression: '<b>' } })).names).toEqual([]);
    expect((await search({ search: { expression: '%' } })).names).toEqual([]);
    expect((await search({ search: { expression: '0_42' } })).names).toEqual([]);
  });

  it('a description or SKU changed later is what search reads', async () => {
    const lamp = await createProduct(platform, { name: 'Desk Lamp', priceData: { price: 10 } });
    expect((await search({ search: { expression: 'lamp-77' } })).names).toEqual([]);
    const changed = await admin(platform).patch(`/stores/v1/products/${lamp.id}`, {
      product: { sku: 'LAMP-77', description: 'Bright enough to read by.' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await search({ search: { expression: 'lamp-77' } })).names).toEqual(['Desk Lamp']);
    expect((await search({ search: { expression: 'read by' } })).names).toEqual(['Desk Lamp']);
  });

  it('an expression longer than 200 characters is refused with the field named', async () => {
    const answer = await call(
      platform,
      'POST',
      '/stores-reader/v1/products/query',
      { query: { search: { expression: 'm'.repeat(201) } } },
      visitor,
    );
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('search');
  });
});
