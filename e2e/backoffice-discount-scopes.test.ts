import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from '../packages/platform/test/cart-calls.ts';
import { admin, visitorToken } from '../packages/platform/test/catalog-http.ts';
import { shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import { focused } from './support/keyboard.ts';
import { SQLITE, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';
import { addToCart, openProductPage } from './support/storefront.ts';

interface Discounted {
  discountRule?: { name?: { original?: string }; amount?: { amount?: string } };
  lineItemIds?: string[];
}

/**
 * A discount rule scoped to one product, made in the back office in Chromium against the built
 * platform: the product is found with the searchable combobox (keyboard alone), the client refuses a
 * scoped rule with nothing chosen, and the rule then takes its percentage off that product's line and
 * no other, in the storefront's cart and in the cart's own answer; edited to a fixed price per item,
 * the cart follows.
 */
describe.each(SQLITE)('discount rules scoped to products, in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let kettle: { id: string; name: string; slug: string };
  let teapot: { id: string; name: string; slug: string };
  const status = () => page.getByRole('status').first();
  const row = (name: string | RegExp) => page.getByRole('row', { name });

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['backoffice', 'storefront'],
      seedDemo: false,
    }));
    await shipToUs(platform);
    kettle = await stockedProduct(platform, 'Scoped Kettle', 40, 50);
    teapot = await stockedProduct(platform, 'Plain Teapot', 30, 50);
    page = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  /** A new shopper's storefront cart holding one of `product`, once its totals have loaded. */
  async function shopperCartWith(product: { id: string; name: string; slug: string }): Promise<Page> {
    const shopper = await newTestPage(browser, { width: 1280, height: 900 });
    await openProductPage(shopper, platform, product as never);
    await addToCart(shopper, 1);
    await shopper.goto(`${platform.url}/cart`);
    await eventually(() => shopper.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
    return shopper;
  }

  /** The rule discounts of a cart holding one kettle and one teapot, as the cart's own answer gives them. */
  async function ruleDiscountsOfMixedCart(productIds = [kettle.id, teapot.id]) {
    const cart = cartCalls(platform, await visitorToken(platform));
    const added = await cart.add({ lineItems: productIds.map((id) => catalogLine(id, 1)) });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const lines = added.body.cart.lineItems as Array<{
      id: string;
      catalogReference: { catalogItemId: string };
    }>;
    const lineOf = (productId: string) =>
      lines.find((line) => line.catalogReference.catalogItemId === productId)?.id;
    const estimate = await cart.estimate({});
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
    const discounts = (estimate.body.appliedDiscounts as Discounted[]).filter((d) => d.discountRule);
    return { discounts, kettleLine: lineOf(kettle.id), teapotLine: lineOf(teapot.id) };
  }

  /** The rule named `name`'s discounts among `discounts`, as [amount, lines]. */
  function byRule(discounts: Discounted[], name: string) {
    return discounts
      .filter((d) => d.discountRule?.name?.original === name)
      .map((d) => [d.discountRule!.amount!.amount, d.lineItemIds]);
  }

  it('creates a rule for one product through the combobox, and only that product’s line is discounted', async () => {
    await page.goto(`${platform.url}/admin/settings/discount-rules`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await eventually(() => page.getByText('No discount rules yet', { exact: false }).count()).toBe(1);

    await page.getByLabel('Rule name').fill('Kettle only');
    await page.getByLabel('Applies to').selectOption({ label: 'Specific products or collections' });
    await page.getByLabel('Percentage').fill('10');
    // the client's own check: a scoped rule with nothing chosen would discount nothing
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => page.getByText('Choose at least one product or collection.').count()).toBe(1);
    expect((await admin(platform).post('/ecom/v1/discount-rules/query', {})).body.discountRules).toEqual([]);

    // the keyboard alone: type part of the name, arrow to the match, Enter
    const products = page.getByRole('combobox', { name: 'Products' });
    await products.focus();
    await page.keyboard.type('kett');
    await eventually(() => page.getByRole('option').allTextContents()).toEqual(['Scoped Kettle']);
    expect(await products.getAttribute('aria-expanded')).toBe('true');
    // while its list is open React Aria hides the rest of the page from screen readers (aria-hidden,
    // by design: the focus stays in the box and Tab closes the list), which axe's aria-hidden-focus
    // names for every hidden control; anything else is a real problem
    expect(
      (await seriousViolations(page)).filter((found) => !found.startsWith('aria-hidden-focus ')),
      'the open product combobox',
    ).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const chosen = page.getByRole('list', { name: 'Chosen products' });
    await eventually(() => chosen.getByRole('listitem').allTextContents()).toEqual(['Scoped Kettle×']);
    expect(await products.inputValue()).toBe('');
    expect((await focused(page)).tag).toBe('input');
    // a product chosen is offered no more
    await page.keyboard.type('Scoped');
    await eventually(() => page.getByText('No products match “Scoped”.').count()).toBe(1);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Escape');
    await eventually(() => products.getAttribute('aria-expanded')).toBe('false');
    expect(await products.inputValue()).toBe('');
    await screenshot(page, `backoffice-discount-scopes-${dialect}-form`);
    expect(await seriousViolations(page), 'the form with a product chosen').toEqual([]);

    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Kettle only was created.');
    await eventually(() => row(/Kettle only/).textContent()).toContain('10% off Scoped Kettle, every cart');
    expect(await row(/Kettle only/).textContent()).toContain('Live');
    const [rule] = (await admin(platform).post('/ecom/v1/discount-rules/query', {})).body.discountRules;
    expect(rule.discounts.values).toEqual([
      {
        discountType: 'PERCENTAGE',
        targetType: 'SPECIFIC_ITEMS',
        percentage: 10,
        specificItemsInfo: {
          scopes: [{ type: 'CATALOG_ITEM', catalogItemFilter: { catalogItemIds: [kettle.id] } }],
        },
      },
    ]);

    // the cart's own answer: 10% of the kettle's 40.00, laid on the kettle's line alone
    const mixed = await ruleDiscountsOfMixedCart();
    expect(mixed.discounts).toHaveLength(1);
    expect(mixed.discounts[0]!.discountRule!.amount!.amount).toBe('4.00');
    expect(mixed.discounts[0]!.lineItemIds).toEqual([mixed.kettleLine]);

    // the storefront: the kettle's cart is discounted, the teapot's is not
    const kettleCart = await shopperCartWith(kettle);
    await eventually(() => kettleCart.getByTestId('cart-discount').textContent()).toBe('−$4.00');
    const teapotCart = await shopperCartWith(teapot);
    expect(await teapotCart.getByTestId('cart-discount').count()).toBe(0);

    // edited to a fixed price per item with a minimum number of items: the form shows the product by name
    await page.getByRole('button', { name: 'Edit Kettle only' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Edit Kettle only' }).count()).toBe(1);
    expect(await page.getByLabel('Applies to').inputValue()).toBe('SPECIFIC_ITEMS');
    await eventually(() => chosen.getByRole('listitem').allTextContents()).toEqual(['Scoped Kettle×']);
    await page.getByLabel('Discount', { exact: true }).selectOption({ label: 'Fixed price per item' });
    await page.getByLabel('Price per item').fill('35.00');
    await page.getByLabel('Minimum number of items (optional)').fill('two');
    await page.getByRole('button', { name: 'Save discount rule' }).click();
    await eventually(() => page.getByText('A whole number of items, like 3.').count()).toBe(1);
    await page.getByLabel('Minimum number of items (optional)').fill('1');
    await page.getByRole('button', { name: 'Save discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Kettle only was saved.');
    await eventually(() => row(/Kettle only/).textContent()).toContain(
      'Scoped Kettle at 35.00 each, carts with 1 or more items',
    );
    const edited = await ruleDiscountsOfMixedCart();
    expect(edited.discounts.map((d) => [d.discountRule!.amount!.amount, d.lineItemIds])).toEqual([
      ['5.00', [edited.kettleLine]],
    ]);
    await kettleCart.reload();
    await eventually(() => kettleCart.getByTestId('cart-discount').textContent()).toBe('−$5.00');
    await teapotCart.reload();
    await eventually(() => teapotCart.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
    expect(await teapotCart.getByTestId('cart-discount').count()).toBe(0);
    await kettleCart.context().close();
    await teapotCart.context().close();
  });
  it('creates a rule for a collection from a minimum subtotal, picked with the pointer', async () => {
    const collection = (
      await admin(platform).post('/stores/v1/collections', { collection: { name: 'Tea things' } })
    ).body.collection;
    const added = await admin(platform).post(`/stores/v1/collections/${collection.id}/productIds`, {
      id: collection.id,
      productIds: [teapot.id],
    });
    expect(added.status).toBe(200);

    await page.getByLabel('Rule name').fill('Tea things off');
    await page.getByLabel('Applies to').selectOption({ label: 'Specific products or collections' });
    await page.getByRole('button', { name: 'Show collections' }).click();
    await page.getByRole('option', { name: 'Tea things' }).click();
    const chosen = page.getByRole('list', { name: 'Chosen collections' });
    await eventually(() => chosen.getByRole('listitem').allTextContents()).toEqual(['Tea things×']);
    await page.getByLabel('Discount', { exact: true }).selectOption({ label: 'Amount off' });
    await page.getByLabel('Amount').fill('5');
    await page.getByLabel('Minimum subtotal (optional)').fill('50.00');
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Tea things off was created.');
    await eventually(() => row(/Tea things off/).textContent()).toContain(
      '5 off the collection Tea things, carts with subtotal from 50.00',
    );
    const rules = (await admin(platform).post('/ecom/v1/discount-rules/query', {})).body.discountRules;
    const rule = rules.find((r: { name: string }) => r.name === 'Tea things off');
    expect(rule.trigger).toEqual({ triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: '50.00' } });
    expect(rule.discounts.values[0].specificItemsInfo.scopes).toEqual([
      { type: 'CUSTOM_FILTER', customFilter: { params: { collectionIds: [collection.id] } } },
    ]);

    // kettle and teapot: 70.00 reaches the minimum, and the 5.00 lands on the teapot (in the collection)
    const mixed = await ruleDiscountsOfMixedCart();
    expect(byRule(mixed.discounts, 'Tea things off')).toEqual([['5.00', [mixed.teapotLine]]]);
    // the teapot alone (30.00) does not
    const alone = await ruleDiscountsOfMixedCart([teapot.id]);
    expect(byRule(alone.discounts, 'Tea things off')).toEqual([]);

    // removing the collection with its chip leaves nothing chosen, and the client says so
    await page.getByRole('button', { name: 'Edit Tea things off' }).click();
    await eventually(() => chosen.getByRole('listitem').allTextContents()).toEqual(['Tea things×']);
    await page.getByRole('button', { name: 'Remove Tea things' }).click();
    await page.getByRole('button', { name: 'Save discount rule' }).click();
    await eventually(() => page.getByText('Choose at least one product or collection.').count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel editing' }).click();
  });
});
