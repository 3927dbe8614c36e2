import type { CheckoutSettingsPatch, DiscountRule } from '@cartwheel/sdk';
import type { HttpApp } from '../http/app.ts';
import { Empty } from '../http/responses-identity.ts';
import type { CheckoutSettings } from './model.ts';
import { STORE_SETTINGS_OPERATIONS } from './operations-access.ts';
import {
  CheckoutSettingsAnswer,
  CouponAnswer,
  CouponsAnswer,
  DiscountRuleAnswer,
  DiscountRulesPageAnswer,
  PickupLocationAnswer,
  PickupLocationsAnswer,
  ShippingRegionAnswer,
  ShippingRegionsAnswer,
  StoreSettingsAnswer,
  TaxRegionAnswer,
  TaxRegionsAnswer,
} from './responses.ts';
import {
  CreateCouponBody,
  CreateDiscountRuleBody,
  CreatePickupLocationBody,
  CreateShippingRegionBody,
  CreateTaxRegionBody,
  QueryDiscountRulesBody,
  SettingPath,
  UpdateCheckoutSettingsBody,
  UpdateCouponBody,
  UpdateDiscountRuleBody,
  UpdatePickupLocationBody,
  UpdateShippingRegionBody,
  UpdateStoreSettingsBody,
  UpdateTaxRegionBody,
} from './schemas.ts';
import type { PickupLocationDraft, StoreSettingsService } from './service.ts';

/**
 * The store's commerce settings, for those `STORE_SETTINGS_OPERATIONS` names. Checkout settings and discount rules at
 * the hosted platform's paths; the rest (which the hosted platform keeps in its dashboard) under
 * `/cartwheel/v1`. Each path id wins over any copy in the body.
 */
