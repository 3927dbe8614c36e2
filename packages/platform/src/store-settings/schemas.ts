import Type from 'typebox';
import {
  Id,
  Ids,
  Ignored,
  Nullable,
  OneOf,
  OpenObject,
  PathIdCopy,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';

/**
 * The store-settings admin calls' inputs. Shapes and sizes are checked here; what only the store
 * knows (a real country code, a rate between 0 and 1, a code no other coupon has) in the service.
 */

const NAME = 200;
/** Ids a coupon or discount rule may name (products, collections). */
const MAX_SCOPE_IDS = 200;

/** A decimal amount as the wire writes money: `"5.99"`, never a number. */
const Amount = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,6})?$', maxLength: 20 });
const Rate = Type.String({ pattern: '^\\d(\\.\\d{1,8})?$', maxLength: 10 });
const Country = Type.String({ pattern: '^[A-Za-z]{2}$' });
const Subdivision = Type.String({ pattern: '^([A-Za-z]{2}-)?[A-Za-z0-9]{1,3}$' });
const DateText = Type.String({ minLength: 10, maxLength: 40 });
const Percentage = Type.Number({ exclusiveMinimum: 0, maximum: 100 });

const Address = Type.Object({
  country: Type.Optional(Nullable(Country)),
  subdivision: Type.Optional(Nullable(Subdivision)),
  city: Type.Optional(Nullable(Text(NAME))),
  postalCode: Type.Optional(Nullable(Text(40))),
  addressLine: Type.Optional(Nullable(Text(NAME))),
  addressLine2: Type.Optional(Nullable(Text(NAME))),
  formattedAddress: Type.Optional(Nullable(Text(500))),
  streetAddress: Type.Optional(
    Nullable(
      Type.Object({
        number: Type.Optional(Text(40)),
        name: Type.Optional(Text(NAME)),
        apt: Type.Optional(Text(40)),
      }),
    ),
  ),
});

// ---- the store's own settings ----

export const UpdateStoreSettingsBody = Type.Object({
  storeSettings: Type.Object({
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    weightUnit: Type.Optional(OneOf(['KG', 'LB'])),
    taxIncludedInPrices: Type.Optional(Type.Boolean()),
  }),
});

// ---- checkout settings: the hosted call's whole shape; `null` clears a field ----

