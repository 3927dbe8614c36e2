import Type from 'typebox';
import {
  AnyValue,
  ApplicationErrorDetails,
  BulkActionMetadata,
  ItemMetadata,
  OrNull,
  Price,
} from '../http/responses.ts';
import { Order } from '../orders/responses.ts';
import { OrderTransactions, Payment, Refund } from '../payments/responses.ts';

/** The money calls' answers (the SDK's types/ecom-billing.ts and ecom-payments.ts), as response schemas. */

const text = Type.Optional(Type.String());
const nullableText = Type.Optional(OrNull(Type.String()));
const flag = Type.Optional(Type.Boolean());
const money = Type.Optional(Price);

export const PrepareCollectionAnswer = Type.Object({ paymentGatewayOrderId: text });

export const CollectabilityAnswer = Type.Object({ status: text, amount: money });

/** Capture, void, a payment's new status: the order's transactions after the change. */
export const OrderTransactionsAnswer = Type.Object({ orderTransactions: Type.Optional(OrderTransactions) });

/** Cartwheel's void-and-cancel: the canceled order and its transactions, its authorizations voided. */
export const VoidAndCancelAnswer = Type.Object({ order: Order, orderTransactions: OrderTransactions });

export const AddPaymentsAnswer = Type.Object({
  orderTransactions: Type.Optional(OrderTransactions),
  paymentsIds: Type.Optional(Type.Array(Type.String())),
});

export const RefundPaymentsAnswer = Type.Object({
  refund: Type.Optional(Refund),
  orderTransactions: Type.Optional(OrderTransactions),
});

const Monetary = Type.Object({ paid: money, refunded: money, refundPending: money, maxRefund: money });

export const RefundabilityAnswer = Type.Object({
  payments: Type.Optional(
    Type.Array(
      Type.Object({
        refundable: flag,
        manuallyRefundable: Type.Optional(Type.Object({ reason: text })),
        nonRefundable: Type.Optional(Type.Object({ reason: text })),
        payment: Type.Optional(
          Type.Object({
            paymentId: text,
            monetary: Type.Optional(Monetary),
            paymentMethod: nullableText,
            offlinePayment: flag,
            creditCardDetails: Type.Optional(
              Type.Object({ lastFourDigits: nullableText, brand: nullableText }),
            ),
          }),
        ),
        providerLink: nullableText,
      }),
    ),
  ),
  paymentsSummary: Type.Optional(Type.Object({ monetary: Type.Optional(Monetary) })),
  lineItems: Type.Optional(
    Type.Array(
      Type.Object({
        lineItemId: text,
        originalQuantity: Type.Optional(Type.Number()),
        refundedQuantity: Type.Optional(Type.Number()),
        availableRefundQuantity: Type.Optional(Type.Number()),
      }),
    ),
  ),
  shipping: Type.Optional(
    Type.Object({ amount: money, refundedAmount: money, availableRefundAmount: money }),
  ),
  additionalFees: Type.Optional(
    Type.Array(
      Type.Object({
        additionalFeeId: text,
        amount: money,
        refundedAmount: money,
        availableRefundAmount: money,
      }),
    ),
  ),
});

const RefundSummary = Type.Object({ total: money, tax: money, discount: money, subtotal: money });
const LineQuantity = Type.Object({ lineItemId: text, quantity: Type.Optional(Type.Number()) });
const ShippingAmount = Type.Object({ amount: money });

export const CalculateRefundAnswer = Type.Object({
  available: flag,
  notAvailable: Type.Optional(
    Type.Object({
      errors: Type.Optional(
        Type.Array(
          Type.Object({
            lineItem: Type.Optional(LineQuantity),
            additionalFee: Type.Optional(Type.Object({ additionalFeeId: text })),
            shipping: Type.Optional(ShippingAmount),
            error: Type.Optional(Type.Object({ applicationError: Type.Optional(ApplicationErrorDetails) })),
          }),
        ),
      ),
    }),
  ),
  summary: Type.Optional(
    Type.Object({
      total: money,
      tax: money,
      discount: money,
      subtotal: money,
      lineItemsSubtotal: money,
      additionalFeesTotal: money,
    }),
  ),
  calculatedRefundItems: Type.Optional(
    Type.Object({
      lineItems: Type.Optional(
        Type.Array(Type.Object({ item: Type.Optional(LineQuantity), summary: Type.Optional(RefundSummary) })),
      ),
      /** Each fee's `{additionalFee: {additionalFeeId}, summary}`: none yet, as fees are refunded by amount. */
      additionalFees: Type.Optional(Type.Array(AnyValue)),
      shipping: Type.Optional(
        Type.Object({ shipping: Type.Optional(ShippingAmount), summary: Type.Optional(RefundSummary) }),
      ),
    }),
  ),
});

export const BulkUpdatePaymentStatusesAnswer = Type.Object({
  results: Type.Optional(
    Type.Array(Type.Object({ itemMetadata: Type.Optional(ItemMetadata), item: Type.Optional(Payment) })),
  ),
  bulkActionMetadata: Type.Optional(BulkActionMetadata),
});
