import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type {
  BulkUpdatePaymentStatusesOptions,
  BulkUpdatePaymentStatusesResponse,
} from '../../types/ecom-billing.ts';
import type {
  AddPaymentsResponse,
  OrdersTransactionsResponse,
  OrderTransactionsResponse,
  PaymentAndOrderId,
  PaymentInput,
  UpdatePaymentStatusOptions,
} from '../../types/ecom-payments.ts';
import { segment } from '../stores/domains.ts';
import { ecomService, ORDER_TRANSACTIONS, pick } from './domains.ts';

const call = ecomService(ORDER_TRANSACTIONS, 'orders.payments.v1.Payments', 'orderTransactions');

/**
 * Each order's transactions (point 3): its payments (with their authorization, captures and void) and
 * its refunds. Every call answers what the hosted client answers: `{orderTransactions}`.
 */
export const orderTransactions = {
  /** `GET /v1/payments/orders/{orderId}?orderId={orderId}`. */
  listTransactionsForSingleOrder:
    (transport: Transport) =>
    (orderId: string): Promise<OrderTransactionsResponse> =>
      call(
        transport,
        'GET',
        `/v1/payments/orders/${segment(orderId)}`,
        'ListTransactionsForSingleOrder',
        undefined,
        { orderId },
      ),

  /** `POST /v1/payments/list-by-ids` {orderIds}: `{orderTransactions: [...]}`, one entry per order. */
  listTransactionsForMultipleOrders:
    (transport: Transport) =>
    (orderIds: string[]): Promise<OrdersTransactionsResponse> =>
      call(transport, 'POST', '/v1/payments/list-by-ids', 'ListTransactionsForMultipleOrders', { orderIds }),

  /** `POST /v1/payments/orders/{orderId}/add-payment` {orderId, payments}: payments collected outside the platform. */
  addPayments:
    (transport: Transport) =>
    (orderId: string, payments: PaymentInput[]): Promise<AddPaymentsResponse> =>
      call(transport, 'POST', `/v1/payments/orders/${segment(orderId)}/add-payment`, 'AddPayments', {
        orderId,
        payments,
      }),

  /**
   * `POST /v1/payments/{paymentId}/orders/{orderId}/update-payment-transaction-status`
   * {paymentId, orderId, status}.
   */
  updatePaymentStatus:
    (transport: Transport) =>
    (
      identifiers: PaymentAndOrderId,
      options?: UpdatePaymentStatusOptions,
    ): Promise<OrderTransactionsResponse> =>
      call(
        transport,
        'POST',
        `/v1/payments/${segment(identifiers.paymentId)}/orders/${segment(identifiers.orderId)}/update-payment-transaction-status`,
        'UpdatePaymentStatus',
        { paymentId: identifiers.paymentId, orderId: identifiers.orderId, status: options?.status },
      ),

  /**
   * `POST /v1/bulk/payments/update-payment-transaction-status` {paymentAndOrderIds, returnFullEntity,
   * status}: a result per payment.
   */
  bulkUpdatePaymentStatuses:
    (transport: Transport) =>
    (
      paymentAndOrderIds: PaymentAndOrderId[],
      options?: BulkUpdatePaymentStatusesOptions,
    ): Promise<BulkUpdatePaymentStatusesResponse> =>
      call(
        transport,
        'POST',
        '/v1/bulk/payments/update-payment-transaction-status',
        'BulkUpdatePaymentStatuses',
        { paymentAndOrderIds, ...pick(options, ['returnFullEntity', 'status']) },
      ),
} satisfies ModuleDefinition;
