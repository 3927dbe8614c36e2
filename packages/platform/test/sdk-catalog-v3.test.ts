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
    // a text search of SKUs and product names, paged by a cursor that carries it
    const searched = await visitor.readOnlyVariantsV3.searchVariants({
      filter: { 'productData.productId': { $in: ids } },
      search: { expression: 'sdk-' },
      sort: [{ fieldName: 'sku' }],
      cursorPaging: { limit: 2 },
    });
    expect(searched.items.map((variant) => variant.sku)).toEqual(['SDK-A', 'SDK-B']);
    const rest = await visitor.readOnlyVariantsV3.searchVariants({
      cursorPaging: { cursor: searched.pagingMetadata.cursors.next as string },
    });
    expect(rest.items.map((variant) => variant.sku)).toEqual(['SDK-C']);
    const bySku = await visitor.readOnlyVariantsV3.searchVariants({
      filter: { 'productData.productId': { $in: ids } },
      search: { expression: 'sdk-b' },
    });
    const byName = await visitor.readOnlyVariantsV3.searchVariants({
      filter: { 'productData.productId': { $in: ids } },
      search: { expression: 'renamed' },
    });
    expect(byName.items.map((variant) => variant.sku)).toEqual(['SDK-A']);
    expect(bySku.items.map((variant) => variant.productData?.productId)).toEqual([ids[1]]);

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

  it('deletes and makes again an item, counts and searches items, updates them in bulk and by filter, moves them by variant', async () => {
    const { admin } = clients();
    const product = await admin.productsV3.createProduct({
      name: `SDK ${dialect} Sizes`,
      productType: 'PHYSICAL',
      options: [
        {
          name: 'Size',
          optionRenderType: 'TEXT_CHOICES',
          choicesSettings: {
            choices: ['S', 'M'].map((name) => ({ name, choiceType: 'CHOICE_TEXT' as const })),
          },
        },
      ],
      variantsInfo: {
        variants: ['S', 'M'].map((size) => ({
          choices: [{ optionChoiceNames: { optionName: 'Size', choiceName: size } }],
          price: { actualPrice: { amount: '4' } },
        })),
      },
    } as never);
    const filter = { productId: product.id };
    const [small, medium] = (await admin.inventoryItemsV3.queryInventoryItems({ filter })).items;
    await admin.inventoryItemsV3.deleteInventoryItem(small!.id as string);
    expect((await admin.inventoryItemsV3.queryInventoryItems({ filter })).items).toHaveLength(1);
    const made = await admin.inventoryItemsV3.createInventoryItem({
      productId: product.id as string,
      variantId: small!.variantId as string,
      inStock: true,
    });
    expect(made).toMatchObject({ id: small!.id, inStock: true, availabilityStatus: 'IN_STOCK' });
    const again = await admin.inventoryItemsV3.createInventoryItem(made).catch((e) => e);
    expect(again).toMatchObject({ status: 409, code: 'ITEM_ALREADY_EXISTS' });

    const updated = await admin.inventoryItemsV3.bulkUpdateInventoryItems(
      [
        { inventoryItem: { id: made.id, revision: made.revision, inStock: false } },
        { inventoryItem: { id: medium!.id, revision: '999', inStock: false } },
      ],
      { returnEntity: true },
    );
    expect(updated.results.map((result) => result.itemMetadata.success)).toEqual([true, false]);
    expect(updated.results[1]?.itemMetadata.error?.code).toBe('REVISION_MISMATCH');
    const { jobId } = await admin.inventoryItemsV3.bulkUpdateInventoryItemsByFilter(filter, {
      inventoryItem: { preorderInfo: { enabled: true, message: 'Soon' } },
    });
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const both = (await admin.inventoryItemsV3.queryInventoryItems({ filter })).items;
    expect(both.map((item) => item.preorderInfo?.message)).toEqual(['Soon', 'Soon']);

    expect(await admin.inventoryItemsV3.countInventoryItems(filter)).toBe(2);
    const searched = await admin.inventoryItemsV3.searchInventoryItems({
      filter,
      sort: [{ fieldName: 'variantId', order: 'DESC' }],
      cursorPaging: { limit: 1 },
    });
    expect(searched.items.map((item) => item.variantId)).toEqual(
      [small!.variantId, medium!.variantId].sort().reverse().slice(0, 1),
    );
    expect(searched.pagingMetadata.hasNext).toBe(true);

    const deleted = await admin.inventoryItemsV3.bulkDeleteInventoryItems([
      made.id as string,
      'no-such-item',
    ]);
    expect(deleted.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    // a deleted item is neither counted nor found
    expect(await admin.inventoryItemsV3.countInventoryItems(filter)).toBe(1);
    // the variant names its item: one that does not count its quantity is refused as by its id
    const moved = await admin.inventoryItemsV3
      .bulkIncrementInventoryItemsByVariantAndLocation([
        { variantId: medium!.variantId as string, locationId: medium!.locationId as string, units: 1 },
      ])
      .catch((e) => e);
    expect(moved).toMatchObject({ status: 428, code: 'INVENTORY_QUANTITY_NOT_TRACKED' });
    const gone = await admin.inventoryItemsV3
      .bulkDecrementInventoryItemsByVariantAndLocation([{ variantId: small!.variantId as string, units: 1 }])
      .catch((e) => e);
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('counts, writes a product with its stock, and writes by filter and by category', async () => {
    const { admin, visitor } = clients();
    const made = await admin.productsV3.createProductWithInventory(
      {
        name: `SDK ${dialect} With Stock`,
        productType: 'PHYSICAL',
        variantsInfo: {
          variants: [{ price: { actualPrice: { amount: '10' } }, inventoryItem: { quantity: 5 } }],
        },
      },
      { returnEntity: true },
    );
    expect(made.inventoryResults.results[0]?.item).toMatchObject({ quantity: 5, trackQuantity: true });
    const id = made.product.id as string;
    const stale = await admin.productsV3
      .updateProductWithInventory(id, { revision: '9', name: 'Lost' })
      .catch((e) => e);
    expect(stale).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });
    const updated = await admin.productsV3.updateProductWithInventory(id, {
      revision: made.product.revision,
      variantsInfo: {
        variants: [{ price: { actualPrice: { amount: '10' } }, inventoryItem: { quantity: 2 } }],
      },
    });
    expect(updated.product.revision).toBe('2');
    const [item] = (await admin.inventoryItemsV3.queryInventoryItems({ filter: { productId: id } })).items;
    expect(item?.quantity).toBe(2);

    const others = await admin.productsV3.bulkCreateProductsWithInventory(
      [1, 2].map((n) => ({
        name: `SDK ${dialect} Filtered ${n}`,
        productType: 'PHYSICAL' as const,
        variantsInfo: {
          variants: [{ price: { actualPrice: { amount: '10' } }, inventoryItem: { inStock: true } }],
        },
      })),
      { returnEntity: true },
    );
    const ids = [id, ...others.productResults.results.map((result) => result.item?.id as string)];
    const filter = { id: { $in: ids } };
    expect(await visitor.productsV3.countProducts({ filter })).toEqual({ count: 3 });

    const { jobId } = await admin.productsV3.bulkAdjustProductVariantsByFilter(filter, {
      actualPrice: { percentage: -25 },
    });
    expect(jobId).toBeTruthy();
    const page = await admin.productsV3.queryProducts({ filter });
    expect(page.items.map((product) => product.actualPriceRange?.minValue?.amount)).toEqual([
      '7.5',
      '7.5',
      '7.5',
    ]);
    await admin.productsV3.bulkUpdateProductVariantsByFilter(
      { id: { $in: [id] } },
      { variant: { price: { actualPrice: { amount: '6' } } } },
    );
    expect((await admin.productsV3.getProduct(id)).actualPriceRange?.minValue?.amount).toBe('6');
    await admin.productsV3.bulkUpdateProductsByFilter({ filter, product: { visible: false } });
    expect(await visitor.productsV3.countProducts({ filter })).toEqual({ count: 0 });

    const { categoryId } = await admin.productsV3.getAllProductsCategory();
    expect(categoryId).toBe('00000000-000000-000000-000000000001');
    const collection = await admin.products.createCollection({ name: `SDK ${dialect} Category` });
    await admin.productsV3.bulkAddProductsToCategoriesByFilter({
      filter,
      categoryIds: [collection.id as string],
    });
    const listed = await admin.products.queryProducts({
      filter: { collectionIds: { $hasSome: [collection.id] } },
    });
    expect(listed.items.map((product) => product.id).sort()).toEqual([...ids].sort());
    await admin.productsV3.bulkRemoveProductsFromCategoriesByFilter({
      filter,
      categoryIds: [collection.id as string],
    });

    await admin.productsV3.bulkDeleteProductsByFilter(filter);
    expect(await admin.productsV3.countProducts({ filter, returnNonVisibleProducts: true })).toEqual({
      count: 0,
    });
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

  it('keeps additional ribbons, tags, rich descriptions and assigned modifiers; edits tags and info sections in bulk', async () => {
    const { admin, visitor } = clients();
    const section = await admin.infoSectionsV3.createInfoSection({
      uniqueName: `sdk-${dialect}-rich`,
      title: 'Rich',
      description: {
        nodes: [
          { type: 'PARAGRAPH', id: 'p', nodes: [{ type: 'TEXT', id: '', textData: { text: 'Soft' } }] },
        ],
      },
    });
    expect(section.plainDescription).toBe('<p>Soft</p>');
    const wrap = await admin.customizationsV3.createCustomization({
      name: `SDK ${dialect} Wrap`,
      customizationType: 'MODIFIER',
      customizationRenderType: 'TEXT_CHOICES',
      choicesSettings: { choices: [{ choiceType: 'CHOICE_TEXT', name: 'Paper', defaultAddedPrice: '1.5' }] },
    });
    const paper = wrap.choicesSettings?.choices?.[0]?.id as string;
    const product = await admin.productsV3.createProduct({
      name: `SDK ${dialect} Extras`,
      productType: 'DIGITAL',
      additionalRibbons: [{ name: `SDK ${dialect} Extra` }],
      tags: { publicTags: { tagIds: ['t-public'] }, privateTags: { tagIds: ['t-private'] } },
      modifiers: [{ id: wrap.id, choicesSettings: { choices: [{ choiceId: paper }] } }],
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '4' } } }] },
    });
    expect(product.additionalRibbons).toMatchObject([{ name: `SDK ${dialect} Extra` }]);
    expect(product.modifiers?.[0]).toMatchObject({ id: wrap.id, name: `SDK ${dialect} Wrap` });
    expect(product.modifiers?.[0]?.choicesSettings?.choices?.[0]).toMatchObject({
      choiceId: paper,
      addedPrice: '1.5',
    });
    expect((await visitor.productsV3.getProduct(product.id as string)).tags).toEqual({
      publicTags: { tagIds: ['t-public'] },
    });

    const tagged = await admin.productsV3.bulkUpdateProductTags([product.id as string], {
      assignTags: { publicTags: { tagIds: ['t-more'] } },
      unassignTags: { privateTags: { tagIds: ['t-private'] } },
    });
    expect(tagged.bulkActionMetadata.totalSuccesses).toBe(1);
    const job = await admin.productsV3.bulkUpdateProductTagsByFilter(
      { 'tags.publicTags.tagIds': { $hasSome: ['t-more'] } },
      { assignTags: { privateTags: { tagIds: ['t-found'] } } },
    );
    expect(job.jobId).toBeTruthy();
    expect((await admin.productsV3.getProduct(product.id as string)).tags).toEqual({
      publicTags: { tagIds: ['t-public', 't-more'] },
      privateTags: { tagIds: ['t-found'] },
    });

    const added = await admin.productsV3.bulkAddInfoSectionsToProducts(
      [{ productId: product.id as string, revision: '3' }],
      { infoSectionIds: [section.id as string], returnEntity: true, fields: ['INFO_SECTION_DESCRIPTION'] },
    );
    expect(added.results[0]?.item?.infoSections?.[0]).toMatchObject({
      id: section.id,
      description: { nodes: [{ type: 'PARAGRAPH' }] },
    });
    await admin.productsV3.bulkRemoveInfoSectionsFromProductsByFilter(
      { id: product.id },
      { infoSectionIds: [section.id as string] },
    );
    await admin.productsV3.bulkAddInfoSectionsToProductsByFilter(
      { id: product.id },
      { infoSectionIds: [section.id as string] },
    );
    await admin.productsV3.bulkRemoveInfoSectionsFromProducts([{ productId: product.id as string }], {
      infoSectionIds: [section.id as string],
    });
    expect((await visitor.productsV3.getProduct(product.id as string)).infoSections).toEqual([]);
  });

  it("adds, updates, reorders, removes and sets a customization's choices, a stale revision refused", async () => {
    const { admin, visitor } = clients();
    const wrap = await admin.customizationsV3.createCustomization({
      name: `SDK ${dialect} Wrap`,
      customizationType: 'MODIFIER',
      customizationRenderType: 'TEXT_CHOICES',
      choicesSettings: { choices: [{ choiceType: 'CHOICE_TEXT', name: 'Paper' }] },
    });
    const id = wrap.id as string;
    const added = await admin.customizationsV3.addCustomizationChoices(id, [
      { choiceType: 'CHOICE_TEXT', name: 'Cloth', defaultAddedPrice: '3' },
      { choiceType: 'CHOICE_TEXT', name: 'Box', defaultAddedPrice: '6' },
    ]);
    expect(added.revision).toBe('2');
    const [paper, cloth, box] = added.choicesSettings?.choices ?? [];
    // the first choice keeps its id
    expect(paper?.id).toBe(wrap.choicesSettings?.choices?.[0]?.id);
    expect([cloth?.name, cloth?.defaultAddedPrice]).toEqual(['Cloth', '3']);

    const updated = await admin.customizationsV3.updateCustomizationChoices(id, '2', {
      choices: [{ choice: { id: cloth?.id, name: 'Linen', defaultAddedPrice: '4' } }],
    });
    expect(
      updated.choicesSettings?.choices?.map((choice) => [choice.name, choice.defaultAddedPrice]),
    ).toEqual([
      ['Paper', undefined],
      ['Linen', '4'],
      ['Box', '6'],
    ]);
    const ids = [box?.id, paper?.id, cloth?.id] as string[];
    const stale = await admin.customizationsV3
      .reorderCustomizationChoices(id, '2', { choiceIds: ids })
      .catch((e) => e);
    expect(stale).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });
    const mismatch = await admin.customizationsV3
      .reorderCustomizationChoices(id, '3', { choiceIds: ids.slice(1) })
      .catch((e) => e);
    expect(mismatch).toMatchObject({ status: 400, code: 'CHOICE_IDS_MISMATCH' });
    const reordered = await admin.customizationsV3.reorderCustomizationChoices(id, '3', { choiceIds: ids });
    expect(reordered.choicesSettings?.choices?.map((choice) => choice.name)).toEqual([
      'Box',
      'Paper',
      'Linen',
    ]);

    const removed = await admin.customizationsV3.removeCustomizationChoices(id, [paper?.id as string], {
      revision: '4',
    });
    expect(removed.choicesSettings?.choices?.map((choice) => choice.name)).toEqual(['Box', 'Linen']);
    const unknown = await admin.customizationsV3.removeCustomizationChoices(id, [id]).catch((e) => e);
    expect(unknown).toMatchObject({ status: 400 });
    const set = await admin.customizationsV3.setCustomizationChoices(id, [
      { choiceType: 'CHOICE_TEXT', name: 'Box' },
      { choiceType: 'CHOICE_TEXT', name: 'Bag' },
    ]);
    // a choice set again by name keeps its id
    expect(set.choicesSettings?.choices?.[0]?.id).toBe(box?.id);
    expect(set.revision).toBe('6');

    const bulk = await admin.customizationsV3.bulkAddCustomizationChoices(
      [
        { customizationId: id, choices: [{ choiceType: 'CHOICE_TEXT', name: 'Tin' }] },
        { customizationId: id, choices: [{ choiceType: 'CHOICE_TEXT', name: 'Bag' }] },
      ],
      { returnEntity: true },
    );
    expect(bulk.results.map((result) => result.itemMetadata.success)).toEqual([true, false]);
    expect(bulk.results[0]?.customization?.choicesSettings?.choices?.map((choice) => choice.name)).toEqual([
      'Box',
      'Bag',
      'Tin',
    ]);
    // a visitor may read, never change, them
    const refused = await visitor.customizationsV3
      .addCustomizationChoices(id, [{ name: 'Free' }])
      .catch((e) => e);
    expect(refused.status).toBe(403);
  });
});
