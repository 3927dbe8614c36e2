import {
  ApiKeyStrategy,
  ApplicationError,
  collections,
  createClient,
  HttpError,
  OAuthStrategy,
  type Product,
  products,
  storeVariants,
  ValidationError,
} from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * Every catalog call of `@cartwheel/sdk`, made through the SDK over real HTTP against the real
 * platform on a real database, as an admin (API key) and as an anonymous visitor (OAuth tokens).
 */

function clientsOf(platform: TestPlatform) {
  const modules = { products, collections, storeVariants };
  return {
    admin: createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules,
    }),
    visitor: createClient({ host: platform.url, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }), modules }),
  };
}
type Clients = ReturnType<typeof clientsOf>;

/** The error a call fails with; fails the test when the call succeeds. */
async function failureOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const SIZE_AND_COLOR: Product['productOptions'] = [
  {
    optionType: 'drop_down',
    name: 'Size',
    choices: [
      { value: 'M', description: 'M' },
      { value: 'L', description: 'L' },
    ],
  },
  {
    optionType: 'drop_down',
    name: 'Color',
    choices: [
      { value: 'Red', description: 'Red' },
      { value: 'Blue', description: 'Blue' },
    ],
  },
];

describe.each(DIALECTS)('the SDK catalog modules over HTTP on %s', (dialect) => {
  let platform: TestPlatform;
  let admin: Clients['admin'];
  let visitor: Clients['visitor'];
  let serial = 0;

  /** A product of its own for each test: unique name, price 30 unless told. */
  const newProduct = (fields: Partial<Product> = {}) =>
    admin.products.createProduct({
      name: `Product ${++serial}`,
      productType: 'physical',
      priceData: { price: 30 },
      ...fields,
    });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: false });
    ({ admin, visitor } = clientsOf(platform));
  });
  afterAll(() => platform?.stop());

  describe('products', () => {
    it('createProduct answers the stored product, with an id and Date fields, and getProduct reads it back', async () => {
      const created = await newProduct({ name: 'Linen shirt', description: 'Breathes well', sku: 'LIN-1' });
      expect(created.id).toEqual(expect.any(String));
      expect(created).toMatchObject({ name: 'Linen shirt', productType: 'physical', sku: 'LIN-1' });
      expect(created.priceData?.price).toBe(30);
      expect(created.slug).toMatch(/linen-shirt/);
      expect(created.createdDate).toBeInstanceOf(Date);
      expect(created.lastUpdated).toBeInstanceOf(Date);

      const read = await admin.products.getProduct(created.id!, { includeMerchantSpecificData: true });
      expect(read).toMatchObject({ id: created.id, name: 'Linen shirt', description: 'Breathes well' });
      expect(read.createdDate).toEqual(created.createdDate);
    });

    it('updateProduct changes only the fields it sends and answers the updated product', async () => {
      const created = await newProduct({ description: 'Before' });
      const updated = await admin.products.updateProduct(created.id!, {
        name: 'Renamed',
        priceData: { price: 42 },
      });
      expect(updated).toMatchObject({ id: created.id, name: 'Renamed', description: 'Before' });
      expect(updated.priceData?.price).toBe(42);
      const read = await admin.products.getProduct(created.id!);
      expect(read.name).toBe('Renamed');
      expect(read.priceData?.price).toBe(42);
    });

    it('deleteProduct removes the product: reading it again fails with status 404', async () => {
      const created = await newProduct();
      await expect(admin.products.deleteProduct(created.id!)).resolves.toBeUndefined();
      const error = await failureOf(admin.products.getProduct(created.id!));
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(404);
    });

    it('queryProducts filters, sorts and pages with offset paging, counting the total', async () => {
      const prefix = `Query ${dialect} ${Date.now()}`;
      for (const [suffix, price] of [
        ['c', 15],
        ['a', 5],
        ['b', 10],
      ] as const) {
        await newProduct({ name: `${prefix} ${suffix}`, priceData: { price } });
      }
      const query = {
        filter: { name: { $startsWith: prefix } },
        sort: [{ fieldName: 'price', order: 'ASC' as const }],
        paging: { limit: 2, offset: 0 },
      };
      const first = await admin.products.queryProducts(query);
      expect(first.items.map((product) => product.priceData?.price)).toEqual([5, 10]);
      expect(first).toMatchObject({ totalCount: 3, hasNext: true, tooManyToCount: false });
      expect(first.metadata).toEqual({ count: 2, offset: 0, total: 3, tooManyToCount: false });

      const second = await admin.products.queryProducts({ ...query, paging: { limit: 2, offset: 2 } });
      expect(second.items.map((product) => product.name)).toEqual([`${prefix} c`]);
      expect(second.hasNext).toBe(false);
    });

    it('queryProducts with a query string past 4000 characters goes as POST and still answers the page', async () => {
      const methods: string[] = [];
      const observed = createClient({
        host: platform.url,
        auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
        modules: { products },
        fetch: (input, init) => {
          methods.push(init?.method ?? 'GET');
          return fetch(input, init);
        },
      });
      const wanted = await newProduct();
      // 99 long ids and the wanted one: within the query budget's 100, past the 4000-character threshold
      const ids = Array.from(
        { length: 99 },
        (_, i) => `not-a-product-${String(i).padStart(4, '0')}-with-a-longer-id`,
      );
      const page = await observed.products.queryProducts({ filter: { id: { $in: [...ids, wanted.id] } } });
      expect(methods).toEqual(['POST']);
      expect(page.items.map((product) => product.id)).toEqual([wanted.id]);
      expect(page.totalCount).toBe(1);
    });

    it('queryProducts answers variants only when includeVariants asks for them', async () => {
      const created = await newProduct({ manageVariants: true, productOptions: SIZE_AND_COLOR });
      const query = { filter: { id: created.id } };
      const plain = await admin.products.queryProducts(query);
      expect(plain.items[0]?.variants ?? []).toEqual([]);
      const withVariants = await admin.products.queryProducts(query, { includeVariants: true });
      expect(withVariants.items[0]?.variants).toHaveLength(4);
    });

    it('a hidden product is not found by a visitor, while the admin still reads it', async () => {
      const hidden = await newProduct({ visible: false });
      expect((await admin.products.getProduct(hidden.id!)).visible).toBe(false);
      const error = await failureOf(visitor.products.getProduct(hidden.id!));
      expect((error as HttpError).status).toBe(404);
      const page = await visitor.products.queryProducts({ filter: { id: hidden.id } });
      expect(page.items).toEqual([]);
    });

    it('a visitor reads products and queries them', async () => {
      const created = await newProduct({ name: `Visible ${dialect} ${Date.now()}` });
      const read = await visitor.products.getProduct(created.id!);
      expect(read.name).toBe(created.name);
      const page = await visitor.products.queryProducts({ filter: { name: created.name } });
      expect(page.items.map((product) => product.id)).toEqual([created.id]);
    });

    it('removeBrand and removeRibbon clear the brand and the ribbon', async () => {
      const created = await newProduct({ brand: 'Acme', ribbon: 'New' });
      expect(created).toMatchObject({ brand: 'Acme', ribbon: 'New' });
      await expect(admin.products.removeBrand(created.id!)).resolves.toBeUndefined();
      await expect(admin.products.removeRibbon(created.id!)).resolves.toBeUndefined();
      const read = await admin.products.getProduct(created.id!);
      expect(read.brand ?? '').toBe('');
      expect(read.ribbon ?? '').toBe('');
    });
  });

  describe('options and variants', () => {
    const withOptions = () => newProduct({ manageVariants: true, productOptions: SIZE_AND_COLOR });

    it('a product with managed options has one variant per combination of choices', async () => {
      const created = await withOptions();
      const combos = (created.variants ?? []).map(
        (variant) => `${variant.choices?.Size}/${variant.choices?.Color}`,
      );
      expect(combos.sort()).toEqual(['L/Blue', 'L/Red', 'M/Blue', 'M/Red']);
    });

    it('updateProductVariants prices the variants the choices pick, and queryProductVariants finds them by choices', async () => {
      const created = await withOptions();
      const variants = await admin.products.updateProductVariants(created.id!, [
        { choices: { Size: 'M' }, price: 35 },
      ]);
      const medium = variants.filter((variant) => variant.choices?.Size === 'M');
      expect(medium.length).toBeGreaterThan(0);
      for (const variant of medium) expect(variant.variant?.priceData?.price).toBe(35);

      const page = await admin.products.queryProductVariants(created.id!, { choices: { Size: 'M' } });
      expect(page.items.map((variant) => variant.choices?.Color).sort()).toEqual(['Blue', 'Red']);
      expect(page.totalCount).toBe(2);
      for (const variant of page.items) expect(variant.variant?.priceData?.price).toBe(35);

      const large = await admin.products.queryProductVariants(created.id!, { choices: { Size: 'L' } });
      for (const variant of large.items) expect(variant.variant?.priceData?.price).toBe(30);
    });

    it('queryProductVariants finds variants by id and pages them', async () => {
      const created = await withOptions();
      const ids = (created.variants ?? []).map((variant) => variant.id!);
      const byId = await admin.products.queryProductVariants(created.id!, { variantIds: [ids[0]!] });
      expect(byId.items.map((variant) => variant.id)).toEqual([ids[0]]);

      const paged = await admin.products.queryProductVariants(created.id!, {
        paging: { limit: 3, offset: 0 },
      });
      expect(paged.items).toHaveLength(3);
      expect(paged).toMatchObject({ totalCount: 4, hasNext: true });
    });

    it('getProductOptionsAvailability picks the variant of a full choice, and none of a partial one', async () => {
      const created = await withOptions();
      await admin.products.updateProductVariants(created.id!, [
        { choices: { Size: 'M', Color: 'Red' }, price: 33 },
      ]);

      const full = await visitor.products.getProductOptionsAvailability(created.id!, {
        Size: 'M',
        Color: 'Red',
      });
      expect(full.availableForPurchase).toBe(true);
      expect(full.selectedVariant?.price?.price).toBe(33);
      expect(full.productOptions.map((option) => option.name)).toEqual(['Size', 'Color']);

      const partial = await visitor.products.getProductOptionsAvailability(created.id!, { Size: 'M' });
      expect(partial.selectedVariant ?? null).toBeNull();
      expect(partial.availableForPurchase).toBe(false);
    });

    it('resetAllProductVariantData puts every variant back to the product price', async () => {
      const created = await withOptions();
      await admin.products.updateProductVariants(created.id!, [{ choices: { Size: 'L' }, price: 50 }]);
      await expect(admin.products.resetAllProductVariantData(created.id!)).resolves.toBeUndefined();
      const page = await admin.products.queryProductVariants(created.id!);
      expect(page.items).toHaveLength(4);
      for (const variant of page.items) expect(variant.variant?.priceData?.price).toBe(30);
    });

    it('deleteProductOptions leaves the product with no options and its one default variant', async () => {
      const created = await withOptions();
      await expect(admin.products.deleteProductOptions(created.id!)).resolves.toBeUndefined();
      const read = await admin.products.getProduct(created.id!);
      expect(read.productOptions ?? []).toEqual([]);
      expect(read.variants ?? []).toHaveLength(1);
    });

    it("queryStoreVariants lists a product's variants with its id, and getStoreVariant reads one", async () => {
      const created = await withOptions();
      const page = await admin.storeVariants.queryStoreVariants({ filter: { productId: created.id } });
      expect(page.totalCount).toBe(4);
      expect(page.items.every((variant) => variant.productId === created.id)).toBe(true);

      const one = await visitor.storeVariants.getStoreVariant(page.items[0]!.id!);
      expect(one).toMatchObject({ id: page.items[0]!.id, productId: created.id });
      expect(one.choices).toEqual(page.items[0]!.choices);
    });
  });

  describe('media', () => {
    it('addProductMedia adds an item, choices show it after addProductMediaToChoices, and the removals undo both', async () => {
      const created = await newProduct({ manageVariants: true, productOptions: SIZE_AND_COLOR });
      const url = 'https://static.cartwheel.test/linen-red.jpg';
      await expect(admin.products.addProductMedia(created.id!, [{ url }])).resolves.toBeUndefined();
      const withMedia = await admin.products.getProduct(created.id!);
      expect(withMedia.media?.items).toHaveLength(1);
      const mediaId = withMedia.media!.items![0]!.id!;
      expect(mediaId).toEqual(expect.any(String));
      expect(withMedia.media?.mainMedia?.id).toBe(mediaId);

      const redMedia = async () => {
        const product = await admin.products.getProduct(created.id!);
        const color = product.productOptions?.find((option) => option.name === 'Color');
        const red = color?.choices?.find((choice) => choice.description === 'Red');
        return (red?.media?.items ?? []).map((item) => item.id);
      };
      await expect(
        admin.products.addProductMediaToChoices(created.id!, [
          { option: 'Color', choice: 'Red', mediaIds: [mediaId] },
        ]),
      ).resolves.toBeUndefined();
      expect(await redMedia()).toEqual([mediaId]);

      await expect(
        admin.products.removeProductMediaFromChoices(created.id!, [
          { option: 'Color', choice: 'Red', mediaIds: [mediaId] },
        ]),
      ).resolves.toBeUndefined();
      expect(await redMedia()).toEqual([]);

      await expect(admin.products.removeProductMedia(created.id!, [mediaId])).resolves.toBeUndefined();
      const without = await admin.products.getProduct(created.id!);
      expect(without.media?.items ?? []).toEqual([]);
    });
  });

  describe('bulk changes', () => {
    it('bulkUpdateProductsProperty sets the price of every product it names', async () => {
      const a = await newProduct();
      const b = await newProduct();
      const result = await admin.products.bulkUpdateProductsProperty([a.id!, b.id!], { price: 9.99 });
      expect(result.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });
      expect(result.results.map((item) => item.itemMetadata.success)).toEqual([true, true]);
      for (const id of [a.id!, b.id!])
        expect((await admin.products.getProduct(id)).priceData?.price).toBe(9.99);
    });

    it('bulkAdjustProductProperty moves prices by a percentage', async () => {
      const a = await newProduct({ priceData: { price: 20 } });
      const result = await admin.products.bulkAdjustProductProperty(
        { price: { percentage: { rate: -10 } } },
        [a.id!],
      );
      expect(result.bulkActionMetadata.totalSuccesses).toBe(1);
      expect((await admin.products.getProduct(a.id!)).priceData?.price).toBe(18);
    });
  });

  describe('collections', () => {
    it('createCollection, addProductsToCollection, and the v1 and v2 readers see the collection and its count', async () => {
      const name = `Summer ${dialect} ${Date.now()}`;
      const collection = await admin.products.createCollection({ name });
      expect(collection).toMatchObject({ name });
      expect(collection.id).toEqual(expect.any(String));
      expect(collection.slug).toEqual(expect.any(String));

      const a = await newProduct();
      const b = await newProduct();
      await expect(
        admin.products.addProductsToCollection(collection.id!, [a.id!, b.id!]),
      ).resolves.toBeUndefined();
      expect((await admin.products.getProduct(a.id!)).collectionIds).toContain(collection.id);

      const bySlugV1 = await visitor.products.getCollectionBySlug(collection.slug!);
      expect(bySlugV1).toMatchObject({ id: collection.id, name, numberOfProducts: 2 });

      const v2 = await visitor.collections.getCollection(collection.id!);
      expect(v2).toMatchObject({ id: collection.id, name, slug: collection.slug, assignedProductsCount: 2 });
      const bySlugV2 = await visitor.collections.getCollectionBySlug(collection.slug!);
      expect(bySlugV2.id).toBe(collection.id);

      const page = await visitor.collections.queryCollections({ filter: { name } });
      expect(page.items.map((item) => item.id)).toEqual([collection.id]);
      expect(page.totalCount).toBe(1);

      await expect(
        admin.products.removeProductsFromCollection(collection.id!, [b.id!]),
      ).resolves.toBeUndefined();
      expect((await visitor.collections.getCollection(collection.id!)).assignedProductsCount).toBe(1);
      expect((await admin.products.getProduct(b.id!)).collectionIds ?? []).not.toContain(collection.id);
    });

    it('queryCollections pages every collection with a total', async () => {
      for (let i = 0; i < 3; i++) await admin.products.createCollection({ name: `Paged ${dialect} ${i}` });
      const page = await visitor.collections.queryCollections({ paging: { limit: 2, offset: 0 } });
      expect(page.items).toHaveLength(2);
      expect(page.totalCount).toBeGreaterThanOrEqual(3);
      expect(page.hasNext).toBe(true);
    });

    it('updateCollection renames the collection and deleteCollection removes it', async () => {
      const collection = await admin.products.createCollection({ name: `Winter ${dialect} ${Date.now()}` });
      const renamed = await admin.products.updateCollection(collection.id!, { name: 'Winter sale' });
      expect(renamed).toMatchObject({ id: collection.id, name: 'Winter sale' });
      expect((await admin.collections.getCollection(collection.id!)).name).toBe('Winter sale');

      await expect(admin.products.deleteCollection(collection.id!)).resolves.toBeUndefined();
      const error = await failureOf(admin.collections.getCollection(collection.id!));
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(404);
    });
  });

  describe('errors', () => {
    it("a visitor's write fails with status 403 as an ApplicationError, which is an HttpError", async () => {
      const error = await failureOf(
        visitor.products.createProduct({ name: 'Not mine', priceData: { price: 1 } }),
      );
      expect(error).toBeInstanceOf(ApplicationError);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as ApplicationError).status).toBe(403);
    });

    it('a negative price fails as a ValidationError whose message starts with INVALID_ARGUMENT', async () => {
      const error = await failureOf(
        admin.products.createProduct({ name: 'Bad price', priceData: { price: -5 } }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(400);
      expect((error as ValidationError).message).toMatch(/^INVALID_ARGUMENT/);
      expect(
        (error as ValidationError).fieldViolations.map((violation) => violation.field).join(' '),
      ).toMatch(/price/);
    });

    it('an unknown product fails with status 404', async () => {
      const error = await failureOf(visitor.products.getProduct('no-such-product'));
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(404);
    });
  });
});
