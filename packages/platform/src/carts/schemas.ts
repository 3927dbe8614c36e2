import { CHANNEL_TYPES, ITEM_TYPE_PRESETS } from '@cartwheel/sdk';
import Type, { type Static, type TSchema } from 'typebox';
import {
  BuyerAddress,
  CatalogReferenceInput,
  DescriptionLines,
  Id,
  Ids,
  Nullable,
  OneOf,
  OpenObject,
  PathIdCopy,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import { MAX_LINE_QUANTITY, MAX_LINES } from '../pricing/line-limits.ts';

/**
 * The current-cart calls' inputs, as the hosted client sends them (wire contract, "current cart").
 * Each is the check Fastify runs before the handler and the handler's input type; what only the cart
 * knows (a line id it holds, a product the store sells) stays in the service.
 */

/** The most merchant discounts one cart carries. */
export const MAX_MERCHANT_DISCOUNTS = 20;

/** Money as the wire sends it: a decimal string of at most two decimals (`"5"`, `"10.50"`). */
const DecimalAmount = Type.String({ pattern: '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,2})?$', maxLength: 16 });

const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const OptionalText = (maxLength: number) => Type.Optional(Nullable(Text(maxLength)));

const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

const Translatable = Type.Object({ original: Text(500), translated: OptionalText(500) });

const ContactInfoInput = Type.Object({
  address: Optional(BuyerAddress),
  contactDetails: Optional(
    Type.Object({
      firstName: OptionalText(200),
      lastName: OptionalText(200),
      phone: OptionalText(50),
      company: OptionalText(200),
      vatId: Optional(Type.Object({ id: OptionalText(100), type: Optional(OneOf(['CPF', 'CNPJ'])) })),
    }),
  ),
});

const SelectedShippingOptionInput = Type.Object({ code: Text(200), carrierId: OptionalText(200) });

const PhysicalPropertiesInput = Type.Object({
  weight: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }))),
  sku: OptionalText(100),
  shippable: Optional(Type.Boolean()),
});

const ItemTypeInput = Type.Object({ preset: Optional(OneOf(ITEM_TYPE_PRESETS)), custom: OptionalText(100) });

/** What an elevated caller may set on a catalog line in place of the catalog's own values. */
const CatalogOverrideFieldsInput = Type.Object({
  productName: Optional(Translatable),
  price: Optional(Nullable(DecimalAmount)),
  fullPrice: Optional(Nullable(DecimalAmount)),
  descriptionLines: Optional(DescriptionLines),
  physicalProperties: Optional(PhysicalPropertiesInput),
  image: Optional(Type.Object({ url: Optional(Text(URL_MAX_LENGTH)) })),
});

export const CatalogLineInput = Type.Object({
  catalogReference: CatalogReferenceInput,
  quantity: Optional(Quantity),
  catalogOverrideFields: Optional(CatalogOverrideFieldsInput),
});
export type CatalogLineInput = Static<typeof CatalogLineInput>;

export const CustomLineInput = Type.Object({
  productName: Translatable,
  price: DecimalAmount,
  fullPrice: Optional(Nullable(DecimalAmount)),
  quantity: Optional(Quantity),
  itemType: Optional(ItemTypeInput),
  descriptionLines: Optional(DescriptionLines),
  media: Optional(Text(URL_MAX_LENGTH)),
  url: Optional(
    Type.Object({ relativePath: OptionalText(URL_MAX_LENGTH), url: OptionalText(URL_MAX_LENGTH) }),
  ),
  physicalProperties: Optional(PhysicalPropertiesInput),
  quantityAvailable: Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LINE_QUANTITY }))),
  paymentOption: Optional(
    OneOf([
      'FULL_PAYMENT_ONLINE',
      'FULL_PAYMENT_OFFLINE',
      'MEMBERSHIP',
      'DEPOSIT_ONLINE',
      'MEMBERSHIP_OFFLINE',
    ]),
  ),
  catalogReference: Optional(
    Type.Object({
      appId: OptionalText(200),
      catalogItemId: OptionalText(200),
      options: Optional(
        Nullable(OpenObject("the app's own choices of its item, kept as given", { maxProperties: 50 })),
      ),
    }),
  ),
});
export type CustomLineInput = Static<typeof CustomLineInput>;

/**
 * A merchant's discount: an `amount` off, or a `percentage` (0.01 to 100) of the items' price before
 * other discounts, as the hosted platform's `merchantDiscount` holds it; one of the two (the service
 * says which is missing).
 */
const MerchantDiscountInput = Type.Object({
  amount: Optional(DecimalAmount),
  percentage: Optional(Type.Number({ minimum: 0.01, maximum: 100 })),
  lineItemIds: Optional(Ids(MAX_LINES)),
});

export const AddToCartBody = Type.Object({
  lineItems: Optional(Type.Array(CatalogLineInput, { maxItems: MAX_LINES })),
  customLineItems: Optional(Type.Array(CustomLineInput, { maxItems: MAX_LINES })),
});
export type AddToCartBody = Static<typeof AddToCartBody>;

export const UpdateCartBody = Type.Object({
  cartInfo: Optional(
    Type.Object({
      id: PathIdCopy(),
      buyerNote: OptionalText(1000),
      contactInfo: Optional(Nullable(ContactInfoInput)),
      selectedShippingOption: Optional(Nullable(SelectedShippingOptionInput)),
    }),
  ),
  couponCode: Optional(Nullable(Text(100))),
  merchantDiscounts: Optional(Type.Array(MerchantDiscountInput, { maxItems: MAX_MERCHANT_DISCOUNTS })),
  lineItems: Optional(Type.Array(CatalogLineInput, { maxItems: MAX_LINES })),
  customLineItems: Optional(Type.Array(CustomLineInput, { maxItems: MAX_LINES })),
});
export type UpdateCartBody = Static<typeof UpdateCartBody>;

export const RemoveLineItemsBody = Type.Object({
  lineItemIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_LINES }),
});

export const UpdateQuantitiesBody = Type.Object({
  lineItems: Type.Array(Type.Object({ id: Id(), quantity: Quantity }), {
    minItems: 1,
    maxItems: MAX_LINES,
  }),
});

export const CreateCheckoutBody = Type.Object({
  channelType: Optional(OneOf(CHANNEL_TYPES)),
  shippingAddress: Optional(Nullable(BuyerAddress)),
  billingAddress: Optional(Nullable(BuyerAddress)),
  selectedShippingOption: Optional(Nullable(SelectedShippingOptionInput)),
  email: OptionalText(320),
});
export type CreateCheckoutBody = Static<typeof CreateCheckoutBody>;

export const EstimateTotalsBody = Type.Object({
  shippingAddress: Optional(Nullable(BuyerAddress)),
  billingAddress: Optional(Nullable(BuyerAddress)),
  selectedShippingOption: Optional(Nullable(SelectedShippingOptionInput)),
  calculateTax: Optional(Nullable(Type.Boolean())),
  calculateShipping: Optional(Nullable(Type.Boolean())),
});
export type EstimateTotalsBody = Static<typeof EstimateTotalsBody>;
