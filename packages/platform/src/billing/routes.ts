import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/app.ts';
import { invalidArgument, violation } from '../shared/errors.ts';
import { BILLING_OPERATIONS } from './operations-access.ts';
import {
  AddPaymentsAnswer,
  BulkUpdatePaymentStatusesAnswer,
  CalculateRefundAnswer,
  CollectabilityAnswer,
  OrderTransactionsAnswer,
  PrepareCollectionAnswer,
  RefundabilityAnswer,
  RefundPaymentsAnswer,
  VoidAndCancelAnswer,
} from './responses.ts';
import {
  AddPaymentsBody,
  BillingCaptureBody,
  BillingVoidBody,
  BulkUpdatePaymentStatusesBody,
  CalculateRefundBody,
  CollectorCaptureBody,
  CollectorVoidBody,
  EcomOrderParams,
  MAX_IDEMPOTENCY_KEY,
  OrderIdParams,
  PaymentOfOrderParams,
  PrepareCollectionBody,
  RefundabilityBody,
  RefundPaymentsBody,
  UpdatePaymentStatusBody,
  VoidAndCancelBody,
} from './schemas.ts';
import type { BillingService } from './service.ts';

/** The `Idempotency-Key` header: the same key makes a retried money call answer its first outcome. */
function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY)
    throw invalidArgument([
      violation(
        'Idempotency-Key',
        `must be one header of 1 to ${MAX_IDEMPOTENCY_KEY} characters`,
        'MAX_LENGTH',
      ),
    ]);
  return header;
}

/**
 * The merchant's money calls, for the admin API key and for staff and app keys holding the matching
 * permission (capture, void and refund are each their own; a visitor or member can do none): the payments collector (as the hosted `orders` module calls it), order billing (capture,
 * void, refundability, refunds) and the payments a merchant records in an order's transactions.
 */
export function billingRoutes(app: HttpApp, services: { billing: BillingService }): void {
  const { billing } = services;
  const collector = '/ecom/v1/payments-collector/orders/:ecomOrderId';

  app.post(
    `${collector}/prepare-payment-collection`,
    {
      schema: {
        params: EcomOrderParams,
        body: PrepareCollectionBody,
        response: { 200: PrepareCollectionAnswer },
      },
      config: BILLING_OPERATIONS.preparePaymentCollection,
    },
    (request) => billing.prepareCollection(request.params.ecomOrderId, request.body.amount.amount),
  );
  app.get(
    `${collector}/payment-collectability-status`,
    {
      schema: { params: EcomOrderParams, response: { 200: CollectabilityAnswer } },
      config: BILLING_OPERATIONS.getPaymentCollectabilityStatus,
    },
    (request) => billing.collectability(request.params.ecomOrderId),
  );
  app.post(
    `${collector}/capture-authorized-payments`,
    {
      schema: {
        params: EcomOrderParams,
        body: CollectorCaptureBody,
        response: { 200: OrderTransactionsAnswer },
      },
      config: BILLING_OPERATIONS.captureAuthorizedPayments,
    },
    (request) => billing.capture(request.params.ecomOrderId, request.body.payments, idempotencyKey(request)),
  );
  app.post(
    `${collector}/void-authorized-payments`,
    {
      schema: {
        params: EcomOrderParams,
        body: CollectorVoidBody,
        response: { 200: OrderTransactionsAnswer },
      },
      config: BILLING_OPERATIONS.voidAuthorizedPayments,
    },
    (request) => billing.void(request.params.ecomOrderId, request.body.paymentIds, idempotencyKey(request)),
  );

  const billingPath = '/ecom/v1/order-billing';
  app.post(
    `${billingPath}/capture-authorized-payments`,
    {
      schema: { body: BillingCaptureBody, response: { 200: OrderTransactionsAnswer } },
      config: BILLING_OPERATIONS.captureAuthorizedPayments,
    },
    (request) => billing.capture(request.body.orderId, request.body.payments, idempotencyKey(request)),
  );
  app.post(
    `${billingPath}/void-authorized-payments`,
    {
      schema: { body: BillingVoidBody, response: { 200: OrderTransactionsAnswer } },
      config: BILLING_OPERATIONS.voidAuthorizedPayments,
    },
    (request) => billing.void(request.body.orderId, request.body.paymentIds, idempotencyKey(request)),
  );
  app.post(
    `${billingPath}/get-order-refundability`,
    {
      schema: { body: RefundabilityBody, response: { 200: RefundabilityAnswer } },
      config: BILLING_OPERATIONS.getOrderRefundability,
    },
    (request) => billing.refundability(request.body.orderId),
  );
  app.post(
    `${billingPath}/calculate-refund`,
    {
      schema: { body: CalculateRefundBody, response: { 200: CalculateRefundAnswer } },
      config: BILLING_OPERATIONS.calculateRefund,
    },
    (request) => billing.calculate(request.body.orderId, request.body.refundItems ?? {}),
  );
  app.post(
    `${billingPath}/refund-payments`,
    {
      schema: { body: RefundPaymentsBody, response: { 200: RefundPaymentsAnswer } },
      config: BILLING_OPERATIONS.refundPayments,
    },
    (request) => billing.refund(request.body.orderId, request.body, idempotencyKey(request)),
  );

  // Cartwheel's own: cancel an order holding authorizations, voiding them at their provider first
  app.post(
    '/api/cartwheel/orders/:orderId/void-and-cancel',
    {
      schema: { params: OrderIdParams, body: VoidAndCancelBody, response: { 200: VoidAndCancelAnswer } },
      config: BILLING_OPERATIONS.voidAndCancelOrder,
    },
    (request) => billing.voidAndCancel(request.params.orderId, request.body, idempotencyKey(request)),
  );

  app.post(
    '/ecom/v1/payments/orders/:orderId/add-payment',
    {
      schema: { params: OrderIdParams, body: AddPaymentsBody, response: { 200: AddPaymentsAnswer } },
      config: BILLING_OPERATIONS.addPayments,
    },
    (request) => billing.addPayments(request.params.orderId, request.body.payments, idempotencyKey(request)),
  );
  app.post(
    '/ecom/v1/payments/:paymentId/orders/:orderId/update-payment-transaction-status',
    {
      schema: {
        params: PaymentOfOrderParams,
        body: UpdatePaymentStatusBody,
        response: { 200: OrderTransactionsAnswer },
      },
      config: BILLING_OPERATIONS.updatePaymentStatus,
    },
    (request) =>
      billing.updatePaymentStatus(
        request.params.orderId,
        request.params.paymentId,
        request.body.status,
        idempotencyKey(request),
      ),
  );
  app.post(
    '/ecom/v1/bulk/payments/update-payment-transaction-status',
    {
      schema: { body: BulkUpdatePaymentStatusesBody, response: { 200: BulkUpdatePaymentStatusesAnswer } },
      config: BILLING_OPERATIONS.bulkUpdatePaymentStatuses,
    },
    (request) =>
      billing.bulkUpdatePaymentStatuses(
        request.body.paymentAndOrderIds,
        request.body.status,
        request.body.returnFullEntity === true,
      ),
  );
}
