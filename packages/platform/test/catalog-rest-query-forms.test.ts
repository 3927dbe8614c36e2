import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, createProduct, fieldsOf, getStructured, visitorToken } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Catalog queries as the hosted platform's REST documentation writes them, by curl or a backend:
 * `filter` and `sort` as JSON text, and sort entries as `{"price": "asc"}`. They answer what the
 * client's form (objects, `{fieldName, order}`) answers; text that is not JSON is a field violation.
 */
describe.each(DIALECTS)('catalog queries in the REST documentation form on %s', (dialect) => {
  let platform: TestPlatform;
  let visitor: string;
  const names = (answer: Answer) => (answer.body.products ?? answer.body.collections).map((p: any) => p.name);

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    visitor = await visitorToken(platform);
    for (const [name, price] of [
      ['Mug', 12],
      ['Mug Large', 18],
      ['Teapot', 30],
      ['Cup', 6],
    ] as const) {
      await createProduct(platform, { name, productType: 'physical', priceData: { price } });
    }
  });
  afterAll(() => platform?.stop());

  const query = (path: string, body: unknown) => call(platform, 'POST', path, body, visitor);

  for (const path of ['/stores-reader/v1/products/query', '/stores-reader/v1/products/query-platformized']) {
    it(`${path}: filter and sort as JSON text answer as their objects do`, async () => {
      const asText = await query(path, {
        query: { filter: '{"name": {"$startsWith": "mug"}}', sort: '[{"price": "desc"}]' },
      });
      const asObjects = await query(path, {
        query: { filter: { name: { $startsWith: 'mug' } }, sort: [{ fieldName: 'price', order: 'DESC' }] },
      });
      expect(asText.status).toBe(200);
      expect(names(asText)).toEqual(['Mug Large', 'Mug']);
      expect(names(asText)).toEqual(names(asObjects));
    });
  }

  it('takes the REST sort form as an object list too, and by GET with .r', async () => {
    const byPost = await query('/stores-reader/v1/products/query', { query: { sort: [{ price: 'asc' }] } });
    expect(byPost.status).toBe(200);
    expect(names(byPost)).toEqual(['Cup', 'Mug', 'Mug Large', 'Teapot']);
    const byGet = await getStructured(
      platform,
      '/stores-reader/v1/products/query',
      { query: { filter: '{"name": "Teapot"}', sort: '[{"name": "asc"}]' } },
      visitor,
    );
    expect(byGet.status).toBe(200);
    expect(names(byGet)).toEqual(['Teapot']);
  });

  it('collections take the same forms', async () => {
    const answer = await query('/stores-reader/v1/collections/query', {
      query: { filter: '{"name": "All Products"}', sort: '[{"name": "asc"}]' },
    });
    expect(answer.status).toBe(200);
    expect(names(answer)).toEqual(['All Products']);
  });

  it('a long filter in text, as a client sends by POST past its URL limit, answers', async () => {
    const filter = JSON.stringify({
      $or: Array.from({ length: 40 }, (_, i) => ({ name: `Nothing this store sells ${i}` })).concat({
        name: 'Cup',
      }),
    });
    expect(filter.length).toBeGreaterThan(1000);
    const answer = await query('/stores-reader/v1/products/query', { query: { filter } });
    expect(answer.status).toBe(200);
    expect(names(answer)).toEqual(['Cup']);
  });

  const REFUSED: Array<{ name: string; query: unknown; field: string; rule: string }> = [
    {
      name: 'a filter that is not JSON',
      query: { filter: '{name: Mug' },
      field: 'query.filter',
      rule: 'FORMAT',
    },
    {
      name: 'a sort that is not JSON',
      query: { sort: '[{"price": asc}]' },
      field: 'query.sort',
      rule: 'FORMAT',
    },
    {
      name: 'a filter that is JSON text of a number',
      query: { filter: '42' },
      field: 'query.filter',
      rule: 'FORMAT',
    },
    {
      name: 'a sort order that is no order',
      query: { sort: [{ price: 'up' }] },
      field: 'query.sort[0].order',
      rule: 'INVALID_ENUM_VALUE',
    },
    {
      name: 'a field no sort knows',
      query: { sort: '[{"colour": "asc"}]' },
      field: 'query.sort[0].fieldName',
      rule: 'FIELD_NOT_ALLOWED',
    },
    {
      name: 'a NUL inside the filter text',
      query: { filter: '{"name": "\\u0000"}' },
      field: 'query.filter.name',
      rule: 'FORMAT',
    },
    {
      name: 'a __proto__ key inside the filter text',
      query: { filter: '{"__proto__": {"x": 1}}' },
      field: 'query.filter.__proto__',
      rule: 'FIELD_NOT_ALLOWED',
    },
    {
      name: 'filter text nested past the body limit',
      query: { filter: `${'{"$not":'.repeat(100)}{}${'}'.repeat(100)}` },
      field: 'query.filter',
      rule: 'MAX_SIZE',
    },
  ];
  for (const refused of REFUSED) {
    it(`refuses ${refused.name} with a field violation, and keeps answering`, async () => {
      const answer = await query('/stores-reader/v1/products/query', { query: refused.query });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(fieldsOf(answer)).toContain(refused.field);
      const violation = answer.body.details.validationError.fieldViolations.find(
        (v: { field: string }) => v.field === refused.field,
      );
      expect(violation.ruleName).toBe(refused.rule);
      const still = await query('/stores-reader/v1/products/query', { query: {} });
      expect(still.status).toBe(200);
      expect(names(still)).toHaveLength(4);
    });
  }
});
