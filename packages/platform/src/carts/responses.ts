import Type from 'typebox';
import {
  AdditionalFee,
  AddressWithContact,
  AppliedDiscount,
  BuyerInfo,
  CalculationErrors,
  CatalogOverrideFields,
  CatalogReference,
  DateText,
  DescriptionLine,
  EmptyAnswer,
  Image,
  ItemTaxFullDetails,
  ItemType,
  MembershipOptions,
  MultiCurrencyPrice,
  OrNull,
  PageUrl,
  PhysicalProperties,
  PriceSummary,
  SelectedMembership,
  SelectedShippingOption,
  ServiceProperties,
  ShippingInfo,
  SubscriptionOptionInfo,
  TaxSummary,
  TranslatableString,
  Violation,
} from '../http/responses.ts';

/** The current-cart calls' answers (the SDK's types/ecom-cart.ts), as response schemas. */

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));
const flag = Type.Optional(Type.Boolean());

/** A cart's line (the checkout's line extends it). */
export const LineItemFields = {
  id: nullableText,
  quantity: Type.Optional(Type.Number()),
  catalogReference: Type.Optional(CatalogReference),
  productName: Type.Optional(TranslatableString),
  url: Type.Optional(PageUrl),
  price: Type.Optional(MultiCurrencyPrice),
  fullPrice: Type.Optional(MultiCurrencyPrice),
  priceBeforeDiscounts: Type.Optional(MultiCurrencyPrice),
  lineItemPrice: Type.Optional(MultiCurrencyPrice),
  descriptionLines: Type.Optional(Type.Array(DescriptionLine)),
  image: Type.Optional(Image),
  availability: Type.Optional(
    Type.Object({ status: text, quantityAvailable: Type.Optional(OrNull(Type.Number())) }),
  ),
  physicalProperties: Type.Optional(PhysicalProperties),
  itemType: Type.Optional(ItemType),
  subscriptionOptionInfo: Type.Optional(SubscriptionOptionInfo),
  paymentOption: text,
  serviceProperties: Type.Optional(ServiceProperties),
  rootCatalogItemId: nullableText,
  depositAmount: Type.Optional(MultiCurrencyPrice),
  selectedMembership: Type.Optional(SelectedMembership),
  customLineItem: flag,
  priceUndetermined: flag,
  fixedQuantity: flag,
  catalogOverrideFields: Type.Optional(CatalogOverrideFields),
};

export const LineItem = Type.Object(LineItemFields);

export const Cart = Type.Object({
  id: nullableText,
  lineItems: Type.Optional(Type.Array(LineItem)),
  buyerNote: nullableText,
  buyerInfo: Type.Optional(BuyerInfo),
  currency: text,
  conversionCurrency: text,
  buyerLanguage: nullableText,
  siteLanguage: nullableText,
  taxIncludedInPrices: Type.Optional(OrNull(Type.Boolean())),
  weightUnit: text,
  checkoutId: nullableText,
  /** The SDK's `CartDiscount` names a coupon or a merchant discount; the cart answers their reach too. */
  appliedDiscounts: Type.Optional(Type.Array(AppliedDiscount)),
  createdDate: Type.Optional(DateText),
  updatedDate: Type.Optional(DateText),
  contactInfo: Type.Optional(AddressWithContact),
  selectedShippingOption: Type.Optional(SelectedShippingOption),
  overrideCheckoutUrl: nullableText,
  purchaseFlowId: nullableText,
});

export const CartAnswer = Type.Object({ cart: Cart });

export const CreateCheckoutAnswer = Type.Object({ checkoutId: Type.String() });

export const EstimateTotalsAnswer = Type.Object({
  cart: Type.Optional(Cart),
  calculatedLineItems: Type.Optional(
    Type.Array(
      Type.Object({
        lineItemId: text,
        pricesBreakdown: Type.Optional(
          Type.Object({
            totalPriceAfterTax: Type.Optional(MultiCurrencyPrice),
            totalPriceBeforeTax: Type.Optional(MultiCurrencyPrice),
            taxDetails: Type.Optional(ItemTaxFullDetails),
            totalDiscount: Type.Optional(MultiCurrencyPrice),
            price: Type.Optional(MultiCurrencyPrice),
            priceBeforeDiscounts: Type.Optional(MultiCurrencyPrice),
            lineItemPrice: Type.Optional(MultiCurrencyPrice),
            fullPrice: Type.Optional(MultiCurrencyPrice),
          }),
        ),
        paymentOption: text,
      }),
    ),
  ),
  priceSummary: Type.Optional(PriceSummary),
  taxSummary: Type.Optional(TaxSummary),
  shippingInfo: Type.Optional(ShippingInfo),
  appliedDiscounts: Type.Optional(Type.Array(AppliedDiscount)),
  calculationErrors: Type.Optional(CalculationErrors),
  weightUnit: text,
  currency: text,
  payNow: Type.Optional(PriceSummary),
  payLater: Type.Optional(PriceSummary),
  membershipOptions: Type.Optional(MembershipOptions),
  additionalFees: Type.Optional(Type.Array(AdditionalFee)),
  violations: Type.Optional(Type.Array(Violation)),
});

export { EmptyAnswer };
