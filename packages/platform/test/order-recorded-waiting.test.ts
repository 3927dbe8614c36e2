import { STORES_APP_ID } from '@cartwheel/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEvents } from '../src/events/outbox.ts';
import { billing } from './billing-support.ts';
import { admin, call } from './catalog-http.ts';
import {
  adminOrder,
  applicationCode,
  checkoutCalls,
  expectBooksBalance,
  openStock,
  placeOrder,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
} from './checkout-support.ts';
import { mailbox, uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/** A till's sale of 42.00 (store in USD, tax added to prices); `lines` replace its two lines. */
function tillOrder(email: string, overrides: Record<string, unknown> = {}) {
  return {
    lineItems: [
      { productName: { original: 'Espresso Beans 1kg' }, quantity: 2, price: { amount: '18.50' } },
      { productName: { original: 'Gift wrap' }, quantity: 1, price: { amount: '5.00' } },
    ],
    buyerInfo: { email },
    channelInfo: { type: 'POS' },
    priceSummary: { subtotal: { amount: '42.00' }, total: { amount: '42.00' } },
    ...overrides,
  };
}

/**
 * A recorded order waiting for its payment (`createOrder`, INITIALIZED): the merchant cancels it, a
 * payment for it afterwards is refused and never approves it, the checkout page cannot be asked to pay
 * it; its transactions are told from the payment it was recorded with on; and the books balance in a
 * shop holding checkout orders and recorded ones, paid, refunded, waiting and canceled.
 */
describe.each(DIALECTS)('recorded orders waiting for their payment, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Waiting Kettle', 42, 20)).id;
    await openStock(platform, productId);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const create = async (order: unknown, settings?: unknown) => {
    const answer = await call(platform, 'POST', '/ecom/v1/orders', { order, settings }, platform.adminApiKey);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.order;
  };
  const cancel = (orderId: string, body: Record<string, unknown> = {}) =>
    admin(platform).post(`/ecom/v1/orders/${orderId}/cancel`, { id: orderId, ...body });
  /** The events written for the order, as `entity.slug`, in order. */
  const told = async (orderId: string) =>
    (await readEvents(platform.services.database.db, { entityId: orderId })).map(
      (event) => `${event.entity}.${event.slug}`,
    );

  it('cancels an order waiting for its payment; a payment afterwards is refused and never approves it', async () => {
    const email = uniqueEmail('waiting');
    const order = await create(tillOrder(email));
    expect(order.status).toBe('INITIALIZED');

    const canceled = await cancel(order.id, { sendOrderCanceledEmail: true, customMessage: 'Never came.' });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.order).toMatchObject({
      id: order.id,
      status: 'CANCELED',
      paymentStatus: 'NOT_PAID',
    });
    expect(canceled.body.order).not.toHaveProperty('confirmOnApproval');
    expect(await told(order.id)).toEqual(['order.created', 'order.updated', 'order.canceled']);
    const mails = await mailbox(platform, email);
    expect(mails.map((mail) => mail.kind)).toEqual(['ORDER_CANCELED']);
    expect(mails[0]!.text).toContain('Never came.');
    // listed now, as a canceled order is
    const found = await admin(platform).post('/ecom/v1/orders/search', {
      search: { filter: { 'buyerInfo.email': email, status: 'CANCELED' } },
    });
    expect(found.body.orders.map((hit: { id: string }) => hit.id)).toEqual([order.id]);

    // the cash never comes: a payment recorded now is refused, nothing moves, it is never approved
    const cash = await billing(platform).addPayments(order.id, [{ amount: { amount: '42.00' } }]);
    expect([cash.status, applicationCode(cash)]).toEqual([428, 'ORDER_CANCELED']);
    expect((await billing(platform).transactions(order.id)).body.orderTransactions.payments).toEqual([]);
    const after = await adminOrder(platform, order.id);
    expect([after.status, after.paymentStatus]).toEqual(['CANCELED', 'NOT_PAID']);
    expect((await billing(platform).collectability(order.id)).body.status).toBe(
      'NONCOLLECTABLE_ORDER_IS_CANCELLED',
    );
    const twice = await cancel(order.id);
    expect([twice.status, applicationCode(twice)]).toEqual([428, 'ORDER_STATUS_IS_NOT_SUPPORTED']);
    expect((await mailbox(platform, email)).map((mail) => mail.kind)).toEqual(['ORDER_CANCELED']);
  });

  it('a cheque clearing after its waiting order was canceled pays it but does not approve it', async () => {
    const email = uniqueEmail('cheque');
    const order = await create(tillOrder(email, { paymentStatus: 'PENDING' }));
    expect([order.status, order.paymentStatus]).toEqual(['INITIALIZED', 'PENDING']);
    expect((await cancel(order.id)).status).toBe(200);
    const [cheque] = (await billing(platform).transactions(order.id)).body.orderTransactions.payments;
    const cleared = await billing(platform).updateStatus(order.id, cheque.id, 'APPROVED');
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    const after = await adminOrder(platform, order.id);
    expect([after.status, after.paymentStatus]).toEqual(['CANCELED', 'PAID']);
    expect(await told(order.id)).not.toContain('order.approved');
    // no confirmation for an order that was canceled (and no cancellation mail: none was asked)
    expect(await mailbox(platform, email)).toEqual([]);
  });

  it("refuses to cancel a checkout's order its buyer is still to pay on the checkout page", async () => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    const created = await checkoutCalls(platform, shopper.auth).createOrder(shopper.checkoutId);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const orderId = created.body.orderId;
    expect((await adminOrder(platform, orderId)).status).toBe('INITIALIZED');
    const refused = await cancel(orderId);
    expect([refused.status, applicationCode(refused)]).toEqual([428, 'ORDER_STATUS_IS_NOT_SUPPORTED']);
    expect((await adminOrder(platform, orderId)).status).toBe('INITIALIZED');
    // that order is one the checkout page pays: its collection is prepared as its gateway order
    const prepared = await billing(platform).prepare(orderId, '1.00');
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    expect(prepared.body).toEqual({ paymentGatewayOrderId: orderId });
  });

  it('refuses to prepare a checkout-page payment of a recorded order, which is paid with addPayments', async () => {
    const email = uniqueEmail('page');
    const order = await create(tillOrder(email));
    // the merchant can still collect it, by recording what the buyer paid
    expect((await billing(platform).collectability(order.id)).body).toMatchObject({
      status: 'COLLECTABLE',
      amount: { amount: '42.00' },
    });
    const prepared = await billing(platform).prepare(order.id, '42.00');
    expect([prepared.status, applicationCode(prepared)], JSON.stringify(prepared.body)).toEqual([
      428,
      'PAYMENT_METHODS_NOT_FOUND',
    ]);
    expect(prepared.body.details.applicationError.description).toContain('addPayments');
    const still = await adminOrder(platform, order.id);
    expect([still.status, still.paymentStatus]).toEqual(['INITIALIZED', 'NOT_PAID']);
    expect(await told(order.id)).toEqual(['order.created']);
    // recorded, it is approved as before
    expect((await billing(platform).addPayments(order.id, [{ amount: { amount: '42.00' } }])).status).toBe(
      200,
    );
    expect((await adminOrder(platform, order.id)).status).toBe('APPROVED');
  });

  it('tells the transactions of an order recorded paid or pending at once, as it tells every later payment', async () => {
    const paid = await create(tillOrder(uniqueEmail('told'), { paymentStatus: 'PAID' }));
    expect(await told(paid.id)).toEqual(['order.created', 'orderTransactions.updated', 'order.approved']);
    const events = await readEvents(platform.services.database.db, { entityId: paid.id });
    const transactions = events.find((event) => event.entity === 'orderTransactions')!;
    const payload = (
      typeof transactions.payload === 'string' ? JSON.parse(transactions.payload) : transactions.payload
    ) as { entity: { orderId: string; payments: Array<{ id: string; amount: { amount: string } }> } };
    const listed = (await billing(platform).transactions(paid.id)).body.orderTransactions;
    expect(payload.entity.orderId).toBe(paid.id);
    expect(payload.entity.payments.map((payment) => [payment.id, payment.amount.amount])).toEqual(
      listed.payments.map((payment: { id: string; amount: { amount: string } }) => [
        payment.id,
        payment.amount.amount,
      ]),
    );
    expect(payload.entity.payments.map((payment) => payment.amount.amount)).toEqual(['42.00']);

    const pending = await create(tillOrder(uniqueEmail('told'), { paymentStatus: 'PENDING' }));
    expect(await told(pending.id)).toEqual(['order.created', 'orderTransactions.updated']);
    // nothing paid: no transactions to tell until a payment is recorded, which tells them
    const unpaid = await create(tillOrder(uniqueEmail('told')));
    expect(await told(unpaid.id)).toEqual(['order.created']);
    await billing(platform).addPayments(unpaid.id, [{ amount: { amount: '2.00' } }]);
    expect(await told(unpaid.id)).toEqual(['order.created', 'orderTransactions.updated', 'order.updated']);
  });

  it('balances the books of a shop holding checkout orders and recorded ones, paid, refunded, waiting and canceled', async () => {
    const stock = await stockOf(platform, productId);
    const bought = await placeOrder(platform, productId, { quantity: 2 });
    expect((await adminOrder(platform, bought.orderId)).status).toBe('APPROVED');
    expect(await stockOf(platform, productId)).toBe(stock - 2);

    // a till sells the same kettle: recorded, it takes no stock
    const kettleLine = {
      productName: { original: 'Waiting Kettle' },
      catalogReference: { appId: STORES_APP_ID, catalogItemId: productId },
      quantity: 1,
      price: { amount: '42.00' },
    };
    const paid = await create(
      tillOrder(uniqueEmail('books'), { lineItems: [kettleLine], paymentStatus: 'PAID' }),
    );
    const refunded = await create(tillOrder(uniqueEmail('books'), { paymentStatus: 'PAID' }));
    const [cash] = (await billing(platform).transactions(refunded.id)).body.orderTransactions.payments;
    const back = await billing(platform).refund(refunded.id, {
      paymentRefunds: [{ paymentId: cash.id, amount: { amount: '12.50' }, externalRefund: true }],
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const waiting = await create(tillOrder(uniqueEmail('books')));
    expect((await billing(platform).addPayments(waiting.id, [{ amount: { amount: '40.00' } }])).status).toBe(
      200,
    );
    const canceled = await create(tillOrder(uniqueEmail('books')));
    expect((await cancel(canceled.id)).status).toBe(200);
    const byTwo = await create(tillOrder(uniqueEmail('books')));
    for (const amount of ['30.00', '12.00'])
      expect((await billing(platform).addPayments(byTwo.id, [{ amount: { amount } }])).status).toBe(200);

    const states = await Promise.all(
      [paid, refunded, waiting, canceled, byTwo].map(async (order) => {
        const read = await adminOrder(platform, order.id);
        return [read.status, read.paymentStatus];
      }),
    );
    expect(states).toEqual([
      ['APPROVED', 'PAID'],
      ['APPROVED', 'PARTIALLY_REFUNDED'],
      ['INITIALIZED', 'PARTIALLY_PAID'],
      ['CANCELED', 'NOT_PAID'],
      ['APPROVED', 'PAID'],
    ]);
    expect(await stockOf(platform, productId)).toBe(stock - 2);
    await expectBooksBalance(platform);

    // the books notice a waiting order its recorded payments paid in full (it would be approved)
    const db = platform.services.database.db;
    const [part] = (await billing(platform).transactions(waiting.id)).body.orderTransactions.payments;
    await db.updateTable('order_payments').set({ amount: '42.00' }).where('id', '=', part.id).execute();
    await expect(expectBooksBalance(platform)).rejects.toThrow('a waiting order is not paid in full');
    await db.updateTable('order_payments').set({ amount: '40.00' }).where('id', '=', part.id).execute();
    await expectBooksBalance(platform);
  });
});
