import { orderBilling, orders, orderTransactions } from '@wix/ecom';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, cents } from './billing-support.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own `orders`, `orderBilling` and `orderTransactions` modules, unchanged but
 * for the host they reach, run a merchant's money day on Cartwheel: capture one authorized payment,
 * void another, record a cash payment, and refund a line with restock.
 */
describe.each(DIALECTS)("the hosted platform's own billing client, as a merchant app, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let productId: string;
  const merchantClient = (apiKey: string) =>
    createClient({
      modules: { orders, orderBilling, orderTransactions },
      auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }),
    });
  let merchant: ReturnType<typeof merchantClient>;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Hosted Billing Lamp', 45, 20)).id;
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('captures one authorized payment and voids another', async () => {
    const toCapture = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const toVoid = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const found = await merchant.orders.searchOrders({
      filter: { paymentStatus: { $eq: 'PENDING' } },
      cursorPaging: { limit: 10 },
    } as any);
    expect(found.orders?.map((order: any) => order._id).sort()).toEqual([toCapture, toVoid].sort());

    const status: any = await merchant.orders.getPaymentCollectabilityStatus(toCapture);
    expect(status.status).toBe('NONCOLLECTABLE_ORDER_IS_PAID');

    const single: any = await merchant.orderTransactions.listTransactionsForSingleOrder(toCapture);
    const payment = single.orderTransactions.payments[0];
    expect(payment.regularPaymentDetails.authorizationDetails.authorizedDate).toBeInstanceOf(Date);
    const captured: any = await merchant.orders.captureAuthorizedPayments(toCapture, [
      { paymentId: payment._id },
    ]);
    const capture =
      captured.orderTransactions.payments[0].regularPaymentDetails.authorizationDetails.captures[0];
    expect(capture.status).toBe('SUCCEEDED');
    expect(capture._createdDate).toBeInstanceOf(Date);
    expect(((await merchant.orders.getOrder(toCapture)) as any).paymentStatus).toBe('PAID');

    const other: any = await merchant.orderTransactions.listTransactionsForSingleOrder(toVoid);
    const voided: any = await merchant.orderBilling.voidAuthorizedPayments(toVoid, {
      paymentIds: [other.orderTransactions.payments[0]._id],
    });
    const voidDetails = voided.orderTransactions.payments[0].regularPaymentDetails.authorizationDetails.void;
    expect(voidDetails.status).toBe('SUCCEEDED');
    expect(voidDetails.voidedDate).toBeInstanceOf(Date);
    expect(((await merchant.orders.getOrder(toVoid)) as any).paymentStatus).toBe('CANCELED');

    // a second capture is an application error the hosted client raises, nothing moved
    await expect(
      merchant.orders.captureAuthorizedPayments(toCapture, [{ paymentId: payment._id }]),
    ).rejects.toMatchObject({
      details: { applicationError: { code: 'PAYMENT_ALREADY_CAPTURED' } },
    });
  });

  it('refunds a line with restock, as calculated, and reads the refund in the transactions', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 2 }]);
    const order: any = await merchant.orders.getOrder(orderId);
    const line = order.lineItems[0];
    const refundability: any = await merchant.orderBilling.getOrderRefundability(orderId);
    expect(refundability.payments[0].refundable).toBe(true);
    expect(refundability.lineItems[0]).toMatchObject({ lineItemId: line._id, availableRefundQuantity: 2 });

    const refundItems = { lineItems: [{ lineItemId: line._id, quantity: 1 }] };
    const calculated: any = await merchant.orderBilling.calculateRefund(orderId, { refundItems });
    expect(calculated.available).toBe(true);
    const stock = await stockOf(platform, productId);
    const refunded: any = await merchant.orderBilling.refundPayments(orderId, {
      paymentRefunds: [{ paymentId: refundability.payments[0].payment.paymentId }],
      refundItems,
      sideEffects: { restock: { lineItems: [{ lineItemId: line._id, quantity: 1 }] } },
    });
    expect(refunded.refund._id).toEqual(expect.any(String));
    expect(refunded.refund._createdDate).toBeInstanceOf(Date);
    expect(cents(refunded.refund.transactions[0].amount)).toBe(cents(calculated.summary.total));
    expect(await stockOf(platform, productId)).toBe(stock + 1);

    const transactions: any = await merchant.orderTransactions.listTransactionsForMultipleOrders([orderId]);
    expect(transactions.orderTransactions[0].refunds.map((refund: any) => refund._id)).toEqual([
      refunded.refund._id,
    ]);
    expect(((await merchant.orders.getOrder(orderId)) as any).paymentStatus).toBe('PARTIALLY_REFUNDED');
  });
});
