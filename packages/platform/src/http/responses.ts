import Type, { type Static, type TSchema } from 'typebox';

/**
 * The pieces every answer is built from (money, addresses, images, paging, the ecom documents' shared
 * parts), as response schemas: Fastify compiles each route's `schema.response` into its serializer
 * (fast-json-stringify), which writes the properties a schema names and drops any other. So an answer
 * schema names every field the platform answers; an object left open says why, with
 * `additionalProperties: true` on that object only. Only success answers are declared: every error
 * answer is written by the error handler (errors.ts), in the wire's one error form.
 *
 * Field types follow the SDK's wire types (packages/sdk/src/types), which test/response-types.test.ts
 * checks them against; dates are ISO text on the wire (the SDK revives them).
 */

/** A field that may be `null`: a JSON type list, which the serializer writes without trying each branch. */
export const OrNull = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as unknown as { type: string }).type, 'null'] });

/** One of a fixed list of names, typed as the SDK's union but written as plain text. */
export const Named = <T extends string>() => Type.Unsafe<T>(Type.String());

/** Any JSON value, written as it is: for values the wire leaves open (`options`, custom field values). */
export const AnyValue = Type.Unknown();

/** A free-form object the wire leaves open by design (an app's data, a brand's free settings). */
export const OpenObject = Type.Record(Type.String(), Type.Unknown());

/** An instant, as ISO text: a service may hand over a `Date` (the SDK's types do), written as its ISO text. */
export const DateText = Type.Unsafe<string | Date>(Type.String());

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));

/** The answer of a call that answers nothing more than that it succeeded. */
export const EmptyAnswer = Type.Object({});

/** Money in the site's currency and in the buyer's: decimal text (`MultiCurrencyPrice`). */
export const MultiCurrencyPrice = Type.Object({
  amount: text,
  convertedAmount: text,
  formattedAmount: text,
  formattedConvertedAmount: text,
});

/** Money in one currency, decimal text (orders, payments). */
export const Price = Type.Object({ amount: text, formattedAmount: text });

export const Address = Type.Object({
  city: nullableText,
  subdivision: nullableText,
  country: nullableText,
  postalCode: nullableText,
  formattedAddress: nullableText,
  geocode: Type.Optional(
    Type.Object({
      latitude: Type.Optional(OrNull(Type.Number())),
      longitude: Type.Optional(OrNull(Type.Number())),
    }),
  ),
  streetAddress: Type.Optional(Type.Object({ name: text, number: text, apt: text })),
  addressLine: nullableText,
  addressLine1: nullableText,
  addressLine2: nullableText,
  countryFullname: nullableText,
  subdivisionFullname: nullableText,
});

export const ContactDetails = Type.Object({
  firstName: nullableText,
  lastName: nullableText,
  phone: nullableText,
  company: nullableText,
  email: nullableText,
  vatId: Type.Optional(Type.Object({ id: text, type: Type.Optional(Named<'CPF' | 'CNPJ'>()) })),
});

export const AddressWithContact = Type.Object({
  address: Type.Optional(Address),
  contactDetails: Type.Optional(ContactDetails),
});

export const TranslatableString = Type.Object({ original: text, translated: nullableText });

export const Image = Type.Object({
  id: text,
  url: text,
  height: Type.Optional(Type.Number()),
  width: Type.Optional(Type.Number()),
  altText: nullableText,
  filename: nullableText,
  urlExpirationDate: Type.Optional(DateText),
  focalPoint: Type.Optional(
    Type.Object({
      x: Type.Optional(Type.Number()),
      y: Type.Optional(Type.Number()),
      height: Type.Optional(OrNull(Type.Number())),
      width: Type.Optional(OrNull(Type.Number())),
    }),
  ),
});

export const PageUrl = Type.Object({ relativePath: text, url: nullableText });

export const BuyerInfo = Type.Object({
  visitorId: text,
  memberId: text,
  userId: text,
  contactId: nullableText,
  email: nullableText,
});

/** Who created an entity. */
export const CreatedBy = Type.Object({ userId: text, memberId: text, visitorId: text, appId: text });

/** Apps' own fields, by app namespace: open by design, each app keeps what it wants. */
export const ExtendedFields = Type.Object({
  namespaces: Type.Optional(Type.Record(Type.String(), OpenObject)),
});

export const CursorPagingMetadata = Type.Object({
  count: Type.Number(),
  cursors: Type.Object({ next: nullableText, prev: nullableText }),
  hasNext: Type.Boolean(),
});

export const OffsetPagingMetadata = Type.Object({
  count: Type.Number(),
  offset: Type.Number(),
  total: Type.Number(),
  tooManyToCount: Type.Boolean(),
});

/** An error in the wire's form, where an answer carries one inside it (a bulk call's failed item). */
export const ApplicationErrorDetails = Type.Object({
  code: text,
  description: text,
  data: Type.Optional(OpenObject),
});

