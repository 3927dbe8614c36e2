import Type from 'typebox';
import { Id, OneOf, Text } from '../http/input.ts';
import { CancelOrderBody } from '../orders/operation-schemas.ts';

/** Payments one capture or void names, lines one refund names: the hosted client's limits. */
export const MAX_PAYMENTS_PER_CALL = 100;
export const MAX_PAYMENT_REFUNDS = 50;
export const MAX_REFUND_LINES = 300;
/** The longest `Idempotency-Key` header accepted. */
export const MAX_IDEMPOTENCY_KEY = 200;

const Amount = Type.Object({
  amount: Type.Optional(Text(40)),
  formattedAmount: Type.Optional(Text(100)),
});
const Quantity = Type.Integer({ minimum: 1, maximum: 100_000 });

export const EcomOrderParams = Type.Object({ ecomOrderId: Id() });
export const OrderIdParams = Type.Object({ orderId: Id() });
export const PaymentOfOrderParams = Type.Object({ paymentId: Id(), orderId: Id() });

export const PrepareCollectionBody = Type.Object({
  amount: Amount,
  paymentGatewayOrderId: Type.Optional(Type.Union([Text(200), Type.Null()])),
  delayedCapture: Type.Optional(Type.Boolean()),
});

const Captures = Type.Array(Type.Object({ paymentId: Id(), amount: Type.Optional(Amount) }), {
  minItems: 1,
  maxItems: MAX_PAYMENTS_PER_CALL,
});
const VoidIds = Type.Array(Id(), { minItems: 1, maxItems: MAX_PAYMENTS_PER_CALL });

export const CollectorCaptureBody = Type.Object({ payments: Captures });
export const CollectorVoidBody = Type.Object({ paymentIds: VoidIds });
export const BillingCaptureBody = Type.Object({ orderId: Id(), payments: Captures });
export const BillingVoidBody = Type.Object({ orderId: Id(), paymentIds: VoidIds });
export const RefundabilityBody = Type.Object({ orderId: Id() });

const RefundItems = Type.Object({
  lineItems: Type.Optional(
    Type.Array(Type.Object({ lineItemId: Id(), quantity: Quantity }), { maxItems: MAX_REFUND_LINES }),
  ),
  additionalFees: Type.Optional(
    Type.Array(Type.Object({ additionalFeeId: Id(), amount: Type.Optional(Amount) }), { maxItems: 100 }),
  ),
  shipping: Type.Optional(Type.Object({ amount: Type.Optional(Amount) })),
});

export const CalculateRefundBody = Type.Object({ orderId: Id(), refundItems: Type.Optional(RefundItems) });

export const RefundPaymentsBody = Type.Object({
  orderId: Id(),
  paymentRefunds: Type.Array(
    Type.Object({
      paymentId: Id(),
      amount: Type.Optional(Amount),
      externalRefund: Type.Optional(Type.Boolean()),
    }),
    { minItems: 1, maxItems: MAX_PAYMENT_REFUNDS },
  ),
  refundItems: Type.Optional(RefundItems),
  sideEffects: Type.Optional(
    Type.Object({
      restock: Type.Optional(
        Type.Object({
          lineItems: Type.Optional(
            Type.Array(Type.Object({ lineItemId: Id(), quantity: Quantity }), { maxItems: MAX_REFUND_LINES }),
          ),
        }),
      ),
      notifications: Type.Optional(
        Type.Object({
          sendCustomerEmail: Type.Optional(Type.Boolean()),
          customMessage: Type.Optional(Type.Union([Text(1000), Type.Null()])),
        }),
      ),
    }),
  ),
  customerReason: Type.Optional(Type.Union([Text(200), Type.Null()])),
});

const PaymentStatus = OneOf([
  'UNDEFINED',
  'APPROVED',
  'PENDING',
  'PENDING_MERCHANT',
  'CANCELED',
  'DECLINED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
  'AUTHORIZED',
  'VOIDED',
]);

export const AddPaymentsBody = Type.Object({
  payments: Type.Array(
    Type.Object({
      amount: Amount,
      status: Type.Optional(PaymentStatus),
      regularPaymentDetails: Type.Optional(
        Type.Object({
          paymentMethod: Type.Optional(Text(150)),
          offlinePayment: Type.Optional(Type.Boolean()),
          status: Type.Optional(PaymentStatus),
        }),
      ),
    }),
    { minItems: 1, maxItems: 50 },
  ),
});

export const UpdatePaymentStatusBody = Type.Object({ status: Type.Optional(PaymentStatus) });

export const BulkUpdatePaymentStatusesBody = Type.Object({
  paymentAndOrderIds: Type.Array(Type.Object({ orderId: Id(), paymentId: Id() }), {
    minItems: 1,
    maxItems: 100,
  }),
  returnFullEntity: Type.Optional(Type.Boolean()),
  status: Type.Optional(PaymentStatus),
});

/** Cartwheel's void-and-cancel: what `cancelOrder` takes (restock, the buyer's email). */
export const VoidAndCancelBody = CancelOrderBody;
