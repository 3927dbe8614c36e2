import { describe, expect, it } from 'vitest';
import {
  ApplicationError,
  HOSTED_API_HOST,
  ORDER_TRANSACTIONS,
  orderTransactions,
  PAYMENTS_COLLECTOR,
  paymentsCollector,
  toPublicPath,
} from '../src/index.ts';
import type { RecordedRequest } from './support/loopback-server.ts';
import {
  ADMIN_KEY,
  adminClient,
  type CallRow,
  expectRowsCover,
  expectWireCall,
  startWireServer,
  tracing,
  type WireCallReturning,
} from './support/wire-calls.ts';

/**
 * The payments collector's and the order transactions' calls against a loopback server that records
 * what arrives. Expectations are the wire contract's lists, written out by hand; an admin's client.
 */

const CREATED = '2024-05-01T10:00:00.000Z';
const AUTHORIZED = '2024-05-01T10:00:01.000Z';
const CAPTURED = '2024-05-02T09:00:00.000Z';
const VOID_AT = '2024-05-08T10:00:00.000Z';
const TRANSACTIONS_ON_WIRE = {
  orderId: 'o1',
  payments: [
    {
      id: 'pay1',
      amount: { amount: '27.50', formattedAmount: '$27.50' },
      status: 'AUTHORIZED',
      createdDate: CREATED,
      updatedDate: CREATED,
      regularPaymentDetails: {
        offlinePayment: false,
        authorizationDetails: {
          delayedCapture: true,
          authorizedDate: AUTHORIZED,
          captures: [{ id: 'cap1', status: 'SUCCEEDED', amount: { amount: '10.00' }, createdDate: CAPTURED }],
          scheduledAction: { actionType: 'VOID', executionDate: VOID_AT },
        },
      },
    },
  ],
  refunds: [],
};
/** The transactions as the SDK answers them: every date field a `Date`. */
const TRANSACTIONS = {
  orderId: 'o1',
  payments: [
    {
      ...TRANSACTIONS_ON_WIRE.payments[0],
      createdDate: new Date(CREATED),
      updatedDate: new Date(CREATED),
      regularPaymentDetails: {
        offlinePayment: false,
        authorizationDetails: {
          delayedCapture: true,
          authorizedDate: new Date(AUTHORIZED),
          captures: [
            { id: 'cap1', status: 'SUCCEEDED', amount: { amount: '10.00' }, createdDate: new Date(CAPTURED) },
          ],
          scheduledAction: { actionType: 'VOID', executionDate: new Date(VOID_AT) },
        },
      },
    },
  ],
  refunds: [],
};

function paymentsPlatform(request: RecordedRequest) {
  if (request.path.endsWith('/prepare-payment-collection'))
    return { body: { paymentGatewayOrderId: 'gateway-1' } };
  if (request.path.endsWith('/payment-collectability-status'))
    return { body: { status: 'COLLECTABLE', amount: { amount: '27.50' } } };
  if (request.path.endsWith('/list-by-ids')) return { body: { orderTransactions: [TRANSACTIONS_ON_WIRE] } };
  if (request.path.endsWith('/bulk/payments/update-payment-transaction-status'))
    return { body: { results: [], bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0 } } };
  if (request.path.endsWith('/add-payment'))
    return { body: { orderTransactions: TRANSACTIONS_ON_WIRE, paymentsIds: ['pay2'] } };
  return { body: { orderTransactions: TRANSACTIONS_ON_WIRE } };
}

const server = await startWireServer(paymentsPlatform);
const admin = adminClient(server, { paymentsCollector, orderTransactions });

interface Expected extends WireCallReturning {
  /** The service and entity the tracing header names. */
  trace: RegExp;
}

const COLLECTOR = tracing('cartwheel.ecom.orders.payments_collector.v1.PaymentsCollector', 'order');
const PAYMENTS = tracing('cartwheel.ecom.orders.payments.v1.Payments', 'orderTransactions');

