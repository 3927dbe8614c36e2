import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../src/payments/provider.ts';
import { billing, buy, cents, code, money, orderOf } from './billing-support.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';
import { overriding } from './support/provider-overrides.ts';

/**
 * The provider's answer to a capture, refund or void lost on the way back (a timeout, a dropped
 * connection), and a capture or void the provider refuses: the payment shows it, nothing is counted
 * twice, a void-and-cancel whose void failed cancels nothing, and a retry with the same
 * Idempotency-Key finishes the call without moving the money again.
 */
describe.each(DIALECTS)('money calls whose provider answer is lost or refused, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;
  let gateway: PaymentProvider;
  const providers = () => platform.services.payments.providers;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, inProcess: true });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Fragile Bowl', 22, 40)).id;
    gateway = providers().default;
  });
  afterEach(() => {
    providers().register(gateway);
  });
  afterAll(() => platform?.stop());

  /** The gateway, with `override` in place of some of its calls. */
  const replaced = (override: Partial<PaymentProvider>) => overriding(gateway, override);

  it('a capture the provider refuses is FAILED on the payment, which stays authorized and can be captured again', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const payment = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    providers().register(
      replaced({
        capture: async () => ({ status: 'FAILED', reason: 'ISSUER_UNAVAILABLE' }),
      }),
    );
    const failed = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    const after = failed.body.orderTransactions.payments[0];
    expect(after.status).toBe('AUTHORIZED');
    expect(after.regularPaymentDetails.authorizationDetails.captures).toEqual([
      expect.objectContaining({ status: 'FAILED', failureDetails: { failureCode: 'ISSUER_UNAVAILABLE' } }),
    ]);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PENDING');

    providers().register(gateway);
    const captured = await billing(platform).capture(orderId, [{ paymentId: payment.id }]);
    expect(captured.status).toBe(200);
    expect(
      captured.body.orderTransactions.payments[0].regularPaymentDetails.authorizationDetails.captures,
    ).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PAID');
  });

  it('a capture whose answer was lost is PENDING; another capture waits for it; the retry of its key finishes it', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const payment = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    providers().register(
      replaced({
        capture: async (request) => {
          await gateway.capture(request);
          throw new Error('socket hang up');
        },
      }),
    );
    const lost = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'lost-capture');
    expect([lost.status, code(lost)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    providers().register(gateway);
    const pending = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    expect(pending.regularPaymentDetails.authorizationDetails.captures[0].status).toBe('PENDING');
    const other = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'another-key');
    expect([other.status, code(other)]).toEqual([428, 'PAYMENT_HAS_PENDING_CAPTURE']);

    const retried = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'lost-capture');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.orderTransactions.payments[0].status).toBe('APPROVED');
    const captures = await platform.services.database.db
      .selectFrom('gateway_captures')
      .selectAll()
      .where('transaction_id', '=', payment.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(captures).toHaveLength(1);
  });

  it('a refund whose answer was lost holds its money; the retry of its key refunds and restocks once', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 2 }]);
    const order = await orderOf(platform, orderId);
    const line = order.lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(platform, productId);
    providers().register(
      replaced({
        refund: async (request) => {
          await gateway.refund(request);
          throw new Error('socket hang up');
        },
      }),
    );
    const body = {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 2 }] } },
    };
    const lost = await billing(platform).refund(orderId, body, 'lost-refund');
    expect([lost.status, code(lost)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    providers().register(gateway);
    // the money is spoken for until the refund is finished: nothing more can be refunded meanwhile
    const meanwhile = (await billing(platform).refundability(orderId)).body;
    expect(meanwhile.payments[0]).toMatchObject({ nonRefundable: { reason: 'PENDING_REFUND' } });
    expect(await stockOf(platform, productId)).toBe(stock);

    const retried = await billing(platform).refund(orderId, body, 'lost-refund');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.refund.transactions[0].refundStatus).toBe('SUCCEEDED');
    expect(await stockOf(platform, productId)).toBe(stock + 2);
    const again = await billing(platform).refund(orderId, body, 'lost-refund');
    expect(again.body.refund.id).toBe(retried.body.refund.id);
    expect(await stockOf(platform, productId)).toBe(stock + 2);
    const gatewayRefunds = await platform.services.database.db
      .selectFrom('gateway_refunds')
      .selectAll()
      .where('idempotency_key', 'like', '%lost-refund%')
      .execute();
    expect(gatewayRefunds.map((row) => cents(row.amount))).toEqual([
      cents(retried.body.refund.transactions[0].amount),
    ]);
  });

  it('void and cancel whose void the provider refuses cancels nothing; one whose answer is lost finishes with the key it answers', async () => {
    const voidAndCancel = (orderId: string, key?: string) =>
      money(
        platform,
        'POST',
        `/api/cartwheel/orders/${orderId}/void-and-cancel`,
        { restockAllItems: true },
        key ? { key } : {},
      );
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const stock = await stockOf(platform, productId);
    providers().register(
      replaced({ void: async () => ({ status: 'FAILED', reason: 'AUTHORIZATION_EXPIRED_AT_ISSUER' }) }),
    );
    const refused = await voidAndCancel(orderId);
    expect([refused.status, code(refused)], JSON.stringify(refused.body)).toEqual([
      428,
      'PAYMENT_VOID_FAILED',
    ]);
    expect(refused.body.details.applicationError.data.failureCodes).toEqual([
      'AUTHORIZATION_EXPIRED_AT_ISSUER',
    ]);
    const untouched = await orderOf(platform, orderId);
    expect([untouched.status, untouched.paymentStatus]).toEqual(['APPROVED', 'PENDING']);
    expect(await stockOf(platform, productId)).toBe(stock);
    const held = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    expect(held.status).toBe('AUTHORIZED');
    expect(held.regularPaymentDetails.authorizationDetails.void.status).toBe('FAILED');

    // the provider voids but its answer is lost: nothing is canceled until the same key comes back
    providers().register(
      replaced({
        void: async (request) => {
          await gateway.void(request);
          throw new Error('socket hang up');
        },
      }),
    );
    const lost = await voidAndCancel(orderId);
    expect([lost.status, code(lost)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    const key = lost.body.details.applicationError.data.idempotencyKey;
    expect(key).toEqual(expect.any(String));
    expect((await orderOf(platform, orderId)).status).toBe('APPROVED');
    providers().register(gateway);
    const finished = await voidAndCancel(orderId, key);
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.order).toMatchObject({ status: 'CANCELED', paymentStatus: 'CANCELED' });
    expect(finished.body.orderTransactions.payments[0].status).toBe('VOIDED');
    expect(await stockOf(platform, productId)).toBe(stock + 1);
    const voids = await platform.services.database.db
      .selectFrom('gateway_voids')
      .selectAll()
      .where('transaction_id', '=', held.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(voids).toHaveLength(1);
  });
});
