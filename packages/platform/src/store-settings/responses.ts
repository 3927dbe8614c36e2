import Type from 'typebox';
import {
  AddressAnswer,
  AnyValue,
  Choice,
  CursorPagingAnswer,
  NullableNumber,
  NullableText,
  Timestamp,
} from '../http/responses-identity.ts';

/**
 * What the store's settings calls answer: Cartwheel's own admin documents (the SDK's store-admin.ts)
 * and, at the hosted paths, checkout settings and discount rules (the SDK's ecom-discounts.ts).
 */

const Dated = { createdDate: Type.String(), updatedDate: Type.String() };

export const StoreSettingsAnswer = Type.Object({
  storeSettings: Type.Object({
    currency: Type.String(),
    weightUnit: Choice(['KG', 'LB']),
    taxIncludedInPrices: Type.Boolean(),
  }),
});

export const CheckoutSettingsAnswer = Type.Object({
  checkoutSettings: Type.Object({
    checkoutBrand: Type.Object({
      header: Type.Object({
        logo: Type.Union([
          Type.Object({
            image: Type.Optional(Type.Object({ url: Type.Optional(Type.String()) })),
            size: Choice(['SMALL', 'MEDIUM', 'LARGE']),
            alignment: Choice(['SIDE', 'CENTER']),
          }),
          Type.Null(),
        ]),
      }),
    }),
  }),
});

const TaxRegion = Type.Object({
  id: Type.String(),
  name: Type.String(),
  country: Type.String(),
  subdivision: NullableText,
  rate: Type.String(),
  taxShipping: Type.Boolean(),
  ...Dated,
});
export const TaxRegionsAnswer = Type.Object({ taxRegions: Type.Array(TaxRegion) });
export const TaxRegionAnswer = Type.Object({ taxRegion: TaxRegion });

const ShippingRegion = Type.Object({
  id: Type.String(),
  name: Type.String(),
  destinations: Type.Array(
    Type.Object({ country: Type.String(), subdivisions: Type.Optional(Type.Array(Type.String())) }),
  ),
  options: Type.Array(
    Type.Object({
      code: Type.String(),
      title: Type.String(),
      deliveryTime: Type.Optional(NullableText),
      rate: Type.Object({
        kind: Choice(['FLAT_RATE', 'BY_WEIGHT']),
        price: Type.Optional(Type.String()),
        pricePerWeightUnit: Type.Optional(Type.String()),
        weightBrackets: Type.Optional(
          Type.Array(Type.Object({ upToWeight: NullableNumber, price: Type.String() })),
        ),
        freeShippingAbove: Type.Optional(NullableText),
      }),
      deliveryTimeSlots: Type.Optional(Type.Array(Type.Object({ from: Type.String(), to: Type.String() }))),
    }),
  ),
  ...Dated,
});
export const ShippingRegionsAnswer = Type.Object({ shippingRegions: Type.Array(ShippingRegion) });
export const ShippingRegionAnswer = Type.Object({ shippingRegion: ShippingRegion });

const PickupLocation = Type.Object({
  id: Type.String(),
  code: Type.String(),
  title: Type.String(),
  pickupMethod: Choice(['STORE_PICKUP', 'PICKUP_POINT']),
  address: AddressAnswer,
  price: Type.String(),
  instructions: Type.Optional(NullableText),
  deliveryTime: Type.Optional(NullableText),
  ...Dated,
});
export const PickupLocationsAnswer = Type.Object({ pickupLocations: Type.Array(PickupLocation) });
export const PickupLocationAnswer = Type.Object({ pickupLocation: PickupLocation });

/** A coupon (SDK `StoreCoupon`). */
export const Coupon = Type.Object({
  id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
  discountType: Choice(['PERCENTAGE', 'FIXED_AMOUNT', 'FREE_SHIPPING']),
  percentage: Type.Optional(NullableNumber),
  fixedAmount: Type.Optional(NullableText),
  productIds: Type.Optional(Type.Array(Type.String())),
  collectionIds: Type.Optional(Type.Array(Type.String())),
  minimumSubtotal: Type.Optional(NullableText),
  startTime: Type.Optional(NullableText),
  expirationTime: Type.Optional(NullableText),
  ...Dated,
});
export const CouponsAnswer = Type.Object({ coupons: Type.Array(Coupon) });
export const CouponAnswer = Type.Object({ coupon: Coupon });

/** A discount rule (SDK `DiscountRule`); its trigger and discounts nest as the hosted wire nests them. */
export const DiscountRule = Type.Object({
  id: Type.Optional(NullableText),
  revision: Type.Optional(NullableText),
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  active: Type.Optional(Type.Unsafe<boolean | null>({ type: ['boolean', 'null'] })),
  name: Type.Optional(NullableText),
  // the trigger tree (`and`/`or` of ranges) is kept as checked, written as it is
  trigger: Type.Optional(AnyValue),
  activeTimeInfo: Type.Optional(
    Type.Object({ start: Type.Optional(Timestamp), end: Type.Optional(Timestamp) }),
  ),
  discounts: Type.Optional(Type.Object({ values: Type.Optional(Type.Array(AnyValue)) })),
  status: Type.Optional(Choice(['LIVE', 'EXPIRED', 'PENDING'])),
  usageCount: Type.Optional(Type.Number()),
});
export const DiscountRuleAnswer = Type.Object({ discountRule: DiscountRule });
export const DiscountRulesPageAnswer = Type.Object({
  discountRules: Type.Array(DiscountRule),
  pagingMetadata: CursorPagingAnswer,
});
