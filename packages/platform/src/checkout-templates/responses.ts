import Type from 'typebox';
import { Choice, CursorPagingAnswer, NullableText, Open } from '../http/responses-identity.ts';

/** What the hosted `checkoutTemplates` calls answer: the template as the merchant made it. */

const Flag = Type.Optional(Type.Boolean());
const CheckoutTemplate = Type.Object({
  id: Type.String(),
  status: Choice(['ACTIVE', 'INACTIVE']),
  customization: Type.Object({
    webClient: Type.Object({
      disabledContinueShoppingButton: Flag,
      disabledPolicyAgreementCheckbox: Flag,
    }),
    lockedGiftCard: Flag,
    lockedCoupon: Flag,
    disabledManualPayment: Flag,
  }),
  // the cart's own line inputs, kept as given (their shapes are checked on the way in)
  lineItems: Type.Array(Open({ quantity: Type.Optional(Type.Number()) })),
  customLineItems: Type.Array(Open({ quantity: Type.Optional(Type.Number()) })),
  couponCode: Type.Optional(NullableText),
  customContentReference: Type.Optional(Open({ appId: Type.String() })),
  externalReference: Type.Optional(Open({ appId: Type.String() })),
  createdDate: Type.String(),
  updatedDate: Type.String(),
});

export const CheckoutTemplateAnswer = Type.Object({ checkoutTemplate: CheckoutTemplate });
export const CheckoutTemplatesPageAnswer = Type.Object({
  checkoutTemplates: Type.Array(CheckoutTemplate),
  pagingMetadata: CursorPagingAnswer,
});
export const CheckoutFromTemplateAnswer = Type.Object({
  checkoutId: Type.String(),
  checkoutUrl: Type.String(),
});

/** The buy link answers a redirect: the Location header is the hosted checkout page. */
export const RedirectAnswer = Type.Null({ description: 'a redirect: the Location header is the answer' });
