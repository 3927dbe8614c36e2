import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartCalls, catalogLine } from '../packages/platform/test/cart-calls.ts';
import { admin, call, visitorToken } from '../packages/platform/test/catalog-http.ts';
import { shipToUs, stockedProduct } from '../packages/platform/test/checkout-support.ts';
import type { TestPlatform } from '../packages/platform/test/support/platform.ts';
import { E2E_SUITE, eventually, newTestPage, TEST_TIMEOUT } from './support/browser.ts';
import {
  POSTGRES,
  screenshot,
  startStoreInBrowser,
  stopStoreInBrowser,
  storeConfig,
} from './support/store.ts';
import { addToCart, openProductPage } from './support/storefront.ts';

/** A small PNG (4x2, red and blue), the logo the merchant uploads. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAAE0lEQVR4nGM4oaEBRGDiBAMyBwBx2gjBYqEDoAAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * The back office's later settings pages in Chromium against the built platform: the checkout brand
 * (a logo uploaded, sized and aligned, previewed, and shown by the hosted checkout), discount rules
 * (LIVE / PENDING / EXPIRED, and the storefront cart's discount following each change), pickup
 * locations, and the one edit form the settings lists share (a tax region, a coupon, a role).
 */
describe.each(POSTGRES)('the back office settings pages, edited, in Chromium on %s', E2E_SUITE, (dialect) => {
  let platform: TestPlatform;
  let browser: Browser;
  let page: Page;
  let shopper: Page;
  let product: { id: string; name: string; slug: string };
  const shot = (name: string) => screenshot(page, `backoffice-settings-edit-${dialect}-${name}`);
  const status = () => page.getByRole('status').first();
  const row = (name: string | RegExp) => page.getByRole('row', { name });

  beforeAll(async () => {
    ({ platform, browser } = await startStoreInBrowser(dialect, {
      apps: ['backoffice', 'hosted', 'storefront'],
      seedDemo: false,
    }));
    await shipToUs(platform);
    product = await stockedProduct(platform, 'Brand Kettle', 40, 50);
    page = await newTestPage(browser, { width: 1280, height: 900 });
    shopper = await newTestPage(browser, { width: 1280, height: 900 });
  }, TEST_TIMEOUT);

  afterAll(() => stopStoreInBrowser(platform, browser), TEST_TIMEOUT);

  /** A new visitor's hosted checkout page for the kettle. */
  async function hostedCheckoutUrl(): Promise<string> {
    const visitor = await visitorToken(platform);
    const cart = cartCalls(platform, visitor);
    expect((await cart.add({ lineItems: [catalogLine(product.id, 1)] })).status).toBe(200);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    const session = await call(
      platform,
      'POST',
      '/_api/redirects-api/v1/redirect-session',
      {
        ecomCheckout: { checkoutId: created.body.checkoutId },
        callbacks: { postFlowUrl: `${platform.url}/`, cartPageUrl: `${platform.url}/cart` },
      },
      visitor,
    );
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return session.body.redirectSession.fullUrl as string;
  }

  it('uploads a logo, sizes and centres it in a live preview, saves it, and the hosted checkout shows it so', async () => {
    await page.goto(`${platform.url}/admin/settings/checkout-brand`);
    await page.getByLabel('Admin API key', { exact: true }).fill(platform.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Checkout brand' }).waitFor();
    await eventually(() =>
      page.getByText('No logo: the checkout shows the store’s name alone.').count(),
    ).toBe(1);

    await page
      .getByLabel('Choose an image file')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    await eventually(() => status().textContent()).toBe('logo.png was uploaded: see the preview, then save.');
    const preview = page.getByTestId('brand-preview');
    const previewLogo = preview.getByRole('img', { name: 'Logo preview' });
    await eventually(async () => (await previewLogo.boundingBox())?.height).toBe(48);

    // the preview follows each choice before anything is saved
    await page.getByLabel('Large').check();
    await eventually(async () => (await previewLogo.boundingBox())?.height).toBe(72);
    // beside the logo, the store's own name, as the hosted checkout's header shows it
    const { storeName } = await storeConfig(platform);
    const previewName = preview.getByText(storeName, { exact: true });
    await eventually(() => previewName.count()).toBe(1);
    const box = (await preview.boundingBox())!;
    const sideX = (await previewLogo.boundingBox())!.x;
    expect(sideX - box.x).toBeLessThan(box.width / 4);
    await page.getByLabel('Centered').check();
    await eventually(async () => (await previewLogo.boundingBox())!.x - sideX).toBeGreaterThan(box.width / 8);
    // centred: as much room left of the logo as right of the name
    const centredLogo = (await previewLogo.boundingBox())!;
    const centredName = (await previewName.boundingBox())!;
    expect(
      Math.abs(centredLogo.x - box.x - (box.x + box.width - (centredName.x + centredName.width))),
    ).toBeLessThan(2);
    expect(
      (await admin(platform).get('/ecom/v1/checkout-settings')).body.checkoutSettings.checkoutBrand.header
        .logo,
    ).toBe(null);
    await shot('brand-preview');

    await page.getByRole('button', { name: 'Save checkout brand' }).click();
    await eventually(() => status().textContent()).toBe('The checkout brand was saved.');
    const header = (await admin(platform).get('/ecom/v1/checkout-settings')).body.checkoutSettings
      .checkoutBrand.header;
    expect(header).toMatchObject({ logo: { size: 'LARGE' }, alignment: 'CENTER' });
    const logo = header.logo;
    expect(logo.image.url).toMatch(/\/media\/uploads\/upl[0-9a-f]{32}\.png$/);

    // a reload shows what was saved
    await page.reload();
    await eventually(() => page.getByLabel('Large').isChecked()).toBe(true);
    expect(await page.getByLabel('Centered').isChecked()).toBe(true);

    await shopper.goto(await hostedCheckoutUrl());
    const hostedLogo = shopper.getByRole('banner').getByRole('img', { name: `${storeName} logo` });
    await expect(hostedLogo.getAttribute('src')).resolves.toBe(logo.image.url);
    await eventually(async () => (await hostedLogo.boundingBox())?.height).toBe(72);
    expect((await hostedLogo.boundingBox())!.x).toBeGreaterThan(1280 / 4);
    await screenshot(shopper, `backoffice-settings-edit-${dialect}-hosted-brand`);
  });

  it('creates, edits and deletes discount rules, each LIVE, PENDING or EXPIRED, and the storefront cart follows', async () => {
    // the shopper's cart: one kettle at 40.00, no discount yet
    await openProductPage(shopper, platform, product as never);
    await addToCart(shopper, 1);
    await shopper.goto(`${platform.url}/cart`);
    await eventually(() => shopper.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
    expect(await shopper.getByTestId('cart-discount').count()).toBe(0);

    await page.getByRole('link', { name: 'Discount rules' }).click();
    await eventually(() => page.getByText('No discount rules yet', { exact: false }).count()).toBe(1);
    // the client's own check, before anything is sent
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => page.getByText('Name the rule, like Summer sale.').count()).toBe(1);

    await page.getByLabel('Rule name').fill('Kettle week');
    await page.getByLabel('Percentage').fill('10');
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Kettle week was created.');
    await eventually(() => row(/Kettle week/).textContent()).toContain('Live');
    await shopper.reload();
    await eventually(() => shopper.getByTestId('cart-discount').textContent()).toBe('−$4.00');

    const year = new Date().getFullYear();
    await page.getByLabel('Rule name').fill('Next year');
    await page.getByLabel('Percentage').fill('50');
    await page.getByLabel('Starts (optional)').fill(`${year + 1}-01-01T09:00`);
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Next year was created.');
    await page.getByLabel('Rule name').fill('Last year');
    await page.getByLabel('Discount', { exact: true }).selectOption({ label: 'Amount off' });
    await page.getByLabel('Amount').fill('15');
    await page.getByLabel('Ends (optional)').fill(`${year - 1}-12-31T09:00`);
    await page.getByRole('button', { name: 'Create discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Last year was created.');
    const statusOf = (name: string) => row(new RegExp(name)).locator('td').nth(3);
    await eventually(() => statusOf('Next year').textContent()).toBe('Pending');
    expect(await statusOf('Last year').textContent()).toBe('Expired');
    expect(await statusOf('Kettle week').textContent()).toBe('Live');
    await shopper.reload();
    await eventually(() => shopper.getByTestId('cart-discount').textContent()).toBe('−$4.00');
    await shot('discount-rules');

    // edit: the form takes the rule's values, and the cart follows the new percentage
    await page.getByRole('button', { name: 'Edit Kettle week' }).click();
    await eventually(() => page.getByRole('heading', { name: 'Edit Kettle week' }).count()).toBe(1);
    expect(await page.getByLabel('Rule name').inputValue()).toBe('Kettle week');
    expect(await page.getByLabel('Percentage').inputValue()).toBe('10');
    await page.getByLabel('Percentage').fill('25');
    await page.getByRole('button', { name: 'Save discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Kettle week was saved.');
    await eventually(() => row(/Kettle week/).textContent()).toContain('25% off');
    await eventually(() => page.getByRole('heading', { name: 'Add a discount rule' }).count()).toBe(1);
    await shopper.reload();
    await eventually(() => shopper.getByTestId('cart-discount').textContent()).toBe('−$10.00');

    await page.getByRole('button', { name: 'Delete Kettle week' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete discount rule' }).click();
    await eventually(() => status().textContent()).toBe('The discount rule Kettle week was deleted.');
    await eventually(() => row(/Kettle week/).count()).toBe(0);
    const rules = (await admin(platform).post('/ecom/v1/discount-rules/query', {})).body.discountRules;
    expect(rules.map((rule: { name: string }) => rule.name).sort()).toEqual(['Last year', 'Next year']);
    await shopper.reload();
    await eventually(() => shopper.getByTestId('cart-totals').getAttribute('aria-busy')).toBe('false');
    await eventually(() => shopper.getByTestId('cart-discount').count()).toBe(0);
  });

  it('adds, edits and deletes a pickup location', async () => {
    await page.getByRole('link', { name: 'Pickup locations' }).click();
    await eventually(() => page.getByText('No pickup locations', { exact: false }).count()).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Main Street shop');
    await page.getByLabel('Street address').fill('1 Main Street');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('Postal code').fill('12345');
    await page.getByLabel('Country code').fill('u');
    await page.getByRole('button', { name: 'Add pickup location' }).click();
    await eventually(() => page.getByText('Two letters, like US.').count()).toBe(1);
    await page.getByLabel('Country code').fill('us');
    await page.getByRole('button', { name: 'Add pickup location' }).click();
    await eventually(() => status().textContent()).toBe('The pickup location Main Street shop was added.');
    await eventually(() => row(/Main Street shop/).textContent()).toContain(
      '1 Main Street, Springfield, 12345, US',
    );
    const saved = (await admin(platform).get('/api/cartwheel/pickup-locations')).body.pickupLocations;
    expect(saved).toEqual([
      expect.objectContaining({
        code: 'main-street-shop',
        title: 'Main Street shop',
        pickupMethod: 'STORE_PICKUP',
        price: '0.00',
        address: expect.objectContaining({ country: 'US', city: 'Springfield' }),
      }),
    ]);

    await page.getByRole('button', { name: 'Edit Main Street shop' }).click();
    await eventually(() => page.getByLabel('City').inputValue()).toBe('Springfield');
    await page.getByLabel('Name', { exact: true }).fill('Market Square shop');
    await page.getByLabel('Price').fill('1.50');
    await page.getByRole('button', { name: 'Save pickup location' }).click();
    await eventually(() => status().textContent()).toBe('The pickup location Market Square shop was saved.');
    await eventually(() => row(/Market Square shop/).textContent()).toContain('1.50');
    const edited = (await admin(platform).get('/api/cartwheel/pickup-locations')).body.pickupLocations;
    // the code the checkout's options carry stays what it was
    expect(edited).toEqual([
      expect.objectContaining({
        id: saved[0].id,
        code: 'main-street-shop',
        title: 'Market Square shop',
        price: '1.50',
      }),
    ]);

    await page.getByRole('button', { name: 'Delete Market Square shop' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete pickup location' }).click();
    await eventually(() => status().textContent()).toBe(
      'The pickup location Market Square shop was deleted.',
    );
    expect((await admin(platform).get('/api/cartwheel/pickup-locations')).body.pickupLocations).toEqual([]);
  });

  it('edits a tax region, a coupon, a role and a shipping region in the one edit form; Cancel goes back to adding', async () => {
    const taxRegion = await admin(platform).post('/api/cartwheel/tax-regions', {
      taxRegion: { name: 'Oregon', country: 'US', subdivision: 'US-OR', rate: '0.05' },
    });
    expect(taxRegion.status, JSON.stringify(taxRegion.body)).toBe(200);
    await page.getByRole('link', { name: 'Taxes' }).click();
    await page.getByRole('button', { name: 'Edit Oregon' }).click();
    const heading = page.getByRole('heading', { name: 'Edit Oregon' });
    await eventually(() => heading.count()).toBe(1);
    // the keyboard lands on the form that now edits the row
    await eventually(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.getByLabel('State or province (optional)').inputValue()).toBe('OR');
    expect(await page.getByLabel('Rate (%)').inputValue()).toBe('5');
    await page.getByLabel('Rate (%)').fill('101');
    await page.getByRole('button', { name: 'Save tax region' }).click();
    await eventually(() => page.getByText('A percentage like 8.875.').count()).toBe(1);
    await page.getByLabel('Rate (%)').fill('6.25');
    await page.getByRole('button', { name: 'Save tax region' }).click();
    await eventually(() => status().textContent()).toBe('Tax for Oregon was saved.');
    await eventually(() => row(/Oregon/).textContent()).toContain('6.25%');
    expect((await admin(platform).get('/api/cartwheel/tax-regions')).body.taxRegions).toEqual([
      expect.objectContaining({ id: taxRegion.body.taxRegion.id, subdivision: 'US-OR', rate: '0.0625' }),
    ]);

    const coupon = await admin(platform).post('/api/cartwheel/coupons', {
      coupon: { code: 'SAVE5', discountType: 'FIXED_AMOUNT', fixedAmount: '5' },
    });
    expect(coupon.status).toBe(200);
    await page.getByRole('link', { name: 'Coupons' }).click();
    await page.getByRole('button', { name: 'Edit SAVE5' }).click();
    await eventually(() => page.getByLabel('Amount').inputValue()).toBe('5');
    await page.getByRole('button', { name: 'Cancel editing' }).click();
    await eventually(() => page.getByRole('heading', { name: 'New coupon' }).count()).toBe(1);
    expect(await page.getByLabel('Code').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Edit SAVE5' }).click();
    await eventually(() => page.getByLabel('Code').inputValue()).toBe('SAVE5');
    await page.getByLabel('Discount').selectOption({ label: 'Percentage off' });
    await page.getByLabel('Percentage').fill('15');
    await page.getByRole('button', { name: 'Save coupon' }).click();
    await eventually(() => status().textContent()).toBe('The coupon SAVE5 was saved.');
    await eventually(() => row(/SAVE5/).textContent()).toContain('15% off');
    const coupons = (await admin(platform).get('/api/cartwheel/coupons')).body.coupons;
    expect(coupons).toEqual([
      expect.objectContaining({
        code: 'SAVE5',
        discountType: 'PERCENTAGE',
        percentage: 15,
        fixedAmount: null,
      }),
    ]);

    const role = await admin(platform).post('/api/cartwheel/staff-roles', {
      role: { name: 'Pickers', permissions: ['orders.read'] },
    });
    expect(role.status).toBe(200);
    await page.getByRole('link', { name: 'Staff and roles' }).click();
    await page.getByRole('button', { name: 'Edit Pickers' }).click();
    await eventually(() => page.getByLabel('orders.read').first().isChecked()).toBe(true);
    await page.getByLabel('orders.read').first().uncheck();
    await page.getByLabel('orders.capture').first().check();
    await page.getByRole('button', { name: 'Save role' }).click();
    await eventually(() => status().textContent()).toBe('The role Pickers was saved.');
    await eventually(() => row(/Pickers/).textContent()).toContain('orders.capture');
    const roles = (await admin(platform).get('/api/cartwheel/staff-roles')).body.roles;
    expect(roles.find((saved: { name: string }) => saved.name === 'Pickers').permissions).toEqual([
      'orders.capture',
    ]);
    await shot('roles-edited');

    // a shipping region: its option's price changes, its code and the country's subdivisions stay
    const region = await admin(platform).post('/api/cartwheel/shipping-regions', {
      shippingRegion: {
        name: 'Canada',
        destinations: [{ country: 'CA', subdivisions: ['CA-ON'] }],
        options: [{ code: 'ground', title: 'Ground', rate: { kind: 'FLAT_RATE', price: '12.00' } }],
      },
    });
    expect(region.status, JSON.stringify(region.body)).toBe(200);
    await page.getByRole('link', { name: 'Shipping' }).click();
    await page.getByRole('button', { name: 'Edit Canada' }).click();
    const option = page.getByRole('group', { name: 'Delivery option 1' });
    await eventually(() => option.getByLabel('Price').inputValue()).toBe('12.00');
    await option.getByLabel('Title').fill('Ground saver');
    await option.getByLabel('Price').fill('9.00');
    await page.getByRole('button', { name: 'Save shipping region' }).click();
    await eventually(() => status().textContent()).toBe('Shipping to Canada was saved.');
    await eventually(() => row(/Canada/).textContent()).toContain('Ground saver: 9.00 flat');
    const regions = (await admin(platform).get('/api/cartwheel/shipping-regions')).body.shippingRegions;
    expect(regions.find((saved: { name: string }) => saved.name === 'Canada')).toMatchObject({
      destinations: [{ country: 'CA', subdivisions: ['CA-ON'] }],
      options: [{ code: 'ground', title: 'Ground saver', rate: { kind: 'FLAT_RATE', price: '9.00' } }],
    });
  });
});
