import Type from 'typebox';
import { LineItemFields } from '../carts/responses.ts';
import {
  AdditionalFee,
  AddressWithContact,
  AnyValue,
  AppliedDiscount,
  BuyerInfo,
  CalculationErrors,
  CreatedBy,
  DateText,
  ExtendedFields,
  Image,
  ItemTaxFullDetails,
  MembershipOptions,
  MultiCurrencyPrice,
  OpenObject,
  OrNull,
  PriceSummary,
  ShippingInfo,
  TaxSummary,
  TranslatableString,
  Violation,
} from '../http/responses.ts';

/** The checkout calls' and the hosted checkout page's answers (the SDK's types/ecom-checkout.ts). */

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));
const flag = Type.Optional(Type.Boolean());

/** A checkout's line: a cart line with its taxes and discount worked out. */
export const CheckoutLineItem = Type.Object({
  ...LineItemFields,
  media: Type.Optional(Image),
  totalPriceBeforeTax: Type.Optional(MultiCurrencyPrice),
  totalPriceAfterTax: Type.Optional(MultiCurrencyPrice),
  taxDetails: Type.Optional(ItemTaxFullDetails),
  discount: Type.Optional(MultiCurrencyPrice),
  priceDescription: Type.Optional(TranslatableString),
  savePaymentMethod: flag,
  membersOnly: flag,
});

export const Checkout = Type.Object({
  id: nullableText,
  lineItems: Type.Optional(Type.Array(CheckoutLineItem)),
  billingInfo: Type.Optional(AddressWithContact),
  shippingInfo: Type.Optional(ShippingInfo),
  buyerNote: nullableText,
  buyerInfo: Type.Optional(BuyerInfo),
  conversionCurrency: text,
  priceSummary: Type.Optional(PriceSummary),
  calculationErrors: Type.Optional(CalculationErrors),
  giftCard: Type.Optional(
    Type.Object({ id: text, obfuscatedCode: text, amount: Type.Optional(MultiCurrencyPrice), appId: text }),
  ),
  appliedDiscounts: Type.Optional(Type.Array(AppliedDiscount)),
  customFields: Type.Optional(
    Type.Array(Type.Object({ value: Type.Optional(AnyValue), title: text, translatedTitle: nullableText })),
  ),
  weightUnit: text,
  taxSummary: Type.Optional(TaxSummary),
  currency: text,
  channelType: text,
  siteLanguage: text,
  buyerLanguage: text,
  completed: flag,
  taxIncludedInPrice: flag,
  /** The cart's name for `taxIncludedInPrice`, answered beside it. */
  taxIncludedInPrices: flag,
  createdBy: Type.Optional(CreatedBy),
  createdDate: Type.Optional(DateText),
  updatedDate: Type.Optional(DateText),
  payNow: Type.Optional(PriceSummary),
  payLater: Type.Optional(PriceSummary),
  membershipOptions: Type.Optional(MembershipOptions),
  additionalFees: Type.Optional(Type.Array(AdditionalFee)),
  cartId: nullableText,
  violations: Type.Optional(Type.Array(Violation)),
  purchaseFlowId: nullableText,
  extendedFields: Type.Optional(ExtendedFields),
  customSettings: Type.Optional(
    Type.Object({
      lockGiftCard: flag,
      lockCouponCode: flag,
      disabledPolicyAgreementCheckbox: flag,
      disabledManualPayment: flag,
    }),
  ),
  subscriptionCharges: Type.Optional(
    Type.Object({
      lineItemIds: Type.Optional(Type.Array(Type.String())),
      description: nullableText,
      charges: Type.Optional(
        Type.Array(
          Type.Object({
            cycleFrom: Type.Optional(Type.Number()),
            cycleCount: Type.Optional(OrNull(Type.Number())),
            priceSummary: Type.Optional(PriceSummary),
            cycleBillingDate: Type.Optional(DateText),
          }),
        ),
      ),
    }),
  ),
  payAfterFreeTrial: Type.Optional(PriceSummary),
  businessLocationId: nullableText,
  paymentCurrency: text,
  taxExemptGroupId: nullableText,
});

export const CheckoutAnswer = Type.Object({ checkout: Checkout });

export const CreateOrderAnswer = Type.Object({
  orderId: text,
  subscriptionId: text,
  paymentGatewayOrderId: nullableText,
});

export const CheckoutUrlAnswer = Type.Object({ checkoutUrl: text });

// ---- the hosted checkout page ----

const Callbacks = Type.Object({ postFlowUrl: text, thankYouPageUrl: text, cartPageUrl: text });

export const PageSessionAnswer = Type.Object({
  checkout: Checkout,
  settings: Type.Object({
    storeName: Type.String(),
    currency: Type.String(),
    taxIncludedInPrices: Type.Boolean(),
    /** The store's checkout brand (the SDK's `CheckoutBrand`), whose sections are free-form by design. */
    checkoutBrand: OpenObject,
  }),
  callbacks: Callbacks,
  /** How the page takes a card: its own form, Stripe's Payment Element (with its key), or none. */
  payment: Type.Object({
    kind: Type.Union([Type.Literal('FORM'), Type.Literal('STRIPE'), Type.Literal('NONE')]),
    publishableKey: Type.Optional(Type.String()),
  }),
  completed: Type.Optional(Type.Object({ orderId: Type.String(), redirectUrl: Type.String() })),
});

/** The page's answer to a payment: the thank-you page to go to, or the 3-D Secure step. */
export const PayAnswer = Type.Object({
  status: Type.String(),
  orderId: text,
  redirectUrl: text,
  actionUrl: text,
});

export const AttemptAnswer = Type.Object({
  attemptId: Type.String(),
  status: Type.String(),
  amount: Type.Object({ amount: Type.String(), formattedAmount: Type.String() }),
  currency: Type.String(),
  /** How the page takes the 3-D Secure step the attempt waits on: the confirm page, or Stripe's script. */
  nextAction: Type.Optional(
    Type.Object({
      kind: Type.Union([Type.Literal('PAGE'), Type.Literal('STRIPE')]),
      publishableKey: Type.Optional(Type.String()),
      clientSecret: Type.Optional(Type.String()),
    }),
  ),
});
