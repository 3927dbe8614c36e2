/** Order transactions (payments and refunds) and payment collection, with their states. */
import type { Price } from './common.ts';

/** A payment's status (point 4). */
export const PAYMENT_STATUSES = [
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
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Status of a capture or a void of an authorized payment. */
export const AUTHORIZATION_ACTION_STATUSES = ['UNKNOWN_STATUS', 'PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type AuthorizationActionStatus = (typeof AUTHORIZATION_ACTION_STATUSES)[number];

/** What happens to an authorization if nobody acts on it in time. */
export const SCHEDULED_ACTION_TYPES = ['VOID', 'CAPTURE'] as const;
export type ScheduledActionType = (typeof SCHEDULED_ACTION_TYPES)[number];

export const VOID_REASONS = ['MANUAL', 'SCHEDULED'] as const;
export type VoidReason = (typeof VOID_REASONS)[number];

/** Whether an order's payment can be collected now, and if not, why (point 4). */
export const PAYMENT_COLLECTABILITY_STATUSES = [
  'COLLECTABLE',
  'NONCOLLECTABLE_ORDER_IS_CANCELLED',
  'NONCOLLECTABLE_ORDER_IS_PAID',
  'NONCOLLECTABLE_ORDER_IS_PENDING',
  'NONCOLLECTABLE_ORDER_IS_REJECTED',
  'NONCOLLECTABLE_MISSING_PAYMENT_METHOD',
] as const;
export type PaymentCollectabilityStatus = (typeof PAYMENT_COLLECTABILITY_STATUSES)[number];

export const REFUNDABLE_STATUSES = ['NOT_REFUNDABLE', 'MANUAL', 'REFUNDABLE'] as const;
export type RefundableStatus = (typeof REFUNDABLE_STATUSES)[number];

/** Why refunding a payment is disabled (point 8). */
export const REFUND_DISABLED_REASONS = [
  'ALREADY_REFUNDED',
  'PROVIDER_IS_DOWN',
  'INTERNAL_ERROR',
  'NOT_PAID',
  'ACCESS_DENIED',
  'ZERO_PRICE',
  'DISABLED_BY_PROVIDER',
  'PENDING_REFUND',
  'FORBIDDEN',
  'TRANSACTION_NOT_FOUND',
  'ORDER_IS_PENDING',
  'ORDER_IS_REJECTED',
] as const;
export type RefundDisabledReason = (typeof REFUND_DISABLED_REASONS)[number];

export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'SCHEDULED', 'STARTED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export interface AuthorizationActionFailureDetails {
  failureCode?: string;
}

export interface AuthorizationCapture {
  id?: string | null;
  status?: AuthorizationActionStatus;
  amount?: Price;
  createdDate?: Date;
  failureDetails?: AuthorizationActionFailureDetails;
}

export interface AuthorizationVoid {
  status?: AuthorizationActionStatus;
  voidedDate?: Date;
  failureDetails?: AuthorizationActionFailureDetails;
  reason?: VoidReason;
}

export interface ScheduledAction {
  actionType?: ScheduledActionType;
  executionDate?: Date;
}

/** A payment authorized now and captured (or voided) later. */
export interface AuthorizationDetails {
  delayedCapture?: boolean;
  /** `null` while the authorization's time is not known (Cartwheel answers it so). */
  authorizedDate?: Date | null;
  captures?: AuthorizationCapture[];
  void?: AuthorizationVoid;
  scheduledAction?: ScheduledAction;
}

/** A chargeback the buyer's bank raised against a payment. */
export interface Chargeback {
  id?: string;
  createdDate?: Date;
  updatedDate?: Date;
  amount?: Price;
  reversalAmount?: Price;
  /** `APPROVED` or `REVERSED`. */
  status?: string;
  externalId?: string | null;
}

export interface RegularPaymentDetails {
  paymentOrderId?: string | null;
  gatewayTransactionId?: string | null;
  /** The payment method's name: `creditCard`, `PayPal`, `offline`, ... */
  paymentMethod?: string | null;
  providerTransactionId?: string | null;
  offlinePayment?: boolean;
  status?: PaymentStatus;
  savedPaymentMethod?: boolean;
  authorizationDetails?: AuthorizationDetails;
  creditCardDetails?: { lastFourDigits?: string | null; brand?: string | null };
  chargebacks?: Chargeback[];
  platformFee?: Price;
  /** The payment method's name as the buyer and the site read it. */
  paymentMethodName?: {
    buyerLanguageName?: string | null;
    siteLanguageName?: string | null;
    userDefinedName?: { buyerLanguageName?: string | null; siteLanguageName?: string | null };
  };
}

export interface Payment {
  id?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  amount?: Price;
  refundDisabled?: boolean;
  /** The payment's own status (point 4). */
  status?: PaymentStatus;
  supportReceiptGeneration?: boolean;
  chargeCorrelationId?: string | null;
  regularPaymentDetails?: RegularPaymentDetails;
  giftcardPaymentDetails?: {
    giftCardPaymentId?: string;
    giftCardId?: string;
    appId?: string;
    voided?: boolean;
  };
  membershipPaymentDetails?: {
    membershipId?: string;
    lineItemId?: string;
    status?: string;
    name?: { original?: string };
  };
}

export interface RefundTransaction {
  paymentId?: string;
  amount?: Price;
  refundStatus?: RefundStatus;
  gatewayRefundId?: string | null;
  providerRefundId?: string | null;
  externalRefund?: boolean;
}

export interface Refund {
  id?: string;
  transactions?: RefundTransaction[];
  details?: {
    items?: Array<{ lineItemId?: string; quantity?: number }>;
    shippingIncluded?: boolean;
    reason?: string | null;
  };
  createdDate?: Date;
  summary?: {
    requestedRefund?: Price;
    pendingRefund?: Price;
    refunded?: Price;
    failedRefundAmount?: Price;
    pending?: boolean;
  };
  requestingServiceAppId?: string | null;
}

export interface OrderTransactions {
  orderId?: string;
  payments?: Payment[];
  refunds?: Refund[];
}

/** `POST .../prepare-payment-collection`. */
export interface PreparePaymentCollectionRequest {
  amount: Price;
  paymentGatewayOrderId?: string | null;
  /** Authorize now, capture later. */
  delayedCapture?: boolean;
  delayedCaptureSettings?: {
    scheduledAction?: ScheduledActionType;
    delayDuration?: { unit?: string; count?: number };
  };
}

/** The options of `preparePaymentCollection`: everything it sends but the order id and the amount. */
export interface PreparePaymentCollectionOptions extends Omit<PreparePaymentCollectionRequest, 'amount'> {
  /** Sent by the hosted client when given; its declarations do not list it. */
  merchantInitiated?: boolean | null;
  /** Where the buyer returns from a payment page, by outcome. */
  redirectUrls?: {
    successUrl?: string | null;
    cancelUrl?: string | null;
    errorUrl?: string | null;
    pendingUrl?: string | null;
  };
}

export interface PreparePaymentCollectionResponse {
  paymentGatewayOrderId?: string;
}

export interface PaymentCollectabilityStatusResponse {
  status?: PaymentCollectabilityStatus;
  amount?: Price;
}

export interface VoidAuthorizedPaymentsRequest {
  paymentIds: string[];
}

/** One authorized payment to capture, whole or (with `amount`) in part. */
export interface PaymentCapture {
  paymentId: string;
  amount?: Price;
}

export interface CaptureAuthorizedPaymentsRequest {
  payments: PaymentCapture[];
}

/** The answer of capture and void: the order's transactions after the change. */
export interface OrderTransactionsResponse {
  orderTransactions?: OrderTransactions;
}

/** The answer of `listTransactionsForMultipleOrders`: each order's transactions. */
export interface OrdersTransactionsResponse {
  orderTransactions?: OrderTransactions[];
}

/** A payment recorded by hand (`addPayments`): cash, a bank transfer, a gift card redeemed elsewhere. */
export interface PaymentInput extends Omit<Payment, 'id' | 'createdDate' | 'updatedDate'> {
  id?: string | null;
}

/** The answer of `addPayments`: the order's transactions and the ids of the payments added. */
export interface AddPaymentsResponse extends OrderTransactionsResponse {
  paymentsIds?: string[];
}

/** Which payment of which order `updatePaymentStatus` changes. */
export interface PaymentAndOrderId {
  paymentId: string;
  orderId: string;
}

export interface UpdatePaymentStatusOptions {
  status?: PaymentStatus;
}
