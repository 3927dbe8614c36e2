import {
  ApiKeyStrategy,
  brandsV3,
  type CollectionV2,
  collections,
  createClient,
  type Filter,
  infoSectionsV3,
  inventoryItemsV3,
  OAuthStrategy,
  type PriceData,
  type Product,
  products,
  productsV3,
  ribbonsV3,
} from '@cartwheel/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CLIENT_ID, type TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  SQLITE,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
  storedTokens,
} from './support/store.ts';

/**
 * The storefront in a real browser against a real platform with the demo store: what a shopper sees
 * is checked against what the platform's API answers for the same question.
 */

function apiClient(platform: TestPlatform) {
  return createClient({
    host: platform.url,
    auth: OAuthStrategy({ clientId: TEST_CLIENT_ID }),
    modules: { products, collections },
  });
}

/** What the page shows as the price to pay: the discounted price when there is a discount. */
function priceToPay(price: PriceData): string {
  const discounted = price.discountedPrice !== undefined && price.discountedPrice < (price.price ?? 0);
  return (discounted ? price.formatted?.discountedPrice : price.formatted?.price) ?? '';
}

function amount(text: string): number {
  return Number(text.replace(/[^0-9.]/g, ''));
}

async function visiblePrices(page: Page): Promise<number[]> {
  const texts = await page.getByTestId('product-price').locator('.price__current').allTextContents();
  return texts.map(amount);
}

async function visibleNames(page: Page, listName: string): Promise<string[]> {
  return page.getByRole('list', { name: listName, exact: true }).getByRole('heading').allTextContents();
}

