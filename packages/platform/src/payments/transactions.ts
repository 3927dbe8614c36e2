import type { OrderPaymentRow } from './tables.ts';

/** An order's transactions on the wire: its payments (with capture and void) and its refunds. */
export interface OrderTransactionsDocument {
  orderId: string;
  payments: PaymentDocument[];
  refunds: RefundDocument[];
}

/** A capture of an authorization, as `authorizationDetails.captures` holds it. */
export interface CaptureDocument {
  id: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  amount: { amount: string; formattedAmount: string };
  createdDate: string;
  failureDetails?: { failureCode: string };
}

/** The void of an authorization, as `authorizationDetails.void` holds it. */
export interface VoidDocument {
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  voidedDate: string;
  reason: 'MANUAL';
  failureDetails?: { failureCode: string };
}

/** A refund on the wire (`orderTransactions.refunds[]`). */
export interface RefundDocument {
  id: string;
  createdDate: string;
  transactions: Array<{
    paymentId: string;
    amount: { amount: string; formattedAmount: string };
    refundStatus: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'STARTED';
    externalRefund: boolean;
    providerRefundId?: string;
    refundStatusInfo?: { description: string };
  }>;
  details: {
    items: Array<{ lineItemId: string; quantity: number }>;
    lineItems: Array<{ lineItemId: string; quantity: number }>;
    additionalFees: Array<{ additionalFeeId: string; amount: { amount: string; formattedAmount: string } }>;
    shippingIncluded: boolean;
    shipping?: { amount: { amount: string; formattedAmount: string } };
    reason?: string;
  };
  summary: {
    requestedRefund: { amount: string; formattedAmount: string };
    pendingRefund: { amount: string; formattedAmount: string };
    refunded: { amount: string; formattedAmount: string };
    pending: boolean;
    breakdown: {
      lineItems: Array<{
        lineItemId: string;
        totalRefundedAmount: { amount: string; formattedAmount: string };
      }>;
    };
  };
}

/**
 * A payment as the wire carries it (`Payment` of the SDK, dates as text): `status` on the payment and
 * in its details; the card as `network` (the hosted name) and `brand` (the SDK's).
 */
export interface PaymentDocument {
  id: string;
  createdDate: string;
  updatedDate: string;
  amount: { amount: string; formattedAmount: string };
  status: string;
  refundDisabled: boolean;
  regularPaymentDetails: {
    paymentOrderId?: string;
    gatewayTransactionId?: string;
    providerTransactionId?: string;
    offlinePayment: boolean;
    status: string;
    paymentMethod: string;
    paymentMethodName: string;
    creditCardDetails?: { network: string; brand: string; lastFourDigits: string };
    authorizationDetails?: {
      delayedCapture: boolean;
      authorizedDate: string | null;
      captures: CaptureDocument[];
      void?: VoidDocument;
    };
  };
}

export function paymentWire(row: OrderPaymentRow): PaymentDocument {
  const offline = Number(row.offline) === 1;
  return {
    id: row.id,
    createdDate: row.created_at,
    updatedDate: row.updated_at,
    amount: { amount: row.amount, formattedAmount: row.formatted_amount },
    status: row.status,
    refundDisabled: false,
    regularPaymentDetails: {
      ...(offline
        ? {}
        : {
            paymentOrderId: row.payment_order_id,
            gatewayTransactionId: row.gateway_transaction_id,
            providerTransactionId: row.provider_transaction_id,
          }),
      offlinePayment: offline,
      status: row.status,
      paymentMethod: row.method_name,
      paymentMethodName: row.method_name,
      ...(offline
        ? {}
        : {
            creditCardDetails: {
              network: row.card_brand,
              brand: row.card_brand,
              lastFourDigits: row.card_last4,
            },
          }),
      ...(Number(row.delayed_capture) === 1
        ? {
            authorizationDetails: {
              delayedCapture: true,
              authorizedDate: row.authorized_at,
              captures: row.captures ? (JSON.parse(row.captures) as CaptureDocument[]) : [],
              ...(row.void ? { void: JSON.parse(row.void) as VoidDocument } : {}),
            },
          }
        : {}),
    },
  };
}
