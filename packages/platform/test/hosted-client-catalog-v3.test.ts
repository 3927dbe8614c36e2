import { STORES_APP_ID } from '@cartwheel/sdk';
import { checkout, currentCart, orders } from '@wix/ecom';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import {
  brandsV3,
  catalogVersioning,
  collections,
  customizationsV3,
  infoSectionsV3,
  inventoryItemsV3,
  products,
  productsV3,
  readOnlyVariantsV3,
  ribbonsV3,
} from '@wix/stores';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own v3 catalog modules, unchanged, against Cartwheel's built platform: one
 * catalog served at v1 and v3 paths, so a product made through either is read through the other.
 */
describe.each(DIALECTS)("the hosted platform's v3 catalog client on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  const modules = {
    products,
    productsV3,
    readOnlyVariantsV3,
    catalogVersioning,
    collections,
    brandsV3,
    ribbonsV3,
    infoSectionsV3,
    customizationsV3,
    inventoryItemsV3,
    currentCart,
    checkout,
    orders,
  };
  const visitorClient = () => createClient({ modules, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }) });
  const adminClient = (apiKey: string) =>
    createClient({ modules, auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }) });
  let visitor: ReturnType<typeof visitorClient>;
  let admin: ReturnType<typeof adminClient>;
  const PREFIX = `V3 ${dialect}`;

  /** A product of two sizes, 30 each before a 5 discount, made through v3. */
  const twoSizes = (name: string) => ({
    name,
    productType: 'PHYSICAL' as const,
    physicalProperties: {},
    plainDescription: 'Organic cotton, two sizes',
    brand: { name: 'Cartwheel Basics' },
    ribbon: { name: 'New' },
    options: [
      {
        name: 'Size',
        optionRenderType: 'TEXT_CHOICES' as const,
        choicesSettings: {
          choices: [
            { choiceType: 'CHOICE_TEXT' as const, name: 'S' },
            { choiceType: 'CHOICE_TEXT' as const, name: 'M' },
          ],
        },
      },
    ],
    variantsInfo: {
      variants: ['S', 'M'].map((size) => ({
        sku: `V3-TEE-${size}`,
        choices: [
          {
            optionChoiceNames: { optionName: 'Size', choiceName: size, renderType: 'TEXT_CHOICES' as const },
          },
        ],
        price: { actualPrice: { amount: '25' }, compareAtPrice: { amount: '30' } },
        revenueDetails: { cost: { amount: '8' } },
        physicalProperties: { weight: 0.3 },
      })),
    },
  });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    visitor = visitorClient();
    admin = adminClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('tells the client the store runs the v3 catalog', async () => {
    expect(await visitor.catalogVersioning.getCatalogVersion()).toEqual({ catalogVersion: 'V3_CATALOG' });
  });

  it('creates a v3 product and reads it through v1: sizes, prices, discount, brand and ribbon', async () => {
    const created = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Tee`), {
      fields: ['VARIANT_OPTION_CHOICE_NAMES', 'MERCHANT_DATA'],
    });
    expect(created).toMatchObject({
      name: `${PREFIX} Tee`,
      revision: '1',
      productType: 'PHYSICAL',
      brand: { name: 'Cartwheel Basics' },
      ribbon: { name: 'New' },
      actualPriceRange: { minValue: { amount: '25' }, maxValue: { amount: '25' } },
      compareAtPriceRange: { minValue: { amount: '30' } },
      variantSummary: { variantCount: 2 },
      inventory: { availabilityStatus: 'IN_STOCK' },
    });
    const variants = created.variantsInfo?.variants ?? [];
    expect(variants.map((variant) => variant.choices?.[0]?.optionChoiceNames?.choiceName)).toEqual([
      'S',
      'M',
    ]);
    expect(variants[0]).toMatchObject({
      sku: 'V3-TEE-S',
      price: { actualPrice: { amount: '25' }, compareAtPrice: { amount: '30' } },
      revenueDetails: { cost: { amount: '8' }, profit: { amount: '17' } },
      inventoryStatus: { inStock: true },
    });
    // the option's choice ids are the ones the variants name
    const choiceIds = created.options?.[0]?.choicesSettings?.choices?.map((choice) => choice.choiceId);
    expect(variants.map((variant) => variant.choices?.[0]?.optionChoiceIds?.choiceId)).toEqual(choiceIds);

    const { product } = await visitor.products.getProduct(created._id!);
    expect(product).toMatchObject({
      name: `${PREFIX} Tee`,
      description: 'Organic cotton, two sizes',
      brand: 'Cartwheel Basics',
      ribbon: 'New',
      priceData: { price: 30, discountedPrice: 25 },
      discount: { type: 'AMOUNT', value: 5 },
      manageVariants: true,
    });
    expect(product?.productOptions?.[0]?.choices?.map((choice) => choice.description)).toEqual(['S', 'M']);
    expect(product?.variants?.map((variant) => variant.variant?.sku)).toEqual(['V3-TEE-S', 'V3-TEE-M']);
  });

  it('creates a v1 product and reads it through v3, its variants by read-only variants too', async () => {
    const { product } = await admin.products.createProduct({
      name: `${PREFIX} Mug`,
      productType: 'physical',
      priceData: { price: 12 },
      sku: 'V1-MUG',
      weight: 0.4,
      productOptions: [
        { name: 'Color', optionType: 'color', choices: [{ value: '#112233', description: 'Ink' }] },
      ],
      manageVariants: true,
    });
    const read = await visitor.productsV3.getProduct(product!._id!, { fields: ['PLAIN_DESCRIPTION', 'URL'] });
    expect(read).toMatchObject({
      _id: product!._id,
      name: `${PREFIX} Mug`,
      productType: 'PHYSICAL',
      actualPriceRange: { minValue: { amount: '12' } },
      options: [{ name: 'Color', optionRenderType: 'SWATCH_CHOICES' }],
      variantSummary: { variantCount: 1 },
    });
    expect(read.options?.[0]?.choicesSettings?.choices?.[0]).toMatchObject({
      name: 'Ink',
      colorCode: '#112233',
    });
    expect(read.url).toEqual(expect.stringContaining(`/product-page/${product!.slug}`));
    const bySlug = await visitor.productsV3.getProductBySlug(product!.slug!);
    expect(bySlug.product?._id).toBe(product!._id);
    // no compare-at price without a discount
    expect(read.variantsInfo?.variants?.[0]?.price?.compareAtPrice).toBeUndefined();

    const page = await visitor.readOnlyVariantsV3
      .queryVariants()
      .eq('productData.productId', product!._id!)
      .find();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ sku: 'V1-MUG', productData: { productId: product!._id } });
  });

  it('updates with the revision it read, and refuses a stale one with the hosted error', async () => {
    const created = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Hoodie`));
    const updated = await admin.productsV3.updateProduct(created._id!, {
      revision: created.revision!,
      name: `${PREFIX} Hoodie (new)`,
    });
    expect(updated).toMatchObject({ name: `${PREFIX} Hoodie (new)`, revision: '2' });

    const stale = await admin.productsV3
      .updateProduct(created._id!, { revision: created.revision!, name: 'Lost update' })
      .catch((caught) => caught);
    expect(stale.status).toBe(409);
    expect(stale.details.applicationError).toMatchObject({ code: 'REVISION_MISMATCH' });
    expect((await visitor.productsV3.getProduct(created._id!)).name).toBe(`${PREFIX} Hoodie (new)`);

    // a v1 write moves the revision too: the v3 reader must read again
    await admin.products.updateProduct(created._id!, { name: `${PREFIX} Hoodie (v1)` });
    const afterV1 = await admin.productsV3
      .updateProduct(created._id!, { revision: updated.revision!, name: 'Lost again' })
      .catch((caught) => caught);
    expect(afterV1.status).toBe(409);
    const current = await admin.productsV3.getProduct(created._id!);
    expect(current).toMatchObject({ name: `${PREFIX} Hoodie (v1)`, revision: '3' });
  });

  it('reprices the variants and changes the options through an update, keeping the variant ids', async () => {
    const created = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Cap`));
    const [small, medium] = created.variantsInfo!.variants!;
    const updated = await admin.productsV3.updateProduct(created._id!, {
      revision: created.revision!,
      variantsInfo: {
        variants: [
          { ...small, price: { actualPrice: { amount: '20' } } },
          { ...medium, price: { actualPrice: { amount: '22.5' } } },
        ],
      },
    });
    expect(updated.variantsInfo?.variants?.map((variant) => variant._id)).toEqual([small!._id, medium!._id]);
    expect(updated.actualPriceRange).toMatchObject({
      minValue: { amount: '20' },
      maxValue: { amount: '22.5' },
    });
    const { product } = await visitor.products.getProduct(created._id!);
    expect(product).toMatchObject({ priceData: { price: 20 }, discount: { type: 'NONE' } });
    expect(product?.variants?.map((variant) => variant.variant?.priceData?.price)).toEqual([20, 22.5]);
  });

  it('answers a create it cannot take with field violations the client reads', async () => {
    const noPrice = await admin.productsV3
      .createProduct({
        name: `${PREFIX} Priceless`,
        productType: 'PHYSICAL',
        physicalProperties: {},
        variantsInfo: { variants: [{ price: { actualPrice: { amount: 'ten' } } }] },
      })
      .catch((caught) => caught);
    expect(noPrice.status).toBe(400);
    expect(noPrice.details.validationError.fieldViolations).toEqual([
      expect.objectContaining({ field: 'product.variantsInfo.variants[0].price.actualPrice.amount' }),
    ]);
    const unknownChoice = await admin.productsV3
      .createProduct({
        ...twoSizes(`${PREFIX} Odd`),
        variantsInfo: {
          variants: [
            {
              choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: 'XXL' } }],
              price: { actualPrice: { amount: '1' } },
            },
          ],
        },
      })
      .catch((caught) => caught);
    expect(unknownChoice.status).toBe(400);
    expect(unknownChoice.details.validationError.fieldViolations[0].field).toBe(
      'product.variantsInfo.variants[0].choices[0]',
    );
    const refusedVisitor = await visitor.productsV3.createProduct(twoSizes('Nope')).catch((caught) => caught);
    expect(refusedVisitor.status).toBe(403);
  });

  describe('queries, search and bulk writes', () => {
    const ids: string[] = [];

    beforeAll(async () => {
      const made = await admin.productsV3.bulkCreateProducts(
        [5, 3, 4, 1, 2].map((price) => ({
          name: `${PREFIX} Sock ${price}`,
          productType: 'PHYSICAL' as const,
          physicalProperties: {},
          plainDescription: price === 4 ? 'woolly and warm' : 'cotton',
          variantsInfo: {
            variants: [{ price: { actualPrice: { amount: String(price) } }, sku: `SOCK-${price}` }],
          },
        })),
        { returnEntity: true },
      );
      expect(made.bulkActionMetadata).toMatchObject({ totalSuccesses: 5, totalFailures: 0 });
      for (const result of made.results ?? []) ids.push(result.item!._id!);
    });

    it('filters, sorts and pages by cursor; the next page continues the same query', async () => {
      const first = await visitor.productsV3.queryProducts().in('_id', ids).ascending('slug').limit(2).find();
      const names = (page: typeof first) => page.items.map((product) => product.name);
      expect(names(first)).toEqual([`${PREFIX} Sock 1`, `${PREFIX} Sock 2`]);
      expect(first.hasNext()).toBe(true);
      const second = await first.next();
      expect(names(second)).toEqual([`${PREFIX} Sock 3`, `${PREFIX} Sock 4`]);
      const third = await second.next();
      expect(names(third)).toEqual([`${PREFIX} Sock 5`]);
      expect(third.hasNext()).toBe(false);
      // a query's page shows a summary, not the variants
      expect(first.items[0]?.variantsInfo).toBeUndefined();
      expect(first.items[0]?.variantSummary).toEqual({ variantCount: 1 });
    });

    it('searches with a price range and sort, pages by cursor, and refuses a field it cannot filter on', async () => {
      const filter = { _id: { $in: ids }, 'actualPriceRange.minValue.amount': { $gt: '2' } };
      const sort = [{ fieldName: 'actualPriceRange.minValue.amount' as const, order: 'DESC' as const }];
      const first = await visitor.productsV3.searchProducts({ filter, sort, cursorPaging: { limit: 2 } });
      expect(first.products?.map((product) => product.name)).toEqual(
        [5, 4].map((n) => `${PREFIX} Sock ${n}`),
      );
      const next = await visitor.productsV3.searchProducts({
        cursorPaging: { limit: 2, cursor: first.pagingMetadata?.cursors?.next ?? null },
      });
      expect(next.products?.map((product) => product.name)).toEqual([`${PREFIX} Sock 3`]);
      expect(next.pagingMetadata?.hasNext).toBe(false);

      const refused = await visitor.productsV3
        .searchProducts({ filter: { taxGroupId: 'x' } })
        .catch((caught) => caught);
      expect(refused.status).toBe(400);
      // the wire names `search.filter.taxGroupId`; the client may rename the path's head after its argument
      expect(refused.details.validationError.fieldViolations[0].field).toMatch(/\.filter\.taxGroupId$/);
    });

    it('searches names, descriptions and SKUs', async () => {
      const found = await visitor.productsV3.searchProducts({
        search: { expression: 'woolly' },
        filter: { _id: { $in: ids } },
      });
      expect(found.products?.map((product) => product.name)).toEqual([`${PREFIX} Sock 4`]);
      const bySku = await visitor.productsV3.searchProducts({ search: { expression: 'sock-2' } });
      expect(bySku.products?.map((product) => product.name)).toEqual([`${PREFIX} Sock 2`]);
    });

    it('bulk updates with a result per item: a stale revision fails alone', async () => {
      const [a, b] = await Promise.all(ids.slice(0, 2).map((id) => admin.productsV3.getProduct(id)));
      const result = await admin.productsV3.bulkUpdateProducts(
        [
          { product: { _id: a!._id!, revision: a!.revision!, visible: false } },
          { product: { _id: b!._id!, revision: '99', visible: false } },
        ],
        { returnEntity: false },
      );
      expect(result.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
      expect(result.results?.[0]?.itemMetadata).toMatchObject({ _id: a!._id, success: true });
      expect(result.results?.[1]?.itemMetadata).toMatchObject({
        _id: b!._id,
        success: false,
        error: { code: 'REVISION_MISMATCH' },
      });
      // the hidden one is gone from visitors' reads, and not from the admin's
      await expect(visitor.productsV3.getProduct(a!._id!)).rejects.toMatchObject({ status: 404 });
      expect((await admin.productsV3.getProduct(a!._id!)).visible).toBe(false);
    });

    it('bulk deletes with a result per item, then single delete; v1 no longer finds them', async () => {
      const result = await admin.productsV3.bulkDeleteProducts([ids[2]!, 'no-such-product']);
      expect(result.results?.map((item) => item.itemMetadata?.success)).toEqual([true, false]);
      expect(result.results?.[1]?.itemMetadata?.error?.code).toBe('PRODUCT_NOT_FOUND');
      await admin.productsV3.deleteProduct(ids[3]!);
      for (const id of [ids[2]!, ids[3]!]) {
        await expect(visitor.products.getProduct(id)).rejects.toMatchObject({ status: 404 });
      }
    });
  });

  describe('count, products with inventory, writes by filter and categories', () => {
    /** Products of one variant priced `price`, named `${PREFIX} ${label} ${price}`. */
    const makeProducts = async (label: string, prices: number[]) => {
      const made = await admin.productsV3.bulkCreateProducts(
        prices.map((price) => ({
          name: `${PREFIX} ${label} ${price}`,
          productType: 'PHYSICAL' as const,
          physicalProperties: {},
          variantsInfo: { variants: [{ price: { actualPrice: { amount: String(price) } } }] },
        })),
        { returnEntity: true },
      );
      return (made.results ?? []).map((result) => result.item!._id!);
    };
    const priceOf = async (id: string) =>
      (await admin.productsV3.getProduct(id)).variantsInfo?.variants?.[0]?.price?.actualPrice?.amount;

    it('counts the products a filter and a text search find, hidden ones only when asked', async () => {
      const ids = await makeProducts('Counted', [1, 2, 3]);
      const filter = { _id: { $in: ids }, 'actualPriceRange.minValue.amount': { $gte: '2' } };
      expect(await visitor.productsV3.countProducts({ filter })).toEqual({ count: 2 });
      expect(
        await visitor.productsV3.countProducts({
          filter: { _id: { $in: ids } },
          search: { expression: 'counted 3' },
        }),
      ).toEqual({ count: 1 });
      await admin.productsV3.updateProduct(ids[2]!, {
        revision: (await admin.productsV3.getProduct(ids[2]!)).revision!,
        visible: false,
      });
      expect(await visitor.productsV3.countProducts({ filter })).toEqual({ count: 1 });
      expect(await admin.productsV3.countProducts({ filter, returnNonVisibleProducts: true })).toEqual({
        count: 2,
      });
      const refused = await visitor.productsV3
        .countProducts({ filter: { taxGroupId: 'x' } })
        .catch((caught) => caught);
      expect(refused.status).toBe(400);
    });

    it('creates a product with its variants counted in one call; v1 and the v3 inventory items read the stock', async () => {
      const product = twoSizes(`${PREFIX} Stocked Tee`);
      const made = await admin.productsV3.createProductWithInventory(
        {
          ...product,
          variantsInfo: {
            variants: product.variantsInfo.variants.map((variant, index) => ({
              ...variant,
              inventoryItem: { quantity: [7, 0][index]!, preorderInfo: { enabled: index === 1, limit: 5 } },
            })),
          },
        },
        { returnEntity: true },
      );
      const id = made.product!._id!;
      expect(made.product).toMatchObject({ name: `${PREFIX} Stocked Tee`, revision: '1' });
      expect(made.inventoryResults?.bulkActionMetadata).toMatchObject({
        totalSuccesses: 2,
        totalFailures: 0,
      });
      const items = made.inventoryResults?.results?.map((result) => result.item);
      expect(items?.map((item) => [item?.trackQuantity, item?.quantity, item?.availabilityStatus])).toEqual([
        [true, 7, 'IN_STOCK'],
        [true, 0, 'PREORDER'],
      ]);

      const { product: v1 } = await admin.products.getProduct(id);
      expect(v1?.stock).toMatchObject({ trackInventory: true });
      expect(v1?.variants?.map((variant) => variant.stock?.quantity)).toEqual([7, 0]);
      const item = await admin.inventoryItemsV3.getInventoryItem(
        made.inventoryResults!.results![0]!.itemMetadata!._id!,
      );
      expect(item).toMatchObject({ productId: id, quantity: 7, trackQuantity: true });

      // an update with inventory names the product's revision: a stale one changes nothing
      const stale = await admin.productsV3
        .updateProductWithInventory(id, {
          revision: '7',
          variantsInfo: {
            variants: made.product!.variantsInfo!.variants!.map((variant) => ({
              _id: variant._id,
              choices: variant.choices,
              price: { actualPrice: { amount: '25' }, compareAtPrice: { amount: '30' } },
              inventoryItem: { quantity: 1 },
            })),
          },
        })
        .catch((caught) => caught);
      expect(stale.details?.applicationError?.code).toBe('REVISION_MISMATCH');
      expect((await admin.inventoryItemsV3.getInventoryItem(item._id!)).quantity).toBe(7);

      const updated = await admin.productsV3.updateProductWithInventory(
        id,
        {
          revision: made.product!.revision!,
          name: `${PREFIX} Restocked Tee`,
          variantsInfo: {
            variants: made.product!.variantsInfo!.variants!.map((variant) => ({
              _id: variant._id,
              choices: variant.choices,
              price: { actualPrice: { amount: '25' }, compareAtPrice: { amount: '30' } },
              inventoryItem: { quantity: 4 },
            })),
          },
        },
        { returnEntity: true },
      );
      expect(updated.product).toMatchObject({ name: `${PREFIX} Restocked Tee`, revision: '2' });
      const after = await admin.inventoryItemsV3.getInventoryItem(item._id!);
      expect(after.quantity).toBe(4);
      expect(Number(after.revision)).toBeGreaterThan(Number(item.revision));
      expect(updated.inventoryResults?.results?.map((result) => result.item?.quantity)).toEqual([4, 4]);
    });

    it('refuses items that mix counting, and an item its product cannot take undoes the whole write', async () => {
      const product = twoSizes(`${PREFIX} Never Stocked`);
      const withItems = (items: Array<Record<string, unknown>>) => ({
        ...product,
        variantsInfo: {
          variants: product.variantsInfo.variants.map((variant, index) => ({
            ...variant,
            inventoryItem: items[index],
          })),
        },
      });
      const mixed = await admin.productsV3
        .createProductWithInventory(withItems([{ quantity: 2 }, { inStock: true }]))
        .catch((caught) => caught);
      expect(mixed.status).toBe(400);
      // a preorder limit needs a counted quantity: refused as the stock is set, after the product was saved
      const limited = await admin.productsV3
        .createProductWithInventory(
          withItems([{ inStock: true }, { inStock: false, preorderInfo: { enabled: true, limit: 3 } }]),
        )
        .catch((caught) => caught);
      expect(limited.status).toBe(400);
      expect(limited.details.validationError.fieldViolations[0].field).toMatch(
        /variantsInfo\.variants\[1\]\.inventoryItem\.preorderInfo\.limit$/,
      );
      const named = { filter: { name: `${PREFIX} Never Stocked` }, returnNonVisibleProducts: true };
      expect(await admin.productsV3.countProducts(named)).toEqual({ count: 0 });
      // the same product with items it can take is made: one, and only one, of that name
      const made = await admin.productsV3.createProductWithInventory(
        withItems([{ inStock: true }, { inStock: false }]),
        { returnEntity: true },
      );
      expect(made.inventoryResults?.results?.map((result) => result.item?.availabilityStatus)).toEqual([
        'IN_STOCK',
        'OUT_OF_STOCK',
      ]);
      expect(await admin.productsV3.countProducts(named)).toEqual({ count: 1 });
    });

    it('bulk creates and updates products with inventory, a result per product', async () => {
      const made = await admin.productsV3.bulkCreateProductsWithInventory(
        [3, 0].map((quantity) => ({
          name: `${PREFIX} Bulk Stocked ${quantity}`,
          productType: 'PHYSICAL' as const,
          physicalProperties: {},
          variantsInfo: {
            variants: [{ price: { actualPrice: { amount: '4' } }, inventoryItem: { quantity } }],
          },
        })),
        { returnEntity: true },
      );
      expect(made.productResults?.bulkActionMetadata).toMatchObject({ totalSuccesses: 2 });
      expect(made.inventoryResults?.results?.map((result) => result.item?.availabilityStatus)).toEqual([
        'IN_STOCK',
        'OUT_OF_STOCK',
      ]);
      const [a, b] = made.productResults!.results!.map((result) => result.item!);
      const updated = await admin.productsV3.bulkUpdateProductsWithInventory([
        {
          product: {
            _id: a!._id!,
            revision: a!.revision!,
            variantsInfo: {
              variants: [{ price: { actualPrice: { amount: '4' } }, inventoryItem: { quantity: 9 } }],
            },
          },
        },
        { product: { _id: b!._id!, revision: '99', name: 'never' } },
      ]);
      expect(updated.productResults?.results?.map((result) => result.itemMetadata?.success)).toEqual([
        true,
        false,
      ]);
      expect(updated.productResults?.results?.[1]?.itemMetadata?.error?.code).toBe('REVISION_MISMATCH');
      const { product } = await admin.products.getProduct(a!._id!);
      expect(product?.stock?.quantity).toBe(9);
    });

    it('updates and deletes exactly the products a filter names, answering a job id', async () => {
      const ids = await makeProducts('By Filter', [10, 11, 12, 13]);
      const { jobId } = await admin.productsV3.bulkUpdateProductsByFilter({
        filter: { _id: { $in: ids.slice(0, 2) } },
        product: { ribbon: { name: 'Sale' } },
      });
      expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
      const ribbons = await Promise.all(
        ids.map(async (id) => (await admin.productsV3.getProduct(id)).ribbon?.name),
      );
      expect(ribbons).toEqual(['Sale', 'Sale', undefined, undefined]);

      const refused = await admin.productsV3
        .bulkUpdateProductsByFilter({ filter: { _id: { $in: ids } }, product: { slug: 'one-for-all' } })
        .catch((caught) => caught);
      expect(refused.status).toBe(400);

      const { collection } = await admin.products.createCollection({ name: `${PREFIX} Before Delete` });
      await admin.products.addProductsToCollection(collection!._id!, ids);
      await admin.productsV3.bulkDeleteProductsByFilter({ _id: { $in: ids.slice(2) } });
      // the collections that listed them count them no more
      expect((await admin.collections.getCollection(collection!._id!)).numberOfProducts).toBe(2);
      const left = await admin.productsV3.queryProducts().in('_id', ids).find();
      expect(left.items.map((product) => product._id).sort()).toEqual(ids.slice(0, 2).sort());
      await expect(visitor.products.getProduct(ids[3]!)).rejects.toMatchObject({ status: 404 });
    });

    it('walks more products than one batch holds: every filtered product is written, and deleted', async () => {
      const label = `${PREFIX} Batched`;
      const made = [
        // all at 1, so a product the walk missed is one still below 2
        ...(await makeProducts('Batched', new Array<number>(100).fill(1))),
        ...(await makeProducts('Batched', [1, 1, 1])),
      ];
      expect(made).toHaveLength(103);
      const filter = { name: { $startsWith: label } };
      await admin.productsV3.bulkAdjustProductVariantsByFilter(filter, { actualPrice: { amount: '1' } });
      const { count } = await admin.productsV3.countProducts({
        filter: { ...filter, 'actualPriceRange.minValue.amount': { $gte: '2' } },
      });
      expect(count).toBe(103);
      await admin.productsV3.bulkDeleteProductsByFilter(filter);
      expect(await admin.productsV3.countProducts({ filter, returnNonVisibleProducts: true })).toEqual({
        count: 0,
      });
    });

    it("sets and adjusts the filtered products' variant prices, by amount and by percent with rounding", async () => {
      const ids = await makeProducts('Adjusted', [20, 3.33]);
      const other = await makeProducts('Untouched', [20]);
      await admin.productsV3.bulkAdjustProductVariantsByFilter(
        { _id: { $in: ids } },
        { actualPrice: { percentage: 10 } },
      );
      expect(await Promise.all(ids.map(priceOf))).toEqual(['22', '3.66']);
      await admin.productsV3.bulkAdjustProductVariantsByFilter(
        { _id: { $in: ids } },
        { actualPrice: { percentage: 10 }, rounding: 'NEAREST_WHOLE_NUMBER' },
      );
      expect(await Promise.all(ids.map(priceOf))).toEqual(['24', '4']);
      await admin.productsV3.bulkAdjustProductVariantsByFilter(
        { _id: { $in: ids } },
        { actualPrice: { amount: '-1.5' } },
      );
      expect(await Promise.all(ids.map(priceOf))).toEqual(['22.5', '2.5']);
      await admin.productsV3.bulkUpdateProductVariantsByFilter(
        { _id: { $in: ids.slice(0, 1) } },
        { variant: { price: { actualPrice: { amount: '18' }, compareAtPrice: { amount: '21' } } } },
      );
      const { product } = await visitor.products.getProduct(ids[0]!);
      expect(product?.priceData).toMatchObject({ price: 21, discountedPrice: 18 });
      // a price that would go below zero leaves its product as it was, and the others move
      const lowered = await admin.productsV3.bulkAdjustProductVariantsByFilter(
        { _id: { $in: ids } },
        { actualPrice: { amount: '-5' } },
      );
      expect(lowered.jobId).toBeTruthy();
      expect(await Promise.all(ids.map(priceOf))).toEqual(['13', '2.5']);
      expect(await priceOf(other[0]!)).toBe('20');
      const refused = await admin.productsV3
        .bulkAdjustProductVariantsByFilter(
          { _id: { $in: ids } },
          { actualPrice: { amount: '1', percentage: 2 } },
        )
        .catch((caught) => caught);
      expect(refused.status).toBe(400);
    });

    it('adds the filtered products to categories and removes them: v1 sees them in the collection', async () => {
      const ids = await makeProducts('Categorised', [5, 6, 7]);
      const { collection } = await admin.products.createCollection({ name: `${PREFIX} Category` });
      const categoryId = collection!._id!;
      const allProducts = await visitor.productsV3.getAllProductsCategory();
      expect(allProducts).toMatchObject({
        categoryId: '00000000-000000-000000-000000000001',
        treeReference: { appNamespace: '@wix/stores' },
      });
      const listed = async () =>
        (await visitor.products.queryProducts().hasSome('collectionIds', [categoryId]).find()).items
          .map((product) => product._id)
          .sort();
      await admin.productsV3.bulkAddProductsToCategoriesByFilter({
        filter: { _id: { $in: ids.slice(0, 2) } },
        categoryIds: [categoryId, allProducts.categoryId!],
      });
      expect(await listed()).toEqual(ids.slice(0, 2).sort());
      // a product's categories are the collections that list it, All Products first
      const read = await visitor.productsV3.getProduct(ids[0]!, { fields: ['DIRECT_CATEGORIES_INFO'] });
      expect(read.directCategoriesInfo?.categories?.map((category) => category._id)).toEqual([
        allProducts.categoryId,
        categoryId,
      ]);
      const page = await visitor.productsV3
        .queryProducts({ fields: ['ALL_CATEGORIES_INFO'] })
        .in('_id', ids)
        .ascending('slug')
        .find();
      expect(page.items.map((product) => product.allCategoriesInfo?.categories?.length)).toEqual([2, 2, 1]);
      // and a filter on them is a filter on the collection's listings
      const inCategory = { 'allCategoriesInfo.categories.id': { $hasSome: [categoryId] } };
      expect(await visitor.productsV3.countProducts({ filter: inCategory })).toEqual({ count: 2 });
      await admin.productsV3.bulkRemoveProductsFromCategoriesByFilter({
        filter: { _id: { $in: ids.slice(1) } },
        categoryIds: [categoryId],
      });
      expect(await listed()).toEqual([ids[0]]);
      expect(await visitor.productsV3.countProducts({ filter: inCategory })).toEqual({ count: 1 });
      const unknown = await admin.productsV3
        .bulkAddProductsToCategoriesByFilter({ filter: {}, categoryIds: ['no-such-category'] })
        .catch((caught) => caught);
      expect(unknown.status).toBe(404);
      const fixed = await admin.productsV3
        .bulkRemoveProductsFromCategoriesByFilter({ filter: {}, categoryIds: [allProducts.categoryId!] })
        .catch((caught) => caught);
      expect(fixed.details?.applicationError?.code).toBe('ALL_PRODUCTS_COLLECTION_IS_FIXED');
    });
  });

  describe('brands, ribbons, info sections and customizations', () => {
    it('creates, reads, updates with the revision read (a stale one refused), queries and counts a brand', async () => {
      const brand = await admin.brandsV3.createBrand({ name: `${PREFIX} Acme` });
      expect(brand).toMatchObject({ name: `${PREFIX} Acme`, revision: '1' });
      expect(await visitor.brandsV3.getBrand(brand._id!)).toMatchObject({
        _id: brand._id,
        name: `${PREFIX} Acme`,
      });

      const renamed = await admin.brandsV3.updateBrand(brand._id!, {
        revision: brand.revision!,
        name: `${PREFIX} Acme Co`,
      });
      expect(renamed).toMatchObject({ name: `${PREFIX} Acme Co`, revision: '2' });
      const stale = await admin.brandsV3
        .updateBrand(brand._id!, { revision: brand.revision!, name: 'Lost update' })
        .catch((caught) => caught);
      expect(stale.status).toBe(409);
      expect(stale.details.applicationError).toMatchObject({ code: 'REVISION_MISMATCH' });
      // a name is a brand's own
      const twin = await admin.brandsV3.createBrand({ name: `${PREFIX} Acme Co` }).catch((caught) => caught);
      expect(twin.status).toBe(409);

      const page = await visitor.brandsV3.queryBrands().startsWith('name', `${PREFIX} Acme`).find();
      expect(page.items.map((item) => item.name)).toEqual([`${PREFIX} Acme Co`]);
      expect(await visitor.brandsV3.countBrands({ filter: { name: `${PREFIX} Acme Co` } })).toEqual({
        count: 1,
      });
      const made = await admin.brandsV3.getOrCreateBrand(`${PREFIX} Acme Co`);
      expect(made.brand?._id).toBe(brand._id);

      const events = await readEvents(platform.services.database.db, { entityId: brand._id! });
      expect(events.map((event) => `${event.entity} ${event.slug}`)).toEqual([
        'brand created',
        'brand updated',
      ]);
      await admin.brandsV3.deleteBrand(brand._id!);
      await expect(visitor.brandsV3.getBrand(brand._id!)).rejects.toMatchObject({ status: 404 });
      const deleted = await readEvents(platform.services.database.db, { entityId: brand._id! });
      expect(deleted.at(-1)).toMatchObject({ entity: 'brand', slug: 'deleted' });
    });

    it('a v3 product names its brand, ribbon and info sections by id; v1 reads them; their changes and deletions reach it', async () => {
      const brand = await admin.brandsV3.createBrand({ name: `${PREFIX} Northwind` });
      const ribbon = await admin.ribbonsV3.createRibbon({ name: `${PREFIX} Hot` });
      const care = await admin.infoSectionsV3.createInfoSection({
        uniqueName: `${PREFIX} care`,
        title: 'Care',
        plainDescription: 'Wash cold',
      });
      const created = await admin.productsV3.createProduct(
        {
          ...twoSizes(`${PREFIX} Scarf`),
          brand: { _id: brand._id! },
          ribbon: { _id: ribbon._id! },
          infoSections: [{ _id: care._id! }],
        },
        { fields: ['INFO_SECTION_PLAIN_DESCRIPTION'] },
      );
      expect(created).toMatchObject({
        brand: { _id: brand._id, name: `${PREFIX} Northwind` },
        ribbon: { _id: ribbon._id, name: `${PREFIX} Hot` },
        infoSections: [
          { _id: care._id, uniqueName: `${PREFIX} care`, title: 'Care', plainDescription: 'Wash cold' },
        ],
      });
      const v1 = async () => (await visitor.products.getProduct(created._id!)).product;
      expect(await v1()).toMatchObject({
        brand: `${PREFIX} Northwind`,
        ribbon: `${PREFIX} Hot`,
        additionalInfoSections: [{ title: 'Care', description: 'Wash cold' }],
      });
      const counted = await visitor.ribbonsV3.getRibbon(ribbon._id!, { fields: ['ASSIGNED_PRODUCT_COUNT'] });
      expect(counted.assignedProductCount).toBe(1);
      // found by its brand's, ribbon's and info section's ids as by their names, in queries and searches
      const plain = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Plain scarf`));
      const found = async (field: string, value: unknown) =>
        (
          await visitor.productsV3
            .queryProducts()
            .in('_id', [created._id!, plain._id!])
            .eq(field as any, value)
            .find()
        ).items.map((item) => item.name);
      expect(await found('brand._id', brand._id)).toEqual([`${PREFIX} Scarf`]);
      expect(await found('ribbon._id', ribbon._id)).toEqual([`${PREFIX} Scarf`]);
      expect(await found('infoSections._id', care._id)).toEqual([`${PREFIX} Scarf`]);
      expect(await found('ribbon.name', `${PREFIX} Hot`)).toEqual([`${PREFIX} Scarf`]);
      const unribboned = await visitor.productsV3
        .queryProducts()
        .in('_id', [created._id!, plain._id!])
        .ne('ribbon._id' as any, ribbon._id)
        .find();
      expect(unribboned.items.map((item) => item.name)).toEqual([`${PREFIX} Plain scarf`]);
      const searched = await visitor.productsV3.searchProducts({
        filter: { 'brand.id': { $in: [brand._id] } },
        search: { expression: 'scarf' },
      } as any);
      expect(searched.products?.map((item) => item.name)).toEqual([`${PREFIX} Scarf`]);

      // renamed and rewritten: the product shows it at once, through v1 too
      const revision = (await visitor.productsV3.getProduct(created._id!)).revision;
      await admin.brandsV3.updateBrand(brand._id!, { revision: '1', name: `${PREFIX} Northwind Ltd` });
      await admin.ribbonsV3.updateRibbon(ribbon._id!, { revision: '1', name: `${PREFIX} Hotter` });
      // a brand or ribbon renamed is written into its products at once, not by saving each again
      expect(await visitor.productsV3.getProduct(created._id!)).toMatchObject({
        revision,
        brand: { _id: brand._id, name: `${PREFIX} Northwind Ltd` },
        ribbon: { _id: ribbon._id, name: `${PREFIX} Hotter` },
      });
      expect(await v1()).toMatchObject({ brand: `${PREFIX} Northwind Ltd`, ribbon: `${PREFIX} Hotter` });
      expect((await visitor.products.getProduct(created._id!)).product?.ribbons).toEqual([
        { text: `${PREFIX} Hotter` },
      ]);
      expect(await found('brand.name', `${PREFIX} Northwind Ltd`)).toEqual([`${PREFIX} Scarf`]);
      await admin.infoSectionsV3.updateInfoSection(care._id!, { revision: '1', title: 'Care guide' });
      expect(await v1()).toMatchObject({
        brand: `${PREFIX} Northwind Ltd`,
        additionalInfoSections: [{ title: 'Care guide', description: 'Wash cold' }],
      });

      // a ribbon and an info section deleted leave their products; a brand deleted leaves them unbranded
      await admin.ribbonsV3.deleteRibbon(ribbon._id!);
      await admin.infoSectionsV3.deleteInfoSection(care._id!);
      await admin.brandsV3.deleteBrand(brand._id!);
      expect(await v1()).toMatchObject({ brand: '', ribbon: '', additionalInfoSections: [] });
      const after = await visitor.productsV3.getProduct(created._id!);
      expect(after.brand).toBeUndefined();
      expect(after.ribbon).toBeUndefined();
      expect(after.infoSections).toEqual([]);

      // an id that names nothing is a field violation
      const missing = await admin.productsV3
        .updateProduct(created._id!, { revision: after.revision!, ribbon: { _id: ribbon._id! } })
        .catch((caught) => caught);
      expect(missing.status).toBe(400);
    });

    it('a brand and ribbon written by name through v1 are entities v3 reads', async () => {
      const { product } = await admin.products.createProduct({
        name: `${PREFIX} Cap`,
        productType: 'physical',
        priceData: { price: 9 },
        brand: `${PREFIX} Fieldhouse`,
        ribbon: `${PREFIX} Sale`,
      });
      const read = await visitor.productsV3.getProduct(product!._id!);
      expect(read.brand?.name).toBe(`${PREFIX} Fieldhouse`);
      expect(await visitor.brandsV3.getBrand(read.brand!._id!)).toMatchObject({
        name: `${PREFIX} Fieldhouse`,
      });
      expect(await visitor.ribbonsV3.getRibbon(read.ribbon!._id!)).toMatchObject({ name: `${PREFIX} Sale` });
    });

    it('creates customizations, refuses what the hosted one refuses, and bulk creates with a result per item', async () => {
      const size = await admin.customizationsV3.createCustomization({
        name: `${PREFIX} Size`,
        customizationType: 'PRODUCT_OPTION',
        customizationRenderType: 'TEXT_CHOICES',
        choicesSettings: {
          choices: [
            { choiceType: 'CHOICE_TEXT', name: 'S' },
            { choiceType: 'CHOICE_TEXT', name: 'M' },
          ],
        },
      });
      expect(size).toMatchObject({
        name: `${PREFIX} Size`,
        revision: '1',
        customizationType: 'PRODUCT_OPTION',
      });
      expect(size.choicesSettings?.choices?.map((choice) => choice.name)).toEqual(['S', 'M']);

      const wrapping = await admin.customizationsV3.createCustomization({
        name: `${PREFIX} Gift wrap`,
        customizationType: 'MODIFIER',
        customizationRenderType: 'SWATCH_CHOICES',
        choicesSettings: {
          choices: [{ choiceType: 'ONE_COLOR', name: 'Red', colorCode: '#cc0000', defaultAddedPrice: '2.5' }],
        },
      });
      const updated = await admin.customizationsV3.updateCustomization(wrapping._id!, {
        revision: '1',
        name: `${PREFIX} Gift wrapping`,
      });
      expect(updated).toMatchObject({ revision: '2', name: `${PREFIX} Gift wrapping` });
      expect(updated.choicesSettings?.choices?.[0]).toMatchObject({ name: 'Red', defaultAddedPrice: '2.5' });

      const refused = await admin.customizationsV3
        .createCustomization({
          name: `${PREFIX} Bad`,
          customizationType: 'MODIFIER',
          customizationRenderType: 'SWATCH_CHOICES',
          choicesSettings: { choices: [{ choiceType: 'ONE_COLOR', name: 'No color' }] },
        })
        .catch((caught) => caught);
      expect(refused.status).toBe(400);

      const bulk = await admin.customizationsV3.bulkCreateCustomizations(
        [
          {
            name: `${PREFIX} Note`,
            customizationType: 'MODIFIER',
            customizationRenderType: 'FREE_TEXT',
            freeTextInput: { title: 'Your note', maxCharCount: 40 },
          },
          { name: `${PREFIX} Broken`, customizationType: 'MODIFIER', customizationRenderType: 'FREE_TEXT' },
        ],
        { returnEntity: true },
      );
      expect(bulk.results?.map((result) => result.itemMetadata?.success)).toEqual([true, false]);
      expect(bulk.results?.[0]?.customization?.freeTextInput).toMatchObject({
        title: 'Your note',
        maxCharCount: 40,
      });

      const modifiers = await visitor.customizationsV3
        .queryCustomizations()
        .eq('customizationType', 'MODIFIER')
        .startsWith('name', PREFIX)
        .ascending('name')
        .find();
      expect(modifiers.items.map((item) => item.name)).toEqual([`${PREFIX} Gift wrapping`, `${PREFIX} Note`]);
      await admin.customizationsV3.deleteCustomization(size._id!);
      await expect(visitor.customizationsV3.getCustomization(size._id!)).rejects.toMatchObject({
        status: 404,
      });
    });

    it("changes a customization's choices through the hosted choice calls", async () => {
      const finish = await admin.customizationsV3.createCustomization({
        name: `${PREFIX} Finish`,
        customizationType: 'MODIFIER',
        customizationRenderType: 'TEXT_CHOICES',
        choicesSettings: { choices: [{ choiceType: 'CHOICE_TEXT', name: 'Matte' }] },
      });
      const added = await admin.customizationsV3.addCustomizationChoices(finish._id!, [
        { choiceType: 'CHOICE_TEXT', name: 'Gloss', defaultAddedPrice: '1.5' },
      ]);
      const ids = (added.customization?.choicesSettings?.choices ?? []).map((choice) => choice._id!);
      expect(added.customization).toMatchObject({ revision: '2' });
      const reordered = await admin.customizationsV3.reorderCustomizationChoices(finish._id!, '2', {
        choiceIds: [...ids].reverse(),
      });
      expect(reordered.customization?.choicesSettings?.choices?.map((choice) => choice.name)).toEqual([
        'Gloss',
        'Matte',
      ]);
      const updated = await admin.customizationsV3.updateCustomizationChoices(finish._id!, '3', {
        choices: [{ choice: { _id: ids[1], choiceType: 'CHOICE_TEXT', name: 'High gloss' } }],
      });
      expect(updated.customization?.choicesSettings?.choices?.[0]).toMatchObject({
        _id: ids[1],
        name: 'High gloss',
        defaultAddedPrice: '1.5',
      });
      const removed = await admin.customizationsV3.removeCustomizationChoices(finish._id!, [ids[0]!], {
        revision: '4',
      });
      expect(removed.customization?.choicesSettings?.choices?.map((choice) => choice.name)).toEqual([
        'High gloss',
      ]);
      const bulk = await admin.customizationsV3.bulkAddCustomizationChoices(
        [{ customizationId: finish._id!, choices: [{ choiceType: 'CHOICE_TEXT', name: 'Satin' }] }],
        { returnEntity: true },
      );
      expect(
        bulk.results?.[0]?.customization?.choicesSettings?.choices?.map((choice) => choice.name),
      ).toEqual(['High gloss', 'Satin']);
    });

    it("keeps an info section's rich description as written, answers its text as the plain one, and refuses a deep one", async () => {
      const paragraph = (id: string, text: string) => ({
        type: 'PARAGRAPH' as const,
        _id: id,
        nodes: [{ type: 'TEXT' as const, _id: '', nodes: [], textData: { text, decorations: [] } }],
        paragraphData: {},
      });
      const description = { nodes: [paragraph('a1', 'Wash cold'), paragraph('a2', 'Dry flat & <away>')] };
      const care = await admin.infoSectionsV3.createInfoSection({
        uniqueName: `${PREFIX} rich care`,
        title: 'Care',
        description,
      });
      expect(care.description).toEqual(description);
      expect(care.plainDescription).toBe('<p>Wash cold</p><p>Dry flat &amp; &lt;away&gt;</p>');
      const product = await admin.productsV3.createProduct(
        { ...twoSizes(`${PREFIX} Rich`), infoSections: [{ _id: care._id! }] },
        { fields: ['INFO_SECTION_DESCRIPTION', 'INFO_SECTION_PLAIN_DESCRIPTION'] },
      );
      expect(product.infoSections?.[0]).toMatchObject({ title: 'Care', description });
      expect((await visitor.products.getProduct(product._id!)).product?.additionalInfoSections).toEqual([
        { title: 'Care', description: '<p>Wash cold</p><p>Dry flat &amp; &lt;away&gt;</p>' },
      ]);

      // a plain description written alone answers one paragraph of its text, on the product too
      await admin.infoSectionsV3.updateInfoSection(care._id!, {
        revision: care.revision!,
        plainDescription: '<p>Hand wash only</p>',
      });
      const read = await visitor.infoSectionsV3.getInfoSection(care._id!);
      expect(read.description?.nodes?.[0]).toMatchObject({
        type: 'PARAGRAPH',
        nodes: [{ type: 'TEXT', textData: { text: 'Hand wash only' } }],
      });
      const shown = await visitor.productsV3.getProduct(product._id!, {
        fields: ['INFO_SECTION_DESCRIPTION'],
      });
      expect(shown.infoSections?.[0]?.description).toEqual(read.description);

      // nodes nested past the bound are a field violation, and nothing changes
      let deep: any = paragraph('d0', 'deep');
      for (let level = 1; level < 15; level++) deep = { type: 'BLOCKQUOTE', _id: `d${level}`, nodes: [deep] };
      const refused = await admin.infoSectionsV3
        .updateInfoSection(care._id!, { revision: read.revision!, description: { nodes: [deep] } })
        .catch((caught) => caught);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.details)).toContain('infoSection.description');
      expect((await visitor.infoSectionsV3.getInfoSection(care._id!)).revision).toBe(read.revision);
      const huge = await admin.infoSectionsV3
        .createInfoSection({
          uniqueName: `${PREFIX} huge`,
          title: 'Huge',
          description: {
            nodes: Array.from({ length: 1000 }, (_, index) => paragraph(`h${index}`, 'x'.repeat(200))),
          },
        })
        .catch((caught) => caught);
      expect(huge.status).toBe(400);
    });

    it('bulk creates, updates and deletes info sections and ribbons with a result per item', async () => {
      const made = await admin.infoSectionsV3.bulkCreateInfoSections(
        [
          { uniqueName: `${PREFIX} sizing`, title: 'Sizing' },
          { uniqueName: `${PREFIX} sizing`, title: 'Twice' },
        ],
        { returnEntity: true },
      );
      expect(made.results?.map((result) => result.itemMetadata?.success)).toEqual([true, false]);
      const sizing = made.results![0]!.item!;
      const updated = await admin.infoSectionsV3.bulkUpdateInfoSections(
        [
          { infoSection: { _id: sizing._id!, revision: '1', title: 'Sizing chart' } },
          { infoSection: { _id: sizing._id!, revision: '1', title: 'Stale' } },
        ],
        { returnEntity: true },
      );
      expect(updated.results?.map((result) => result.itemMetadata?.error?.code ?? 'ok')).toEqual([
        'ok',
        'REVISION_MISMATCH',
      ]);
      const ribbons = await admin.ribbonsV3.bulkCreateRibbons([
        { name: `${PREFIX} A` },
        { name: `${PREFIX} B` },
      ]);
      const ribbonIds = ribbons.results!.map((result) => result.itemMetadata!._id!);
      const gone = await admin.ribbonsV3.bulkDeleteRibbons([...ribbonIds, sizing._id!]);
      expect(gone.results?.map((result) => result.itemMetadata?.success)).toEqual([true, true, false]);
      const deleted = await admin.infoSectionsV3.bulkDeleteInfoSections([sizing._id!]);
      expect(deleted.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 0 });
    });
  });

  describe('additional ribbons, tags and info sections of many products', () => {
    const names = (items: Array<{ name?: string | null }> | undefined) =>
      (items ?? []).map((item) => item.name);

    it('keeps additional ribbons by id and by name, finds products by them, and shows them renamed and deleted', async () => {
      const sale = await admin.ribbonsV3.createRibbon({ name: `${PREFIX} Extra sale` });
      const created = await admin.productsV3.createProduct({
        ...twoSizes(`${PREFIX} Ribboned`),
        additionalRibbons: [{ _id: sale._id! }, { name: `${PREFIX} Eco` }],
      });
      expect(created.ribbon).toMatchObject({ name: 'New' });
      expect(names(created.additionalRibbons)).toEqual([`${PREFIX} Extra sale`, `${PREFIX} Eco`]);
      expect(created.additionalRibbons?.[0]?._id).toBe(sale._id);
      const eco = created.additionalRibbons?.[1]?._id;
      const plain = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Unribboned`));
      const withRibbon = async (ribbonId: string) =>
        names(
          (
            await visitor.productsV3.searchProducts({
              filter: {
                id: { $in: [created._id, plain._id] },
                'additionalRibbons.id': { $hasSome: [ribbonId] },
              },
            } as any)
          ).products,
        );
      expect(await withRibbon(sale._id!)).toEqual([`${PREFIX} Ribboned`]);
      const counted = await visitor.ribbonsV3.getRibbon(sale._id!, { fields: ['ASSIGNED_PRODUCT_COUNT'] });
      expect(counted.assignedProductCount).toBe(1);

      // a ribbon is assigned to a product once: not twice, nor as the main one again
      const twice = await admin.productsV3
        .updateProduct(created._id!, {
          revision: created.revision!,
          additionalRibbons: [{ _id: sale._id! }, { name: `${PREFIX} Extra sale` }],
        })
        .catch((caught) => caught);
      expect(twice.status).toBe(400);
      expect(JSON.stringify(twice.details)).toContain('product.additionalRibbons[1]');
      const main = await admin.productsV3
        .updateProduct(created._id!, {
          revision: created.revision!,
          additionalRibbons: [{ _id: created.ribbon!._id! }],
        })
        .catch((caught) => caught);
      expect(main.status).toBe(400);

      // renamed: shown at once; deleted: gone from the product, the other kept
      await admin.ribbonsV3.updateRibbon(sale._id!, { revision: '1', name: `${PREFIX} Big sale` });
      expect(names((await visitor.productsV3.getProduct(created._id!)).additionalRibbons)).toEqual([
        `${PREFIX} Big sale`,
        `${PREFIX} Eco`,
      ]);
      await admin.ribbonsV3.deleteRibbon(sale._id!);
      const after = await visitor.productsV3.getProduct(created._id!);
      expect(after.additionalRibbons).toEqual([{ _id: eco, name: `${PREFIX} Eco` }]);
      expect(after.ribbon).toMatchObject({ name: 'New' });
      expect(await withRibbon(sale._id!)).toEqual([]);

      // an update writes the list again; an empty one takes them off
      const updated = await admin.productsV3.updateProduct(created._id!, {
        revision: after.revision!,
        additionalRibbons: [],
      });
      expect(updated.additionalRibbons).toEqual([]);
    });

    it('assigns and unassigns tags by ids and by filter; visitors see and filter on public tags only', async () => {
      const [summer, sale, clearance, margin] = [0, 1, 2, 3].map(() => crypto.randomUUID());
      const a = await admin.productsV3.createProduct({
        ...twoSizes(`${PREFIX} Tagged A`),
        tags: { publicTags: { tagIds: [summer!] }, privateTags: { tagIds: [margin!] } },
      });
      const b = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Tagged B`));
      expect(a.tags).toEqual({ publicTags: { tagIds: [summer] }, privateTags: { tagIds: [margin] } });
      expect((await visitor.productsV3.getProduct(a._id!)).tags).toEqual({
        publicTags: { tagIds: [summer] },
      });

      const updated = await admin.productsV3.bulkUpdateProductTags([a._id!, b._id!], {
        assignTags: { publicTags: { tagIds: [sale!] } },
        unassignTags: { publicTags: { tagIds: [summer!] } },
      });
      expect(updated.bulkActionMetadata).toMatchObject({ totalSuccesses: 2, totalFailures: 0 });
      const byFilter = await admin.productsV3.bulkUpdateProductTagsByFilter(
        { 'tags.privateTags.tagIds': { $hasSome: [margin] } },
        { assignTags: { publicTags: { tagIds: [clearance!] } } },
      );
      expect(byFilter.jobId).toMatch(/^[0-9a-f-]{36}$/);
      const tagsOf = async (id: string) => (await admin.productsV3.getProduct(id)).tags;
      expect(await tagsOf(a._id!)).toEqual({
        publicTags: { tagIds: [sale, clearance] },
        privateTags: { tagIds: [margin] },
      });
      expect(await tagsOf(b._id!)).toEqual({ publicTags: { tagIds: [sale] }, privateTags: { tagIds: [] } });

      const tagged = await visitor.productsV3.searchProducts({
        filter: { id: { $in: [a._id, b._id] }, 'tags.publicTags.tagIds': { $hasAll: [sale, clearance] } },
      } as any);
      expect(names(tagged.products)).toEqual([`${PREFIX} Tagged A`]);
      const hidden = await visitor.productsV3
        .searchProducts({ filter: { 'tags.privateTags.tagIds': { $hasSome: [margin] } } } as any)
        .catch((caught: any) => caught);
      expect(hidden.status).toBe(400);
      // nor count by them, though a product manager may
      const counted = await visitor.productsV3
        .countProducts({ filter: { 'tags.privateTags.tagIds': { $hasSome: [margin] } } } as any)
        .catch((caught: any) => caught);
      expect(counted.status).toBe(400);
      expect(
        await admin.productsV3.countProducts({
          filter: { 'tags.privateTags.tagIds': { $hasSome: [margin] } },
          returnNonVisibleProducts: true,
        } as any),
      ).toEqual({ count: 1 });
    });

    it('adds and removes info sections on many products, by ids with their revisions and by filter', async () => {
      const care = await admin.infoSectionsV3.createInfoSection({
        uniqueName: `${PREFIX} bulk care`,
        title: 'Care',
        plainDescription: 'Wash cold',
      });
      const sizing = await admin.infoSectionsV3.createInfoSection({
        uniqueName: `${PREFIX} bulk sizing`,
        title: 'Sizing',
        plainDescription: 'Runs small',
      });
      const a = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Sectioned A`));
      const b = await admin.productsV3.createProduct(twoSizes(`${PREFIX} Sectioned B`));
      const added = await admin.productsV3.bulkAddInfoSectionsToProducts(
        [
          { productId: a._id!, revision: a.revision! },
          { productId: b._id!, revision: '99' },
        ],
        { infoSectionIds: [care._id!], returnEntity: true },
      );
      expect(added.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
      expect(added.results?.[0]?.item?.infoSections).toMatchObject([{ _id: care._id, title: 'Care' }]);
      expect(added.results?.[1]?.itemMetadata).toMatchObject({
        _id: b._id,
        success: false,
        error: { code: 'REVISION_MISMATCH' },
      });

      const both = { id: { $in: [a._id, b._id] } };
      await admin.productsV3.bulkAddInfoSectionsToProductsByFilter(both, { infoSectionIds: [sizing._id!] });
      const sectionsOf = async (id: string) =>
        (await visitor.productsV3.getProduct(id)).infoSections?.map((section) => section.title);
      expect(await sectionsOf(a._id!)).toEqual(['Care', 'Sizing']);
      expect(await sectionsOf(b._id!)).toEqual(['Sizing']);
      expect((await visitor.products.getProduct(a._id!)).product?.additionalInfoSections).toEqual([
        { title: 'Care', description: 'Wash cold' },
        { title: 'Sizing', description: 'Runs small' },
      ]);

      await admin.productsV3.bulkRemoveInfoSectionsFromProducts([{ productId: a._id! }], {
        infoSectionIds: [care._id!],
      });
      expect(await sectionsOf(a._id!)).toEqual(['Sizing']);
      await admin.productsV3.bulkRemoveInfoSectionsFromProductsByFilter(
        { ...both, 'infoSections.id': { $hasSome: [sizing._id] } },
        { infoSectionIds: [sizing._id!] },
      );
      expect(await sectionsOf(a._id!)).toEqual([]);
      expect(await sectionsOf(b._id!)).toEqual([]);
      expect((await visitor.products.getProduct(a._id!)).product?.additionalInfoSections).toEqual([]);

      // a section that is not there is refused before any product changes
      const unknown = await admin.productsV3
        .bulkAddInfoSectionsToProductsByFilter(both, { infoSectionIds: [crypto.randomUUID()] })
        .catch((caught) => caught);
      expect(unknown.status).toBe(400);
    });
  });

  describe('options and modifiers that are assigned customizations', () => {
    it('takes an option and a modifier from customizations by id, prices the modifier in a cart, shows their renames, and keeps them from deletion', async () => {
      const size = await admin.customizationsV3.createCustomization({
        name: `${PREFIX} Poster size`,
        customizationType: 'PRODUCT_OPTION',
        customizationRenderType: 'TEXT_CHOICES',
        choicesSettings: {
          choices: ['S', 'M', 'L'].map((name) => ({ choiceType: 'CHOICE_TEXT' as const, name })),
        },
      });
      const frame = await admin.customizationsV3.createCustomization({
        name: `${PREFIX} Frame`,
        customizationType: 'MODIFIER',
        customizationRenderType: 'TEXT_CHOICES',
        choicesSettings: {
          choices: [
            { choiceType: 'CHOICE_TEXT', name: 'Oak', defaultAddedPrice: '6' },
            { choiceType: 'CHOICE_TEXT', name: 'Black', defaultAddedPrice: '5' },
          ],
        },
      });
      const [small, , large] = size.choicesSettings!.choices!.map((choice) => choice._id!);
      const [oak, black] = frame.choicesSettings!.choices!.map((choice) => choice._id!);
      const product = await admin.productsV3.createProduct(
        {
          name: `${PREFIX} Poster`,
          productType: 'PHYSICAL',
          physicalProperties: {},
          options: [
            { _id: size._id!, choicesSettings: { choices: [{ choiceId: small }, { choiceId: large }] } },
          ],
          modifiers: [
            {
              _id: frame._id!,
              mandatory: false,
              // the product's own price for one choice, the customization's default for the other
              choicesSettings: { choices: [{ choiceId: oak, addedPrice: '7.5' }, { choiceId: black }] },
            },
          ],
          variantsInfo: {
            variants: [small, large].map((choiceId, index) => ({
              choices: [{ optionChoiceIds: { optionId: size._id!, choiceId: choiceId! } }],
              price: { actualPrice: { amount: index === 0 ? '20' : '30' } },
            })),
          },
        } as any,
        { fields: ['VARIANT_OPTION_CHOICE_NAMES'] },
      );
      expect(product.options?.[0]).toMatchObject({ _id: size._id, name: `${PREFIX} Poster size` });
      expect(product.options?.[0]?.choicesSettings?.choices?.map((c) => [c.choiceId, c.name])).toEqual([
        [small, 'S'],
        [large, 'L'],
      ]);
      expect(product.modifiers?.[0]).toMatchObject({ _id: frame._id, name: `${PREFIX} Frame` });
      expect(
        product.modifiers?.[0]?.choicesSettings?.choices?.map((c) => [c.choiceId, c.addedPrice]),
      ).toEqual([
        [oak, '7.5'],
        [black, '5'],
      ]);
      const largeVariant = product.variantsInfo!.variants!.find(
        (variant) => variant.choices?.[0]?.optionChoiceIds?.choiceId === large,
      )!;
      const counted = await visitor.customizationsV3.getCustomization(size._id!, {
        fields: ['ASSIGNED_PRODUCTS_COUNT'],
      });
      expect(counted.assignedProductsCount).toBe(1);

      // the modifier priced in a cart: 30 + 7.50 oak
      const shopper = visitorClient();
      const cart: any = await shopper.currentCart.addToCurrentCart({
        lineItems: [
          {
            catalogReference: {
              appId: STORES_APP_ID,
              catalogItemId: product._id!,
              options: { variantId: largeVariant._id, options: { [`${PREFIX} Frame`]: 'Oak' } },
            },
            quantity: 1,
          },
        ],
      });
      expect(cart.cart.lineItems[0].price.amount).toBe('37.50');

      // renamed, a choice renamed: the product shows it at once
      await admin.customizationsV3.updateCustomization(size._id!, {
        revision: size.revision!,
        name: `${PREFIX} Print size`,
        choicesSettings: {
          choices: size.choicesSettings!.choices!.map((choice) => ({
            _id: choice._id!,
            choiceType: 'CHOICE_TEXT' as const,
            name: choice.name === 'L' ? 'Large' : choice.name!,
          })),
        },
      });
      const renamed = await visitor.productsV3.getProduct(product._id!, {
        fields: ['VARIANT_OPTION_CHOICE_NAMES'],
      });
      expect(renamed.options?.[0]).toMatchObject({ _id: size._id, name: `${PREFIX} Print size` });
      expect(renamed.options?.[0]?.choicesSettings?.choices?.map((c) => c.name)).toEqual(['S', 'Large']);
      expect(
        renamed.variantsInfo?.variants?.map((variant) => variant.choices?.[0]?.optionChoiceNames?.choiceName),
      ).toEqual(['S', 'Large']);
      expect((await visitor.products.getProduct(product._id!)).product?.productOptions?.[0]).toMatchObject({
        name: `${PREFIX} Print size`,
      });

      // in use, it may not be deleted; unassigned, it may
      const refused = await admin.customizationsV3.deleteCustomization(frame._id!).catch((caught) => caught);
      expect(refused.details?.applicationError?.code).toBe(
        'NOT_ALLOWED_DELETE_CUSTOMIZATION_ASSIGNED_TO_PRODUCT',
      );
      await admin.productsV3.updateProduct(product._id!, { revision: renamed.revision!, modifiers: [] });
      await admin.customizationsV3.deleteCustomization(frame._id!);

      // a choice the customization does not have is a field violation
      const unknown = await admin.productsV3
        .createProduct({
          name: `${PREFIX} Bad poster`,
          productType: 'PHYSICAL',
          physicalProperties: {},
          options: [{ _id: size._id!, choicesSettings: { choices: [{ choiceId: oak }] } }],
          variantsInfo: { variants: [{ price: { actualPrice: { amount: '1' } } }] },
        } as any)
        .catch((caught) => caught);
      expect(JSON.stringify(unknown.details)).toContain(
        'product.options[0].choicesSettings.choices[0].choiceId',
      );
    });
  });

  describe('modifiers in the cart', () => {
    /** A digital card of two sizes with a priced gift wrap (swatches), a finish and an engraving. */
    const card = (name: string) => ({
      name,
      productType: 'DIGITAL' as const,
      options: [
        {
          name: 'Size',
          optionRenderType: 'TEXT_CHOICES' as const,
          choicesSettings: {
            choices: ['A5', 'A4'].map((size) => ({ choiceType: 'CHOICE_TEXT' as const, name: size })),
          },
        },
      ],
      modifiers: [
        {
          name: 'Gift wrap',
          modifierRenderType: 'SWATCH_CHOICES' as const,
          mandatory: false,
          choicesSettings: {
            choices: [
              { choiceType: 'ONE_COLOR' as const, name: 'Red', colorCode: '#cc0000', addedPrice: '2.5' },
              { choiceType: 'ONE_COLOR' as const, name: 'Plain', colorCode: '#ffffff', addedPrice: '0' },
            ],
          },
        },
        {
          name: 'Finish',
          modifierRenderType: 'TEXT_CHOICES' as const,
          mandatory: true,
          choicesSettings: {
            choices: [
              { choiceType: 'CHOICE_TEXT' as const, name: 'Matte' },
              { choiceType: 'CHOICE_TEXT' as const, name: 'Gloss', addedPrice: '1.25' },
            ],
          },
        },
        {
          name: 'Engraving',
          modifierRenderType: 'FREE_TEXT' as const,
          mandatory: false,
          freeTextSettings: { title: 'Your words', maxCharCount: 20, defaultAddedPrice: '4' },
        },
      ],
      variantsInfo: {
        variants: ['A5', 'A4'].map((size) => ({
          choices: [
            {
              optionChoiceNames: {
                optionName: 'Size',
                choiceName: size,
                renderType: 'TEXT_CHOICES' as const,
              },
            },
          ],
          price: {
            actualPrice: { amount: size === 'A5' ? '10' : '14' },
            compareAtPrice: { amount: size === 'A5' ? '12' : '16' },
          },
        })),
      },
    });

    it('prices chosen modifiers and written texts into the line, and checkout and the order keep them', async () => {
      const product = await admin.productsV3.createProduct(card(`${PREFIX} Card`), {
        fields: ['VARIANT_OPTION_CHOICE_NAMES'],
      });
      expect(product.modifiers?.map((modifier) => [modifier.name, modifier.key, modifier.mandatory])).toEqual(
        [
          ['Gift wrap', 'Gift wrap', false],
          ['Finish', 'Finish', true],
          ['Engraving', 'Engraving', false],
        ],
      );
      expect(product.modifiers?.[0]?.choicesSettings?.choices?.[0]).toMatchObject({
        key: 'Red',
        addedPrice: '2.5',
        colorCode: '#cc0000',
      });
      expect(product.modifiers?.[2]?.freeTextSettings).toMatchObject({ key: 'Your words', maxCharCount: 20 });
      const a4 = product.variantsInfo!.variants!.find(
        (variant) => variant.choices?.[0]?.optionChoiceNames?.choiceName === 'A4',
      )!;
      // read back through v1 and v3 alike: the modifiers are the product's
      expect((await visitor.productsV3.getProduct(product._id!)).modifiers).toHaveLength(3);

      const shopper = visitorClient();
      const reference = (options: Record<string, unknown>) => ({
        catalogReference: { appId: STORES_APP_ID, catalogItemId: product._id!, options },
      });
      const chosen = {
        variantId: a4._id,
        options: { 'Gift wrap': 'Red', Finish: 'Gloss' },
        customTextFields: { 'Your words': 'For Ada' },
      };
      const cart: any = await shopper.currentCart.addToCurrentCart({
        lineItems: [
          { ...reference(chosen), quantity: 2 },
          // the same variant with other modifiers is another line; by choices, the options' and modifiers' keys share a map
          { ...reference({ options: { Size: 'A4', Finish: 'matte' } }), quantity: 1 },
        ],
      });
      expect(cart.cart.lineItems).toHaveLength(2);
      const [engraved, plain] = cart.cart.lineItems;
      // 14 (compare-at 16) + 2.50 red + 1.25 gloss + 4 for the text
      expect(engraved.price.amount).toBe('21.75');
      expect(engraved.fullPrice.amount).toBe('23.75');
      expect(engraved.lineItemPrice.amount).toBe('43.50');
      expect(engraved.catalogReference.options).toEqual(chosen);
      expect(
        engraved.descriptionLines.map((line: any) => [
          line.name.original,
          line.plainText?.original ?? line.colorInfo?.original,
        ]),
      ).toEqual([
        ['Size', 'A4'],
        ['Gift wrap', 'Red'],
        ['Finish', 'Gloss'],
        ['Your words', 'For Ada'],
      ]);
      expect(plain.price.amount).toBe('14.00');

      // the same choices again grow the line; a missing mandatory modifier or an unknown choice is refused
      const again: any = await shopper.currentCart.addToCurrentCart({
        lineItems: [{ ...reference(chosen), quantity: 1 }],
      });
      expect(again.cart.lineItems.map((line: any) => line.quantity)).toEqual([3, 1]);
      for (const [options, problem] of [
        [{ variantId: a4._id }, 'modifier "Finish" needs a choice'],
        [{ variantId: a4._id, options: { Finish: 'Velvet' } }, 'modifier "Finish" has no choice "Velvet"'],
        [
          {
            variantId: a4._id,
            options: { Finish: 'Matte' },
            customTextFields: { 'Your words': 'x'.repeat(21) },
          },
          'the text for "Your words" needs 0 to 20 characters',
        ],
      ] as const) {
        const refused = await shopper.currentCart
          .addToCurrentCart({ lineItems: [reference(options)] })
          .catch((caught) => caught);
        // the hosted client names the call's argument first
        expect(refused.details?.validationError?.fieldViolations?.[0]).toMatchObject({
          field: 'options.lineItems[0].catalogReference.options',
          description: problem,
        });
      }

      const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({
        channelType: 'WEB' as any,
      });
      const filled: any = await shopper.checkout.updateCheckout(checkoutId!, {
        buyerInfo: { email: 'modifiers@example.com' },
        billingInfo: {
          address: {
            country: 'US',
            subdivision: 'US-NY',
            city: 'New York',
            postalCode: '10001',
            addressLine1: '1 Main Street',
          },
        },
      } as any);
      // 3 × 21.75 + 14
      expect(filled.priceSummary.subtotal.amount).toBe('79.25');
      expect(filled.lineItems[0].catalogReference.options).toEqual(chosen);
      const created = await shopper.checkout.createOrder(checkoutId!);
      const order: any = await shopper.orders.getOrder(created.orderId!);
      expect(order.priceSummary.subtotal.amount).toBe('79.25');
      expect(order.lineItems[0]).toMatchObject({
        quantity: 3,
        price: { amount: '21.75' },
        catalogReference: { catalogItemId: product._id, options: chosen },
      });
      expect(order.lineItems[0].descriptionLines.map((line: any) => line.name.original)).toEqual([
        'Size',
        'Gift wrap',
        'Finish',
        'Your words',
      ]);
    });
  });
});
