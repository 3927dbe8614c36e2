import type { Product } from '@cartwheel/sdk';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestPlatform } from '../../packages/platform/test/support/platform.ts';
import type { AdminClient } from './store.ts';

/** What the storefront suites that shop (cart, checkout) share: the demo products, a product page, the cart. */

/** The demo store's products named `names`, by name, as the admin API answers; fails unless all are there. */
export async function demoProducts(
  admin: AdminClient,
  names: string[],
  options?: { includeVariants?: boolean },
): Promise<Record<string, Product>> {
  const found = await admin.products.queryProducts({ filter: { name: { $in: names } } }, options);
  const product: Record<string, Product> = {};
  for (const item of found.items) product[item.name ?? ''] = item;
  expect(Object.keys(product).sort()).toEqual([...names].sort());
  return product;
}

/** The header's cart button, whose label counts the items in the cart ("Cart, 3 items"). */
export function cartButton(page: Page): Locator {
  return page.getByTestId('cart-button');
}

/** A line of the mini-cart or the cart page, by its product's name. */
export function cartLine(page: Page, name: string): Locator {
  return page.getByRole('listitem', { name, exact: true });
}

/** Opens `product`'s page on the storefront and waits for its heading. */
export async function openProductPage(page: Page, platform: TestPlatform, product: Product): Promise<void> {
  await page.goto(`${platform.url}/product-page/${product.slug}`);
  await page.getByRole('heading', { level: 1, name: product.name }).waitFor();
}

/** On a product page: adds `quantity` to the cart and waits for the mini-cart to open. */
export async function addToCart(page: Page, quantity: number): Promise<void> {
  await page.getByLabel('Quantity').fill(String(quantity));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByTestId('mini-cart').waitFor();
}

/** The visitor an access token speaks for (its `sub`), and the member when signed in (`mid`). */
export function claimsOf(accessToken: string): { sub?: string; mid?: string } {
  const payload = accessToken.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}
