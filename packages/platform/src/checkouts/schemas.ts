import { CHANNEL_TYPES } from '@cartwheel/sdk';
import Type from 'typebox';
import { BuyerAddress, CatalogReferenceInput, Id, Nullable, OneOf, PathIdCopy, Text } from '../http/input.ts';
import { MAX_LINE_QUANTITY, MAX_LINES } from '../pricing/line-limits.ts';

/**
 * The checkout calls' inputs, as the hosted client sends them (wire contract, "Checkout, order
 * transactions..."), and the hosted checkout page's. A key they do not name, a wrong type or size is
 * refused (http/input.ts). What only a checkout knows (a line it holds) stays in the service.
 */

const SHORT_TEXT = 200;

const Quantity = Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY });

const ContactDetails = Type.Object({
  firstName: Type.Optional(Nullable(Text(SHORT_TEXT))),
  lastName: Type.Optional(Nullable(Text(SHORT_TEXT))),
  phone: Type.Optional(Nullable(Text(50))),
  company: Type.Optional(Nullable(Text(SHORT_TEXT))),
});

const Email = Nullable(Text(320));
const CouponCode = Nullable(Text(100));
const CarrierOption = Type.Object({
  code: Text(SHORT_TEXT),
  carrierId: Type.Optional(Nullable(Text(SHORT_TEXT))),
});

/** A catalog line: its catalog reference is the cart's own schema, so both refuse the same input. */
const LineItem = Type.Object({
  id: Type.Optional(Nullable(Text(SHORT_TEXT))),
  quantity: Type.Optional(Quantity),
  catalogReference: CatalogReferenceInput,
});

const LineItems = Type.Array(LineItem, { maxItems: MAX_LINES });

export const CheckoutParams = Type.Object({ id: Id() });
export const CartParams = Type.Object({ cartId: Id() });
export const OrderParams = Type.Object({ orderId: Id() });

export const CreateCheckoutBody = Type.Object({
  lineItems: Type.Optional(LineItems),
  channelType: Type.Optional(OneOf(CHANNEL_TYPES)),
});

export const UpdateCheckoutBody = Type.Object({
  checkout: Type.Optional(
    Type.Object({
      id: PathIdCopy(),
      buyerInfo: Type.Optional(Type.Object({ email: Type.Optional(Email) })),
      buyerNote: Type.Optional(Nullable(Text(1000))),
      billingInfo: Type.Optional(
        Type.Object({
          address: Type.Optional(Nullable(BuyerAddress)),
          contactDetails: Type.Optional(Nullable(ContactDetails)),
        }),
      ),
      shippingInfo: Type.Optional(
        Type.Object({
          shippingDestination: Type.Optional(
            Type.Object({
              address: Type.Optional(Nullable(BuyerAddress)),
              contactDetails: Type.Optional(Nullable(ContactDetails)),
            }),
          ),
          selectedCarrierServiceOption: Type.Optional(Nullable(CarrierOption)),
        }),
      ),
    }),
  ),
  couponCode: Type.Optional(CouponCode),
});

export const AddToCheckoutBody = Type.Object({ lineItems: LineItems });
// at least one line, as the cart's calls take them: an empty list is a mistake, not a change
export const RemoveLineItemsBody = Type.Object({
  lineItemIds: Type.Array(Id(), { minItems: 1, maxItems: MAX_LINES }),
});
export const UpdateQuantitiesBody = Type.Object({
  lineItems: Type.Array(Type.Object({ id: Id(), quantity: Quantity }), {
    minItems: 1,
    maxItems: MAX_LINES,
  }),
});

// ---- the hosted checkout page ----

export const SESSION_HEADER = 'x-checkout-session';

export const PageUpdateBody = Type.Object({
  email: Type.Optional(Email),
  shippingAddress: Type.Optional(Nullable(BuyerAddress)),
  billingAddress: Type.Optional(Nullable(BuyerAddress)),
  billingSameAsShipping: Type.Optional(Type.Boolean()),
  selectedShippingOption: Type.Optional(Nullable(CarrierOption)),
  couponCode: Type.Optional(CouponCode),
  /** The buyer's name (and phone, company): kept with the delivery address, and on the order. */
  contactDetails: Type.Optional(Nullable(ContactDetails)),
});

export const PayBody = Type.Object({
  attemptKey: Type.String({ minLength: 1, maxLength: 100 }),
  card: Type.Optional(
    Type.Object({
      number: Text(40),
      expiry: Text(10),
      cvc: Text(10),
      holderName: Type.Optional(Text(SHORT_TEXT)),
    }),
  ),
  /** Instead of a card: the payment provider's one-time token from its own card fields. */
  paymentToken: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** Instead of a card: a payment method the provider saved for the signed-in buyer. */
  savedMethodId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});

export const AttemptParams = Type.Object({ attemptId: Id() });
export const ConfirmBody = Type.Object({ approve: Type.Boolean() });