const calls: CallRow<typeof admin, Expected>[] = [
  [
    'paymentsCollector.preparePaymentCollection',
    (c) => c.paymentsCollector.preparePaymentCollection('o1', { amount: '27.50' }, { delayedCapture: true }),
    {
      method: 'POST',
      path: '/ecom/v1/payments-collector/orders/o1/prepare-payment-collection',
      body: { ecomOrderId: 'o1', amount: { amount: '27.50' }, delayedCapture: true },
      returns: { paymentGatewayOrderId: 'gateway-1' },
      trace: COLLECTOR,
    },
  ],
  [
    'paymentsCollector.getPaymentCollectabilityStatus',
    (c) => c.paymentsCollector.getPaymentCollectabilityStatus('o1'),
    {
      method: 'GET',
      path: '/ecom/v1/payments-collector/orders/o1/payment-collectability-status',
      query: { ecomOrderId: 'o1' },
      returns: { status: 'COLLECTABLE', amount: { amount: '27.50' } },
      trace: COLLECTOR,
    },
  ],
  [
    'paymentsCollector.voidAuthorizedPayments',
    (c) => c.paymentsCollector.voidAuthorizedPayments('o1', ['pay1']),
    {
      method: 'POST',
      path: '/ecom/v1/payments-collector/orders/o1/void-authorized-payments',
      body: { ecomOrderId: 'o1', paymentIds: ['pay1'] },
      returns: { orderTransactions: TRANSACTIONS },
      trace: COLLECTOR,
    },
  ],
  [
    'paymentsCollector.captureAuthorizedPayments',
    (c) =>
      c.paymentsCollector.captureAuthorizedPayments('o1', [
        { paymentId: 'pay1', amount: { amount: '10.00' } },
      ]),
    {
      method: 'POST',
      path: '/ecom/v1/payments-collector/orders/o1/capture-authorized-payments',
      body: { ecomOrderId: 'o1', payments: [{ paymentId: 'pay1', amount: { amount: '10.00' } }] },
      returns: { orderTransactions: TRANSACTIONS },
      trace: COLLECTOR,
    },
  ],
  [
    'orderTransactions.listTransactionsForSingleOrder',
    (c) => c.orderTransactions.listTransactionsForSingleOrder('o1'),
    {
      method: 'GET',
      path: '/ecom/v1/payments/orders/o1',
      query: { orderId: 'o1' },
      returns: { orderTransactions: TRANSACTIONS },
      trace: PAYMENTS,
    },
  ],
  [
    'orderTransactions.listTransactionsForMultipleOrders',
    (c) => c.orderTransactions.listTransactionsForMultipleOrders(['o1']),
    {
      method: 'POST',
      path: '/ecom/v1/payments/list-by-ids',
      body: { orderIds: ['o1'] },
      returns: { orderTransactions: [TRANSACTIONS] },
      trace: PAYMENTS,
    },
  ],
  [
    'orderTransactions.addPayments',
    (c) =>
      c.orderTransactions.addPayments('o1', [
        {
          amount: { amount: '5.00' },
          regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
        },
      ]),
    {
      method: 'POST',
      path: '/ecom/v1/payments/orders/o1/add-payment',
      body: {
        orderId: 'o1',
        payments: [
          {
            amount: { amount: '5.00' },
            regularPaymentDetails: { offlinePayment: true, paymentMethod: 'Cash' },
          },
        ],
      },
      returns: { orderTransactions: TRANSACTIONS, paymentsIds: ['pay2'] },
      trace: PAYMENTS,
    },
  ],
  [
    'orderTransactions.updatePaymentStatus',
    (c) =>
      c.orderTransactions.updatePaymentStatus({ paymentId: 'pay1', orderId: 'o1' }, { status: 'APPROVED' }),
    {
      method: 'POST',
      path: '/ecom/v1/payments/pay1/orders/o1/update-payment-transaction-status',
      body: { paymentId: 'pay1', orderId: 'o1', status: 'APPROVED' },
      returns: { orderTransactions: TRANSACTIONS },
      trace: PAYMENTS,
    },
  ],
  [
    'orderTransactions.bulkUpdatePaymentStatuses',
    (c) =>
      c.orderTransactions.bulkUpdatePaymentStatuses([{ paymentId: 'pay1', orderId: 'o1' }], {
        status: 'APPROVED',
      }),
    {
      method: 'POST',
      path: '/ecom/v1/bulk/payments/update-payment-transaction-status',
      body: { paymentAndOrderIds: [{ paymentId: 'pay1', orderId: 'o1' }], status: 'APPROVED' },
      returns: { results: [], bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0 } },
      trace: PAYMENTS,
    },
  ],
];

describe('payments collector and order transactions calls on the wire (wire contract, Calls)', () => {
  it.each(calls)(
    '%s sends the request the wire contract lists and returns what the hosted client returns',
    async (_name, call, expected) => {
      const result = await call(admin);
      expectWireCall(server.requests, expected, { authorization: ADMIN_KEY, trace: expected.trace });
      expect(result).toEqual(expected.returns);
    },
  );

  it('covers every method of both modules', () => {
    expectRowsCover(calls, [
      ...Object.keys(paymentsCollector).map((method) => `paymentsCollector.${method}`),
      ...Object.keys(orderTransactions).map((method) => `orderTransactions.${method}`),
    ]);
  });

  it('maps the payments collector and the payments under /ecom on the hosted API host and on any other host', () => {
    expect(toPublicPath(PAYMENTS_COLLECTOR, HOSTED_API_HOST, '/v1/payments-collector/orders/o1')).toBe(
      '/ecom/v1/payments-collector/orders/o1',
    );
    expect(toPublicPath(ORDER_TRANSACTIONS, 'localhost:4000', '/v1/payments/list-by-ids')).toBe(
      '/ecom/v1/payments/list-by-ids',
    );
    expect(toPublicPath(ORDER_TRANSACTIONS, HOSTED_API_HOST, '/v1/bulk/payments/update')).toBe(
      '/ecom/v1/bulk/payments/update',
    );
  });

  it("turns a payment's authorization, capture and scheduled void dates into Dates", async () => {
    const { orderTransactions: transactions } =
      await admin.orderTransactions.listTransactionsForSingleOrder('o1');
    const authorization = transactions?.payments?.[0]?.regularPaymentDetails?.authorizationDetails;
    expect(authorization?.authorizedDate).toEqual(new Date(AUTHORIZED));
    expect(authorization?.captures?.[0]?.createdDate).toEqual(new Date(CAPTURED));
    expect(authorization?.scheduledAction?.executionDate).toEqual(new Date(VOID_AT));
  });

  it('raises a capture of more than was authorized as the application error the platform sent', async () => {
    server.respond = () => ({
      status: 400,
      body: {
        message: 'capture exceeds the authorized amount',
        details: {
          applicationError: {
            code: 'CAPTURE_AMOUNT_EXCEEDS_AUTHORIZED',
            description: 'Only 27.50 is authorized',
          },
        },
      },
    });
    const refused = admin.paymentsCollector.captureAuthorizedPayments('o1', [
      { paymentId: 'pay1', amount: { amount: '99.00' } },
    ]);
    await expect(refused).rejects.toBeInstanceOf(ApplicationError);
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'CAPTURE_AMOUNT_EXCEEDS_AUTHORIZED' });
  });
});
