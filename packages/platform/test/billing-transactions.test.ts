import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { billing, buy, cents, code, money, orderOf } from './billing-support.ts';
import { signUpFrom } from './cart-calls.ts';
import { visitorToken } from './catalog-http.ts';
import { shipToUs, stockedProduct } from './checkout-support.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Payments a merchant records (cash, a transfer) and their statuses, one by one and in bulk, the
 * order's payment status derived from them, the events written, and who may call.
 */
describe.each(DIALECTS)("an order's recorded payments and who may move money, on %s", (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Ledger Clock', 30, 50)).id;
  });
  afterAll(() => platform?.stop());

  it('a pending transfer counts once approved; bulk updates answer a result per payment', async () => {
    // the card authorized the order and was voided: the merchant takes the money by transfer instead
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const total = (await orderOf(platform, orderId)).priceSummary.total.amount;
    const card = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    expect((await billing(platform).void(orderId, [card.id])).status).toBe(200);
    expect((await billing(platform).collectability(orderId)).body).toMatchObject({
      status: 'COLLECTABLE',
      amount: { amount: total },
    });
    const added = await billing(platform).addPayments(orderId, [
      {
        amount: { amount: total },
        status: 'PENDING',
        regularPaymentDetails: { paymentMethod: 'BankTransfer' },
      },
    ]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const transfer = added.body.paymentsIds[0];
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PENDING');

    const cardStatus = await billing(platform).updateStatus(orderId, card.id, 'APPROVED');
    expect([cardStatus.status, code(cardStatus)]).toEqual([428, 'PAYMENT_STATUS_NOT_UPDATABLE']);
    const bad = await billing(platform).updateStatus(orderId, transfer, 'REFUNDED');
    expect(bad.status).toBe(400);

    const bulk = await money(platform, 'POST', '/ecom/v1/bulk/payments/update-payment-transaction-status', {
      paymentAndOrderIds: [
        { orderId, paymentId: transfer },
        { orderId, paymentId: 'no-such-payment' },
      ],
      status: 'APPROVED',
      returnFullEntity: true,
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(
      bulk.body.results.map((result: any) => [result.itemMetadata.success, result.item?.status]),
    ).toEqual([
      [true, 'APPROVED'],
      [false, undefined],
    ]);
    expect(bulk.body.results[1].itemMetadata.error.code).toBe('PAYMENT_NOT_FOUND');
    expect(bulk.body.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    const order = await orderOf(platform, orderId);
    expect(order.paymentStatus).toBe('PAID');
    expect(order.activities.map((activity: any) => activity.type)).toContain('ORDER_PAID');
    const events = await readEvents(platform.services.database.db, { entityId: orderId });
    expect(events.some((event) => event.entity === 'orderTransactions')).toBe(true);
    expect((await billing(platform).collectability(orderId)).body.status).toBe(
      'NONCOLLECTABLE_ORDER_IS_PAID',
    );

    // a transfer that bounces takes the order back to what is left unpaid
    expect((await billing(platform).updateStatus(orderId, transfer, 'DECLINED')).status).toBe(200);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('CANCELED');
    expect(cents(total)).toBeGreaterThan(0);
  });

  it('a member reads their own order’s transactions only, and can neither refund nor record payments', async () => {
    const member = { auth: await signUpFrom(platform, await visitorToken(platform), uniqueEmail('ledger')) };
    const theirs = await buy(platform, [{ productId, quantity: 1 }], { auth: member.auth });
    const someoneElses = await buy(platform, [{ productId, quantity: 1 }]);
    const own = await money(
      platform,
      'GET',
      `/ecom/v1/payments/orders/${theirs}?orderId=${theirs}`,
      undefined,
      {
        auth: member.auth,
      },
    );
    expect(own.status).toBe(200);
    expect(own.body.orderTransactions.payments).toHaveLength(1);
    const other = await money(
      platform,
      'GET',
      `/ecom/v1/payments/orders/${someoneElses}?orderId=${someoneElses}`,
      undefined,
      { auth: member.auth },
    );
    expect(other.status).toBe(404);
    const paymentId = own.body.orderTransactions.payments[0].id;
    const refund = await money(
      platform,
      'POST',
      '/ecom/v1/order-billing/refund-payments',
      { orderId: theirs, paymentRefunds: [{ paymentId, amount: { amount: '1.00' } }] },
      { auth: member.auth },
    );
    expect(refund.status).toBe(403);
    const record = await money(
      platform,
      'POST',
      `/ecom/v1/payments/orders/${theirs}/add-payment`,
      { payments: [{ amount: { amount: '1.00' } }] },
      { auth: member.auth },
    );
    expect(record.status).toBe(403);
    const refundability = await money(
      platform,
      'POST',
      '/ecom/v1/order-billing/get-order-refundability',
      { orderId: theirs },
      { auth: member.auth },
    );
    expect(refundability.status).toBe(403);
    expect((await billing(platform).transactions(theirs)).body.orderTransactions.refunds).toEqual([]);
  });

  it('an Idempotency-Key longer than the platform keeps is a field violation, and nothing moves', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }]);
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const answer = await billing(platform).refund(
      orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '1.00' } }] },
      'k'.repeat(201),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.details.validationError.fieldViolations[0].field).toBe('Idempotency-Key');
    expect((await billing(platform).transactions(orderId)).body.orderTransactions.refunds).toEqual([]);
  });
});