/** A bulk call's report on one item. */
export const ItemMetadata = Type.Object({
  id: nullableText,
  originalIndex: Type.Optional(Type.Number()),
  success: Type.Optional(Type.Boolean()),
  error: Type.Optional(ApplicationErrorDetails),
});

export const BulkActionMetadata = Type.Object({
  totalSuccesses: Type.Optional(Type.Number()),
  totalFailures: Type.Optional(Type.Number()),
  undetailedFailures: Type.Optional(Type.Number()),
});

// ---- the parts carts, checkouts and orders share (the SDK's types/ecom-common.ts) ----

export const CatalogReference = Type.Object({
  catalogItemId: text,
  appId: text,
  /** The catalog's own choice of variant: `{variantId}`, `{options: {...}}`, or an app's own keys. */
  options: Type.Optional(Type.Unsafe<Record<string, unknown> | null>(AnyValue)),
});

export const ItemType = Type.Object({ preset: text, custom: text });

export const DescriptionLine = Type.Object({
  name: Type.Optional(TranslatableString),
  plainText: Type.Optional(TranslatableString),
  colorInfo: Type.Optional(Type.Object({ original: text, translated: nullableText, code: nullableText })),
  lineType: text,
});

export const PhysicalProperties = Type.Object({
  weight: Type.Optional(OrNull(Type.Number())),
  sku: nullableText,
  shippable: Type.Optional(Type.Boolean()),
});

export const Coupon = Type.Object({
  id: text,
  code: text,
  name: text,
  amount: Type.Optional(MultiCurrencyPrice),
});

export const MerchantDiscount = Type.Object({
  amount: Type.Optional(MultiCurrencyPrice),
  percentage: Type.Optional(OrNull(Type.Number())),
});

export const AppliedDiscount = Type.Object({
  coupon: Type.Optional(Coupon),
  merchantDiscount: Type.Optional(MerchantDiscount),
  discountRule: Type.Optional(
    Type.Object({
      id: text,
      name: Type.Optional(TranslatableString),
      amount: Type.Optional(MultiCurrencyPrice),
    }),
  ),
  discountType: text,
  lineItemIds: Type.Optional(Type.Array(Type.String())),
});

export const SelectedShippingOption = Type.Object({ carrierId: nullableText, code: text });

const DeliveryTimeSlot = Type.Object({ from: Type.Optional(DateText), to: Type.Optional(DateText) });

export const DeliveryLogistics = Type.Object({
  deliveryTime: nullableText,
  instructions: nullableText,
  pickupDetails: Type.Optional(
    Type.Object({
      address: Type.Optional(Address),
      businessLocation: Type.Optional(Type.Boolean()),
      pickupMethod: text,
    }),
  ),
  deliveryTimeSlot: Type.Optional(DeliveryTimeSlot),
});

const ShippingCost = Type.Object({
  price: Type.Optional(MultiCurrencyPrice),
  otherCharges: Type.Optional(
    Type.Array(Type.Object({ type: text, price: Type.Optional(MultiCurrencyPrice), details: nullableText })),
  ),
  totalPriceAfterTax: Type.Optional(MultiCurrencyPrice),
  totalPriceBeforeTax: Type.Optional(MultiCurrencyPrice),
});

export const ShippingOption = Type.Object({
  code: text,
  title: text,
  logistics: Type.Optional(DeliveryLogistics),
  cost: Type.Optional(ShippingCost),
});

export const ShippingInfo = Type.Object({
  shippingDestination: Type.Optional(AddressWithContact),
  selectedCarrierServiceOption: Type.Optional(
    Type.Object({
      code: text,
      title: text,
      logistics: Type.Optional(DeliveryLogistics),
      cost: Type.Optional(ShippingCost),
      requestedShippingOption: Type.Optional(Type.Boolean()),
      carrierId: nullableText,
    }),
  ),
  region: Type.Optional(Type.Object({ id: text, name: text })),
  carrierServiceOptions: Type.Optional(
    Type.Array(Type.Object({ carrierId: text, shippingOptions: Type.Optional(Type.Array(ShippingOption)) })),
  ),
});

export const TaxBreakdown = Type.Object({
  jurisdiction: nullableText,
  jurisdictionType: text,
  nonTaxableAmount: Type.Optional(MultiCurrencyPrice),
  rate: nullableText,
  taxAmount: Type.Optional(MultiCurrencyPrice),
  taxableAmount: Type.Optional(MultiCurrencyPrice),
  taxType: nullableText,
  taxName: nullableText,
});

export const ItemTaxFullDetails = Type.Object({
  taxableAmount: Type.Optional(MultiCurrencyPrice),
  taxRate: text,
  totalTax: Type.Optional(MultiCurrencyPrice),
  rateBreakdown: Type.Optional(
    Type.Array(Type.Object({ name: text, rate: text, tax: Type.Optional(MultiCurrencyPrice) })),
  ),
  taxBreakdown: Type.Optional(Type.Array(TaxBreakdown)),
});

