import { AsyncLocalStorage } from 'node:async_hooks';
import { execute, parse } from 'graphql';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeptAnswers } from '../src/graphql/kept-answers.ts';
import { buildSchema, graphqlContext } from '../src/graphql/schema.ts';
import { accessControl } from '../src/staff/access.ts';
import { createProduct, createSizedProduct } from './catalog-http.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * GraphQL's data loader (issue 33): a page of fifty products with their variants costs the page's own
 * statements and one more for every product's variants together, not one a product. The schema and its
 * resolvers are the platform's, run here over the test's view of the store so its statements can be
 * counted in their own async context (as billing-restock.test.ts counts a refund's).
 */
describe.each(DIALECTS)('GraphQL data loaders on %s', (dialect) => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    for (let n = 0; n < 50; n++) {
      if (n % 2 === 0) await createSizedProduct(platform, `Loaded Tee ${n}`, 10 + n);
      else
        await createProduct(platform, {
          name: `Loaded Mug ${n}`,
          productType: 'physical',
          priceData: { price: n },
        });
    }
  }, 120_000);
  afterAll(async () => {
    await platform?.stop();
  });

  const run = async (query: string) => {
    const services = platform.services;
    const kept = new KeptAnswers();
    const schema = buildSchema(services, kept);
    const context = graphqlContext(
      { ...services, kept, authorize: accessControl(services.staff) },
      { kind: 'admin' },
      undefined,
    );
    const document = parse(query);
    let result: Awaited<ReturnType<typeof execute>> | undefined;
    const statements = await countStatements(services.database.db, async () => {
      result = await execute({ schema, document, contextValue: context });
    });
    expect(result?.errors).toBeUndefined();
    return { statements, data: result!.data as Record<string, any> };
  };

  it('fifty products with their variants: one statement for all the variants, not fifty', async () => {
    const page = '{ products(request: {query: {paging: {limit: 50}}}) { products { id name } } }';
    const withVariants =
      '{ products(request: {query: {paging: {limit: 50}}}) { products { id name variants { id choices } } } }';
    const alone = await run(page);
    const loaded = await run(withVariants);
    console.info(
      `${dialect}: 50 products read in ${alone.statements} statements, ${loaded.statements} with variants`,
    );
    const products = loaded.data.products.products as Array<{ variants: unknown[] }>;
    expect(products).toHaveLength(50);
    expect(products.filter((product) => product.variants.length === 2)).toHaveLength(25);
    expect(products.every((product) => product.variants.length >= 1)).toBe(true);
    expect(loaded.statements - alone.statements).toBe(1);
  });
});

const counted = new AsyncLocalStorage<{ statements: number }>();
let patched = false;

/** The statements `work` sends through Kysely, counted in its own async context. */
async function countStatements(db: Kysely<any>, work: () => Promise<unknown>): Promise<number> {
  if (!patched) {
    let proto = Object.getPrototypeOf(db.getExecutor());
    while (proto && !Object.hasOwn(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto);
    const original = proto.executeQuery;
    proto.executeQuery = function (this: unknown, ...args: unknown[]) {
      const counter = counted.getStore();
      if (counter) counter.statements++;
      return original.apply(this, args);
    };
    patched = true;
  }
  const counter = { statements: 0 };
  await counted.run(counter, work);
  return counter.statements;
}
