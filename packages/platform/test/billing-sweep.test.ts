import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STALE_REQUEST_MS } from '../src/billing/requests.ts';
import type { PaymentProvider } from '../src/payments/provider.ts';
import { billing, buy, cents, code, orderOf } from './billing-support.ts';
import { shipToUs, stockedProduct, stockOf } from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';
import { overriding } from './support/provider-overrides.ts';

/**
 * Issue 37: a capture, void or refund whose provider answer was lost holds its money as taken until it
 * is finished. When its caller never retries, the sweep every process runs finishes it from its stored
 * plan, as the retry would: the provider is asked again under the same keys (so nothing moves twice)
 * and the answer is written. The sweep is driven here with a clock moved past the wait, not a timer.
 */
describe.each(DIALECTS)('money calls left started are swept, on %s', (dialect) => {
  let platform: TestPlatform;
  let productId: string;
  let gateway: PaymentProvider;
  /** Puts `provider` in place of the registered one with its id (the store's test gateway). */
  const use = (provider: PaymentProvider) => platform.services.payments.providers.register(provider);
  /** A moment at which every call started so far is old enough to be swept. */
  const later = () => new Date(Date.now() + STALE_REQUEST_MS + 1000);

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, inProcess: true });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Swept Jug', 18, 40)).id;
    gateway = platform.services.payments.providers.default;
  });
  afterEach(() => {
    use(gateway);
  });
  afterAll(() => platform?.stop());

  /** The gateway, with `override` in place of some of its calls. */
  const replaced = (override: Partial<PaymentProvider>) => overriding(gateway, override);

  it('a capture whose answer was lost is finished by the sweep once it is old enough, and captured once', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const payment = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    use(
      replaced({
        capture: async (request) => {
          await gateway.capture(request);
          throw new Error('socket hang up');
        },
      }),
    );
    const lost = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'swept-capture');
    expect([lost.status, code(lost)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    use(gateway);

    // too fresh: its caller may still be retrying
    expect(await platform.services.billing.sweepStarted(new Date())).toBe(0);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PENDING');

    expect(await platform.services.billing.sweepStarted(later())).toBeGreaterThanOrEqual(1);
    const after = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
    expect(after.status).toBe('APPROVED');
    expect(after.regularPaymentDetails.authorizationDetails.captures).toEqual([
      expect.objectContaining({ status: 'SUCCEEDED' }),
    ]);
    expect((await orderOf(platform, orderId)).paymentStatus).toBe('PAID');
    // a late retry of the key answers what the sweep wrote, and the gateway captured once
    const retried = await billing(platform).capture(orderId, [{ paymentId: payment.id }], 'swept-capture');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.orderTransactions.payments[0].status).toBe('APPROVED');
    const captures = await platform.services.database.db
      .selectFrom('gateway_captures')
      .selectAll()
      .where('transaction_id', '=', payment.regularPaymentDetails.gatewayTransactionId)
      .execute();
    expect(captures).toHaveLength(1);
    expect(await platform.services.billing.sweepStarted(later())).toBe(0);
  });

  it('a refund whose provider is still down stays started; the next sweep refunds and restocks it once', async () => {
    const orderId = await buy(platform, [{ productId, quantity: 2 }]);
    const line = (await orderOf(platform, orderId)).lineItems[0];
    const paymentId = (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0].id;
    const stock = await stockOf(platform, productId);
    const down = replaced({
      refund: async () => {
        throw new Error('connect ECONNREFUSED');
      },
    });
    use(down);
    const body = {
      paymentRefunds: [{ paymentId }],
      refundItems: { lineItems: [{ lineItemId: line.id, quantity: 2 }] },
      sideEffects: { restock: { lineItems: [{ lineItemId: line.id, quantity: 2 }] } },
    };
    const lost = await billing(platform).refund(orderId, body, 'swept-refund');
    expect([lost.status, code(lost)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);

    // the provider still does not answer: the refund keeps its money spoken for
    await platform.services.billing.sweepStarted(later());
    const meanwhile = (await billing(platform).refundability(orderId)).body;
    expect(meanwhile.payments[0]).toMatchObject({ nonRefundable: { reason: 'PENDING_REFUND' } });
    expect(await stockOf(platform, productId)).toBe(stock);

    use(gateway);
    expect(await platform.services.billing.sweepStarted(later())).toBeGreaterThanOrEqual(1);
    const transactions = (await billing(platform).transactions(orderId)).body.orderTransactions;
    expect(transactions.refunds).toHaveLength(1);
    expect(transactions.refunds[0].transactions[0].refundStatus).toBe('SUCCEEDED');
    expect(await stockOf(platform, productId)).toBe(stock + 2);
    expect((await orderOf(platform, orderId)).paymentStatus).toMatch(/REFUNDED$/);

    const again = await billing(platform).refund(orderId, body, 'swept-refund');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.refund.id).toBe(transactions.refunds[0].id);
    expect(await stockOf(platform, productId)).toBe(stock + 2);
    const gatewayRefunds = await platform.services.database.db
      .selectFrom('gateway_refunds')
      .selectAll()
      .where('idempotency_key', 'like', '%swept-refund%')
      .execute();
    expect(gatewayRefunds.map((row) => cents(row.amount))).toEqual([
      cents(transactions.refunds[0].transactions[0].amount),
    ]);
  });
});
