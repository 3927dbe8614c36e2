import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, queryProducts, visitorToken } from '../packages/platform/test/catalog-http.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';

/**
 * The back office's products (/admin/products) in Chromium against the built platform: a merchant
 * creates a product with its price, cost and stock, finds it in the list, changes it and hides it, and
 * each change is what shoppers see at once. Every write goes through `@cartwheel/sdk`.
 */
describe.each(SQLITE)('the back office products in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let productId: string;
  const NAME = `Stoneware Teapot ${dialect}`;
  const shot = (name: string) => screenshot(page, `backoffice-catalog-${dialect}-${name}`);

  /** What a visitor's query of the storefront finds under `name`. */
  async function shopperSees(name: string) {
    const answer = await queryProducts(
      platform,
      { query: { filter: { name } } },
      await visitorToken(platform),
    );
    expect(answer.status).toBe(200);
    return answer.body.products as Array<{ id: string; priceData: { price: number }; stock: any }>;
  }

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: false }));
    page = await newTestPage(browser, { width: 1280, height: 900 });
    await page.goto(`${platform.url}/admin/products`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  it('refuses a product without a name or with a malformed price, beside the field, keeping what was typed', async () => {
    await eventually(() => page.getByRole('link', { name: 'New product' }).count()).toBe(1);
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Price').fill('12.345');
    await page.getByLabel('Description (optional)').fill('Holds six cups.');
    await page.getByRole('button', { name: 'Create product' }).click();
    await eventually(() => page.getByText('Give the product a name.').count()).toBe(1);
    expect(await page.getByText('A price like 12 or 12.50.').count()).toBe(1);
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe('Holds six cups.');
    expect(await shopperSees(NAME)).toEqual([]);
  });

  it('creates a product with price, cost and stock, showing profit and margin as they are typed', async () => {
    await page.getByLabel('Name').fill(NAME);
    await page.getByLabel('Price').fill('48');
    await page.getByLabel('Cost of goods (optional)').fill('18');
    await eventually(() => page.getByTestId('profit').textContent()).toBe('Profit 30.00 · margin 62.5%');
    await page.getByLabel('SKU (optional)').fill('TEA-STONE');
    await page.getByLabel('Track the quantity in stock').check();
    await page.getByLabel('Quantity in stock', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Create product' }).click();

    await page.waitForURL(/\/admin\/products\/(?!new)[^/]+$/);
    productId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await eventually(() => page.getByRole('status').textContent()).toBe(`${NAME} was created.`);
    await shot('created');

    const [seen] = await shopperSees(NAME);
    expect(seen?.id).toBe(productId);
    expect(seen?.priceData.price).toBe(48);
    expect(seen?.stock).toMatchObject({ trackInventory: true, quantity: 7, inStock: true });
    const merchant = await admin(platform).get(
      `/stores-reader/v1/products/${productId}?includeMerchantSpecificData=true`,
    );
    expect(merchant.body.product.costAndProfitData).toMatchObject({ itemCost: 18, profit: 30 });
    expect(merchant.body.product.sku).toBe('TEA-STONE');
  });

  it('lists it with its price, SKU and stock, and finds it by the start of its name', async () => {
    await page.getByRole('link', { name: '← All products' }).click();
    await page.getByLabel('Find a product').fill('Stoneware');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(() => page.getByTestId('product-row').count()).toBe(1);
    const row = await page.getByTestId('product-row').textContent();
    expect(row).toContain(NAME);
    expect(row).toContain('TEA-STONE');
    expect(row).toContain('7 in stock');
    expect(row).toContain('Visible');
  });

  it('changes the price and hides it: shoppers see the new price, then no product', async () => {
    await page.getByRole('link', { name: NAME }).click();
    await eventually(() => page.getByLabel('Price').inputValue()).toBe('48');
    await page.getByLabel('Price').fill('52.50');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe(`${NAME} was saved.`);
    expect((await shopperSees(NAME))[0]?.priceData.price).toBe(52.5);

    await page.getByLabel('Visible in the storefront').uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => page.getByRole('status').textContent()).toBe(`${NAME} was saved.`);
    expect(await shopperSees(NAME)).toEqual([]);

    // the merchant still finds it, marked hidden
    await page.getByRole('link', { name: '← All products' }).click();
    await eventually(() => page.getByTestId('product-row').first().textContent()).toContain('Hidden');
    await shot('list');
  });
});
