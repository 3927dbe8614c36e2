import {
  ApiKeyStrategy,
  ApplicationError,
  brandsV3,
  catalogVersioning,
  createClient,
  customizationsV3,
  infoSectionsV3,
  inventoryItemsV3,
  OAuthStrategy,
  products,
  productsV3,
  readOnlyVariantsV3,
  ribbonsV3,
} from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestPlatform, TEST_CLIENT_ID, type TestPlatform } from './support/platform.ts';

/** The v3 catalog calls of `@cartwheel/sdk`, over real HTTP against the built platform. */
describe.each(DIALECTS)("@cartwheel/sdk's v3 catalog on %s", (dialect) => {
  let platform: TestPlatform;
  const modules = {
    products,
    productsV3,
    readOnlyVariantsV3,
    inventoryItemsV3,
    catalogVersioning,
    brandsV3,
    ribbonsV3,
    infoSectionsV3,
    customizationsV3,
  };
  const clients = () => ({
    admin: createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules,
    }),
    visitor: createClient({ host: platform.url, auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }), modules }),
  });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
  });
  afterAll(() => platform?.stop());

  it('creates, reads, pages, updates with its revision and deletes a v3 product', async () => {
    const { admin, visitor } = clients();
    expect(await visitor.catalogVersioning.getCatalogVersion()).toEqual({ catalogVersion: 'V3_CATALOG' });
    const made = await admin.productsV3.bulkCreateProducts(
      ['A', 'B', 'C'].map((letter) => ({
        name: `SDK ${dialect} ${letter}`,
        productType: 'PHYSICAL',
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '9.5' } }, sku: `SDK-${letter}` }] },
      })),
      { returnEntity: true },
    );
    const ids = made.results.map((result) => result.item?.id as string);
    expect(made.bulkActionMetadata.totalSuccesses).toBe(3);

    const first = await visitor.productsV3.queryProducts({
      filter: { id: { $in: ids } },
      sort: [{ fieldName: 'slug' }],
      cursorPaging: { limit: 2 },
    });
    expect(first.items.map((product) => product.name)).toEqual([`SDK ${dialect} A`, `SDK ${dialect} B`]);
    const next = await visitor.productsV3.queryProducts({
      cursorPaging: { cursor: first.pagingMetadata.cursors.next as string },
    });
    expect(next.items.map((product) => product.name)).toEqual([`SDK ${dialect} C`]);
    expect(next.pagingMetadata.hasNext).toBe(false);

    const read = await visitor.productsV3.getProduct(ids[0]!, { fields: ['CURRENCY'] });
    expect(read).toMatchObject({ currency: 'USD', actualPriceRange: { minValue: { amount: '9.5' } } });
    expect((await visitor.productsV3.getProductBySlug(read.slug as string)).id).toBe(ids[0]);
    const updated = await admin.productsV3.updateProduct(ids[0]!, {
      revision: read.revision,
      name: 'Renamed',
    });
    expect(updated.revision).toBe(String(Number(read.revision) + 1));
    const stale = await admin.productsV3
      .updateProduct(ids[0]!, { revision: read.revision, name: 'Lost' })
      .catch((e) => e);
    expect(stale).toBeInstanceOf(ApplicationError);
    expect(stale).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });

    const variants = await visitor.readOnlyVariantsV3.queryVariants({ filter: { sku: 'SDK-B' } });
    expect(variants.items.map((variant) => variant.productData?.productId)).toContain(ids[1]);

    await admin.productsV3.deleteProduct(ids[2]!);
    const deleted = await admin.productsV3.bulkDeleteProducts([ids[2]!]);
    expect(deleted.results[0]?.itemMetadata).toMatchObject({
      success: false,
      error: { code: 'PRODUCT_NOT_FOUND' },
    });
  });

  it("counts an item's stock and moves it by increment and decrement", async () => {
    const { admin } = clients();
    const product = await admin.productsV3.createProduct({
      name: `SDK ${dialect} Stocked`,
      productType: 'PHYSICAL',
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '3' } } }] },
    });
    const [item] = (await admin.inventoryItemsV3.queryInventoryItems({ filter: { productId: product.id } }))
      .items;
    const counted = await admin.inventoryItemsV3.updateInventoryItem(item!.id as string, {
      revision: item!.revision,
      trackQuantity: true,
      quantity: 2,
    });
    expect(counted).toMatchObject({ quantity: 2, availabilityStatus: 'IN_STOCK' });
    await admin.inventoryItemsV3.bulkIncrementInventoryItems([
      { inventoryItemId: counted.id as string, units: 1 },
    ]);
    const taken = await admin.inventoryItemsV3.bulkDecrementInventoryItems(
      [{ inventoryItemId: counted.id as string, units: 3 }],
      { returnEntity: true },
    );
    expect(taken.results[0]?.item).toMatchObject({ quantity: 0, availabilityStatus: 'OUT_OF_STOCK' });
    const short = await admin.inventoryItemsV3
      .bulkDecrementInventoryItems([{ inventoryItemId: counted.id as string, units: 1 }])
      .catch((e) => e);
    expect(short).toMatchObject({ status: 428, code: 'INSUFFICIENT_INVENTORY' });
  });

  it('makes the brand, ribbon and info section a product points at, and reads them back through it', async () => {
    const { admin, visitor } = clients();
    const brand = await admin.brandsV3.getOrCreateBrand(`SDK ${dialect} Brand`);
    expect(await admin.brandsV3.getOrCreateBrand(`SDK ${dialect} Brand`)).toMatchObject({ id: brand.id });
    const ribbon = await admin.ribbonsV3.createRibbon({ name: `SDK ${dialect} New` });
    const [section] = (
      await admin.infoSectionsV3.bulkCreateInfoSections(
        [{ uniqueName: `sdk-${dialect}-fit`, title: 'Fit', plainDescription: 'True to size' }],
        { returnEntity: true },
      )
    ).results.map((result) => result.item);
    const product = await admin.productsV3.createProduct({
      name: `SDK ${dialect} Branded`,
      productType: 'DIGITAL',
      brand: { id: brand.id },
      ribbon: { name: ribbon.name },
      infoSections: [{ uniqueName: section?.uniqueName }],
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '4' } } }] },
    });
    expect(product).toMatchObject({
      brand: { id: brand.id, name: `SDK ${dialect} Brand` },
      ribbon: { id: ribbon.id },
      infoSections: [{ id: section?.id, title: 'Fit' }],
    });
    const counted = await visitor.brandsV3.queryBrands(
      { filter: { id: brand.id } },
      { fields: ['ASSIGNED_PRODUCTS_COUNT'] },
    );
    expect(counted.items).toMatchObject([{ id: brand.id, assignedProductsCount: 1 }]);
    expect((await visitor.ribbonsV3.queryRibbons({ filter: { name: ribbon.name } })).items).toHaveLength(1);
    expect(await visitor.infoSectionsV3.countInfoSections({ uniqueName: `sdk-${dialect}-fit` })).toEqual({
      count: 1,
    });
    const stale = await admin.ribbonsV3
      .updateRibbon(ribbon.id as string, { revision: '7', name: 'Lost' })
      .catch((e) => e);
    expect(stale).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });

    const modifier = await admin.customizationsV3.createCustomization({
      name: `SDK ${dialect} Engraving`,
      customizationType: 'MODIFIER',
      customizationRenderType: 'FREE_TEXT',
      freeTextInput: { title: 'Text to engrave', maxCharCount: 20, defaultAddedPrice: '5' },
    });
    expect(modifier.freeTextInput).toMatchObject({ title: 'Text to engrave', defaultAddedPrice: '5' });
    const found = await visitor.customizationsV3.queryCustomizations({
      filter: { customizationRenderType: 'FREE_TEXT', name: { $startsWith: `SDK ${dialect}` } },
    });
    expect(found.items.map((item) => item.id)).toEqual([modifier.id]);
  });
});
