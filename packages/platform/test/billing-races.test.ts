import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billing, buy, cents, code, orderOf } from './billing-support.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Two platform processes of one store (behind a load balancer) take the same money calls at the same
 * moment: an authorization is captured once, an order is never refunded more than was paid, and a
 * retried key refunds once whichever process it reaches.
 */
describe.each(DIALECTS)('money calls racing on two processes, on %s', (dialect) => {
  let first: TestPlatform;
  let second: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    first = await startTestPlatform({ dialect });
    second = await startTestPlatform({ dialect, sharing: first });
    await shipToUs(first);
    productId = (await stockedProduct(first, 'Racing Vase', 25, 100)).id;
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  const processes = () => [first, second];

  it('merchants capturing one authorization on both processes capture it once', async () => {
    const orderId = await buy(first, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const payment = (await billing(first).transactions(orderId)).body.orderTransactions.payments[0];
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        billing(processes()[index % 2]!).capture(orderId, [{ paymentId: payment.id }], `capture-${index}`),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect(['PAYMENT_ALREADY_CAPTURED', 'PAYMENT_HAS_PENDING_CAPTURE']).toContain(code(refused));
    const captures = await first.services.database.db
      .selectFrom('gateway_captures')
      .selectAll()
      .where('transaction_id', '=', payment.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(captures.map((row) => cents(row.amount))).toEqual([cents(payment.amount)]);
    expect((await orderOf(second, orderId)).paymentStatus).toBe('PAID');
  });

  it('merchants refunding one order on both processes never refund more than was paid', async () => {
    const orderId = await buy(first, [{ productId, quantity: 2 }]);
    const order = await orderOf(first, orderId);
    const total = cents(order.priceSummary.total);
    const paymentId = (await billing(first).transactions(orderId)).body.orderTransactions.payments[0].id;
    const share = (Math.floor(total * 0.4) / 100).toFixed(2);
    // rounds of racing refunds until the order can give no more back
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          billing(processes()[index % 2]!).refund(
            orderId,
            { paymentRefunds: [{ paymentId, amount: { amount: share } }] },
            `refund-${round}-${index}`,
          ),
        ),
      );
      for (const refused of answers.filter((answer) => answer.status !== 200))
        expect(['PAYMENT_NOT_REFUNDABLE', 'INVALID_PAYMENT_REFUND_AMOUNT']).toContain(code(refused));
    }
    const transactions = (await billing(second).transactions(orderId)).body.orderTransactions;
    const refunded = transactions.refunds
      .flatMap((refund: any) => refund.transactions)
      .reduce((sum: number, transaction: any) => sum + cents(transaction.amount), 0);
    // 40% twice fits in what was paid, a third time does not
    expect(refunded).toBe(2 * cents(share));
    const gatewayRefunds = await first.services.database.db
      .selectFrom('gateway_refunds')
      .selectAll()
      .where('transaction_id', '=', transactions.payments[0].regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(gatewayRefunds.reduce((sum, row) => sum + cents(row.amount), 0)).toBe(refunded);
    expect((await orderOf(first, orderId)).paymentStatus).toBe('PARTIALLY_REFUNDED');
  });

  it('a refund with restock retried on the other process refunds and restocks once', async () => {
    const orderId = await buy(first, [{ productId, quantity: 3 }]);
    const line = (await orderOf(first, orderId)).lineItems[0];
    const paymentId = (await billing(first).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(first, productId);
    const body = {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 2 }] } },
    };
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        billing(processes()[index % 2]!).refund(orderId, body, 'one-refund'),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.refund.id)).size).toBe(1);
    expect((await billing(second).transactions(orderId)).body.orderTransactions.refunds).toHaveLength(1);
    expect(await stockOf(first, productId)).toBe(stock + 2);
    const left = (await billing(first).refundability(orderId)).body.lineItems[0];
    expect(left).toMatchObject({ refundedQuantity: 2, availableRefundQuantity: 1 });
  });
});
