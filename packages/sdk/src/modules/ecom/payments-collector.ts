import type { ModuleDefinition } from '../../client.ts';
import type { Transport } from '../../transport/http.ts';
import type { Price } from '../../types/common.ts';
import type {
  OrderTransactionsResponse,
  PaymentCapture,
  PaymentCollectabilityStatusResponse,
  PreparePaymentCollectionOptions,
  PreparePaymentCollectionResponse,
} from '../../types/ecom-payments.ts';
import { segment } from '../stores/domains.ts';
import { ecomService, PAYMENTS_COLLECTOR, pick } from './domains.ts';

const call = ecomService(PAYMENTS_COLLECTOR, 'orders.payments_collector.v1.PaymentsCollector', 'order');

const orderPath = (ecomOrderId: string, action: string) =>
  `/v1/payments-collector/orders/${segment(ecomOrderId)}/${action}`;

/**
 * Collecting an order's payment (point 7, "Payments collector"): prepare a payment for the gateway,
 * ask whether the order can be paid now, and capture or void payments that were only authorized.
 * The hosted client has these in its `orders` module; arguments, bodies and answers are its own.
 */
export const paymentsCollector = {
  /**
   * `POST .../orders/{ecomOrderId}/prepare-payment-collection` {ecomOrderId, amount, paymentGatewayOrderId,
   * delayedCapture, ...}: answers `{paymentGatewayOrderId}`, the payment the gateway then charges.
   */
  preparePaymentCollection:
    (transport: Transport) =>
    (
      ecomOrderId: string,
      amount: Price,
      options?: PreparePaymentCollectionOptions,
    ): Promise<PreparePaymentCollectionResponse> =>
      call(
        transport,
        'POST',
        orderPath(ecomOrderId, 'prepare-payment-collection'),
        'PreparePaymentCollection',
        {
          ecomOrderId,
          amount,
          ...pick(options, [
            'paymentGatewayOrderId',
            'delayedCapture',
            'merchantInitiated',
            'redirectUrls',
            'delayedCaptureSettings',
          ]),
        },
      ),

  /** `GET .../orders/{ecomOrderId}/payment-collectability-status?ecomOrderId=...`: `{status, amount}`. */
  getPaymentCollectabilityStatus:
    (transport: Transport) =>
    (ecomOrderId: string): Promise<PaymentCollectabilityStatusResponse> =>
      call(
        transport,
        'GET',
        orderPath(ecomOrderId, 'payment-collectability-status'),
        'GetPaymentCollectabilityStatus',
        undefined,
        { ecomOrderId },
      ),

  /** `POST .../orders/{ecomOrderId}/void-authorized-payments` {ecomOrderId, paymentIds}: `{orderTransactions}`. */
  voidAuthorizedPayments:
    (transport: Transport) =>
    (ecomOrderId: string, paymentIds: string[]): Promise<OrderTransactionsResponse> =>
      call(transport, 'POST', orderPath(ecomOrderId, 'void-authorized-payments'), 'VoidAuthorizedPayments', {
        ecomOrderId,
        paymentIds,
      }),

  /** `POST .../orders/{ecomOrderId}/capture-authorized-payments` {ecomOrderId, payments}: `{orderTransactions}`. */
  captureAuthorizedPayments:
    (transport: Transport) =>
    (ecomOrderId: string, payments: PaymentCapture[]): Promise<OrderTransactionsResponse> =>
      call(
        transport,
        'POST',
        orderPath(ecomOrderId, 'capture-authorized-payments'),
        'CaptureAuthorizedPayments',
        {
          ecomOrderId,
          payments,
        },
      ),
} satisfies ModuleDefinition;
