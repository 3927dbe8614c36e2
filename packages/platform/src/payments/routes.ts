import type { Kysely } from 'kysely';
import type { BillingService } from '../billing/service.ts';
import type { Tables } from '../db/tables.ts';
import type { HttpApp } from '../http/app.ts';
import type { OrderService } from '../orders/service.ts';
import { notFound } from '../shared/errors.ts';
import { PAYMENT_OPERATIONS } from './operations-access.ts';
import { periodOf, reconcilePayments } from './reconcile.ts';
import {
  OrdersTransactionsAnswer,
  OrderTransactionsAnswer,
  PaymentSettingsAnswer,
  ReconciliationAnswer,
  StripeWebhookAnswer,
} from './responses.ts';
import {
  ListByIdsBody,
  OrderTransactionsParams,
  PaymentSettingsBody,
  ReconcileBody,
  StripeWebhookBody,
} from './schemas.ts';
import type { PaymentService } from './service.ts';
import { SIGNATURE_HEADER, type StripeWebhooks } from './stripe-webhook.ts';

/** Orders' transactions (payments and refunds), read by whoever may read the order. */
export function paymentRoutes(
  app: HttpApp,
  services: {
    orders: Pick<OrderService, 'readable'>;
    payments: PaymentService;
    billing: Pick<BillingService, 'transactionsOf' | 'refundedByPayment'>;
    database: { db: Kysely<Tables> };
  },
): void {
  const { orders, payments, billing, database } = services;
  const path = '/ecom/v1/payments';

  app.get(
    `${path}/orders/:orderId`,
    {
      schema: { params: OrderTransactionsParams, response: { 200: OrderTransactionsAnswer } },
      config: PAYMENT_OPERATIONS.listTransactionsForSingleOrder,
    },
    async (request) => {
      const { orderId } = request.params;
      if (!(await orders.readable([orderId], request.principal)).has(orderId))
        throw notFound('order', orderId);
      const [orderTransactions] = await billing.transactionsOf([orderId]);
      return { orderTransactions };
    },
  );

  // orders the caller may not read are left out, as if they did not exist
  app.post(
    `${path}/list-by-ids`,
    {
      schema: { body: ListByIdsBody, response: { 200: OrdersTransactionsAnswer } },
      config: PAYMENT_OPERATIONS.listTransactionsForMultipleOrders,
    },
    async (request) => {
      const readable = await orders.readable([...new Set(request.body.orderIds)], request.principal);
      const ids = [...new Set(request.body.orderIds)].filter((id) => readable.has(id));
      return { orderTransactions: await billing.transactionsOf(ids) };
    },
  );

  // whether a paid checkout is captured at once or only authorized (captured later by the merchant)
  const settingsPath = '/api/cartwheel/payment-settings';
  app.get(
    settingsPath,
    { schema: { response: { 200: PaymentSettingsAnswer } }, config: PAYMENT_OPERATIONS.getPaymentSettings },
    async () => ({
      paymentSettings: { capture: await payments.captureMode() },
    }),
  );
  // the store's payments beside each provider's own records of a period (payments/reconcile.ts)
  app.post(
    '/api/cartwheel/payments/reconcile',
    {
      schema: { body: ReconcileBody, response: { 200: ReconciliationAnswer } },
      config: PAYMENT_OPERATIONS.reconcilePayments,
    },
    async (request) => ({
      reconciliation: await reconcilePayments(
        database.db,
        payments.providers,
        periodOf(request.body),
        (orderIds) => billing.refundedByPayment(orderIds),
      ),
    }),
  );
  app.patch(
    settingsPath,
    {
      schema: { body: PaymentSettingsBody, response: { 200: PaymentSettingsAnswer } },
      config: PAYMENT_OPERATIONS.updatePaymentSettings,
    },
    async (request) => {
      await payments.setCaptureMode(request.body.paymentSettings.capture);
      return { paymentSettings: { capture: await payments.captureMode() } };
    },
  );
}

/**
 * Stripe's webhook deliveries. Their signature is over the body's exact text, so this route's scope
 * reads JSON as text (every other route parses it as http/app.ts says).
 */
export function stripeWebhookRoutes(app: HttpApp, services: { stripeWebhooks: StripeWebhooks }): void {
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, String(body)),
    );
    scope.post(
      '/api/cartwheel/stripe/webhook',
      {
        schema: { body: StripeWebhookBody, response: { 200: StripeWebhookAnswer } },
        config: PAYMENT_OPERATIONS.receiveStripeWebhook,
      },
      async (request) => {
        const signature = request.headers[SIGNATURE_HEADER];
        const outcome = await services.stripeWebhooks.receive(
          request.body as string,
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { received: true, outcome };
      },
    );
  });
}