export function storeSettingsRoutes(app: HttpApp, services: { storeSettings: StoreSettingsService }): void {
  const settings = services.storeSettings;

  app.get(
    '/api/cartwheel/store-settings',
    {
      schema: { response: { 200: StoreSettingsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.getStoreSettings,
    },
    async () => ({
      storeSettings: withoutCheckout(await settings.storeSettings()),
    }),
  );
  app.patch(
    '/api/cartwheel/store-settings',
    {
      schema: { body: UpdateStoreSettingsBody, response: { 200: StoreSettingsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.updateStoreSettings,
    },
    async (request) => ({
      storeSettings: withoutCheckout(await settings.updateStoreSettings(request.body.storeSettings)),
    }),
  );

  app.get(
    '/ecom/v1/checkout-settings',
    {
      schema: { response: { 200: CheckoutSettingsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.getCheckoutSettings,
    },
    async () => ({
      checkoutSettings: await settings.checkoutSettings(),
    }),
  );
  app.patch(
    '/ecom/v1/checkout-settings',
    {
      schema: { body: UpdateCheckoutSettingsBody, response: { 200: CheckoutSettingsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.updateCheckoutSettings,
    },
    async (request) => ({
      checkoutSettings: await settings.updateCheckoutSettings(
        request.body.checkoutSettings as CheckoutSettingsPatch,
      ),
    }),
  );

  // ---- tax regions, shipping regions, pickup locations, coupons: one shape of calls each ----
  app.get(
    '/api/cartwheel/tax-regions',
    { schema: { response: { 200: TaxRegionsAnswer } }, config: STORE_SETTINGS_OPERATIONS.listTaxRegions },
    async () => ({
      taxRegions: await settings.listTaxRegions(),
    }),
  );
  app.post(
    '/api/cartwheel/tax-regions',
    {
      schema: { body: CreateTaxRegionBody, response: { 200: TaxRegionAnswer } },
      config: STORE_SETTINGS_OPERATIONS.createTaxRegion,
    },
    async (request) => ({
      taxRegion: await settings.createTaxRegion({
        ...request.body.taxRegion,
        subdivision: request.body.taxRegion.subdivision ?? null,
        taxShipping: request.body.taxRegion.taxShipping ?? false,
      }),
    }),
  );
  app.patch(
    '/api/cartwheel/tax-regions/:id',
    {
      schema: { params: SettingPath, body: UpdateTaxRegionBody, response: { 200: TaxRegionAnswer } },
      config: STORE_SETTINGS_OPERATIONS.updateTaxRegion,
    },
    async (request) => ({
      taxRegion: await settings.updateTaxRegion(request.params.id, request.body.taxRegion),
    }),
  );
  app.delete(
    '/api/cartwheel/tax-regions/:id',
    {
      schema: { params: SettingPath, response: { 200: Empty } },
      config: STORE_SETTINGS_OPERATIONS.deleteTaxRegion,
    },
    async (request) => {
      await settings.deleteTaxRegion(request.params.id);
      return {};
    },
  );

  app.get(
    '/api/cartwheel/shipping-regions',
    {
      schema: { response: { 200: ShippingRegionsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.listShippingRegions,
    },
    async () => ({
      shippingRegions: await settings.listShippingRegions(),
    }),
  );
  app.post(
    '/api/cartwheel/shipping-regions',
    {
      schema: { body: CreateShippingRegionBody, response: { 200: ShippingRegionAnswer } },
      config: STORE_SETTINGS_OPERATIONS.createShippingRegion,
    },
    async (request) => ({
      shippingRegion: await settings.createShippingRegion(request.body.shippingRegion),
    }),
  );
  app.patch(
    '/api/cartwheel/shipping-regions/:id',
    {
      schema: {
        params: SettingPath,
        body: UpdateShippingRegionBody,
        response: { 200: ShippingRegionAnswer },
      },
      config: STORE_SETTINGS_OPERATIONS.updateShippingRegion,
    },
    async (request) => ({
      shippingRegion: await settings.updateShippingRegion(request.params.id, request.body.shippingRegion),
    }),
  );
  app.delete(
    '/api/cartwheel/shipping-regions/:id',
    {
      schema: { params: SettingPath, response: { 200: Empty } },
      config: STORE_SETTINGS_OPERATIONS.deleteShippingRegion,
    },
    async (request) => {
      await settings.deleteShippingRegion(request.params.id);
      return {};
    },
  );

  app.get(
    '/api/cartwheel/pickup-locations',
    {
      schema: { response: { 200: PickupLocationsAnswer } },
      config: STORE_SETTINGS_OPERATIONS.listPickupLocations,
    },
    async () => ({
      pickupLocations: await settings.listPickupLocations(),
    }),
  );
  app.post(
    '/api/cartwheel/pickup-locations',
    {
      schema: { body: CreatePickupLocationBody, response: { 200: PickupLocationAnswer } },
      config: STORE_SETTINGS_OPERATIONS.createPickupLocation,
    },
    async (request) => ({
      pickupLocation: await settings.createPickupLocation({
        ...request.body.pickupLocation,
        pickupMethod: request.body.pickupLocation.pickupMethod ?? 'STORE_PICKUP',
        price: request.body.pickupLocation.price ?? '0.00',
      } as PickupLocationDraft),
    }),
  );
  app.patch(
    '/api/cartwheel/pickup-locations/:id',
    {
      schema: {
        params: SettingPath,
        body: UpdatePickupLocationBody,
        response: { 200: PickupLocationAnswer },
      },
      config: STORE_SETTINGS_OPERATIONS.updatePickupLocation,
    },
    async (request) => ({
      pickupLocation: await settings.updatePickupLocation(
        request.params.id,
        request.body.pickupLocation as Partial<PickupLocationDraft>,
      ),
    }),
  );
  app.delete(
    '/api/cartwheel/pickup-locations/:id',
    {
      schema: { params: SettingPath, response: { 200: Empty } },
      config: STORE_SETTINGS_OPERATIONS.deletePickupLocation,
    },
    async (request) => {
      await settings.deletePickupLocation(request.params.id);
      return {};
    },
  );

  app.get(
    '/api/cartwheel/coupons',
    { schema: { response: { 200: CouponsAnswer } }, config: STORE_SETTINGS_OPERATIONS.listCoupons },
    async () => ({
      coupons: await settings.listCoupons(),
    }),
  );
  app.post(
    '/api/cartwheel/coupons',
    {
      schema: { body: CreateCouponBody, response: { 200: CouponAnswer } },
      config: STORE_SETTINGS_OPERATIONS.createCoupon,
    },
    async (request) => ({
      coupon: await settings.createCoupon({
        ...request.body.coupon,
        name: request.body.coupon.name ?? request.body.coupon.code,
        active: request.body.coupon.active ?? true,
      }),
    }),
  );
  app.patch(
    '/api/cartwheel/coupons/:id',
    {
      schema: { params: SettingPath, body: UpdateCouponBody, response: { 200: CouponAnswer } },
      config: STORE_SETTINGS_OPERATIONS.updateCoupon,
    },
    async (request) => ({ coupon: await settings.updateCoupon(request.params.id, request.body.coupon) }),
  );
  app.delete(
    '/api/cartwheel/coupons/:id',
    {
      schema: { params: SettingPath, response: { 200: Empty } },
      config: STORE_SETTINGS_OPERATIONS.deleteCoupon,
    },
    async (request) => {
      await settings.deleteCoupon(request.params.id);
      return {};
    },
  );

  // ---- discount rules, at the hosted paths ----
  app.post(
    '/ecom/v1/discount-rules',
    {
      schema: { body: CreateDiscountRuleBody, response: { 200: DiscountRuleAnswer } },
      config: STORE_SETTINGS_OPERATIONS.createDiscountRule,
    },
    async (request) => ({
      discountRule: await settings.createDiscountRule(request.body.discountRule as DiscountRule),
    }),
  );
  app.post(
    '/ecom/v1/discount-rules/query',
    {
      schema: { body: QueryDiscountRulesBody, response: { 200: DiscountRulesPageAnswer } },
      config: STORE_SETTINGS_OPERATIONS.queryDiscountRules,
    },
    (request) =>
      settings.queryDiscountRules(
        request.body.query?.cursorPaging?.limit ?? 50,
        request.body.query?.cursorPaging?.cursor ?? null,
      ),
  );
  app.get(
    '/ecom/v1/discount-rules/:id',
    {
      schema: { params: SettingPath, response: { 200: DiscountRuleAnswer } },
      config: STORE_SETTINGS_OPERATIONS.getDiscountRule,
    },
    async (request) => ({
      discountRule: await settings.discountRule(request.params.id),
    }),
  );
  app.patch(
    '/ecom/v1/discount-rules/:id',
    {
      schema: { params: SettingPath, body: UpdateDiscountRuleBody, response: { 200: DiscountRuleAnswer } },
      config: STORE_SETTINGS_OPERATIONS.updateDiscountRule,
    },
    async (request) => ({
      discountRule: await settings.updateDiscountRule(
        request.params.id,
        request.body.discountRule as DiscountRule,
      ),
    }),
  );
  app.delete(
    '/ecom/v1/discount-rules/:id',
    {
      schema: { params: SettingPath, response: { 200: Empty } },
      config: STORE_SETTINGS_OPERATIONS.deleteDiscountRule,
    },
    async (request) => {
      await settings.deleteDiscountRule(request.params.id);
      return {};
    },
  );
}

/** The store settings call shows currency, weight unit and tax mode; the brand has its own call. */
function withoutCheckout<T extends { checkoutSettings: CheckoutSettings }>(
  store: T,
): Omit<T, 'checkoutSettings'> {
  const { checkoutSettings: _brand, ...rest } = store;
  return rest;
}
