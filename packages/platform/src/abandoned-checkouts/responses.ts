import Type from 'typebox';
import { Choice, CursorPagingAnswer, Open } from '../http/responses-identity.ts';

/** What the hosted `abandonedCheckouts` calls answer. */

const Price = Open({ amount: Type.String() });
const AbandonedCheckout = Type.Object({
  id: Type.String(),
  checkoutId: Type.String(),
  cartId: Type.Union([Type.String(), Type.Null()]),
  status: Choice(['ABANDONED', 'RECOVERED']),
  buyerInfo: Open({ email: Type.String() }),
  contactDetails: Type.Optional(Open({})),
  currency: Type.String(),
  totalPrice: Price,
  subtotalPrice: Price,
  lineItems: Type.Array(Open({})),
  activities: Type.Array(
    Type.Object({ createdDate: Type.String(), type: Choice(['EMAIL_SENT', 'EMAIL_NOT_SENT']) }),
  ),
  checkoutRecoveredDate: Type.Optional(Type.String()),
  checkoutUrl: Type.String(),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});

export const AbandonedCheckoutAnswer = Type.Object({ abandonedCheckout: AbandonedCheckout });
export const AbandonedCheckoutsPageAnswer = Type.Object({
  abandonedCheckouts: Type.Array(AbandonedCheckout),
  metadata: CursorPagingAnswer,
});
/** The links of the email answer a redirect, or a short page: not JSON. */
export const RedirectAnswer = Type.Null({ description: 'a redirect: the Location header is the answer' });
