import { STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/db/database.ts';
import type { Priced, StoredLine } from '../src/pricing/contract.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** The parts of a priced cart add up to its total, to the cent. */
function expectPartsAddUp(priced: Priced): void {
  const cents = (text: string) => Math.round(Number(text) * 100);
  const { subtotal, shipping, tax, discount, total } = priced.amounts;
  const expected =
    cents(subtotal) + cents(shipping) - cents(discount) + (priced.taxIncludedInPrices ? 0 : cents(tax));
  expect(cents(total)).toBe(expected);
}

describe.each(DIALECTS)('pricing catalog lines (%s)', (dialect) => {
  let platform: TestPlatform;
  let teeId: string;
  let posterId: string;
  let hiddenId: string;
  let digitalId: string;

  const line = (
    id: string,
    productId: string,
    quantity: number,
    options?: Record<string, unknown>,
  ): StoredLine => ({
    id,
    quantity,
    catalogReference: { appId: STORES_APP_ID, catalogItemId: productId, ...(options ? { options } : {}) },
  });
  const price = (lines: StoredLine[]) => platform.services.pricing.price({ lines });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    const catalog = platform.services.catalog;
    const tee = await catalog.createProduct({
      name: 'Crew Tee',
      productType: 'physical',
      priceData: { price: 24 },
      weight: 0.2,
      sku: 'TEE',
      manageVariants: true,
      productOptions: [
        {
          name: 'Size',
          optionType: 'drop_down',
          choices: [
            { value: 'M', description: 'M' },
            { value: 'XL', description: 'XL' },
          ],
        },
        { name: 'Color', optionType: 'color', choices: [{ value: '#374151', description: 'Charcoal' }] },
      ],
      stock: { trackInventory: true },
      variants: [
        { choices: { Size: 'M', Color: 'Charcoal' }, stock: { quantity: 5 }, sku: 'TEE-M' },
        { choices: { Size: 'XL', Color: 'Charcoal' }, stock: { quantity: 0 }, sku: 'TEE-XL', price: 26 },
      ],
    });
    teeId = tee.id as string;
    const poster = await catalog.createProduct({
      name: 'Night Sky Poster',
      productType: 'physical',
      priceData: { price: 30 },
      discount: { type: 'PERCENT', value: 15 },
      weight: 0.5,
      stock: { trackInventory: true, quantity: 2 },
    });
    posterId = poster.id as string;
    const hidden = await catalog.createProduct({
      name: 'Secret',
      productType: 'physical',
      priceData: { price: 9 },
      visible: false,
    });
    hiddenId = hidden.id as string;
    const digital = await catalog.createProduct({
      name: 'Wallpaper Pack',
      productType: 'digital',
      priceData: { price: 4.99 },
      discount: { type: 'AMOUNT', value: 1 },
      stock: { trackInventory: false, inStock: true },
    });
    digitalId = digital.id as string;
  });
  afterAll(() => platform?.stop());

  /** Prices as a cart does: at the pricing versions read first, so the catalog's facts are kept. */
  const priceAsCart = async (lines: StoredLine[]) => {
    const rows = await platform.services.database.db.selectFrom('pricing_versions').selectAll().execute();
    const version = (source: string) => Number(rows.find((row) => row.source === source)?.version);
    const options = { catalogVersion: version('catalog'), settingsVersion: version('store-settings') };
    return (await platform.services.pricing.priceToKeep({ lines }, options)).priced;
  };

  it('a price as a checkout stores it holds the wire parts and amounts, no text fragments', async () => {
    const priced = await priceAsCart([line('s1', posterId, 2), line('s2', digitalId, 1)]);
    const stored = JSON.parse(JSON.stringify(priced)) as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(
      [
        'amounts',
        'appliedDiscounts',
        'calculatedLineItems',
        'currency',
        'lineItems',
        'membershipOptions',
        'priceSummary',
        'shippable',
        'shippingInfo',
        'taxIncludedInPrices',
        'taxSummary',
        'violations',
        'weightUnit',
      ].sort(),
    );
    expect(stored.lineItems).toEqual(JSON.parse(JSON.stringify(priced.lineItems)));
  });

  it('a line unchanged since the last price keeps its item; a changed line is resolved again', async () => {
    const first = await priceAsCart([line('k1', posterId, 1), line('k2', digitalId, 1)]);
    const second = await priceAsCart([line('k1', posterId, 2), line('k2', digitalId, 1)]);
    expect(second.lineItems[1]).toBe(first.lineItems[1]);
    expect(second.lineItems[0]).not.toBe(first.lineItems[0]);
    expect(second.lineItems[0]).toMatchObject({ quantity: 2, lineItemPrice: { amount: '51.00' } });
    expect(first.lineItems[0]).toMatchObject({ quantity: 1, lineItemPrice: { amount: '25.50' } });
    // a kept item is shared by every price that uses it: nothing may change it
    expect(Object.isFrozen(first.lineItems[1])).toBe(true);
    expect(() => {
      (first.lineItems[1] as { quantity: number }).quantity = 7;
    }).toThrow(TypeError);
    expectPartsAddUp(second);
  });

  it('a kept line in another quantity is the item a fresh resolve gives: stock, prices, wire text', async () => {
    // the poster tracks 2 in stock: 3 is more than there is, and back to 1 is all there again
    for (const quantity of [1, 3, 2, 1]) {
      const kept = await priceAsCart([line('q1', posterId, quantity), line('q2', digitalId, quantity)]);
      const fresh = await priceAsCart([
        line(`fresh-${quantity}-a`, posterId, quantity),
        line(`fresh-${quantity}-b`, digitalId, quantity),
      ]);
      for (const [index, item] of kept.lineItems.entries()) {
        expect({ ...item, id: 'same' }).toEqual({ ...fresh.lineItems[index], id: 'same' });
        // the same keys in the same order: the wire answer's text is the fresh item's
        expect(JSON.stringify({ ...item, id: 'same' })).toBe(
          JSON.stringify({ ...fresh.lineItems[index], id: 'same' }),
        );
      }
      expect(kept.amounts).toEqual(fresh.amounts);
      expectPartsAddUp(kept);
    }
    const partly = await priceAsCart([line('q1', posterId, 3)]);
    expect(partly.lineItems[0]?.availability).toEqual({
      status: 'PARTIALLY_AVAILABLE',
      quantityAvailable: 2,
    });
  });

  it('the same line id with other options, overrides or product is another item', async () => {
    const [m] = (await priceAsCart([line('k4', teeId, 1, { options: { Size: 'M', Color: 'Charcoal' } })]))
      .lineItems;
    const [xl] = (await priceAsCart([line('k4', teeId, 1, { options: { Size: 'XL', Color: 'Charcoal' } })]))
      .lineItems;
    expect(m?.physicalProperties?.sku).toBe('TEE-M');
    expect(xl?.physicalProperties?.sku).toBe('TEE-XL');
    const overridden = await priceAsCart([
      {
        ...line('k4', teeId, 1, { options: { Size: 'M', Color: 'Charcoal' } }),
        catalogOverrideFields: { price: '1.00' },
      },
    ]);
    expect(overridden.lineItems[0]?.price?.amount).toBe('1.00');
    const [poster] = (await priceAsCart([line('k4', posterId, 1)])).lineItems;
    expect(poster?.productName?.original).toBe('Night Sky Poster');
  });

  it('a line kept before a catalog change is priced as the catalog is now', async () => {
    const product = await platform.services.catalog.createProduct({
      name: 'Repriced Mug',
      productType: 'physical',
      priceData: { price: 12 },
    });
    const lines = [line('k5', product.id as string, 3)];
    expect((await priceAsCart(lines)).lineItems[0]?.lineItemPrice?.amount).toBe('36.00');
    await platform.services.catalog.updateProduct(product.id as string, { priceData: { price: 10 } });
    const after = await priceAsCart(lines);
    expect(after.lineItems[0]?.lineItemPrice?.amount).toBe('30.00');
    expect(after.amounts.subtotal).toBe('30.00');
  });

  it('a line names its variant by options: name, options as description lines, prices, stock and weight', async () => {
    const priced = await price([line('l1', teeId, 2, { options: { Size: 'M', Color: 'Charcoal' } })]);
    const [item] = priced.lineItems;
    expect(item).toMatchObject({
      id: 'l1',
      quantity: 2,
      productName: { original: 'Crew Tee' },
      price: { amount: '24.00', formattedAmount: '$24.00', convertedAmount: '24.00' },
      fullPrice: { amount: '24.00' },
      priceBeforeDiscounts: { amount: '24.00' },
      lineItemPrice: { amount: '48.00', formattedAmount: '$48.00' },
      availability: { status: 'AVAILABLE', quantityAvailable: 5 },
      physicalProperties: { weight: 0.2, sku: 'TEE-M', shippable: true },
      itemType: { preset: 'PHYSICAL' },
      url: { relativePath: '/product-page/crew-tee' },
    });
    expect(item?.descriptionLines).toEqual([
      {
        name: { original: 'Size', translated: 'Size' },
        plainText: { original: 'M', translated: 'M' },
        lineType: 'PLAIN_TEXT',
      },
      {
        name: { original: 'Color', translated: 'Color' },
        colorInfo: { original: 'Charcoal', translated: 'Charcoal', code: '#374151' },
        lineType: 'COLOR',
      },
    ]);
    expect(priced.amounts).toEqual({
      subtotal: '48.00',
      shipping: '0.00',
      tax: '0.00',
      discount: '0.00',
      total: '48.00',
    });
    expect(priced.priceSummary.total).toMatchObject({ amount: '48.00', formattedAmount: '$48.00' });
    expect(priced.shippable).toBe(true);
    expectPartsAddUp(priced);
  });

  it('a line names its variant by id, and a sold-out variant is NOT_AVAILABLE and costs nothing', async () => {
    const variants = await platform.services.catalog.queryProductVariants(teeId, {}, { admin: true });
    const xl = variants.variants?.find((v) => v.choices?.Size === 'XL');
    const priced = await price([line('l1', teeId, 1, { variantId: xl?.id })]);
    expect(priced.lineItems[0]).toMatchObject({
      price: { amount: '26.00' },
      availability: { status: 'NOT_AVAILABLE', quantityAvailable: 0 },
    });
    expect(priced.amounts.total).toBe('0.00');
    expect(priced.violations[0]).toMatchObject({
      severity: 'ERROR',
      target: { lineItem: { id: 'l1', suggestedFix: 'REMOVE_LINE_ITEM' } },
    });
  });

  it("the catalog's discount makes price and priceBeforeDiscounts; fullPrice is the list price", async () => {
    const priced = await price([line('p', posterId, 1), line('d', digitalId, 3)]);
    expect(priced.lineItems[0]).toMatchObject({
      price: { amount: '25.50' },
      fullPrice: { amount: '30.00' },
      priceBeforeDiscounts: { amount: '25.50' },
      lineItemPrice: { amount: '25.50' },
    });
    expect(priced.lineItems[1]).toMatchObject({
      price: { amount: '3.99' },
      fullPrice: { amount: '4.99' },
      lineItemPrice: { amount: '11.97' },
      availability: { status: 'AVAILABLE' },
      itemType: { preset: 'DIGITAL' },
      physicalProperties: { shippable: false },
    });
    expect(priced.amounts.subtotal).toBe('37.47');
    expectPartsAddUp(priced);
  });

  it('more than the stock is PARTIALLY_AVAILABLE with the quantity there is', async () => {
    const priced = await price([line('p', posterId, 5)]);
    expect(priced.lineItems[0]?.availability).toEqual({
      status: 'PARTIALLY_AVAILABLE',
      quantityAvailable: 2,
    });
    expect(priced.violations[0]).toMatchObject({ severity: 'WARNING', target: { lineItem: { id: 'p' } } });
  });

  it('an unknown product, a hidden product and unknown options are NOT_FOUND, kept, and not priced', async () => {
    const priced = await price([
      line('gone', '00000000-0000-0000-0000-00000000dead', 1),
      line('hidden', hiddenId, 1),
      line('badoption', teeId, 1, { options: { Size: 'XXS', Color: 'Charcoal' } }),
      line('ok', posterId, 1),
    ]);
    expect(priced.lineItems.map((item) => [item.id, item.availability?.status])).toEqual([
      ['gone', 'NOT_FOUND'],
      ['hidden', 'NOT_FOUND'],
      ['badoption', 'NOT_FOUND'],
      ['ok', 'AVAILABLE'],
    ]);
    expect(
      priced.violations.filter((v) => v.target?.lineItem?.suggestedFix === 'REMOVE_LINE_ITEM'),
    ).toHaveLength(3);
    expect(priced.amounts.total).toBe('25.50');
    // a hidden product's name is not told; a product still sold keeps its name
    expect(priced.lineItems.map((item) => item.productName?.original)).toEqual([
      '',
      '',
      'Crew Tee',
      'Night Sky Poster',
    ]);
  });

  it("prices inside a caller's transaction, reading through it, even when the settings must be read again", async () => {
    // a settings write empties the snapshot: the price below must read the settings in the transaction
    await platform.services.storeSettings.createCoupon({
      code: 'INSIDE',
      name: 'inside',
      active: true,
      discountType: 'FIXED_AMOUNT',
      fixedAmount: '1.00',
    });
    const priced = await inTransaction(platform.services.database.db, async (trx) => {
      await trx.updateTable('settings').set({ value: 'x' }).where('key', '=', 'pricing-test-lock').execute();
      return platform.services.pricing.price({ lines: [line('p', posterId, 1)], couponCode: 'INSIDE' }, trx);
    });
    expect(priced.amounts).toMatchObject({ subtotal: '25.50', discount: '1.00', total: '24.50' });
  });

  it('a custom line is priced by its own price, typed CUSTOM_AMOUNT_ITEM unless it says', async () => {
    const priced = await price([
      { id: 'c1', quantity: 3, custom: { price: '0.10', productName: { original: 'Gift wrap' } } },
      {
        id: 'c2',
        quantity: 1,
        custom: { price: '12.345', itemType: { preset: 'SERVICE' }, productName: { original: 'Engraving' } },
      },
    ]);
    expect(priced.lineItems[0]).toMatchObject({
      customLineItem: true,
      itemType: { preset: 'CUSTOM_AMOUNT_ITEM' },
      price: { amount: '0.10' },
      lineItemPrice: { amount: '0.30' },
    });
    expect(priced.lineItems[1]).toMatchObject({
      itemType: { preset: 'SERVICE' },
      price: { amount: '12.35' },
    });
    expect(priced.amounts.subtotal).toBe('12.65');
    expect(priced.shippable).toBe(false);
    expectPartsAddUp(priced);
  });
});
