import Type from 'typebox';
import {
  AnyValue,
  Choice,
  CursorPagingAnswer,
  NullableNumber,
  NullableText,
  Open,
  Timestamp,
} from '../http/responses-identity.ts';

/** What the subscription contract calls answer (the SDK's types/ecom-subscriptions.ts). */

const Text = Type.Optional(NullableText);
const Opt = Type.Optional;
const SubscriptionContract = Type.Object({
  id: Text,
  revision: Text,
  createdDate: Opt(Timestamp),
  updatedDate: Opt(Timestamp),
  title: Text,
  description: Text,
  subscriptionSettings: Opt(
    Type.Object({
      frequency: Opt(Choice(['DAY', 'WEEK', 'MONTH', 'YEAR'])),
      interval: Opt(NullableNumber),
      autoRenewal: Opt(Type.Boolean()),
      billingCycles: Opt(NullableNumber),
      enableCustomerCancellation: Opt(Type.Boolean()),
      startDate: Opt(Timestamp),
    }),
  ),
  // the order's own line, buyer, address and price pieces, as the order that started it had them
  lineItems: Opt(Type.Array(Open({}))),
  buyerInfo: Opt(Open({})),
  buyerLanguage: Text,
  weightUnit: Opt(Type.String()),
  currency: Text,
  taxIncludedInPrices: Opt(Type.Boolean()),
  priceSummary: Opt(Open({})),
  billingInfo: Opt(Open({})),
  shippingInfo: Opt(Open({})),
  recipientInfo: Opt(Open({})),
  appliedDiscounts: Opt(Type.Array(AnyValue)),
  channelInfo: Opt(Open({})),
  firstOrderId: Opt(Type.String()),
  status: Opt(Choice(['ACTIVE', 'PAUSED', 'CANCELED', 'ENDED', 'PAYMENT_FAILED'])),
  cyclesBilled: Opt(Type.Number()),
  nextBillingDate: Opt(Timestamp),
  renewalFailure: Opt(
    Type.Object({
      code: Opt(Type.String()),
      description: Opt(Type.String()),
      failedDate: Opt(Timestamp),
      failedAttempts: Opt(Type.Number()),
      nextAttemptDate: Opt(Timestamp),
    }),
  ),
});

export const ContractAnswer = Type.Object({ subscriptionContract: SubscriptionContract });
export const ContractsPageAnswer = Type.Object({
  subscriptionContracts: Type.Array(SubscriptionContract),
  // the hosted wire's name for it (its client reads `pagingMetadata` for `hasNext()` and `next()`)
  pagingMetadata: CursorPagingAnswer,
});
