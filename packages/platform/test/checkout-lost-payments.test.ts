import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_CHARGE_MS } from '../src/buying/placing.ts';
import type { PaymentProvider } from '../src/payments/provider.ts';
import type { PaymentProviders } from '../src/payments/providers.ts';
import type { TestGateway } from '../src/payments/test-gateway.ts';
import {
  adminOrder,
  applicationCode,
  CARDS,
  card,
  checkoutSession,
  expectBooksBalance,
  gatewayCharges,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';
import { overriding } from './support/provider-overrides.ts';

/**
 * A payment whose answer never came back (the gateway call dropped, or the process paying stopped)
 * is settled by asking the gateway what it did under the attempt's key: a charge made becomes the
 * order, no charge gives the stock back and closes the key, so the buyer can pay again, the stock is
 * never held for nobody, and a card is charged at most once.
 */
describe.each(DIALECTS)('payments whose answer was lost, on %s', (dialect) => {
  let platform: TestPlatform;
  let gateway: PaymentProvider;
  let providers: PaymentProviders;

  beforeAll(async () => {
    // in the test's process: its payment provider is replaced to lose the gateway's answer
    platform = await startTestPlatform({ dialect, inProcess: true });
    await shipToUs(platform);
    providers = platform.services.payments.providers;
    gateway = providers.default;
  });
  afterAll(async () => {
    await platform?.stop();
  });
  // whatever a test did, every order's charge and every product's stock still add up
  afterEach(async () => {
    await expectBooksBalance(platform);
  });

  /** Pays `key` through a gateway whose answer is lost: after charging (`charged`) or before. */
  async function payAndLoseTheAnswer(
    page: ReturnType<typeof pageCalls>,
    key: string,
    charged: boolean,
  ): Promise<void> {
    providers.register({
      ...overriding(gateway),
      authorize: async (request) => {
        if (charged) await gateway.authorize(request);
        throw new Error(charged ? 'socket hang up' : 'connect ECONNREFUSED');
      },
    });
    try {
      const lost = await page.pay(key, CARDS.approved);
      expect(applicationCode(lost)).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
    } finally {
      providers.register(gateway);
    }
  }

  const attemptOf = (key: string) =>
    platform.services.database.db
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('attempt_key', '=', key)
      .executeTakeFirstOrThrow();

  it('another tab finds the lost charge made: the buyer gets that order, and the card is charged once', async () => {
    const lamp = await stockedProduct(platform, 'Lost Charge Lamp', 40, 3);
    const shopper = await shopperCheckout(platform, [{ productId: lamp.id, quantity: 1 }]);
    const session = await checkoutSession(platform, shopper.auth, shopper.checkoutId);
    const before = (await gatewayCharges(platform)).length;
    await payAndLoseTheAnswer(pageCalls(platform, session), 'lost-after-charge', true);

    const second = await pageCalls(platform, session).pay('second-tab', CARDS.approved);
    expect(second.body.status, JSON.stringify(second.body)).toBe('APPROVED');
    const first = await attemptOf('lost-after-charge');
    expect(second.body.orderId).toBe(first.order_id);
    expect(first.status).toBe('APPROVED');
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
    expect(await stockOf(platform, lamp.id)).toBe(2);
    expect((await adminOrder(platform, second.body.orderId)).paymentStatus).toBe('PAID');
  });

  it('another tab finds no charge was made: the stock comes back, the key is closed, and the new payment makes the one order', async () => {
    const chair = await stockedProduct(platform, 'Lost Before Chair', 55, 3);
    const shopper = await shopperCheckout(platform, [{ productId: chair.id, quantity: 1 }]);
    const session = await checkoutSession(platform, shopper.auth, shopper.checkoutId);
    const before = (await gatewayCharges(platform)).length;
    await payAndLoseTheAnswer(pageCalls(platform, session), 'lost-before-charge', false);
    expect(await stockOf(platform, chair.id)).toBe(2); // held while the charge is in doubt

    const second = await pageCalls(platform, session).pay('after-the-loss', CARDS.approved);
    expect(second.body.status, JSON.stringify(second.body)).toBe('APPROVED');
    const first = await attemptOf('lost-before-charge');
    expect(first.status).toBe('INTERRUPTED');
    expect(second.body.orderId).not.toBe(first.order_id);
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
    expect(await stockOf(platform, chair.id)).toBe(2); // given back once, taken once
    const discarded = await platform.services.database.db
      .selectFrom('orders')
      .select('id')
      .where('id', '=', first.order_id!)
      .executeTakeFirst();
    expect(discarded).toBeUndefined();

    // the first tab retrying its key learns the checkout was paid, not that its own try was interrupted
    const firstTabAgain = await pageCalls(platform, session).pay('lost-before-charge', CARDS.approved);
    expect(firstTabAgain.body).toMatchObject({ status: 'APPROVED', orderId: second.body.orderId });

    // the lost call arriving at the gateway late is refused: never a second charge for one checkout
    const late = await gateway.authorize({
      idempotencyKey: `${first.order_id}:${first.id}`,
      amount: first.amount,
      currency: first.currency,
      method: { kind: 'card', card: { number: CARDS.approved, last4: '4242', brand: 'VISA' } as never },
      capture: true,
    });
    expect(late).toMatchObject({ status: 'DECLINED', code: 'PAYMENT_INTERRUPTED' });
    expect((await gatewayCharges(platform)).length).toBe(before + 1);
  });

  it('the sweep settles charges nobody came back for: an unpaid one gives its stock back, a paid one becomes the order', async () => {
    const vase = await stockedProduct(platform, 'Abandoned Vase', 25, 4);
    const unpaid = await shopperCheckout(platform, [{ productId: vase.id, quantity: 1 }]);
    const unpaidPage = pageCalls(platform, await checkoutSession(platform, unpaid.auth, unpaid.checkoutId));
    await payAndLoseTheAnswer(unpaidPage, 'abandoned-unpaid', false);
    const paid = await shopperCheckout(platform, [{ productId: vase.id, quantity: 2 }]);
    const paidPage = pageCalls(platform, await checkoutSession(platform, paid.auth, paid.checkoutId));
    await payAndLoseTheAnswer(paidPage, 'abandoned-paid', true);
    expect(await stockOf(platform, vase.id)).toBe(1);

    // a sweep now leaves them alone: their shoppers may still come back with the card
    expect(await platform.services.placement.sweep()).toBe(0);
    expect((await attemptOf('abandoned-unpaid')).status).toBe('PROCESSING');

    // past the time a shopper would come back: settled as the gateway says
    const later = new Date(Date.now() + ABANDONED_CHARGE_MS + 1000);
    expect(await platform.services.placement.sweep(later)).toBeGreaterThanOrEqual(2);
    expect((await attemptOf('abandoned-unpaid')).status).toBe('INTERRUPTED');
    const settled = await attemptOf('abandoned-paid');
    expect(settled.status).toBe('APPROVED');
    expect(await stockOf(platform, vase.id)).toBe(2);
    expect(await adminOrder(platform, settled.order_id!)).toMatchObject({
      status: 'APPROVED',
      paymentStatus: 'PAID',
    });

    // the shopper whose payment was interrupted pays again, and the one whose was made sees their order
    const again = await unpaidPage.pay('abandoned-unpaid-again', CARDS.approved);
    expect(again.body.status, JSON.stringify(again.body)).toBe('APPROVED');
    const back = await paidPage.pay('abandoned-paid-again', CARDS.approved);
    expect(back.body).toMatchObject({ status: 'APPROVED', orderId: settled.order_id });
    expect(await stockOf(platform, vase.id)).toBe(1);
  });

  it('closing a key that was charged changes nothing: settle answers the charge as made', async () => {
    const ledger = gateway as TestGateway;
    const approved = await ledger.authorize({
      idempotencyKey: 'settle-after-charge',
      amount: '10.00',
      currency: 'USD',
      method: { kind: 'card', card: { ...card(CARDS.approved), last4: '4242', brand: 'VISA' } as never },
      capture: true,
    });
    expect(await ledger.settle('settle-after-charge')).toEqual(approved);
    expect(await ledger.settle('never-charged')).toBeUndefined();
    expect(await ledger.settle('never-charged')).toBeUndefined();
  });
});
