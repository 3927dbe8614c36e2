/** Order billing: what an order can refund, what a refund comes to, and refunds (point 4, point 8). */
import type { Price } from './common.ts';
import type { OrderTransactions, PaymentCapture, Refund, RefundDisabledReason } from './ecom-payments.ts';

/** Lines and quantities, shipping and fees a refund is for. */
export interface RefundItems {
  lineItems?: Array<{ lineItemId: string; quantity: number }>;
  additionalFees?: Array<{ additionalFeeId: string; amount?: Price }>;
  /** All the shipping left to refund unless `amount` says less. */
  shipping?: { amount?: Price };
}

/** A payment to refund: `amount` of it (else its share of the items), through its provider or (`externalRefund`) recorded only. */
export interface PaymentRefund {
  paymentId: string;
  amount?: Price;
  externalRefund?: boolean;
}

export interface RefundSideEffects {
  restock?: { lineItems?: Array<{ lineItemId: string; quantity: number }> };
  notifications?: { sendCustomerEmail?: boolean; customMessage?: string | null };
}

export interface RefundPaymentsOptions {
  paymentRefunds: PaymentRefund[];
  sideEffects?: RefundSideEffects;
  refundItems?: RefundItems;
  customerReason?: string | null;
}

export interface RefundPaymentsResponse {
  refund?: Refund;
  orderTransactions?: OrderTransactions;
}

export interface CalculateRefundOptions {
  refundItems?: RefundItems;
}

/** Total, tax, discount and subtotal of what a refund gives back. */
export interface RefundSummary {
  total?: Price;
  tax?: Price;
  discount?: Price;
  subtotal?: Price;
}

export interface CalculateRefundResponse {
  available?: boolean;
  notAvailable?: {
    errors?: Array<{
      lineItem?: { lineItemId?: string; quantity?: number };
      additionalFee?: { additionalFeeId?: string };
      shipping?: { amount?: Price };
      error?: { applicationError?: { code?: string; description?: string } };
    }>;
  };
  summary?: RefundSummary & { lineItemsSubtotal?: Price; additionalFeesTotal?: Price };
  calculatedRefundItems?: {
    lineItems?: Array<{ item?: { lineItemId?: string; quantity?: number }; summary?: RefundSummary }>;
    additionalFees?: Array<{ additionalFee?: { additionalFeeId?: string }; summary?: RefundSummary }>;
    shipping?: { shipping?: { amount?: Price }; summary?: RefundSummary };
  };
}

/** How much of a payment went where: paid, refunded, being refunded, and what can still go back. */
export interface MonetaryPaymentSummary {
  paid?: Price;
  refunded?: Price;
  refundPending?: Price;
  maxRefund?: Price;
}

export interface PaymentRefundability {
  refundable?: boolean;
  manuallyRefundable?: {
    reason?: 'UNKNOWN_REASON' | 'EXPIRED' | 'NOT_SUPPORTED' | 'OFFLINE' | 'REQUIRES_CARD_READER';
  };
  nonRefundable?: { reason?: RefundDisabledReason | 'UNKNOWN_REASON' | 'AMOUNT_OFFSET_BY_CHARGEBACK' };
  payment?: {
    paymentId?: string;
    monetary?: MonetaryPaymentSummary;
    paymentMethod?: string | null;
    offlinePayment?: boolean;
    creditCardDetails?: { lastFourDigits?: string | null; brand?: string | null };
  };
  providerLink?: string | null;
}

export interface GetOrderRefundabilityResponse {
  payments?: PaymentRefundability[];
  paymentsSummary?: { monetary?: MonetaryPaymentSummary };
  lineItems?: Array<{
    lineItemId?: string;
    originalQuantity?: number;
    refundedQuantity?: number;
    availableRefundQuantity?: number;
  }>;
  shipping?: { amount?: Price; refundedAmount?: Price; availableRefundAmount?: Price };
  additionalFees?: Array<{
    additionalFeeId?: string;
    amount?: Price;
    refundedAmount?: Price;
    availableRefundAmount?: Price;
  }>;
}

export interface BillingCaptureOptions {
  payments: PaymentCapture[];
}

export interface BillingVoidOptions {
  paymentIds: string[];
}

/** `bulkUpdatePaymentStatuses`' options: the status, and whether each result carries its payment. */
export interface BulkUpdatePaymentStatusesOptions {
  status?: import('./ecom-payments.ts').PaymentStatus;
  returnFullEntity?: boolean;
}

export interface BulkUpdatePaymentStatusesResponse {
  results?: Array<{
    itemMetadata?: {
      id?: string | null;
      originalIndex?: number;
      success?: boolean;
      error?: { code?: string; description?: string };
    };
    item?: import('./ecom-payments.ts').Payment;
  }>;
  bulkActionMetadata?: { totalSuccesses?: number; totalFailures?: number; undetailedFailures?: number };
}
