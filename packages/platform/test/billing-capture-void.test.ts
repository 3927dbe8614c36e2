import { ApiKeyStrategy, ApplicationError, createClient, orderAdmin, orders } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { billing, buy, cents, code, money, orderOf } from './billing-support.ts';
import { admin, visitorToken } from './catalog-http.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { createKey } from './staff-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Capture and void of authorized payments (the store only authorizes), through the payments
 * collector and order billing: full and partial capture, void, every illegal transition refused
 * with nothing moved, and the order's payment status derived from its transactions. An order holding
 * an authorization is not canceled (the buyer's money would stay held) but voided and canceled.
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

  const cancel = (orderId: string, body: Record<string, unknown> = {}) =>
    admin(platform).post(`/ecom/v1/orders/${orderId}/cancel`, body);
  const voidAndCancel = (orderId: string, body: Record<string, unknown> = {}, key?: string) =>
    money(platform, 'POST', `/api/cartwheel/orders/${orderId}/void-and-cancel`, body, key ? { key } : {});
  const gatewayVoids = (transactionId: string) =>
    platform.services.database.db
      .selectFrom('gateway_voids')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .execute();
  const setStatus = (orderId: string, status: string) =>
    platform.services.database.db.updateTable('orders').set({ status }).where('id', '=', orderId).execute();

  it('cancelOrder refuses an order holding an authorization with ORDER_HAS_AUTHORIZED_TRANSACTION, and nothing changes', async () => {
    const { orderId, payment } = await authorized();
    const stock = await stockOf(platform, productId);
    const before = await orderOf(platform, orderId);
    const refused = await cancel(orderId, { restockAllItems: true, sendOrderCanceledEmail: true });
    expect([refused.status, code(refused)], JSON.stringify(refused.body)).toEqual([
      428,
      'ORDER_HAS_AUTHORIZED_TRANSACTION',
    ]);
    expect(refused.body.details.applicationError.data).toMatchObject({ orderId, paymentIds: [payment.id] });
    const after = await orderOf(platform, orderId);
    expect([after.status, after.paymentStatus]).toEqual([before.status, 'PENDING']);
    expect(after.activities).toEqual(before.activities);
    expect(await stockOf(platform, productId)).toBe(stock);
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    expect(transactions.payments[0].status).toBe('AUTHORIZED');
    const events = await readEvents(platform.services.database.db, { entityId: orderId });
    expect(events.map((event) => event.slug)).not.toContain('canceled');

    // once its authorization is voided, the order is canceled as any other
    expect((await billing(platform).void(orderId, [payment.id])).status).toBe(200);
    const canceled = await cancel(orderId, { restockAllItems: true });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect([canceled.body.order.status, canceled.body.order.paymentStatus]).toEqual(['CANCELED', 'CANCELED']);
    expect(await stockOf(platform, productId)).toBe(stock + 1);
  });

  it('void and cancel voids at the provider first, then cancels with restock; a retry answers the same and moves nothing twice', async () => {
    const { orderId, payment } = await authorized();
    const stock = await stockOf(platform, productId);
    const done = await voidAndCancel(
      orderId,
      { restockAllItems: true, sendOrderCanceledEmail: true },
      'vc-1',
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.order).toMatchObject({ id: orderId, status: 'CANCELED', paymentStatus: 'CANCELED' });
    expect(done.body.orderTransactions.payments[0]).toMatchObject({
      id: payment.id,
      status: 'VOIDED',
      regularPaymentDetails: { authorizationDetails: { void: { status: 'SUCCEEDED', reason: 'MANUAL' } } },
    });
    expect(await stockOf(platform, productId)).toBe(stock + 1);
    const types = (done.body.order.activities as Array<{ type: string }>).map((activity) => activity.type);
    // voided first, then canceled
    expect(types.indexOf('AUTHORIZED_PAYMENT_VOIDED')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('ORDER_CANCELED')).toBeGreaterThan(types.indexOf('AUTHORIZED_PAYMENT_VOIDED'));

    for (const key of ['vc-1', undefined]) {
      const again = await voidAndCancel(
        orderId,
        { restockAllItems: true, sendOrderCanceledEmail: true },
        key,
      );
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.order).toMatchObject({ status: 'CANCELED', paymentStatus: 'CANCELED' });
      expect(again.body.order.activities).toEqual(done.body.order.activities);
    }
    expect(await stockOf(platform, productId)).toBe(stock + 1);
    expect(await gatewayVoids(payment.regularPaymentDetails.gatewayTransactionId)).toHaveLength(1);
    const events = await readEvents(platform.services.database.db, { entityId: orderId });
    expect(events.filter((event) => event.slug === 'canceled')).toHaveLength(1);
  });

  it('void and cancel refuses, before voiding, an order its cancel would refuse; and one holding nothing to void', async () => {
    const pending = await authorized();
    await setStatus(pending.orderId, 'PENDING');
    for (const call of [cancel, voidAndCancel]) {
      const refused = await call(pending.orderId);
      expect([refused.status, code(refused)], JSON.stringify(refused.body)).toEqual([
        428,
        'ORDER_IS_PENDING',
      ]);
    }
    const rejected = await authorized();
    await setStatus(rejected.orderId, 'REJECTED');
    for (const call of [cancel, voidAndCancel]) {
      const refused = await call(rejected.orderId);
      expect([refused.status, code(refused)]).toEqual([428, 'ORDER_IS_REJECTED']);
    }
    for (const { payment } of [pending, rejected]) {
      expect(await gatewayVoids(payment.regularPaymentDetails.gatewayTransactionId)).toHaveLength(0);
    }
    const pendingNow = (await billing(platform).transactions(pending.orderId)).body.orderTransactions;
    expect(pendingNow.payments[0].status).toBe('AUTHORIZED');

    // a sale holds no authorization: cancelOrder cancels it, void and cancel has nothing to do
    const sale = await buy(platform, [{ productId, quantity: 1 }]);
    const nothing = await voidAndCancel(sale);
    expect([nothing.status, code(nothing)]).toEqual([428, 'ORDER_HAS_NO_AUTHORIZED_TRANSACTION']);
    expect((await orderOf(platform, sale)).status).toBe('APPROVED');
    const unknown = await voidAndCancel('no-such-order');
    expect([unknown.status, code(unknown)]).toEqual([404, 'ORDER_NOT_FOUND']);
    const bad = await voidAndCancel(pending.orderId, { restockAllItems: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('preparePaymentCollection answers the hosted codes: ORDER_ALREADY_PAID for a paid order, ORDER_CANCELED for a canceled one', async () => {
    const sale = await buy(platform, [{ productId, quantity: 1 }]);
    const paid = await billing(platform).prepare(sale, '1.00');
    expect([paid.status, code(paid)], JSON.stringify(paid.body)).toEqual([428, 'ORDER_ALREADY_PAID']);
    expect((await cancel(sale)).status).toBe(200);
    const canceled = await billing(platform).prepare(sale, '1.00');
    expect([canceled.status, code(canceled)]).toEqual([428, 'ORDER_CANCELED']);
  });

  it('void and cancel is for keys and staff that may void: orders.manage alone is refused', async () => {
    const { orderId } = await authorized();
    const manager = await createKey(platform, platform.adminApiKey, ['orders.manage', 'orders.read']);
    const refused = await money(
      platform,
      'POST',
      `/api/cartwheel/orders/${orderId}/void-and-cancel`,
      {},
      {
        auth: manager.key,
      },
    );
    expect(refused.status).toBe(403);
    expect((await orderOf(platform, orderId)).status).not.toBe('CANCELED');
    const voider = await createKey(platform, platform.adminApiKey, ['orders.void']);
    const done = await money(
      platform,
      'POST',
      `/api/cartwheel/orders/${orderId}/void-and-cancel`,
      {},
      {
        auth: voider.key,
      },
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.order.status).toBe('CANCELED');
  });

  it('void and cancel racing a capture, or itself: the money moves once, the order is canceled at most once, stock comes back once', async () => {
    for (let round = 0; round < 3; round++) {
      const { orderId, payment } = await authorized();
      const stock = await stockOf(platform, productId);
      const [voided, captured] = await Promise.all([
        voidAndCancel(orderId, { restockAllItems: true }),
        billing(platform).capture(orderId, [{ paymentId: payment.id }]),
      ]);
      const order = await orderOf(platform, orderId);
      const transactionId = payment.regularPaymentDetails.gatewayTransactionId;
      const captures = await platform.services.database.db
        .selectFrom('gateway_captures')
        .selectAll()
        .where('transaction_id', '=', transactionId)
        .execute();
      if (voided.status === 200) {
        expect([order.status, order.paymentStatus]).toEqual(['CANCELED', 'CANCELED']);
        expect(captures).toHaveLength(0);
        expect(await stockOf(platform, productId)).toBe(stock + 1);
      } else {
        expect(captured.status, JSON.stringify(captured.body)).toBe(200);
        expect([
          'PAYMENT_ALREADY_CAPTURED',
          'PAYMENT_NOT_AUTHORIZED',
          'ORDER_HAS_NO_AUTHORIZED_TRANSACTION',
        ]).toContain(code(voided));
        expect([order.status, order.paymentStatus]).toEqual(['APPROVED', 'PAID']);
        expect(await gatewayVoids(transactionId)).toHaveLength(0);
        expect(await stockOf(platform, productId)).toBe(stock);
      }
      expect([voided.status, captured.status]).toContain(200);
      expect([voided.status, captured.status]).not.toEqual([200, 200]);

      const twice = await authorized();
      const before = await stockOf(platform, productId);
      const both = await Promise.all([
        voidAndCancel(twice.orderId, { restockAllItems: true }),
        voidAndCancel(twice.orderId, { restockAllItems: true }),
      ]);
      expect(both.map((answer) => answer.status)).toContain(200);
      const canceled = await orderOf(platform, twice.orderId);
      expect([canceled.status, canceled.paymentStatus]).toEqual(['CANCELED', 'CANCELED']);
      expect(canceled.activities.filter((activity: any) => activity.type === 'ORDER_CANCELED')).toHaveLength(
        1,
      );
      expect(await stockOf(platform, productId)).toBe(before + 1);
      expect(await gatewayVoids(twice.payment.regularPaymentDetails.gatewayTransactionId)).toHaveLength(1);
    }
  });

  it("the SDK's cancelOrder is refused with an ApplicationError; its orderAdmin.voidAndCancelOrder voids and cancels", async () => {
    const { orderId, payment } = await authorized();
    const client = createClient({
      host: platform.url,
      auth: ApiKeyStrategy({ apiKey: platform.adminApiKey }),
      modules: { orders, orderAdmin },
    });
    const refused = await client.orders
      .cancelOrder(orderId, { restockAllItems: true })
      .catch((error) => error);
    expect(refused).toBeInstanceOf(ApplicationError);
    expect(refused).toMatchObject({ status: 428, code: 'ORDER_HAS_AUTHORIZED_TRANSACTION' });
    const done = await client.orderAdmin.voidAndCancelOrder(orderId, { restockAllItems: true });
    expect(done.order).toMatchObject({ id: orderId, status: 'CANCELED', paymentStatus: 'CANCELED' });
    expect(done.orderTransactions.payments?.[0]).toMatchObject({ id: payment.id, status: 'VOIDED' });
    const sale = await buy(platform, [{ productId, quantity: 1 }]);
    const nothing = await client.orderAdmin.voidAndCancelOrder(sale).catch((error) => error);
    expect(nothing).toMatchObject({ code: 'ORDER_HAS_NO_AUTHORIZED_TRANSACTION' });
  });

  it('a canceled order is not captured or collected; its authorization can still be voided', async () => {
    const { orderId, payment } = await authorized();
    // as cancelOrder left such an order before it refused one holding an authorization
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
    expect([prepared.status, code(prepared)]).toEqual([428, 'ORDER_CANCELED']);
    // void and cancel releases it: the order is canceled already, so only the void is made
    const released = await voidAndCancel(orderId, { restockAllItems: true });
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.orderTransactions.payments[0].status).toBe('VOIDED');
    expect(released.body.order.activities.map((activity: any) => activity.type)).not.toContain(
      'ORDER_CANCELED',
    );
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
