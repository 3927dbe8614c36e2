import type {
  CreateApiKeyInput,
  PaymentSettings,
  StoreCouponInput,
  StorePickupLocationInput,
  StoreSettings,
  StoreShippingRegionInput,
  TaxRegionInput,
} from '@cartwheel/sdk';
import type { Static } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type { PaymentSettingsBody } from '../src/payments/schemas.ts';
import type { CreateApiKeyBody } from '../src/staff/schemas.ts';
import type {
  CreateCouponBody,
  CreatePickupLocationBody,
  CreateShippingRegionBody,
  CreateTaxRegionBody,
  UpdateStoreSettingsBody,
} from '../src/store-settings/schemas.ts';

/**
 * The SDK's admin request bodies and the platform's input schemas are one contract (issue 37): every
 * body the SDK's types let a caller write is one the route's schema takes, and names no field the
 * schema would refuse (a key is checked apart: a type with more keys still extends one with fewer).
 * Checked by the type checker (`npm run typecheck` reads this file).
 */
type Fits<Sdk, Schema> = [Sdk] extends [Schema] ? ([keyof Sdk] extends [keyof Schema] ? true : false) : false;

describe('the SDK admin input types fit the platform input schemas', () => {
  it('store settings, payments, API keys, tax and shipping regions, pickup locations, coupons', () => {
    expectTypeOf<
      Fits<StoreSettings, Static<typeof UpdateStoreSettingsBody>['storeSettings']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Fits<PaymentSettings, Static<typeof PaymentSettingsBody>['paymentSettings']>
    >().toEqualTypeOf<true>();
    expectTypeOf<Fits<CreateApiKeyInput, Static<typeof CreateApiKeyBody>['apiKey']>>().toEqualTypeOf<true>();
    expectTypeOf<
      Fits<TaxRegionInput, Static<typeof CreateTaxRegionBody>['taxRegion']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Fits<StoreShippingRegionInput, Static<typeof CreateShippingRegionBody>['shippingRegion']>
    >().toEqualTypeOf<true>();
    expectTypeOf<
      Fits<StorePickupLocationInput, Static<typeof CreatePickupLocationBody>['pickupLocation']>
    >().toEqualTypeOf<true>();
    expectTypeOf<Fits<StoreCouponInput, Static<typeof CreateCouponBody>['coupon']>>().toEqualTypeOf<true>();
  });
});
