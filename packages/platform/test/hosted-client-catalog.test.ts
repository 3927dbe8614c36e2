import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { collections, products } from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own client packages, unchanged, against Cartwheel's platform: the wire contract's
 * promise that a client written for the hosted platform works with only its API host changed.
 */
describe.each(DIALECTS)("the hosted platform's own catalog client on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  const modules = { products, collections };
  const visitorClient = () => createClient({ modules, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });
  let visitor: ReturnType<typeof visitorClient>;
  let admin: ReturnType<typeof adminClient>;
  // the hosted platform wants the site an API key acts on; Cartwheel's platform is one site and ignores it
  const adminClient = (apiKey: string) =>
    createClient({ modules, auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }) });

  // a collection of five products priced 11..15, made through the admin client
  const PREFIX = 'Hosted Client';
  let collectionId: string;
  let collectionSlug: string;
  const productIds: string[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, seedDemo: true });
    removeRoute = await routeHostedApiTo(platform.url);
    visitor = visitorClient();
    admin = adminClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('gets anonymous visitor tokens from /oauth2/token with its OAuthStrategy', async () => {
    const tokens = await visitor.auth.generateVisitorTokens();
    expect(tokens.accessToken.value).toEqual(expect.any(String));
    expect(tokens.accessToken.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(tokens.refreshToken).toMatchObject({ value: expect.any(String), role: 'visitor' });
  });

  it('renews a visitor access token with its refresh token', async () => {
    const first = await visitorClient().auth.generateVisitorTokens();
    const renewed = await visitorClient().auth.renewToken(first.refreshToken);
    expect(renewed.accessToken.value).toEqual(expect.any(String));
    expect(renewed.accessToken.value).not.toBe(first.accessToken.value);
  });

  describe('browsing and managing the catalog', () => {
    beforeAll(async () => {
      const { collection } = await admin.products.createCollection({ name: `${PREFIX} Picks` });
      collectionId = collection!._id!;
      collectionSlug = collection!.slug!;
      for (const [index, size] of ['XS', 'S', 'M', 'L', 'XL'].entries()) {
        const { product } = await admin.products.createProduct({
          name: `${PREFIX} Tee ${size}`,
          productType: 'physical',
          priceData: { price: 11 + index },
          description: `A plain tee, size ${size}`,
          sku: `HC-TEE-${size}`,
          weight: 0.2,
        });
        productIds.push(product!._id!);
      }
      await admin.products.addProductsToCollection(collectionId, productIds);
    });

    it("browses the seeded demo store's first page with a total count", async () => {
      const page = await visitor.products.queryProducts().find();
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.totalCount).toBeGreaterThanOrEqual(page.items.length);
      for (const product of page.items) {
        expect(product).toMatchObject({ _id: expect.any(String), name: expect.any(String) });
        expect(product.priceData?.price).toEqual(expect.any(Number));
      }
    });

    it('filters a collection with hasSome, sorts by price and pages with limit and skip', async () => {
      const query = visitor.products
        .queryProducts()
        .hasSome('collectionIds', [collectionId])
        .ascending('price')
        .limit(2);
      const second = await query.skip(2).find();
      expect(second.items.map((product) => product.priceData?.price)).toEqual([13, 14]);
      expect(second.totalCount).toBe(5);
      expect(second.totalPages).toBe(3);
      expect(second.currentPage).toBe(1);
      expect(second.hasNext()).toBe(true);

      const third = await second.next();
      expect(third.items.map((product) => product.priceData?.price)).toEqual([15]);
      expect(third.hasNext()).toBe(false);
      const back = await third.prev();
      expect(back.items.map((product) => product._id)).toEqual(second.items.map((product) => product._id));
    });

    it('sorts descending and combines a price range with the collection filter', async () => {
      const page = await visitor.products
        .queryProducts()
        .hasSome('collectionIds', [collectionId])
        .gt('priceData.price', 11)
        .le('priceData.price', 14)
        .descending('priceData.price')
        .find();
      expect(page.items.map((product) => product.priceData?.price)).toEqual([14, 13, 12]);
      expect(page.totalCount).toBe(3);
    });

    it('searches by name prefix and by ids (its _id becomes id on the wire)', async () => {
      const byName = await visitor.products.queryProducts().startsWith('name', `${PREFIX} Tee`).find();
      expect(byName.items.map((product) => product._id).sort()).toEqual([...productIds].sort());

      const byIds = await visitor.products
        .queryProducts()
        .in('_id', [productIds[0], productIds[4]])
        .ascending('price')
        .find();
      expect(byIds.items.map((product) => product.name)).toEqual([`${PREFIX} Tee XS`, `${PREFIX} Tee XL`]);

      const exact = await visitor.products.queryProducts().eq('name', `${PREFIX} Tee M`).find();
      expect(exact.items).toHaveLength(1);
      expect(exact.items[0]).toMatchObject({ _id: productIds[2], sku: 'HC-TEE-M' });
    });

    it('reads one product by id, with its dates revived to Date', async () => {
      const { product } = await visitor.products.getProduct(productIds[2]!);
      expect(product).toMatchObject({
        _id: productIds[2],
        name: `${PREFIX} Tee M`,
        productType: 'physical',
        description: 'A plain tee, size M',
        priceData: { price: 13 },
        visible: true,
      });
      // every product is also in the store's "All Products" collection, as on the hosted platform
      expect(product?.collectionIds).toContain(collectionId);
      expect(product?.slug).toEqual(expect.any(String));
      expect(product?.stock?.inStock).toBe(true);
      expect(product?._createdDate).toBeInstanceOf(Date);
      expect(product?.lastUpdated).toBeInstanceOf(Date);
    });

    it('finds a collection by its slug, in the v1 reader and in collections v2', async () => {
      const fromProducts = await visitor.products.getCollectionBySlug(collectionSlug);
      expect(fromProducts.collection).toMatchObject({ _id: collectionId, name: `${PREFIX} Picks` });

      const fromV2 = await visitor.collections.getCollectionBySlug(collectionSlug);
      expect(fromV2.collection).toMatchObject({ _id: collectionId, slug: collectionSlug });

      const byId = await visitor.collections.getCollection(collectionId);
      expect(byId).toMatchObject({ _id: collectionId, numberOfProducts: 5 });
    });

    it('queries collections v2 by name with offset paging', async () => {
      const page = await visitor.collections.queryCollections().eq('name', `${PREFIX} Picks`).limit(5).find();
      expect(page.items.map((collection) => collection._id)).toEqual([collectionId]);
      expect(page.totalCount).toBe(1);
    });

    describe('a product with options and managed variants', () => {
      let productId: string;
      beforeAll(async () => {
        const { product } = await admin.products.createProduct({
          name: `${PREFIX} Hoodie`,
          productType: 'physical',
          priceData: { price: 40 },
          manageVariants: true,
          productOptions: [
            {
              optionType: 'drop_down',
              name: 'Size',
              choices: [
                { value: 'S', description: 'S' },
                { value: 'M', description: 'M' },
              ],
            },
            {
              optionType: 'color',
              name: 'Color',
              choices: [
                { value: '#000000', description: 'Black' },
                { value: '#ff0000', description: 'Red' },
              ],
            },
          ],
        });
        productId = product!._id!;
      });

      it('has one variant per combination of choices', async () => {
        const { product } = await visitor.products.getProduct(productId);
        expect(product?.productOptions?.map((option) => option.name)).toEqual(['Size', 'Color']);
        expect(product?.variants).toHaveLength(4);
        const combos = product?.variants?.map(
          (variant) => `${variant.choices?.Size}/${variant.choices?.Color}`,
        );
        expect(combos?.sort()).toEqual(['M/Black', 'M/Red', 'S/Black', 'S/Red']);
      });

      it('prices one variant with updateProductVariants and reads it back by its choices', async () => {
        await admin.products.updateProductVariants(productId, [
          { choices: { Size: 'M', Color: 'Red' }, price: 45 },
        ]);
        const { variants } = await visitor.products.queryProductVariants(productId, {
          choices: { Size: 'M', Color: 'Red' },
        });
        expect(variants).toHaveLength(1);
        expect(variants?.[0]?.variant?.priceData?.price).toBe(45);
        expect(variants?.[0]?.choices).toEqual({ Size: 'M', Color: 'Red' });
      });

      it('answers options availability with the selected variant once every option is chosen', async () => {
        const partial = await visitor.products.getProductOptionsAvailability(productId, { Size: 'S' });
        expect(partial.selectedVariant ?? null).toBeNull();
        expect(partial.availableForPurchase).toBe(false);

        const full = await visitor.products.getProductOptionsAvailability(productId, {
          Size: 'S',
          Color: 'Black',
        });
        expect(full.availableForPurchase).toBe(true);
        expect(full.selectedVariant?.price?.price).toBe(40);
        expect(full.productOptions?.map((option) => option.name)).toEqual(['Size', 'Color']);
      });

      it('resets every variant to the product defaults', async () => {
        await admin.products.resetAllProductVariantData(productId);
        const { variants } = await visitor.products.queryProductVariants(productId, {
          choices: { Size: 'M', Color: 'Red' },
        });
        expect(variants?.[0]?.variant?.priceData?.price).toBe(40);
      });
    });

    it('updates a product; the visitor sees the new name and price', async () => {
      const { product } = await admin.products.updateProduct(productIds[0]!, {
        name: `${PREFIX} Tee XS (new)`,
        priceData: { price: 10 },
      });
      expect(product).toMatchObject({ _id: productIds[0], name: `${PREFIX} Tee XS (new)` });
      const read = await visitor.products.getProduct(productIds[0]!);
      expect(read.product).toMatchObject({ name: `${PREFIX} Tee XS (new)`, priceData: { price: 10 } });
    });

    it('sets a property on many products at once, then adjusts it by a percentage', async () => {
      const ids = productIds.slice(1, 3);
      const set = await admin.products.bulkUpdateProductsProperty(ids, { price: 20 });
      expect(set.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });

      const adjusted = await admin.products.bulkAdjustProductProperty(
        { price: { percentage: { rate: -10 } } },
        ids,
      );
      expect(adjusted.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });
      for (const id of ids) {
        const { product } = await visitor.products.getProduct(id);
        expect(product?.priceData?.price).toBe(18);
      }
    });

    it('removes products from a collection and deletes a collection', async () => {
      const { collection } = await admin.products.createCollection({ name: `${PREFIX} Short-lived` });
      const id = collection!._id!;
      await admin.products.addProductsToCollection(id, productIds.slice(0, 2));
      await admin.products.removeProductsFromCollection(id, [productIds[0]!]);
      const page = await visitor.products.queryProducts().hasSome('collectionIds', [id]).find();
      expect(page.items.map((product) => product._id)).toEqual([productIds[1]]);

      await admin.products.updateCollection(id, { name: `${PREFIX} Renamed` });
      expect((await visitor.collections.getCollection(id)).name).toBe(`${PREFIX} Renamed`);
      await admin.products.deleteCollection(id);
      await expect(visitor.collections.getCollection(id)).rejects.toMatchObject({ status: 404 });
    });

    it('deletes a product; reading it again is a 404', async () => {
      const { product } = await admin.products.createProduct({
        name: `${PREFIX} Doomed`,
        priceData: { price: 1 },
      });
      await admin.products.deleteProduct(product!._id!);
      await expect(visitor.products.getProduct(product!._id!)).rejects.toMatchObject({ status: 404 });
    });

    it('refuses catalog writes to a visitor token and to a wrong API key', async () => {
      await expect(
        visitor.products.createProduct({ name: 'Nope', priceData: { price: 1 } }),
      ).rejects.toMatchObject({
        status: 403,
      });
      const stranger = adminClient('cw_admin_not_the_key');
      await expect(
        stranger.products.createProduct({ name: 'Nope', priceData: { price: 1 } }),
      ).rejects.toMatchObject({
        status: 401,
      });
    });

    it('answers a create without a name with a field violation the client reads', async () => {
      const error = await admin.products.createProduct({ priceData: { price: 1 } }).catch((caught) => caught);
      expect(error.status).toBe(400);
      expect(error.details.validationError.fieldViolations).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('name') })]),
      );
    });
  });
});
