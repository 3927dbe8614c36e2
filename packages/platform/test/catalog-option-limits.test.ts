import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createProduct } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * A product holds at most 6 options, 100 choices an option and 1,000 variants (every combination of
 * one choice per option), as on the hosted platform: 6 options of 7 choices once made 117,649
 * variants, 1.2 GB and a 55 MB answer. Past a limit, a create or update is refused with MAX_SIZE on
 * the field, and the product stays as it was.
 */
const option = (name: string, choices: number) => ({
  name,
  choices: Array.from({ length: choices }, (_, i) => ({ description: `${name} ${i + 1}` })),
});
const options = (...choiceCounts: number[]) =>
  choiceCounts.map((count, i) => option(`Option ${i + 1}`, count));
const violationOf = (answer: { body: any }) => answer.body?.details?.validationError?.fieldViolations?.[0];

describe.each(DIALECTS)('product option limits on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());

  const create = (name: string, productOptions: unknown) =>
    admin(platform).post('/stores/v1/products', {
      product: { name, priceData: { price: 10 }, manageVariants: true, productOptions },
    });

  it('takes 6 options, 100 choices in an option and 1,000 variants', async () => {
    const six = await create('Six Options', options(2, 2, 2, 2, 2, 2));
    expect(six.status).toBe(200);
    expect(six.body.product.variants).toHaveLength(64);
    const wide = await create('Hundred Choices', options(100));
    expect(wide.status).toBe(200);
    expect(wide.body.product.productOptions[0].choices).toHaveLength(100);
    const thousand = await create('Thousand Variants', options(10, 10, 10));
    expect(thousand.status).toBe(200);
    expect(thousand.body.product.variants).toHaveLength(1000);
  });

  it('refuses a seventh option', async () => {
    const answer = await create('Seven Options', options(1, 1, 1, 1, 1, 1, 1));
    expect(answer.status).toBe(400);
    expect(violationOf(answer)).toMatchObject({ field: 'product.productOptions', violatedRule: 'MAX_SIZE' });
  });

  it('refuses a 101st choice', async () => {
    const answer = await create('Too Many Choices', [option('Size', 2), option('Color', 101)]);
    expect(answer.status).toBe(400);
    expect(violationOf(answer)).toMatchObject({
      field: 'product.productOptions[1].choices',
      violatedRule: 'MAX_SIZE',
    });
  });

  it('refuses options that make more than 1,000 variants, 6 of 7 choices among them', async () => {
    for (const counts of [
      [10, 10, 10, 2],
      [7, 7, 7, 7, 7, 7],
      [100, 100, 100, 100, 100, 100],
    ]) {
      const answer = await create('Too Many Variants', options(...counts));
      expect(answer.status, JSON.stringify(counts)).toBe(400);
      expect(violationOf(answer)).toMatchObject({
        field: 'product.productOptions',
        violatedRule: 'MAX_SIZE',
      });
      expect(violationOf(answer).description).toContain('1000');
    }
    const listed = await admin(platform).post('/stores-reader/v1/products/query', {
      query: { filter: { name: 'Too Many Variants' } },
    });
    expect(listed.body.products).toEqual([]);
  });

  it('refuses the same on update, and leaves the product as it was', async () => {
    const product = await createProduct(platform, {
      name: 'Growing Tee',
      priceData: { price: 10 },
      manageVariants: true,
      productOptions: options(10, 10),
    });
    const before = (await admin(platform).get(`/stores-reader/v1/products/${product.id}`)).body;
    for (const productOptions of [options(10, 10, 11), options(1, 1, 1, 1, 1, 1, 1), options(101)]) {
      const answer = await admin(platform).patch(`/stores/v1/products/${product.id}`, {
        product: { productOptions },
      });
      expect(answer.status).toBe(400);
      expect(violationOf(answer).violatedRule).toBe('MAX_SIZE');
    }
    expect((await admin(platform).get(`/stores-reader/v1/products/${product.id}`)).body).toEqual(before);
  });
});
