import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpFrom } from '../packages/platform/test/cart-calls.ts';
import { admin, visitorToken } from '../packages/platform/test/catalog-http.ts';
import { placeOrder } from '../packages/platform/test/checkout-support.ts';
import { uniqueEmail } from '../packages/platform/test/identity-client.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { seriousViolations } from './support/axe.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT, type Viewport } from './support/browser.ts';
import { focused, tabTo } from './support/keyboard.ts';
import { adminClient, screenshot, startStoreInBrowser, stopStoreInBrowser } from './support/store.ts';
import { demoProducts } from './support/storefront.ts';

/** The top bar's sections, in the order Tab reaches them. */
const SECTIONS = [
  'Orders',
  'Subscriptions',
  'Mailbox',
  'Products',
  'Collections',
  'Members',
  'Webhooks',
  'Settings',
];

/**
 * How far the page scrolls sideways (0 or less when nothing is wider than the window), and the
 * elements that stick out past its right edge, for the failure's message.
 */
async function sideways(page: Page): Promise<{ by: number; culprits: string }> {
  return page.evaluate(() => {
    const root = document.scrollingElement as HTMLElement;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(-5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { by: root.scrollWidth - root.clientWidth, culprits: culprits.join(', ') };
  });
}

/** Fails when the page scrolls sideways, naming what sticks out. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { by, culprits } = await sideways(page);
  expect(by, `${what} scrolls sideways (${culprits})`).toBeLessThanOrEqual(0);
}

/**
 * The back office's top bar at a phone's (390px) and a tablet's (768px) width in Chromium: no page
 * scrolls sideways (home, orders, an order, members, products, settings), the sections fold behind a
 * Menu button that the keyboard opens and closes (aria-expanded, Escape gives the focus back), every
 * section link is reached by Tab with its focus drawn, and axe finds nothing serious with the menu
 * open. At a laptop's width the sections show in the bar and the button does not.
 */
describe.each(['sqlite'] as const)(
  'the back office top bar at narrow widths, in Chromium on %s',
  E2E_SUITE,
  (dialect) => {
    let platform: TestPlatform;
    let browser: Browser;
    let order: { orderId: string; memberId: string };

    beforeAll(async () => {
      ({ platform, browser } = await startStoreInBrowser(dialect, { apps: ['backoffice'], seedDemo: true }));
      const mug = (await demoProducts(adminClient(platform), ['Enamel Camp Mug']))['Enamel Camp Mug']!;
      const shopper = await signUpFrom(platform, await visitorToken(platform), uniqueEmail('layout-shopper'));
      const { orderId } = await placeOrder(platform, mug.id!, { auth: shopper });
      const placed = (await admin(platform).get(`/ecom/v1/orders/${orderId}`)).body.order;
      order = { orderId, memberId: placed.buyerInfo.memberId };
    }, TEST_TIMEOUT);

    afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

    /** Opens `path` and waits until its heading shows and nothing is loading. */
    async function open(page: Page, path: string): Promise<void> {
      await page.goto(`${platform.url}/admin${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      await eventually(() =>
        page
          .getByRole('status')
          .filter({ hasText: /^Loading/ })
          .count(),
      ).toBe(0);
    }

    for (const [width, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['tablet', { width: 768, height: 1024 }],
    ] as const satisfies ReadonlyArray<readonly [string, Viewport]>) {
      it(`at a ${width}'s width (${viewport.width}px) no page scrolls sideways and the menu works by keyboard`, async () => {
        const page = await newTestPage(browser, viewport);
        await page.goto(`${platform.url}/admin/orders`);
        await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await eventually(() => page.getByLabel('Admin API key', { exact: true }).count()).toBe(0);

        const pages = [
          ['home', ''],
          ['orders', '/orders'],
          ['order', `/orders/${order.orderId}`],
          ['members', '/members'],
          ['member', `/members/${order.memberId}`],
          ['products', '/products'],
          ['settings', '/settings/store'],
        ] as const;
        for (const [name, path] of pages) {
          await open(page, path);
          if (name === 'orders') await eventually(() => page.getByRole('row').count()).toBeGreaterThan(1);
          await screenshot(page, `backoffice-layout-${dialect}-${width}-${name}`);
          await expectNoSidewaysScroll(page, `${name} at ${viewport.width}px`);
          // the sections are folded: no link of theirs shows until the menu opens
          expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible(), name).toBe(false);
        }

        // the keyboard alone: Tab to Menu, open it, Tab through every section, Escape closes it
        await open(page, '/orders');
        const menu = page.getByRole('button', { name: 'Menu' });
        await page.locator('body').focus();
        await tabTo(page, 'Menu', { limit: 10 });
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        await page.keyboard.press('Enter');
        await eventually(() => menu.getAttribute('aria-expanded')).toBe('true');
        const nav = page.getByRole('navigation', { name: 'Sections' });
        expect(await nav.isVisible()).toBe(true);
        expect(await nav.getByRole('link').allTextContents()).toEqual(SECTIONS);
        for (const section of SECTIONS) await tabTo(page, section, { limit: 3 });
        await screenshot(page, `backoffice-layout-${dialect}-${width}-menu`);
        await expectNoSidewaysScroll(page, 'the open menu');
        expect(await seriousViolations(page), `the open menu at ${viewport.width}px`).toEqual([]);

        await page.keyboard.press('Escape');
        await eventually(() => menu.getAttribute('aria-expanded')).toBe('false');
        expect(await nav.isVisible()).toBe(false);
        expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Menu', outlined: true });

        // a section followed from the open menu: its page shows and the menu folds again
        await page.keyboard.press('Enter');
        await tabTo(page, 'Members', { limit: 10 });
        await page.keyboard.press('Enter');
        await page.waitForURL('**/admin/members');
        await eventually(() => menu.getAttribute('aria-expanded')).toBe('false');
        await page.context().close();
      });
    }

    it('at a laptop’s width the sections show in the bar and there is no Menu button', async () => {
      const page = await newTestPage(browser, { width: 1280, height: 900 });
      await page.goto(`${platform.url}/admin`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
      const nav = page.getByRole('navigation', { name: 'Sections' });
      expect(await nav.isVisible()).toBe(true);
      for (const section of SECTIONS)
        expect(await nav.getByRole('link', { name: section }).isVisible()).toBe(true);
      await expectNoSidewaysScroll(page, 'the home page at 1280px');
      await page.context().close();
    });
  },
);