/** `#RGB`, `#RRGGBB` or `#RRGGBBAA`, as the hosted wire's COLOR_HEX. */
const Color = Type.Optional(
  Nullable(Type.String({ pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$' })),
);
const Flag = Type.Optional(Nullable(Type.Boolean()));
const POLICY_TEXT = 20_000;

const CheckoutImage = Type.Object({
  id: Type.Optional(Text(400)),
  url: Type.Optional(Text(URL_MAX_LENGTH)),
  height: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  width: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  altText: Type.Optional(Nullable(Text(NAME))),
  filename: Type.Optional(Nullable(Text(NAME))),
});
const BackgroundFill = Type.Optional(
  Nullable(Type.Object({ color: Color, image: Type.Optional(Nullable(CheckoutImage)) })),
);
const Policy = Type.Optional(
  Nullable(Type.Object({ visible: Flag, content: Type.Optional(Nullable(Text(POLICY_TEXT))) })),
);
const Checkbox = { visible: Flag, checkedByDefault: Flag };
const LOGO_SIZES = ['SMALL', 'MEDIUM', 'LARGE'] as const;
const ALIGNMENTS = ['SIDE', 'CENTER'] as const;

export const UpdateCheckoutSettingsBody = Type.Object({
  checkoutSettings: Type.Object({
    status: Type.Optional(OneOf(['ACTIVE', 'INACTIVE'])),
    checkoutPolicies: Type.Optional(
      Type.Object({
        termsAndConditions: Policy,
        privacyPolicy: Policy,
        returnPolicy: Policy,
        digitalItemPolicy: Policy,
        contactUs: Policy,
        customPolicy: Type.Optional(
          Nullable(
            Type.Object({
              visible: Flag,
              content: Type.Optional(Nullable(Text(POLICY_TEXT))),
              title: Type.Optional(Nullable(Text(NAME))),
            }),
          ),
        ),
      }),
    ),
    checkoutFields: Type.Optional(
      Type.Object({
        subscriptionCheckbox: Type.Optional(Nullable(Type.Object({ ...Checkbox, splitByChannel: Flag }))),
        policyAgreementCheckbox: Type.Optional(Nullable(Type.Object(Checkbox))),
        giftCardRedeemEnabled: Flag,
        mitEnabled: Flag,
        delayCaptureEnabled: Flag,
        captureBeforeExpiryEnabled: Flag,
      }),
    ),
    checkoutBrand: Type.Optional(
      Type.Object({
        header: Type.Optional(
          Type.Object({
            text: Type.Optional(Nullable(Text(55))),
            textColor: Color,
            logo: Type.Optional(
              Nullable(
                Type.Object({
                  image: Type.Optional(Nullable(CheckoutImage)),
                  size: Type.Optional(OneOf([...LOGO_SIZES])),
                  // Cartwheel's first logo call sent the header's alignment with the logo: kept, as the header's
                  alignment: Type.Optional(OneOf([...ALIGNMENTS])),
                }),
              ),
            ),
            alignment: Type.Optional(OneOf([...ALIGNMENTS])),
            displayCheckoutLabel: Flag,
            continueShopping: Type.Optional(
              Nullable(Type.Object({ hidden: Flag, displayType: Type.Optional(OneOf(['TEXT', 'ICON'])) })),
            ),
            backgroundFill: BackgroundFill,
            dividerColor: Color,
          }),
        ),
        mainSection: Type.Optional(
          Type.Object({
            formBackgroundFill: BackgroundFill,
            summaryBackgroundFill: BackgroundFill,
            dividerColor: Color,
            tintedBoxColor: Color,
            expressButtonsCornerRadius: Type.Optional(OneOf(['RECTANGLE', 'PILL'])),
            cornerRadius: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
          }),
        ),
        footer: Type.Optional(Type.Object({ backgroundFill: BackgroundFill, dividerColor: Color })),
        global: Type.Optional(
          Type.Object({ selectionColor: Color, placeOrderButtonColor: Color, buttonColor: Color }),
        ),
      }),
    ),
    checkoutBillingFields: Type.Optional(OneOf(['All_FIELDS', 'MINIMUM_REQUIRED_FIELDS'])),
    // the hosted client sends back what it read: its dates are the store's to set
    createdDate: Type.Optional(
      Ignored("set by the platform (the store's units, the order's number, dates and statuses)"),
    ),
    updatedDate: Type.Optional(
      Ignored("set by the platform (the store's units, the order's number, dates and statuses)"),
    ),
  }),
});

// ---- tax regions ----

const TaxRegionFields = {
  name: Type.String({ minLength: 1, maxLength: NAME }),
  country: Country,
  subdivision: Type.Optional(Nullable(Subdivision)),
  rate: Rate,
  taxShipping: Type.Optional(Type.Boolean()),
};
export const CreateTaxRegionBody = Type.Object({ taxRegion: Type.Object(TaxRegionFields) });
export const UpdateTaxRegionBody = Type.Object({
  taxRegion: Type.Partial(Type.Object({ ...TaxRegionFields, id: PathIdCopy() })),
});

// ---- shipping regions ----

const ShippingRateOption = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_.:-]+$' }),
  title: Type.String({ minLength: 1, maxLength: NAME }),
  deliveryTime: Type.Optional(Nullable(Text(NAME))),
  rate: Type.Object({
    kind: OneOf(['FLAT_RATE', 'BY_WEIGHT']),
    price: Type.Optional(Amount),
    pricePerWeightUnit: Type.Optional(Amount),
    weightBrackets: Type.Optional(
      Type.Array(
        Type.Object({
          upToWeight: Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 1e9 })),
          price: Amount,
        }),
        { maxItems: 20 },
      ),
    ),
    freeShippingAbove: Type.Optional(Nullable(Amount)),
  }),
  deliveryTimeSlots: Type.Optional(
    Type.Array(Type.Object({ from: DateText, to: DateText }), { maxItems: 50 }),
  ),
});

const ShippingRegionFields = {
  name: Type.String({ minLength: 1, maxLength: NAME }),
  destinations: Type.Array(
    Type.Object({
      country: Country,
      subdivisions: Type.Optional(Type.Array(Subdivision, { maxItems: 100 })),
    }),
    { minItems: 1, maxItems: 300 },
  ),
  options: Type.Array(ShippingRateOption, { maxItems: 20 }),
};
export const CreateShippingRegionBody = Type.Object({ shippingRegion: Type.Object(ShippingRegionFields) });
export const UpdateShippingRegionBody = Type.Object({
  shippingRegion: Type.Partial(Type.Object({ ...ShippingRegionFields, id: PathIdCopy() })),
});

// ---- pickup locations ----

