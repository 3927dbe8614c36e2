import { checkoutSettings, checkoutTemplates, discountRules } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, createProduct } from './catalog-http.ts';
import { checkoutSession, pageCalls, shopperCheckout, stockedProduct } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own `checkoutSettings` and `discountRules` modules, unchanged but for the host
 * they reach, run a merchant's store settings on Cartwheel: the checkout's whole brand, its policies
 * and fields; discount rules with their time window and percentage; checkout templates and the
 * checkouts their buy links make.
 */
describe.each(DIALECTS)("the hosted platform's own store-services client, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  const merchantClient = (apiKey: string) =>
    createClient({
      modules: { checkoutSettings, checkoutTemplates, discountRules },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });
  let merchant: ReturnType<typeof merchantClient>;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('checkout settings: the whole brand, policies and fields are kept, merged and announced', async () => {
    const before: any = await merchant.checkoutSettings.getCheckoutSettings();
    expect(before.checkoutSettings.checkoutBrand.header).toMatchObject({ alignment: 'SIDE' });

    const updated: any = await merchant.checkoutSettings.updateCheckoutSettings({
      checkoutBrand: {
        header: {
          text: 'Lamp House',
          textColor: '#112233',
          logo: { size: 'LARGE' },
          alignment: 'CENTER',
          displayCheckoutLabel: true,
          continueShopping: { hidden: false, displayType: 'ICON' },
          backgroundFill: { color: '#FFFFFF' },
        },
        mainSection: { dividerColor: '#EEEEEE', expressButtonsCornerRadius: 'PILL', cornerRadius: 8 },
        footer: { dividerColor: '#000000' },
        global: { buttonColor: '#0000FF', placeOrderButtonColor: '#00FF00' },
      },
      checkoutPolicies: {
        termsAndConditions: { visible: true, content: 'Be kind.' },
        customPolicy: { visible: true, title: 'Lamps', content: 'Bulbs not included.' },
      },
      checkoutFields: {
        policyAgreementCheckbox: { visible: true, checkedByDefault: false },
        subscriptionCheckbox: { visible: true, checkedByDefault: true },
      },
      checkoutBillingFields: 'MINIMUM_REQUIRED_FIELDS',
    } as any);
    const settings = updated.checkoutSettings;
    expect(settings.checkoutBrand.header).toMatchObject({
      text: 'Lamp House',
      logo: { size: 'LARGE' },
      alignment: 'CENTER',
      continueShopping: { displayType: 'ICON' },
    });
    expect(settings.checkoutBrand.mainSection).toMatchObject({
      expressButtonsCornerRadius: 'PILL',
      cornerRadius: 8,
    });
    expect(settings.checkoutPolicies.customPolicy).toMatchObject({ title: 'Lamps', visible: true });
    expect(settings.checkoutFields.subscriptionCheckbox).toMatchObject({ checkedByDefault: true });
    expect(settings.checkoutBillingFields).toBe('MINIMUM_REQUIRED_FIELDS');
    expect(settings._updatedDate).toBeInstanceOf(Date);

    // a later change names one field: the rest stays as it was
    const small: any = await merchant.checkoutSettings.updateCheckoutSettings({
      checkoutBrand: { header: { logo: { size: 'SMALL' } } },
    } as any);
    expect(small.checkoutSettings.checkoutBrand.header).toMatchObject({
      text: 'Lamp House',
      alignment: 'CENTER',
      logo: { size: 'SMALL' },
    });
    expect(((await merchant.checkoutSettings.getCheckoutSettings()) as any).checkoutSettings).toEqual(
      small.checkoutSettings,
    );

    // a size outside SMALL, MEDIUM, LARGE and a colour that is no colour are field violations
    await expect(
      merchant.checkoutSettings.updateCheckoutSettings({
        checkoutBrand: { header: { logo: { size: 'HUGE' } } },
      } as any),
    ).rejects.toMatchObject({
      details: {
        validationError: {
          fieldViolations: [
            expect.objectContaining({ field: 'checkoutSettings.checkoutBrand.header.logo.size' }),
          ],
        },
      },
    });
    await expect(
      merchant.checkoutSettings.updateCheckoutSettings({
        checkoutBrand: { global: { buttonColor: 'blue' } },
      } as any),
    ).rejects.toMatchObject({
      details: {
        validationError: {
          fieldViolations: [
            expect.objectContaining({ field: 'checkoutSettings.checkoutBrand.global.buttonColor' }),
          ],
        },
      },
    });

    // the hosted checkout page shows the brand while ACTIVE, its plain one while INACTIVE
    const lamp = await stockedProduct(platform, 'Brand Lamp', 10, 5);
    const shopper = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }], {
      details: false,
    });
    const page = pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
    const brandShown = async () => (await page.session()).body.settings.checkoutBrand.header;
    expect(await brandShown()).toMatchObject({ text: 'Lamp House', alignment: 'CENTER' });
    await merchant.checkoutSettings.updateCheckoutSettings({ status: 'INACTIVE' } as any);
    expect(await brandShown()).toEqual({ logo: null, alignment: 'SIDE' });
    await merchant.checkoutSettings.updateCheckoutSettings({ status: 'ACTIVE' } as any);

    // each change is announced as checkout settings updated, with the settings after it
    const events = await platform.services.database.db
      .selectFrom('events_outbox')
      .select(['entity_fqdn', 'slug', 'payload'])
      .where('entity_fqdn', '=', 'wix.ecom.v1.checkout_settings')
      .execute();
    expect(events.map((event) => event.slug)).toEqual(['updated', 'updated', 'updated', 'updated']);
  });

  it('discount rules: created, read, queried, updated and deleted with their window and percentage', async () => {
    const created: any = await merchant.discountRules.createDiscountRule({
      name: '10% on everything',
      active: true,
      activeTimeInfo: { start: new Date('2020-01-01T00:00:00Z'), end: new Date('2999-01-01T00:00:00Z') },
      discounts: {
        values: [
          {
            discountType: 'PERCENTAGE',
            percentage: 10,
            targetType: 'SPECIFIC_ITEMS',
            specificItemsInfo: {
              scopes: [
                {
                  id: 'all',
                  type: 'CATALOG_ITEM',
                  catalogItemFilter: { catalogAppId: '215238eb-22a5-4c36-9e7b-e7c08025e04e' },
                },
              ],
            },
          },
        ],
      },
    } as any);
    expect(created).toMatchObject({ name: '10% on everything', status: 'LIVE', revision: '1' });
    expect(created._createdDate).toBeInstanceOf(Date);
    expect(created.activeTimeInfo.start).toEqual(new Date('2020-01-01T00:00:00Z'));
    expect(created.discounts.values[0].percentage).toBe(10);

    const read: any = await merchant.discountRules.getDiscountRule(created._id);
    expect(read).toMatchObject({ _id: created._id, name: '10% on everything' });

    const page: any = await merchant.discountRules.queryDiscountRules().limit(10).find();
    expect(page.items.map((rule: any) => rule._id)).toContain(created._id);

    const renamed: any = await merchant.discountRules.updateDiscountRule(created._id, {
      revision: created.revision,
      name: '12% on everything',
      discounts: { values: [{ discountType: 'PERCENTAGE', percentage: 12, targetType: 'SPECIFIC_ITEMS' }] },
    } as any);
    expect(renamed).toMatchObject({ name: '12% on everything', revision: '2' });
    expect(renamed.discounts.values[0].percentage).toBe(12);

    await merchant.discountRules.deleteDiscountRule(created._id);
    await expect(merchant.discountRules.getDiscountRule(created._id)).rejects.toMatchObject({
      details: { applicationError: expect.anything() },
    });
    const slugs = (
      await platform.services.database.db
        .selectFrom('events_outbox')
        .select('slug')
        .where('entity_fqdn', '=', 'wix.ecom.discounts.v1.discount_rule')
        .orderBy('sequence')
        .execute()
    ).map((event) => event.slug);
    expect(slugs).toEqual(['created', 'updated', 'deleted']);
  });

  it('checkout templates: made, changed, queried, used for a checkout on the hosted page, and deleted', async () => {
    const STORES = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
    const lamp = await stockedProduct(platform, 'Template Lamp', 30, 10);
    const hidden = await createProduct(platform, {
      name: 'Template Secret',
      priceData: { price: 5 },
      visible: false,
    });
    await admin(platform).post('/api/cartwheel/coupons', {
      coupon: { code: 'TEMPLATE5', discountType: 'FIXED_AMOUNT', fixedAmount: '5.00' },
    });

    const template: any = await merchant.checkoutTemplates.createCheckoutTemplate({
      lineItems: [{ quantity: 2, catalogReference: { appId: STORES, catalogItemId: lamp.id } }],
      customLineItems: [
        {
          quantity: 1,
          price: '12.50',
          productName: { original: 'Gift wrapping' },
          itemType: { preset: 'SERVICE' },
          descriptionLines: [],
        },
      ],
      couponCode: 'TEMPLATE5',
    } as any);
    expect(template).toMatchObject({ status: 'ACTIVE', couponCode: 'TEMPLATE5' });
    expect(template.lineItems[0]).toMatchObject({
      quantity: 2,
      catalogReference: { catalogItemId: lamp.id },
    });
    expect(template.customLineItems[0]).toMatchObject({
      price: '12.50',
      productName: { original: 'Gift wrapping' },
    });

    // a template of a product the storefront hides is a field violation, nothing made
    await expect(
      merchant.checkoutTemplates.createCheckoutTemplate({
        lineItems: [{ quantity: 1, catalogReference: { appId: STORES, catalogItemId: hidden.id } }],
      } as any),
    ).rejects.toMatchObject({
      details: {
        validationError: {
          fieldViolations: [
            expect.objectContaining({
              field: 'checkoutTemplate.lineItems[0].catalogReference.catalogItemId',
            }),
          ],
        },
      },
    });

    const used: any = await merchant.checkoutTemplates.createCheckoutFromTemplate(
      template._id,
      'cartwheel-test-site',
    );
    expect(used.checkoutUrl).toMatch(new RegExp(`^${platform.url}/auth/checkout\\?session=`));
    const checkout = (await admin(platform).get(`/ecom/v1/checkouts/${used.checkoutId}`)).body.checkout;
    expect(checkout.lineItems.map((line: any) => [line.productName.original, line.quantity])).toEqual([
      ['Template Lamp', 2],
      ['Gift wrapping', 1],
    ]);
    expect(checkout.appliedDiscounts[0].coupon.code).toBe('TEMPLATE5');
    expect(checkout.priceSummary.subtotal.amount).toBe('72.50');

    // the buy link: a browser with no token lands on the hosted checkout page of a new checkout
    const link = await fetch(
      `${platform.url}/ecom/v1/checkout-templates/${template._id}/create-and-redirect-to-checkout?siteId=s`,
      { redirect: 'manual' },
    );
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toMatch(/\/auth\/checkout\?session=/);

    const inactive: any = await merchant.checkoutTemplates.updateCheckoutTemplate(template._id, {
      status: 'INACTIVE',
    } as any);
    expect(inactive).toMatchObject({ status: 'INACTIVE', couponCode: 'TEMPLATE5' });
    await expect(
      merchant.checkoutTemplates.createCheckoutFromTemplate(template._id, 'cartwheel-test-site'),
    ).rejects.toMatchObject({ details: { applicationError: { code: 'CHECKOUT_TEMPLATE_INACTIVE' } } });

    const active: any = await merchant.checkoutTemplates
      .queryCheckoutTemplates()
      .eq('status', 'ACTIVE')
      .find();
    expect(active.items).toEqual([]);
    const all: any = await merchant.checkoutTemplates.queryCheckoutTemplates().find();
    expect(all.items.map((item: any) => item._id)).toEqual([template._id]);

    // a shopper's visitor token may not read or change templates
    const refused = await fetch(`${platform.url}/ecom/v1/checkout-templates/${template._id}`);
    expect([401, 403]).toContain(refused.status);

    await merchant.checkoutTemplates.deleteCheckoutTemplate(template._id);
    await expect(merchant.checkoutTemplates.getCheckoutTemplate(template._id)).rejects.toMatchObject({
      details: { applicationError: { code: 'CHECKOUT_TEMPLATE_NOT_FOUND' } },
    });
    const slugs = (
      await platform.services.database.db
        .selectFrom('events_outbox')
        .select('slug')
        .where('entity_fqdn', '=', 'wix.ecom.v1.checkout_template')
        .orderBy('sequence')
        .execute()
    ).map((event) => event.slug);
    expect(slugs).toEqual(['created', 'used', 'used', 'updated', 'deleted']);
  });
});
