import Type from 'typebox';
import {
  AddressAnswer,
  AnyValue,
  Choice,
  CursorPagingAnswer,
  NullableBoolean,
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

const CheckoutImage = Type.Object({
  id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  height: Type.Optional(Type.Number()),
  width: Type.Optional(Type.Number()),
  altText: Type.Optional(NullableText),
  filename: Type.Optional(NullableText),
});
const BackgroundFill = Type.Optional(
  Type.Object({ color: Type.Optional(NullableText), image: Type.Optional(CheckoutImage) }),
);
const Flag = Type.Optional(NullableBoolean);
const Policy = Type.Optional(Type.Object({ visible: Flag, content: Type.Optional(NullableText) }));
const Checkbox = { visible: Flag, checkedByDefault: Flag };

/** The hosted `CheckoutSettings` whole, with point 4's status (the SDK's `StoreCheckoutSettings`). */
export const CheckoutSettingsAnswer = Type.Object({
  checkoutSettings: Type.Object({
    status: Choice(['ACTIVE', 'INACTIVE']),
    checkoutPolicies: Type.Object({
      termsAndConditions: Policy,
      privacyPolicy: Policy,
      returnPolicy: Policy,
      digitalItemPolicy: Policy,
      contactUs: Policy,
      customPolicy: Type.Optional(
        Type.Object({
          visible: Flag,
          content: Type.Optional(NullableText),
          title: Type.Optional(NullableText),
        }),
      ),
    }),
    checkoutFields: Type.Object({
      subscriptionCheckbox: Type.Optional(Type.Object({ ...Checkbox, splitByChannel: Flag })),
      policyAgreementCheckbox: Type.Optional(Type.Object(Checkbox)),
      giftCardRedeemEnabled: Flag,
      mitEnabled: Flag,
      delayCaptureEnabled: Flag,
      captureBeforeExpiryEnabled: Flag,
    }),
    checkoutBrand: Type.Object({
      header: Type.Object({
        text: Type.Optional(NullableText),
        textColor: Type.Optional(NullableText),
        logo: Type.Union([
          Type.Object({ image: Type.Optional(CheckoutImage), size: Choice(['SMALL', 'MEDIUM', 'LARGE']) }),
          Type.Null(),
        ]),
        alignment: Choice(['SIDE', 'CENTER']),
        displayCheckoutLabel: Flag,
        continueShopping: Type.Optional(
          Type.Object({ hidden: Flag, displayType: Type.Optional(Choice(['TEXT', 'ICON'])) }),
        ),
        backgroundFill: BackgroundFill,
        dividerColor: Type.Optional(NullableText),
      }),
      mainSection: Type.Optional(
        Type.Object({
          formBackgroundFill: BackgroundFill,
          summaryBackgroundFill: BackgroundFill,
          dividerColor: Type.Optional(NullableText),
          tintedBoxColor: Type.Optional(NullableText),
          expressButtonsCornerRadius: Type.Optional(Choice(['RECTANGLE', 'PILL'])),
          cornerRadius: Type.Optional(NullableNumber),
        }),
      ),
      footer: Type.Optional(
        Type.Object({ backgroundFill: BackgroundFill, dividerColor: Type.Optional(NullableText) }),
      ),
      global: Type.Optional(
        Type.Object({
          selectionColor: Type.Optional(NullableText),
          placeOrderButtonColor: Type.Optional(NullableText),
          buttonColor: Type.Optional(NullableText),
        }),
      ),
    }),
    checkoutBillingFields: Type.Optional(Choice(['All_FIELDS', 'MINIMUM_REQUIRED_FIELDS'])),
    createdDate: Type.Optional(Type.String()),
    updatedDate: Type.Optional(Type.String()),
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
