import Type from 'typebox';
import { AnyValue, DateText, OrNull, Price } from '../http/responses.ts';

/**
 * Orders' transactions as the wire carries them (payments/transactions.ts writes them; the SDK's
 * types/ecom-payments.ts reads them), and Cartwheel's payment settings.
 */

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));
const flag = Type.Optional(Type.Boolean());
const money = Type.Optional(Price);

const FailureDetails = Type.Optional(Type.Object({ failureCode: text }));

export const Payment = Type.Object({
  id: nullableText,
  createdDate: Type.Optional(DateText),
  updatedDate: Type.Optional(DateText),
  amount: money,
  refundDisabled: flag,
  status: text,
  supportReceiptGeneration: flag,
  chargeCorrelationId: nullableText,
  regularPaymentDetails: Type.Optional(
    Type.Object({
      paymentOrderId: nullableText,
      gatewayTransactionId: nullableText,
      paymentMethod: nullableText,
      providerTransactionId: nullableText,
      offlinePayment: flag,
      status: text,
      savedPaymentMethod: flag,
      authorizationDetails: Type.Optional(
        Type.Object({
          delayedCapture: flag,
          authorizedDate: Type.Optional(OrNull(DateText)),
          captures: Type.Optional(
            Type.Array(
              Type.Object({
                id: nullableText,
                status: text,
                amount: money,
                createdDate: Type.Optional(DateText),
                failureDetails: FailureDetails,
              }),
            ),
          ),
          void: Type.Optional(
            Type.Object({
              status: text,
              voidedDate: Type.Optional(DateText),
              failureDetails: FailureDetails,
              reason: text,
            }),
          ),
          scheduledAction: Type.Optional(
            Type.Object({ actionType: text, executionDate: Type.Optional(DateText) }),
          ),
        }),
      ),
      /** The card's network under the hosted name (`network`) and the SDK's (`brand`). */
      creditCardDetails: Type.Optional(
        Type.Object({ network: nullableText, brand: nullableText, lastFourDigits: nullableText }),
      ),
      chargebacks: Type.Optional(
        Type.Array(
          Type.Object({
            id: text,
            createdDate: Type.Optional(DateText),
            updatedDate: Type.Optional(DateText),
            amount: money,
            reversalAmount: money,
            status: text,
            externalId: nullableText,
          }),
        ),
      ),
      platformFee: money,
      /** Cartwheel answers the method's name as text; the hosted wire's is an object of names. */
      paymentMethodName: Type.Optional(AnyValue),
    }),
  ),
  giftcardPaymentDetails: Type.Optional(
    Type.Object({ giftCardPaymentId: text, giftCardId: text, appId: text, voided: flag }),
  ),
  membershipPaymentDetails: Type.Optional(
    Type.Object({
      membershipId: text,
      lineItemId: text,
      status: text,
      name: Type.Optional(Type.Object({ original: text })),
    }),
  ),
});

const LineQuantity = Type.Object({ lineItemId: text, quantity: Type.Optional(Type.Number()) });

export const Refund = Type.Object({
  id: text,
  createdDate: Type.Optional(DateText),
  transactions: Type.Optional(
    Type.Array(
      Type.Object({
        paymentId: text,
        amount: money,
        refundStatus: text,
        gatewayRefundId: nullableText,
        providerRefundId: nullableText,
        externalRefund: flag,
        refundStatusInfo: Type.Optional(Type.Object({ description: text })),
      }),
    ),
  ),
  details: Type.Optional(
    Type.Object({
      items: Type.Optional(Type.Array(LineQuantity)),
      lineItems: Type.Optional(Type.Array(LineQuantity)),
      additionalFees: Type.Optional(Type.Array(Type.Object({ additionalFeeId: text, amount: money }))),
      shippingIncluded: flag,
      shipping: Type.Optional(Type.Object({ amount: money })),
      reason: nullableText,
    }),
  ),
  summary: Type.Optional(
    Type.Object({
      requestedRefund: money,
      pendingRefund: money,
      refunded: money,
      failedRefundAmount: money,
      pending: flag,
      breakdown: Type.Optional(
        Type.Object({
          lineItems: Type.Optional(Type.Array(Type.Object({ lineItemId: text, totalRefundedAmount: money }))),
        }),
      ),
    }),
  ),
  requestingServiceAppId: nullableText,
});

export const OrderTransactions = Type.Object({
  orderId: text,
  payments: Type.Optional(Type.Array(Payment)),
  refunds: Type.Optional(Type.Array(Refund)),
});

export const OrderTransactionsAnswer = Type.Object({ orderTransactions: Type.Optional(OrderTransactions) });

export const OrdersTransactionsAnswer = Type.Object({
  orderTransactions: Type.Optional(Type.Array(OrderTransactions)),
});

export const PaymentSettingsAnswer = Type.Object({
  paymentSettings: Type.Object({ capture: Type.String() }),
});

/** What a Stripe webhook delivery did (Stripe reads only the 2xx): `IGNORED` for an unknown payment. */
export const StripeWebhookAnswer = Type.Object({
  received: Type.Boolean(),
  outcome: Type.Union([Type.Literal('APPLIED'), Type.Literal('UNCHANGED'), Type.Literal('IGNORED')]),
});

const ReconciledSide = Type.Union([
  Type.Null(),
  Type.Object({
    amount: Type.String(),
    currency: Type.String(),
    state: Type.String(),
    capturedAmount: Type.String(),
    refundedAmount: Type.String(),
    createdDate: Type.String(),
  }),
]);

/** The store's payments beside each provider's charges for a period, and where they differ. */
export const ReconciliationAnswer = Type.Object({
  reconciliation: Type.Object({
    from: Type.String(),
    to: Type.String(),
    providers: Type.Array(
      Type.Object({
        providerId: Type.String(),
        compared: Type.Boolean(),
        payments: Type.Number(),
        charges: Type.Number(),
      }),
    ),
    differences: Type.Array(
      Type.Object({
        kind: Type.String(),
        providerId: Type.String(),
        transactionId: Type.String(),
        orderId: Type.Union([Type.String(), Type.Null()]),
        cartwheel: ReconciledSide,
        provider: ReconciledSide,
      }),
    ),
  }),
});
