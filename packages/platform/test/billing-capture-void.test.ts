import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { billing, buy, cents, code, orderOf } from './billing-support.ts';
import { visitorToken } from './catalog-http.ts';
import { shipToUs, stockedProduct } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Capture and void of authorized payments (the store only authorizes), through the payments
 * collector and order billing: full and partial capture, void, every illegal transition refused
 * with nothing moved, and the order's payment status derived from its transactions.
 */
describe.each(DIALECTS)('capture and void of authorized payments, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Authorized Kettle', 40, 100)).id;
  });
  afterAll(() => platform?.stop());

  const authorized = async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    return { orderId, payment: transactions.payments[0] };
  };

  it('an authorized order is PENDING and collectable for nothing more; capturing all of it makes it PAID', async () => {
    const { orderId, payment } = await authorized();
    // the card payment taken at checkout is announced as a recorded payment is (an app hears of it)
    const placed = await readEvents(platform.services.database.db, { entityId: orderId });
    expect(
      placed.filter((event) => event.entity === 'orderTransactions').map((event) => event.payload.entity),
    ).toEqual([{ orderId, payments: [payment], refunds: [] }]);
    const order = await orderOf(platform, orderId);
    expect(order.paymentStatus).toBe('PENDING');
    expect(payment).toMatchObject({
      status: 'AUTHORIZED',
      regularPaymentDetails: { authorizationDetails: { delayedCapture: true, captures: [] } },
    });
    expect((await billing(platform).collectability(orderId)).body).toMatchObject({
      status: 'NONCOLLECTABLE_ORDER_IS_PAID',
    });
    // nothing was taken yet: nothing to refund
    const refundable = (await billing(platform).refundability(orderId)).body;
    expect(refundable.payments[0]).toMatchObject({ nonRefundable: { reason: 'NOT_PAID' } });

    const captured = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    const after = captured.body.orderTransactions.payments[0];
    expect(after.status).toBe('APPROVED');
    expect(after.regularPaymentDetails.authorizationDetails.captures).toEqual([
      expect.objectContaining({
        status: 'SUCCEEDED',
        amount: expect.objectContaining({ amount: payment.amount.amount }),
      }),
    ]);
    const paid = await orderOf(platform, orderId);
    expect(paid.paymentStatus).toBe('PAID');
    expect(paid.activities.map((activity: any) => activity.type)).toContain('AUTHORIZED_PAYMENT_CAPTURED');
    const events = await readEvents(platform.services.database.db, { entityId: orderId });
    expect(events.map((event) => event.slug)).toContain('updated');
    // the gateway captured it once, for the whole amount
    const gatewayCaptures = await platform.services.database.db
      .selectFrom('gateway_captures')
      .selectAll()
      .where('transaction_id', '=', payment.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(gatewayCaptures.map((row) => cents(row.amount))).toEqual([cents(payment.amount)]);
  });

  it('a partial capture takes that much and releases the rest: the order is PARTIALLY_PAID', async () => {
    const { orderId, payment } = await authorized();
    const part = (cents(payment.amount) - 1234) / 100;
    const captured = await billing(platform).billingCapture(orderId, [
      { paymentId: payment.id, amount: { amount: part.toFixed(2) } },
    ]);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PARTIALLY_PAID');
    const refundable = (await billing(platform).refundability(orderId)).body;
    expect(cents(refundable.payments[0].payment.monetary.maxRefund)).toBe(Math.round(part * 100));
    // what was released is owed again
    expect((await billing(platform).collectability(orderId)).body).toMatchObject({
      status: 'COLLECTABLE',
      amount: { amount: '12.34' },
    });
    expect((await billing(platform).prepare(orderId, '12.34')).body).toEqual({
      paymentGatewayOrderId: orderId,
    });
    expect((await billing(platform).prepare(orderId, '12.35')).status).toBe(400);
  });

  it('a second capture, a capture of more than authorized and a capture after a void are refused, and nothing moves', async () => {
    const { orderId, payment } = await authorized();
    const tooMuch = await billing(platform).capture(orderId, [
      { paymentId: payment.id, amount: { amount: (cents(payment.amount) / 100 + 0.01).toFixed(2) } },
    ]);
    expect([tooMuch.status, code(tooMuch)]).toEqual([400, 'INVALID_AMOUNT']);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PENDING');

    expect((await billing(platform).capture(orderId, [{ paymentId: payment.id }])).status).toBe(200);
    const second = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect([second.status, code(second)]).toEqual([428, 'PAYMENT_ALREADY_CAPTURED']);
    const voidCaptured = await billing(platform).void(orderId, [payment.id]);
    expect([voidCaptured.status, code(voidCaptured)]).toEqual([428, 'PAYMENT_ALREADY_CAPTURED']);

    const other = await authorized();
    const voided = await billing(platform).void(other.orderId, [other.payment.id]);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.orderTransactions.payments[0]).toMatchObject({
      status: 'VOIDED',
      regularPaymentDetails: { authorizationDetails: { void: { status: 'SUCCEEDED', reason: 'MANUAL' } } },
    });
    expect((await orderOf(platform, other.orderId)).paymentStatus).toBe('CANCELED');
    const afterVoid = await billing(platform).capture(other.orderId, [{ paymentId: other.payment.id }]);
    expect([afterVoid.status, code(afterVoid)]).toEqual([428, 'PAYMENT_ALREADY_VOIDED']);
    const voidAgain = await billing(platform).void(other.orderId, [other.payment.id]);
    expect([voidAgain.status, code(voidAgain)]).toEqual([428, 'PAYMENT_ALREADY_VOIDED']);
    const unknown = await billing(platform).capture(other.orderId, [{ paymentId: orderId }]);
    expect([unknown.status, code(unknown)]).toEqual([404, 'PAYMENT_NOT_FOUND']);
    const noOrder = await billing(platform).capture('no-such-order', [{ paymentId: orderId }]);
    expect([noOrder.status, code(noOrder)]).toEqual([404, 'ORDER_NOT_FOUND']);
    // the gateway captured the first once and the voided one never
    const db = platform.services.database.db;
    const captures = await db.selectFrom('gateway_captures').selectAll().execute();
    expect(
      captures.filter((row) => row.transaction_id === payment.regularPaymentDetails.gatewayTransactionId),
    ).toHaveLength(1);
    expect(
      captures.filter(
        (row) => row.transaction_id === other.payment.regularPaymentDetails.gatewayTransactionId,
      ),
    ).toHaveLength(0);
  });

  it('a sale (captured at once) is not an authorization: capture and void are refused', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }]);
    const payment = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    const captured = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect([captured.status, code(captured)]).toEqual([428, 'PAYMENT_NOT_AUTHORIZED']);
    const voided = await billing(platform).void(orderId, [payment.id]);
    expect([voided.status, code(voided)]).toEqual([428, 'PAYMENT_NOT_AUTHORIZED']);
  });

  it('a retry with the same Idempotency-Key answers the first capture; concurrent captures capture once', async () => {
    const { orderId, payment } = await authorized();
    const [first, again] = await Promise.all([
      billing(platform).capture(orderId, [{ paymentId: payment.id }], 'capture-key-1'),
      billing(platform).capture(orderId, [{ paymentId: payment.id }], 'capture-key-1'),
    ]);
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    const later = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'capture-key-1');
    expect(later.body).toEqual(first.body);

    const racing = await authorized();
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map((key) =>
        billing(platform).capture(racing.orderId, [{ paymentId: racing.payment.id }], key),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect(['PAYMENT_ALREADY_CAPTURED', 'PAYMENT_HAS_PENDING_CAPTURE']).toContain(code(refused));
    const captures = await platform.services.database.db
      .selectFrom('gateway_captures')
      .selectAll()
      .where('transaction_id', '=', racing.payment.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(captures).toHaveLength(1);
  });

  it('a canceled order is not captured or collected; its authorization can still be voided', async () => {
    const { orderId, payment } = await authorized();
    // as the merchant's cancelOrder leaves it
    await platform.services.database.db
      .updateTable('orders')
      .set({ status: 'CANCELED' })
      .where('id', '=', orderId)
      .execute();
    const captured = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect([captured.status, code(captured)]).toEqual([428, 'ORDER_STATUS_IS_NOT_SUPPORTED']);
    expect((await billing(platform).collectability(orderId)).body.status).toBe(
      'NONCOLLECTABLE_ORDER_IS_CANCELLED',
    );
    const prepared = await billing(platform).prepare(orderId, '1.00');
    expect([prepared.status, code(prepared)]).toEqual([428, 'NONCOLLECTABLE_ORDER_IS_CANCELLED']);
    expect((await billing(platform).void(orderId, [payment.id])).status).toBe(200);
    const order = await orderOf(platform, orderId);
    expect([order.status, order.paymentStatus]).toEqual(['CANCELED', 'CANCELED']);
  });

  it('only the admin key captures, voids or reads billing; a visitor is refused', async () => {
    const { orderId, payment } = await authorized();
    const visitor = await visitorToken(platform);
    const path = `/ecom/v1/payments-collector/orders/${orderId}/capture-authorized-payments`;
    const refused = await fetch(`${platform.url}${path}`, {
      method: 'POST',
      headers: { Authorization: visitor, 'Content-Type': 'application/json' },
      body: JSON.stringify({ payments: [{ paymentId: payment.id }] }),
    });
    expect(refused.status).toBe(403);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PENDING');
  });
});