export const TaxSummary = Type.Object({
  taxableAmount: Type.Optional(MultiCurrencyPrice),
  totalTax: Type.Optional(MultiCurrencyPrice),
  calculationDetails: Type.Optional(
    Type.Object({ rateType: text, fallbackReason: text, manualRateReason: text }),
  ),
});

export const PriceSummary = Type.Object({
  subtotal: Type.Optional(MultiCurrencyPrice),
  shipping: Type.Optional(MultiCurrencyPrice),
  tax: Type.Optional(MultiCurrencyPrice),
  discount: Type.Optional(MultiCurrencyPrice),
  total: Type.Optional(MultiCurrencyPrice),
  additionalFees: Type.Optional(MultiCurrencyPrice),
});

export const AdditionalFee = Type.Object({
  code: nullableText,
  name: text,
  price: Type.Optional(MultiCurrencyPrice),
  taxDetails: Type.Optional(ItemTaxFullDetails),
  lineItemIds: Type.Optional(Type.Array(Type.String())),
  priceBeforeTax: Type.Optional(MultiCurrencyPrice),
  priceAfterTax: Type.Optional(MultiCurrencyPrice),
});

export const Violation = Type.Object({
  severity: text,
  target: Type.Optional(
    Type.Object({
      other: Type.Optional(Type.Object({ name: text })),
      lineItem: Type.Optional(Type.Object({ id: nullableText, name: text, suggestedFix: text })),
    }),
  ),
  description: nullableText,
});

export const FieldViolation = Type.Object({
  field: text,
  description: text,
  violatedRule: text,
  ruleName: text,
  data: Type.Optional(OpenObject),
});

/** An error a calculation step met, in the wire's error details' form. */
const CalculationError = Type.Object({
  applicationError: Type.Optional(ApplicationErrorDetails),
  validationError: Type.Optional(Type.Object({ fieldViolations: Type.Optional(Type.Array(FieldViolation)) })),
  tracing: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export const CalculationErrors = Type.Object({
  generalShippingCalculationError: Type.Optional(CalculationError),
  carrierErrors: Type.Optional(
    Type.Object({
      errors: Type.Optional(
        Type.Array(Type.Object({ carrierId: text, error: Type.Optional(CalculationError) })),
      ),
    }),
  ),
  selectedShippingOptionError: Type.Optional(CalculationError),
  taxCalculationError: Type.Optional(CalculationError),
  couponCalculationError: Type.Optional(CalculationError),
  giftCardCalculationError: Type.Optional(CalculationError),
  orderValidationErrors: Type.Optional(Type.Array(ApplicationErrorDetails)),
  membershipError: Type.Optional(CalculationError),
  discountsCalculationError: Type.Optional(CalculationError),
});

const Membership = Type.Object({
  id: text,
  appId: text,
  name: Type.Optional(Type.Object({ original: text, translated: nullableText })),
  lineItemIds: Type.Optional(Type.Array(Type.String())),
  credits: Type.Optional(
    Type.Object({ total: Type.Optional(Type.Number()), remaining: Type.Optional(Type.Number()) }),
  ),
  expirationDate: Type.Optional(DateText),
});

export const SelectedMembership = Type.Object({
  id: text,
  appId: text,
  lineItemIds: Type.Optional(Type.Array(Type.String())),
});

export const MembershipOptions = Type.Object({
  eligibleMemberships: Type.Optional(Type.Array(Membership)),
  invalidMemberships: Type.Optional(
    Type.Array(Type.Object({ membership: Type.Optional(Membership), reason: text })),
  ),
  selectedMemberships: Type.Optional(
    Type.Object({ memberships: Type.Optional(Type.Array(SelectedMembership)) }),
  ),
});

export const SubscriptionOptionInfo = Type.Object({
  subscriptionSettings: Type.Optional(
    Type.Object({
      frequency: text,
      interval: Type.Optional(OrNull(Type.Number())),
      autoRenewal: Type.Optional(Type.Boolean()),
      billingCycles: Type.Optional(OrNull(Type.Number())),
      enableCustomerCancellation: Type.Optional(Type.Boolean()),
      freeTrialPeriod: Type.Optional(
        Type.Object({ frequency: text, interval: Type.Optional(Type.Number()) }),
      ),
      startDate: Type.Optional(DateText),
    }),
  ),
  title: Type.Optional(TranslatableString),
  description: Type.Optional(TranslatableString),
});

export const ServiceProperties = Type.Object({
  scheduledDate: Type.Optional(DateText),
  numberOfParticipants: Type.Optional(OrNull(Type.Number())),
});

export const CatalogOverrideFields = Type.Object({
  productName: Type.Optional(TranslatableString),
  price: nullableText,
  fullPrice: nullableText,
  descriptionLines: Type.Optional(Type.Array(DescriptionLine)),
  physicalProperties: Type.Optional(PhysicalProperties),
  image: Type.Optional(Image),
  paymentOption: Type.Optional(Type.Object({ value: text })),
  depositAmount: nullableText,
});