describe.each(SQLITE)('storefront catalog in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let api: ReturnType<typeof apiClient>;
  let storeName: string;
  const shot = (name: string) => screenshot(page, `${dialect}-${name}`);

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['storefront'], seedDemo: true }));
    api = apiClient(platform);
    storeName = (await storeConfig(platform)).storeName;
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  /** The collection with the most products that is not "All Products": the richest page to browse. */
  async function biggestCollection(): Promise<CollectionV2> {
    const { items } = await api.collections.queryCollections({ paging: { limit: 100 } });
    const picked = items
      .filter((c) => c.slug !== 'all-products' && (c.assignedProductsCount ?? 0) >= 2)
      .sort((a, b) => (b.assignedProductsCount ?? 0) - (a.assignedProductsCount ?? 0))[0];
    if (!picked) throw new Error('the demo store has no collection with two products or more');
    return picked;
  }

  it("serves the storefront's page and its built scripts and styles to anyone, without a token", async () => {
    const html = await (
      await fetch(`${platform.url}/collections/anything`, { headers: { Accept: 'text/html' } })
    ).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const response = await fetch(`${platform.url}${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
    }
  });

  it('a shopper stays the same visitor across reloads: their tokens are kept in localStorage', async () => {
    await page.goto(`${platform.url}/`);
    await eventually(() => storedTokens(page)).not.toBeNull();
    const before = (await storedTokens(page))!;
    expect(before.refreshToken.role).toBe('visitor');
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const after = (await storedTokens(page))!;
    expect(after.accessToken.value).toBe(before.accessToken.value);
  });

  it('the home page shows the store, its collections with their product counts, and featured products', async () => {
    await page.goto(`${platform.url}/`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(storeName);
    const { items } = await api.collections.queryCollections({ paging: { limit: 100 } });
    const list = page.getByRole('list', { name: 'Collections' });
    await list.waitFor();
    for (const collection of items) {
      const count = collection.assignedProductsCount ?? 0;
      const link = list.getByRole('link', { name: new RegExp(`^${escapeRegExp(collection.name!)}`) });
      await eventually(() => link.textContent()).toContain(
        `${count} ${count === 1 ? 'product' : 'products'}`,
      );
    }
    await page.getByRole('list', { name: 'Featured products' }).waitFor();
    await eventually(async () => (await visibleNames(page, 'Featured products')).length).toBeGreaterThan(0);
    await eventually(() => page.title()).toBe(storeName);
    await shot('home');
  });

  it('a collection opened from the home page sorts by price, low to high, as the API does', async () => {
    const collection = await biggestCollection();
    await page.goto(`${platform.url}/`);
    await page
      .getByRole('list', { name: 'Collections' })
      .getByRole('link', { name: new RegExp(`^${escapeRegExp(collection.name!)}`) })
      .click();
    await page.waitForURL(`**/collections/${collection.slug}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(collection.name);
    await page.getByRole('list', { name: collection.name! }).waitFor();
    await eventually(() => page.locator('.result-count').textContent()).toContain(
      `of ${collection.assignedProductsCount} products`,
    );

    await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
    await page.waitForURL(/sort=price-asc/);
    const expected = await api.products.queryProducts({
      filter: { collectionIds: { $hasSome: [collection.id!] } },
      sort: [{ fieldName: 'discountedPrice', order: 'ASC' }],
      paging: { limit: 12 },
    });
    await eventually(() => visibleNames(page, collection.name!)).toEqual(expected.items.map((p) => p.name));
    await eventually(() => visiblePrices(page)).toEqual(
      expected.items.map((p) => amount(priceToPay(p.priceData!))),
    );
    const prices = await visiblePrices(page);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    await shot('collection-sorted');
  });

  it('the search box narrows the list to what the platform’s text search finds, in any case, and keeps the sort', async () => {
    const collection = await biggestCollection();
    const inCollection: Filter = { collectionIds: { $hasSome: [collection.id!] } };
    const { items } = await api.products.queryProducts({ filter: inCollection, paging: { limit: 100 } });
    // a word some, but not all, of the collection's products have in their names
    const words = [
      ...new Set(items.flatMap((p) => p.name!.split(/\s+/)).filter((w) => /^[a-z]{3,}$/i.test(w))),
    ];
    const term = words.find((word) => {
      const hits = items.filter((p) => p.name!.toLowerCase().includes(word.toLowerCase())).length;
      return hits > 0 && hits < items.length;
    });
    if (!term) throw new Error(`no word narrows ${collection.name}: the demo store needs more varied names`);
    const expected = await api.products.queryProducts({
      filter: inCollection,
      search: { expression: term.toUpperCase() },
      sort: [{ fieldName: 'discountedPrice', order: 'ASC' }],
    });

    await page.getByLabel('Search products').fill(term.toUpperCase());
    await page.waitForURL(new RegExp(`q=${escapeRegExp(encodeURIComponent(term.toUpperCase()))}`));
    expect(page.url()).toContain('sort=price-asc');
    await eventually(() => visibleNames(page, collection.name!)).toEqual(expected.items.map((p) => p.name));
    // the products whose names hold the word come first
    const shown = await visibleNames(page, collection.name!);
    const named = shown.filter((name) => name.toLowerCase().includes(term.toLowerCase()));
    expect(named.length).toBeGreaterThan(0);
    expect(shown.slice(0, named.length)).toEqual(named);
    await eventually(() => page.locator('.result-count').textContent()).toContain(
      `of ${expected.metadata.total} ${expected.metadata.total === 1 ? 'product' : 'products'}`,
    );
    await shot('collection-search');

    // the search and the sort are in the URL: a reload keeps both
    await page.reload();
    await eventually(() => page.getByLabel('Search products').inputValue()).toBe(term.toUpperCase());
    await eventually(() => page.getByLabel('Sort by').inputValue()).toBe('price-asc');
    await eventually(() => visibleNames(page, collection.name!)).toEqual(expected.items.map((p) => p.name));
  });

  it('on a phone, searching "mug" finds every mug, by name, description or collection, the named ones first', async () => {
    const shopper = await newTestPage(browser, { width: 390, height: 844 });
    try {
      const mugs = await api.products.queryProducts({
        filter: { collectionIds: { $hasSome: [(await api.collections.getCollectionBySlug('mugs')).id!] } },
        paging: { limit: 100 },
      });
      expect(mugs.items.length).toBeGreaterThan(3);
      const found = await api.products.queryProducts({
        search: { expression: 'mug' },
        paging: { limit: 100 },
      });
      const foundNames = found.items.map((item) => item.name);
      for (const mug of mugs.items) expect(foundNames).toContain(mug.name);
      // names holding "mug" first, then the rest
      const firstOther = foundNames.findIndex((name) => !/mug/i.test(name ?? ''));
      if (firstOther >= 0)
        expect(foundNames.slice(firstOther).some((name) => /mug/i.test(name ?? ''))).toBe(false);

      await shopper.goto(`${platform.url}/products?q=mug`);
      await eventually(() => visibleNames(shopper, 'All products')).toEqual(foundNames.slice(0, 12));
      await eventually(() => shopper.locator('.result-count').textContent()).toContain(
        `of ${found.metadata.total} products`,
      );
    } finally {
      await shopper.context().close();
    }
  });

  it("picking options shows the resolved variant's price and stock, as productOptionsAvailability answers", async () => {
    const { items } = await api.products.queryProducts({ paging: { limit: 100 } }, { includeVariants: true });
    // a product with options whose in-stock variants do not all cost the same
    const product = items.find((p) => {
      const prices = new Set(
        (p.variants ?? []).filter((v) => v.stock?.inStock).map((v) => priceToPay(v.variant!.priceData!)),
      );
      return (p.productOptions?.length ?? 0) >= 2 && prices.size >= 2;
    });
    if (!product)
      throw new Error('the demo store has no product with two options and variants of different prices');
    const inStock = product.variants!.filter((v) => v.stock?.inStock);
    const first = inStock[0]!;
    const second = inStock.find(
      (v) => priceToPay(v.variant!.priceData!) !== priceToPay(first.variant!.priceData!),
    )!;

    // find it the way a shopper would: search all products, open the card
    await page.goto(`${platform.url}/products`);
    await page.getByLabel('Search products').fill(product.name!);
    await page.waitForURL((url) => url.searchParams.get('q') === product.name);
    await page.getByRole('heading', { name: product.name!, exact: true }).click();
    await page.waitForURL(`**/product-page/${product.slug}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe(
      'Choose options to see availability',
    );

    for (const variant of [first, second]) {
      await pick(page, product, variant.choices!);
      const answer = await api.products.getProductOptionsAvailability(product.id!, variant.choices!);
      expect(answer.selectedVariant?.id).toBe(variant.id);
      // the page has the answer for these choices, not one for the choices on the way to them
      await eventually(() => page.locator('.product__info').getAttribute('aria-busy')).toBe('false');
      await eventually(() => page.getByTestId('product-price').locator('.price__current').textContent()).toBe(
        priceToPay(answer.selectedVariant!.price!),
      );
      await eventually(() => page.getByTestId('stock-status').textContent()).toBe(
        answer.selectedVariant!.inStock ? 'In stock' : 'Out of stock',
      );
      if (answer.selectedVariant!.sku) {
        await eventually(() => page.getByTestId('sku').textContent()).toBe(answer.selectedVariant!.sku);
      }
      await shot(`product-${variant === first ? 'first' : 'second'}-variant`);
    }

    // a deep link survives a reload: the platform serves the storefront for any page address
    await page.reload();
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('product-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a choice no variant in stock has is disabled and says it is out of stock', async () => {
    const { items } = await api.products.queryProducts({ paging: { limit: 100 } });
    let found: { product: Product; option: string; choice: string; color: boolean } | undefined;
    for (const product of items.filter((p) => p.productOptions?.length)) {
      const answer = await api.products.getProductOptionsAvailability(product.id!, {});
      for (const option of answer.productOptions) {
        const soldOut = option.choices?.find((c) => c.inStock === false);
        if (soldOut && !found) {
          found = {
            product,
            option: option.name!,
            choice: soldOut.description!,
            color: option.optionType === 'color',
          };
        }
      }
    }
    if (!found) throw new Error('the demo store has no product with a sold-out choice');
    await page.goto(`${platform.url}/product-page/${found.product.slug}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(found.product.name);
    const control = found.color
      ? page.getByRole('radio', { name: `${found.choice} (out of stock)`, exact: true })
      : page
          .getByLabel(found.option, { exact: true })
          .getByRole('option', { name: `${found.choice} (out of stock)` });
    await eventually(() => control.isDisabled()).toBe(true);
  });

  it('a sold-out product says "Out of stock" on its card and its page', async () => {
    const soldOut = await api.products.queryProducts({
      filter: { 'stock.inStock': false },
      paging: { limit: 1 },
    });
    const product = soldOut.items[0];
    if (!product) throw new Error('the demo store has no sold-out product');
    await page.goto(`${platform.url}/products?q=${encodeURIComponent(product.name!)}`);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: product.name!, exact: true }) });
    await eventually(() => card.textContent()).toContain('Out of stock');
    await card.getByRole('heading').click();
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe('Out of stock');
  });

  it('a product made through v3 shows its ribbons, brand and info section on its page, and its ribbon and brand on its card', async () => {
    const admin = createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules: { productsV3, brandsV3, ribbonsV3, infoSectionsV3 },
    });
    const ribbon = await admin.ribbonsV3.createRibbon({ name: 'Just in' });
    const brand = await admin.brandsV3.createBrand({ name: 'Tidewater' });
    const care = await admin.infoSectionsV3.createInfoSection({
      uniqueName: 'linen-care',
      title: 'Caring for linen',
      plainDescription: '<p>Wash cool, dry flat.</p>',
    });
    const made = await admin.productsV3.createProduct({
      name: 'Linen Apron',
      productType: 'PHYSICAL',
      ribbon: { id: ribbon.id },
      additionalRibbons: [{ name: 'Handmade' }, { name: 'Organic' }],
      brand: { id: brand.id },
      infoSections: [{ id: care.id }],
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '24' } } }] },
    });
    await page.goto(`${platform.url}/product-page/${made.slug}`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Linen Apron');
    const info = page.locator('.product__info');
    // the main ribbon first, the additional ones beside it
    await eventually(() => info.locator('.ribbon').allTextContents()).toEqual([
      'Just in',
      'Handmade',
      'Organic',
    ]);
    expect(await page.getByTestId('product-brand').textContent()).toBe('Tidewater');
    const section = page.getByRole('region', { name: 'Caring for linen' });
    expect(await section.getByRole('paragraph').textContent()).toBe('Wash cool, dry flat.');
    await shot('product-v3-ribbon-brand-info');

    await page.goto(`${platform.url}/products?q=${encodeURIComponent('Linen Apron')}`);
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Linen Apron', exact: true }) });
    await eventually(() => card.textContent()).toContain('Just in');
    expect(await card.textContent()).toContain('Tidewater');
  });

  it('a sold-out product taken on preorder says so with its message, and a shopper preorders it into the cart', async () => {
    const admin = createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules: { productsV3, inventoryItemsV3 },
    });
    const made = await admin.productsV3.createProduct({
      name: 'Stoneware Jug',
      productType: 'PHYSICAL',
      physicalProperties: {},
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '38' } } }] },
    });
    const [item] = (await admin.inventoryItemsV3.queryInventoryItems({ filter: { productId: made.id } }))
      .items;
    await admin.inventoryItemsV3.updateInventoryItem(item!.id!, {
      revision: item!.revision!,
      trackQuantity: true,
      quantity: 0,
      preorderInfo: { enabled: true, message: 'Ships in May', limit: 5 },
    });
    await page.goto(`${platform.url}/product-page/${made.slug}`);
    await eventually(() => page.getByTestId('stock-status').textContent()).toBe('Available for preorder');
    expect(await page.getByTestId('preorder-note').textContent()).toBe(
      'Available for preorder: Ships in May',
    );
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Preorder' }).click();
    await page.getByTestId('mini-cart').waitFor();
    // the line says it is a preorder, with the merchant's message, priced as any line
    const miniCart = page.getByTestId('mini-cart');
    await eventually(() => miniCart.textContent()).toContain('Stoneware Jug');
    expect(await miniCart.textContent()).toContain('Preorder: Ships in May');
    expect(await miniCart.textContent()).toContain('2 × $38.00');
    await shot('product-preorder');
  });

  it("a product's modifiers are picked on its page: a mandatory choice first, then the choice and the words priced into the line", async () => {
    const admin = createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules: { productsV3 },
    });
    const made = await admin.productsV3.createProduct({
      name: 'Walnut Board',
      productType: 'PHYSICAL',
      physicalProperties: {},
      modifiers: [
        {
          name: 'Finish',
          modifierRenderType: 'TEXT_CHOICES',
          mandatory: true,
          choicesSettings: {
            choices: [
              { choiceType: 'CHOICE_TEXT', name: 'Matte' },
              { choiceType: 'CHOICE_TEXT', name: 'Gloss', addedPrice: '1.25' },
            ],
          },
        },
        {
          name: 'Engraving',
          modifierRenderType: 'FREE_TEXT',
          mandatory: false,
          freeTextSettings: { title: 'Your words', maxCharCount: 20, defaultAddedPrice: '4' },
        },
      ],
      variantsInfo: { variants: [{ price: { actualPrice: { amount: '30' } } }] },
    });
    await page.goto(`${platform.url}/product-page/${made.slug}`);
    const gloss = page.getByRole('radio', { name: 'Gloss (+$1.25)' });
    await gloss.waitFor();
    // the finish must be picked first; the words are optional
    await eventually(() => page.locator('#cart-note').textContent()).toBe('Choose finish first.');
    expect(await page.getByRole('button', { name: 'Add to cart' }).isDisabled()).toBe(true);
    await gloss.check();
    await page.getByLabel('Your words (+$4.00) (optional)').fill('For Ada');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const miniCart = page.getByTestId('mini-cart');
    await eventually(() => miniCart.textContent()).toContain('Walnut Board');
    const text = (await miniCart.textContent()) ?? '';
    expect(text).toContain('Gloss');
    expect(text).toContain('For Ada');
    // $30 and what the two add: $1.25 for the gloss, $4 for the words
    expect(text).toContain('1 × $35.25');
    await shot('product-modifiers');
  });

  it("an unknown product says we couldn't find it, with a way home", async () => {
    await page.goto(`${platform.url}/product-page/no-such-product`);
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(
      "We couldn't find that product",
    );
    await shot('product-not-found');
    await page.getByRole('link', { name: 'Back to the home page' }).click();
    await eventually(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(storeName);
  });

  it('back and forward move between pages of results', async () => {
    await page.goto(`${platform.url}/products?sort=name`);
    const pageOne = await api.products.queryProducts({
      sort: [{ fieldName: 'name', order: 'ASC' }],
      paging: { limit: 12 },
    });
    // the first page is on screen before its pager is counted, so a missing pager means there is none
    await eventually(() => visibleNames(page, 'All products')).toEqual(pageOne.items.map((p) => p.name));
    if (pageOne.metadata.total <= 12) {
      return expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    }
    const pageTwo = await api.products.queryProducts({
      sort: [{ fieldName: 'name', order: 'ASC' }],
      paging: { limit: 12, offset: 12 },
    });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    await eventually(() => visibleNames(page, 'All products')).toEqual(pageTwo.items.map((p) => p.name));
    await page.goBack();
    await eventually(() => visibleNames(page, 'All products')).toEqual(pageOne.items.map((p) => p.name));
    await page.goForward();
    await eventually(() => visibleNames(page, 'All products')).toEqual(pageTwo.items.map((p) => p.name));
  });
});

/** Chooses each option's choice the way a shopper does: a swatch for a colour, the drop-down otherwise. */
async function pick(page: Page, product: Product, choices: Record<string, string>): Promise<void> {
  for (const option of product.productOptions ?? []) {
    const choice = choices[option.name!];
    if (!choice) continue;
    if (option.optionType === 'color') {
      await page.getByRole('radio', { name: choice, exact: true }).check();
    } else {
      const select = page.getByLabel(option.name!, { exact: true });
      await select.selectOption(choice);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A port nothing listens on right now. */
