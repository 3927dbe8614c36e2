import { STORES_APP_ID } from '@cartwheel/sdk';
import type { CatalogService } from '../catalog/service.ts';
import type { StoreSettingsService } from '../store-settings/service.ts';

/** The demo collection the automatic discount rule takes 10% off. */
export const DEMO_DISCOUNTED_COLLECTION = 'posters';
export const DEMO_COUPON_CODE = 'WELCOME10';

/**
 * The demo store's commerce settings: US dollars, prices before tax, sales tax in New York, California
 * and (none) Oregon, US shipping with free Standard shipping from $75, pickup in the shop, 10% off
 * posters, and the WELCOME10 coupon. Seeded once, beside the demo catalog.
 */
export async function seedStoreSettings(services: {
  storeSettings: StoreSettingsService;
  catalog: CatalogService;
}): Promise<void> {
  const settings = services.storeSettings;
  await settings.updateStoreSettings({ currency: 'USD', weightUnit: 'LB', taxIncludedInPrices: false });
  await settings.updateCheckoutSettings({
    checkoutBrand: { header: { logo: { size: 'MEDIUM' }, alignment: 'CENTER' } },
  });

  const taxRegions = [
    { name: 'New York', subdivision: 'US-NY', rate: '0.08875', taxShipping: true },
    { name: 'California', subdivision: 'US-CA', rate: '0.0725', taxShipping: false },
    { name: 'Oregon', subdivision: 'US-OR', rate: '0', taxShipping: false },
  ];
  for (const region of taxRegions) await settings.createTaxRegion({ country: 'US', ...region });

  await settings.createShippingRegion({
    name: 'United States',
    destinations: [{ country: 'US' }],
    options: [
      {
        code: 'standard',
        title: 'Standard',
        deliveryTime: '3-5 business days',
        rate: { kind: 'FLAT_RATE', price: '5.99', freeShippingAbove: '75.00' },
      },
      {
        code: 'express',
        title: 'Express',
        deliveryTime: '1-2 business days',
        rate: { kind: 'FLAT_RATE', price: '14.99' },
      },
    ],
  });
  await settings.createPickupLocation({
    code: 'store-pickup',
    title: 'Pick up in store',
    pickupMethod: 'STORE_PICKUP',
    price: '0.00',
    deliveryTime: 'Ready the next business day',
    instructions: 'Bring your order number to the counter.',
    address: {
      country: 'US',
      subdivision: 'US-NY',
      city: 'Brooklyn',
      postalCode: '11201',
      addressLine: '120 Atlantic Avenue',
      formattedAddress: '120 Atlantic Avenue, Brooklyn, NY 11201, US',
    },
  });

  const posters = await services.catalog
    .collectionBySlug(DEMO_DISCOUNTED_COLLECTION, { admin: true })
    .catch(() => undefined);
  if (posters?.id) {
    await settings.createDiscountRule({
      name: '10% off posters',
      active: true,
      discounts: {
        values: [
          {
            discountType: 'PERCENTAGE',
            percentage: 10,
            targetType: 'SPECIFIC_ITEMS',
            specificItemsInfo: {
              scopes: [
                {
                  id: 'posters',
                  type: 'CUSTOM_FILTER',
                  customFilter: { appId: STORES_APP_ID, params: { collectionIds: [posters.id] } },
                } as never,
              ],
            },
          },
        ],
      },
    });
  }
  await settings.createCoupon({
    code: DEMO_COUPON_CODE,
    name: 'Welcome: 10% off your order',
    active: true,
    discountType: 'PERCENTAGE',
    percentage: 10,
  });
}