const PickupLocationFields = {
  code: Type.String({ minLength: 1, maxLength: 60, pattern: '^[A-Za-z0-9_.:-]+$' }),
  title: Type.String({ minLength: 1, maxLength: NAME }),
  pickupMethod: Type.Optional(OneOf(['STORE_PICKUP', 'PICKUP_POINT'])),
  address: Address,
  price: Type.Optional(Amount),
  instructions: Type.Optional(Nullable(Text(1000))),
  deliveryTime: Type.Optional(Nullable(Text(NAME))),
};
export const CreatePickupLocationBody = Type.Object({ pickupLocation: Type.Object(PickupLocationFields) });
export const UpdatePickupLocationBody = Type.Object({
  pickupLocation: Type.Partial(Type.Object({ ...PickupLocationFields, id: PathIdCopy() })),
});

// ---- coupons ----

const CouponFields = {
  code: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9_-]+$' }),
  name: Type.Optional(Text(NAME)),
  active: Type.Optional(Type.Boolean()),
  discountType: OneOf(['PERCENTAGE', 'FIXED_AMOUNT', 'FREE_SHIPPING']),
  percentage: Type.Optional(Nullable(Percentage)),
  fixedAmount: Type.Optional(Nullable(Amount)),
  productIds: Type.Optional(Ids(MAX_SCOPE_IDS)),
  collectionIds: Type.Optional(Ids(MAX_SCOPE_IDS)),
  minimumSubtotal: Type.Optional(Nullable(Amount)),
  startTime: Type.Optional(Nullable(DateText)),
  expirationTime: Type.Optional(Nullable(DateText)),
};
export const CreateCouponBody = Type.Object({ coupon: Type.Object(CouponFields) });
export const UpdateCouponBody = Type.Object({
  coupon: Type.Partial(Type.Object({ ...CouponFields, id: PathIdCopy() })),
});

// ---- discount rules (the hosted shapes) ----

const Scope = Type.Object({
  id: Type.Optional(Text(NAME)),
  type: Type.Optional(Text(40)),
  catalogItemFilter: Type.Optional(
    Type.Object({
      catalogAppId: Type.Optional(Text(100)),
      catalogItemIds: Type.Optional(Ids(MAX_SCOPE_IDS)),
    }),
  ),
  customFilter: Type.Optional(
    Type.Object({
      appId: Type.Optional(Text(100)),
      params: Type.Optional(Type.Object({ collectionIds: Type.Optional(Ids(MAX_SCOPE_IDS)) })),
    }),
  ),
});

const RuleDiscount = Type.Object({
  discountType: Type.Optional(OneOf(['PERCENTAGE', 'FIXED_AMOUNT', 'FIXED_PRICE'])),
  percentage: Type.Optional(Percentage),
  fixedAmount: Type.Optional(Amount),
  fixedPrice: Type.Optional(Amount),
  targetType: Type.Optional(OneOf(['ENTIRE_CART', 'SPECIFIC_ITEMS', 'SHIPPING'])),
  specificItemsInfo: Type.Optional(
    Type.Object({ scopes: Type.Optional(Type.Array(Scope, { maxItems: 20 })) }),
  ),
});

/** Nested `and`/`or` triggers: the service walks them (at most a few levels deep). */
const Trigger = OpenObject('walked by store-settings/checks.ts, which names a trigger it does not know', {
  maxProperties: 8,
});

const DiscountRuleFields = {
  name: Type.String({ minLength: 1, maxLength: NAME }),
  active: Type.Optional(Nullable(Type.Boolean())),
  trigger: Type.Optional(Trigger),
  activeTimeInfo: Type.Optional(
    Type.Object({ start: Type.Optional(Nullable(DateText)), end: Type.Optional(Nullable(DateText)) }),
  ),
  discounts: Type.Object({ values: Type.Array(RuleDiscount, { minItems: 1, maxItems: 10 }) }),
};
export const CreateDiscountRuleBody = Type.Object({ discountRule: Type.Object(DiscountRuleFields) });
export const UpdateDiscountRuleBody = Type.Object({
  discountRule: Type.Partial(
    Type.Object({
      ...DiscountRuleFields,
      id: PathIdCopy(),
      revision: Type.Optional(Nullable(Type.Union([Text(20), Type.Integer()]))),
    }),
  ),
});
export const QueryDiscountRulesBody = Type.Object({
  query: Type.Optional(
    Type.Object({
      // rules are few: a query lists them all, oldest first; a filter is refused rather than ignored
      filter: Type.Optional(Type.Object({}, { maxProperties: 0 })),
      cursorPaging: Type.Optional(
        Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          // the cursor this query gave: the offset of the next page
          cursor: Type.Optional(Nullable(Type.String({ pattern: '^[0-9]{1,6}$' }))),
        }),
      ),
    }),
  ),
});

export const SettingPath = Type.Object({ id: Id() });
