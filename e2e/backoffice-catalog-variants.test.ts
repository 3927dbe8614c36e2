import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createProduct, queryProducts, visitorToken } from '../packages/platform/test/catalog-http.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { POSTGRES, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/** The smallest PNG: one transparent pixel. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The back office's catalog beyond a product's own fields, in Chromium against the built platform: a
 * merchant gives a product two options, prices and stocks its variants in the grid from the keyboard,
 * uploads images (file input and drop), puts it in a collection made on the collections page, and changes the price of a
 * selection at once. Each change is what a visitor's query of the storefront answers at once.
 */
describe.each(POSTGRES)(
  'the back office catalog options, variants and bulk prices in Chromium on %s',
  E2E_SUITE,
  (dialect) => {
    let platform: TestPlatform;
    let browser: Browser;
    let page: Page;
    let productId: string;
    const NAME = `Linen Shirt ${dialect}`;
    const COLLECTION = `Summer ${dialect}`;
    const IMAGE = 'https://images.example.com/linen-shirt.png';
    const shot = (name: string) => screenshot(page, `backoffice-catalog-variants-${dialect}-${name}`);
    const status = (text: string) => page.getByRole('status').filter({ hasText: text });

    /** The product as a visitor's query of the storefront finds it, variants included. */
    async function shopperSees(name: string) {
      const answer = await queryProducts(
        platform,
        { query: { filter: { name } }, includeVariants: true },
        await visitorToken(platform),
      );
      expect(answer.status).toBe(200);
      return answer.body.products as any[];
    }

    beforeAll(async () => {
      ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
      page = await newTestPage(browser, { width: 1280, height: 900 });
      await page.goto(`${platform.url}/admin/products/new`);
      await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }, TEST_TIMEOUT);

    afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

    it('gives a new product two options, making a variant of every combination', async () => {
      await eventually(() => page.getByLabel('Name').count()).toBe(1);
      await page.getByLabel('Name').fill(NAME);
      await page.getByLabel('Price').fill('30');
      await page.getByLabel('Track the quantity in stock').check();
      await page.getByLabel('Quantity in stock', { exact: true }).fill('0');
      await page.getByRole('button', { name: 'Create product' }).click();
      await page.waitForURL(/\/admin\/products\/(?!new)[^/]+$/);
      productId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

      // a choice list without a name is refused before anything is sent
      await page.getByRole('button', { name: 'Add an option' }).click();
      await page.getByLabel('Option 1 choices').fill('S, M');
      await page.getByRole('button', { name: 'Save options' }).click();
      await eventually(() => page.getByText('Give every option a name, like “Size”.').count()).toBe(1);

      await page.getByLabel('Option 1 name').fill('Size');
      await page.getByRole('button', { name: 'Add an option' }).click();
      await page.getByLabel('Option 2 name').fill('Color');
      await page.getByLabel('Option 2 choices').fill('Sand, Navy');
      await page.getByRole('button', { name: 'Save options' }).click();
      await eventually(() => status('The options were saved.').count()).toBe(1);
      await eventually(() => page.getByTestId('variant-row').count()).toBe(4);
      // each row's name: its cells now hold the fields' visually hidden labels too
      const rows = await page.getByTestId('variant-row').getByRole('rowheader').allTextContents();
      expect(rows.map((row) => row.trim())).toEqual(['S / Sand', 'S / Navy', 'M / Sand', 'M / Navy']);
    });

    it('prices and stocks the variants in the grid from the keyboard: Tab moves across, Enter saves', async () => {
      await page.getByLabel('Price of S / Sand').fill('32');
      await page.keyboard.press('Tab');
      await page.keyboard.type('3');
      await page.keyboard.press('Tab');
      await page.keyboard.type('LIN-S-SAND');
      // on to M / Navy, the last row
      await page.getByLabel('Price of M / Navy').fill('36.50');
      await page.keyboard.press('Tab');
      await page.keyboard.type('9');
      await page.keyboard.press('Enter');
      await eventually(() => status('2 variants were saved.').count()).toBe(1);

      // a malformed price is refused, naming the variant, and what was typed stays
      await page.getByLabel('Price of S / Navy').fill('12.345');
      await page.keyboard.press('Enter');
      await eventually(() => page.getByText('S / Navy: a price like 12 or 12.50.').count()).toBe(1);
      expect(await page.getByLabel('Price of S / Navy').inputValue()).toBe('12.345');
      await page.getByLabel('Price of S / Navy').fill('30');
      await shot('grid');

      const [seen] = await shopperSees(NAME);
      expect(seen.id).toBe(productId);
      const byChoices = Object.fromEntries(
        (seen.variants as any[]).map((variant) => [
          `${variant.choices.Size}/${variant.choices.Color}`,
          {
            price: variant.variant.priceData.price,
            quantity: variant.stock.quantity,
            sku: variant.variant.sku,
          },
        ]),
      );
      expect(byChoices['S/Sand']).toEqual({ price: 32, quantity: 3, sku: 'LIN-S-SAND' });
      expect(byChoices['M/Navy']).toMatchObject({ price: 36.5, quantity: 9 });
      expect(byChoices['S/Navy']).toMatchObject({ price: 30, quantity: 0 });
      expect(seen.stock).toMatchObject({ trackInventory: true, quantity: 12, inStock: true });
      expect(seen.priceRange).toMatchObject({ minValue: 30, maxValue: 36.5 });
    });

    it('offers a priced modifier and puts a variant on preorder, which the v3 calls then show', async () => {
      await page.getByLabel('Modifier name').fill('Gift wrap');
      await page.getByLabel('Modifier choices').fill('Box, 4.50\nPaper');
      await page.getByLabel('The shopper must choose one').check();
      await page.getByRole('button', { name: 'Add modifier' }).click();
      await eventually(() => status('Gift wrap is offered with the product.').count()).toBe(1);
      await eventually(() => page.getByRole('list', { name: 'Modifiers' }).textContent()).toContain(
        'Box +4.5',
      );

      await page.getByLabel('Sell S | Sand on preorder when out of stock').check();
      const form = page.getByRole('form', { name: 'Preorder of S | Sand' });
      await form.getByLabel('Preorder message').fill('Ships in May');
      await form.getByLabel('Preorder limit').fill('5');
      await form.getByRole('button', { name: 'Save preorder' }).click();
      await eventually(() => status('Preorder saved for S | Sand.').count()).toBe(1);
      await shot('modifiers-preorder');

      const read = await call(
        platform,
        'GET',
        `/stores/v3/products/${productId}`,
        undefined,
        platform.adminApiKey,
      );
      expect(read.status).toBe(200);
      expect(read.body.product.modifiers).toMatchObject([
        {
          name: 'Gift wrap',
          mandatory: true,
          choicesSettings: {
            choices: [
              { name: 'Box', addedPrice: '4.5' },
              { name: 'Paper', addedPrice: '0' },
            ],
          },
        },
      ]);
      const items = await call(
        platform,
        'POST',
        '/stores/v3/inventory-items/query',
        { query: { filter: { productId } } },
        platform.adminApiKey,
      );
      const sand = items.body.inventoryItems.find((item: any) => item.product.variantName === 'S | Sand');
      expect(sand.preorderInfo).toMatchObject({ enabled: true, message: 'Ships in May', limit: 5 });
    });

    it('adds an image by its address, and shoppers see it as the main image', async () => {
      await page.getByLabel('Image address').fill('not an address');
      await page.getByRole('button', { name: 'Add image' }).click();
      await eventually(() => page.getByText('The image’s web address, starting with https://.').count()).toBe(
        1,
      );
      await page.getByLabel('Image address').fill(IMAGE);
      await page.getByRole('button', { name: 'Add image' }).click();
      await eventually(() => status('The image was added.').count()).toBe(1);
      await eventually(() => page.getByTestId('media-item').count()).toBe(1);
      const [seen] = await shopperSees(NAME);
      expect(seen.media.mainMedia.image.url).toContain('linen-shirt.png');
    });

    it('uploads images with the file input and by dropping them, shows them, and removes one', async () => {
      await page
        .getByLabel('Choose image files')
        .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
      await eventually(() => status('1 image was uploaded.').count()).toBe(1);
      await eventually(() => page.getByTestId('media-item').count()).toBe(2);

      // a drop of a file that is not an image is refused by name; an image dropped is uploaded
      const dropped = await page.evaluateHandle(
        (png) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
          transfer.items.add(new File([new Uint8Array(png)], 'back.png', { type: 'image/png' }));
          return transfer;
        },
        [...PNG],
      );
      await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
      await eventually(() => page.getByTestId('media-item').count()).toBe(3);
      expect(await page.getByText('notes.txt is not a PNG, JPEG, GIF or WebP image.').count()).toBe(1);

      // the uploaded images load in the page, from the platform
      await eventually(() =>
        page
          .getByTestId('media-item')
          .nth(1)
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      ).toBe(1);
      await page.getByRole('button', { name: 'Remove image 1' }).click();
      await eventually(() => status('Image 1 was removed.').count()).toBe(1);
      await eventually(() => page.getByTestId('media-item').count()).toBe(2);
      await shot('images');

      const [seen] = await shopperSees(NAME);
      const urls = (seen.media.items as any[]).map((item) => item.image.url as string);
      expect(urls).toHaveLength(2);
      for (const url of urls) expect(url).toMatch(/\/media\/uploads\/upl[0-9a-f]{32}\.png$/);
      expect(seen.media.mainMedia.image.url).toBe(urls[0]);
      const image = await fetch(urls[0] as string);
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    });

    it('reorders the images from the keyboard and by dragging, and shoppers see the first as the main image', async () => {
      const BACK = 'https://images.example.com/linen-back.png';
      await page.getByLabel('Image address').fill(BACK);
      await page.getByRole('button', { name: 'Add image' }).click();
      await eventually(() => page.getByTestId('media-item').count()).toBe(3);
      const mainUrl = async () => (await shopperSees(NAME))[0].media.mainMedia.image.url as string;
      const urls = async () =>
        ((await shopperSees(NAME))[0].media.items as any[]).map((item) => item.image.url as string);
      const [first, second] = await urls();
      expect(await mainUrl()).toBe(first);

      // the keyboard: the focus stays on the image it moves, so Enter twice takes it to the front
      await page.getByRole('button', { name: 'Move image 3 earlier' }).focus();
      await page.keyboard.press('Enter');
      await eventually(() => status('Image 3 is now number 2.').count()).toBe(1);
      await eventually(() => page.evaluate(() => document.activeElement?.textContent)).toBe(
        '←Move image 2 earlier',
      );
      await page.keyboard.press('Enter');
      await eventually(() => status('Image 2 is now number 1, the main image.').count()).toBe(1);
      await eventually(urls).toEqual([BACK, first, second]);
      expect(await mainUrl()).toBe(BACK);
      expect(await page.getByRole('button', { name: 'Move image 1 earlier' }).isDisabled()).toBe(true);

      // a drag of the main image onto the last place
      await page.getByTestId('media-item').nth(0).dragTo(page.getByTestId('media-item').nth(2));
      await eventually(() => status('Image 1 is now number 3.').count()).toBe(1);
      await eventually(urls).toEqual([first, second, BACK]);
      expect(await mainUrl()).toBe(first);
      await eventually(() => page.getByTestId('media-item').nth(2).locator('img').getAttribute('src')).toBe(
        BACK,
      );
      await shot('images-reordered');
    });

    it('creates a collection, renames it, and puts the product in it', async () => {
      await page.getByRole('link', { name: 'Collections' }).click();
      await eventually(() => page.getByLabel('New collection name').count()).toBe(1);
      await page.getByLabel('New collection name').fill('Summr');
      await page.getByRole('button', { name: 'Create collection' }).click();
      await eventually(() => status('Summr was created.').count()).toBe(1);
      await page.getByLabel('Name of Summr').fill(COLLECTION);
      await page.getByRole('button', { name: 'Rename' }).click();
      await eventually(() => status(`Summr was renamed ${COLLECTION}.`).count()).toBe(1);

      await page.goto(`${platform.url}/admin/products/${encodeURIComponent(productId)}`);
      await eventually(() => page.getByLabel(COLLECTION).count()).toBe(1);
      await page.getByLabel(COLLECTION).check();
      await eventually(() => status(`Added to ${COLLECTION}.`).count()).toBe(1);

      const visitor = await visitorToken(platform);
      const collections = await call(
        platform,
        'POST',
        '/v2/collections/query',
        { query: { filter: { name: COLLECTION } } },
        visitor,
      );
      const collectionId = collections.body.collections[0]?.id as string;
      expect(collectionId).toBeTruthy();
      const inIt = await queryProducts(
        platform,
        { query: { filter: { collectionIds: { $hasSome: [collectionId] } } } },
        visitor,
      );
      expect(inIt.body.products.map((product: any) => product.name)).toEqual([NAME]);
    });

    it('deletes a collection after confirming, leaving its products', async () => {
      await page.getByRole('link', { name: 'Collections' }).click();
      await page.getByRole('button', { name: `Delete ${COLLECTION}` }).click();
      await page.getByRole('button', { name: 'Delete collection' }).click();
      await eventually(() => status(`${COLLECTION} was deleted.`).count()).toBe(1);
      await eventually(() => page.getByTestId('collection-row').count()).toBe(0);
      expect((await shopperSees(NAME)).length).toBe(1);
    });

    it('sets and adjusts the price of a selection exactly, and marks products low on stock', async () => {
      for (const [name, price, quantity] of [
        [`Bulk Mug ${dialect}`, 10, 3],
        [`Bulk Plate ${dialect}`, 20.5, 40],
        [`Bulk Bowl ${dialect}`, 7, 40],
      ] as const) {
        await createProduct(platform, {
          name,
          productType: 'physical',
          priceData: { price },
          stock: { trackInventory: true, quantity },
        });
      }
      await page.goto(`${platform.url}/admin/products?q=Bulk`);
      await eventually(() => page.getByTestId('product-row').count()).toBe(3);
      const mug = page.getByTestId('product-row').filter({ hasText: `Bulk Mug ${dialect}` });
      expect(await mug.getByTestId('low-stock').count()).toBe(1);
      const plate = page.getByTestId('product-row').filter({ hasText: `Bulk Plate ${dialect}` });
      expect(await plate.getByTestId('low-stock').count()).toBe(0);

      await page.getByLabel(`Select Bulk Mug ${dialect}`).check();
      await page.getByLabel(`Select Bulk Plate ${dialect}`).check();
      await page.getByLabel('New value or change').fill('10 percent');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => page.getByText('Type a new price (12.50)', { exact: false }).count()).toBe(1);

      await page.getByLabel('New value or change').fill('+10%');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => status('The price of 2 products were changed.').count()).toBe(1);
      const prices = async () => {
        const answer = await queryProducts(
          platform,
          { query: { filter: { name: { $startsWith: 'Bulk' } } } },
          await visitorToken(platform),
        );
        return Object.fromEntries(
          answer.body.products.map((product: any) => [product.name, product.priceData.price]),
        );
      };
      expect(await prices()).toEqual({
        [`Bulk Mug ${dialect}`]: 11,
        [`Bulk Plate ${dialect}`]: 22.55,
        [`Bulk Bowl ${dialect}`]: 7,
      });

      await page.getByLabel(`Select Bulk Plate ${dialect}`).check();
      await page.getByLabel(`Select Bulk Bowl ${dialect}`).check();
      await page.getByLabel('New value or change').fill('-2.00');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => status('The price of 2 products were changed.').count()).toBe(1);
      await eventually(prices).toEqual({
        [`Bulk Mug ${dialect}`]: 11,
        [`Bulk Plate ${dialect}`]: 20.55,
        [`Bulk Bowl ${dialect}`]: 5,
      });

      await page.getByLabel(`Select Bulk Mug ${dialect}`).check();
      await page.getByLabel('New value or change').fill('12.50');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => status('The price of 1 product was changed.').count()).toBe(1);
      await eventually(prices).toMatchObject({ [`Bulk Mug ${dialect}`]: 12.5 });
      // the list shows the new prices without a reload
      await eventually(() => mug.textContent()).toContain('12.5');

      // cost and weight the same way: the weight of two set, the cost of one moved by a percentage
      await page.getByLabel(`Select Bulk Mug ${dialect}`).check();
      await page.getByLabel(`Select Bulk Bowl ${dialect}`).check();
      await page.getByLabel('What to change').selectOption('weight');
      await page.getByLabel('New value or change').fill('0.75');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => status('The weight of 2 products were changed.').count()).toBe(1);
      const weights = await queryProducts(
        platform,
        { query: { filter: { name: { $startsWith: 'Bulk' } } } },
        await visitorToken(platform),
      );
      expect(
        Object.fromEntries(weights.body.products.map((product: any) => [product.name, product.weight])),
      ).toEqual({
        [`Bulk Mug ${dialect}`]: 0.75,
        [`Bulk Plate ${dialect}`]: 0,
        [`Bulk Bowl ${dialect}`]: 0.75,
      });

      // the cost of one set, then moved down by a percentage: the profit follows the price left as it was
      const plateId = (await shopperSees(`Bulk Plate ${dialect}`))[0].id as string;
      const costOfPlate = async () =>
        (
          await call(
            platform,
            'GET',
            `/stores-reader/v1/products/${plateId}?includeMerchantSpecificData=true`,
            undefined,
            platform.adminApiKey,
          )
        ).body.product.costAndProfitData;
      await page.getByLabel(`Select Bulk Plate ${dialect}`).check();
      await page.getByLabel('What to change').selectOption('cost');
      await page.getByLabel('New value or change').fill('8');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(() => status('The cost of 1 product was changed.').count()).toBe(1);
      await eventually(async () => (await costOfPlate()).itemCost).toBe(8);
      await page.getByLabel(`Select Bulk Plate ${dialect}`).check();
      await page.getByLabel('What to change').selectOption('cost');
      await page.getByLabel('New value or change').fill('-25%');
      await page.getByRole('button', { name: 'Apply to selected' }).click();
      await eventually(async () => (await costOfPlate()).itemCost).toBe(6);
      expect((await costOfPlate()).profit).toBe(14.55);
      await shot('bulk');
    });
  },
);
