import type { ModuleDefinition } from '../../client.ts';
import { everyHost } from '../../transport/domains.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  BillingCaptureOptions,
  BillingVoidOptions,
  CalculateRefundOptions,
  CalculateRefundResponse,
  GetOrderRefundabilityResponse,
  RefundPaymentsOptions,
  RefundPaymentsResponse,
} from '../../types/ecom-billing.ts';
import type { OrderTransactionsResponse } from '../../types/ecom-payments.ts';
import { ecomService, pick } from './domains.ts';

/** Order billing's paths: `/v1/order-billing/...` is `/ecom/v1/order-billing/...` on every host. */
export const ORDER_BILLING = everyHost(['/v1/order-billing', '/ecom/v1/order-billing']);

const call = ecomService(ORDER_BILLING, 'orders.billing.v1.OrderBillingService', 'orderBilling');
const path = (action: string) => `/v1/order-billing/${action}`;

/**
 * An order's money after it is placed (point 4, point 8): what each payment, line and the shipping can
 * still refund, what a refund comes to, refunds with restock and the buyer's email, and capture and
 * void of authorized payments. Arguments, bodies and answers are the hosted client's `orderBilling`.
 */
export const orderBilling = {
  /** `POST /v1/order-billing/get-order-refundability` {orderId}. */
  getOrderRefundability:
    (transport: Transport) =>
    (orderId: string): Promise<GetOrderRefundabilityResponse> =>
      call(transport, 'POST', path('get-order-refundability'), 'GetOrderRefundability', { orderId }),

  /** `POST /v1/order-billing/calculate-refund` {orderId, refundItems}: nothing moves. */
  calculateRefund:
    (transport: Transport) =>
    (orderId: string, options?: CalculateRefundOptions): Promise<CalculateRefundResponse> =>
      call(transport, 'POST', path('calculate-refund'), 'CalculateRefund', {
        orderId,
        ...pick(options, ['refundItems']),
      }),

  /** `POST /v1/order-billing/refund-payments` {orderId, paymentRefunds, sideEffects, refundItems, customerReason}. */
  refundPayments:
    (transport: Transport) =>
    (orderId: string, options?: RefundPaymentsOptions): Promise<RefundPaymentsResponse> =>
      call(transport, 'POST', path('refund-payments'), 'RefundPayments', {
        orderId,
        ...pick(options, ['paymentRefunds', 'sideEffects', 'refundItems', 'customerReason']),
      }),

  /** `POST /v1/order-billing/capture-authorized-payments` {orderId, payments}: `{orderTransactions}`. */
  captureAuthorizedPayments:
    (transport: Transport) =>
    (orderId: string, options: BillingCaptureOptions): Promise<OrderTransactionsResponse> =>
      call(transport, 'POST', path('capture-authorized-payments'), 'CaptureAuthorizedPayments', {
        orderId,
        ...pick(options, ['payments']),
      }),

  /** `POST /v1/order-billing/void-authorized-payments` {orderId, paymentIds}: `{orderTransactions}`. */
  voidAuthorizedPayments:
    (transport: Transport) =>
    (orderId: string, options: BillingVoidOptions): Promise<OrderTransactionsResponse> =>
      call(transport, 'POST', path('void-authorized-payments'), 'VoidAuthorizedPayments', {
        orderId,
        ...pick(options, ['paymentIds']),
      }),
} satisfies ModuleDefinition;
