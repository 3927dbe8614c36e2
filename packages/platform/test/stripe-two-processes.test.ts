import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { billing, setCapture } from './billing-support.ts';
import { admin } from './catalog-http.ts';
import {
  applicationCode,
  checkoutSession,
  expectBooksBalance,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
} from './checkout-support.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';
import { type StripeStandIn, startStripeStandIn } from './support/stripe-stand-in.ts';

const WEBHOOK = '/api/cartwheel/stripe/webhook';

/**
 * Stripe with two platform processes over one database (issue 32), as a store behind a load balancer
 * runs: Stripe's webhook and the shopper's page, or a capture and a void, or a refund and its retry,
 * reach different processes at the same moment. Each race ends in one payment, one order, one money
 * movement at Stripe, and Stripe's ledger agreeing with Cartwheel's books after every test.
 */
describe.each(DIALECTS)('Stripe with two processes over one database, on %s', (dialect) => {
  let standIn: StripeStandIn;
  let first: TestPlatform;
  let second: TestPlatform;
  /** Stripe as the merchant's dashboard reaches it (a refund made outside Cartwheel). */
  let dashboard: Stripe;
  let productId: string;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    dashboard = new Stripe(standIn.secretKey, standIn.clientOptions);
    const env = {
      STRIPE_SECRET_KEY: standIn.secretKey,
      STRIPE_PUBLISHABLE_KEY: standIn.publishableKey,
      STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
      STRIPE_API_URL: standIn.url,
      // a Stripe answer lost on the way times out soon (the refund retried below)
      STRIPE_TIMEOUT_MS: '1000',
    };
    first = await startTestPlatform({ dialect, env });
    second = await startTestPlatform({ dialect, env, sharing: first });
    await shipToUs(first);
    productId = (await stockedProduct(first, 'Raced Teapot', 25, 100)).id;
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await standIn?.close();
  });
  afterEach(() => expectBooksBalance(first, standIn.ledger()));

  const db = () => first.services.database.db;
  const newPage = async (on: TestPlatform) => {
    const shopper = await shopperCheckout(on, [{ productId, quantity: 1 }]);
    const session = await checkoutSession(on, shopper.auth, shopper.checkoutId);
    return { checkoutId: shopper.checkoutId, session };
  };
  /** A checkout paid on `first` with a Stripe test payment method: its order, payment and intent. */
  const paid = async (paymentToken: string, attemptKey: string) => {
    const { session } = await newPage(first);
    const answer = await pageCalls(first, session).payWith({ attemptKey, paymentToken });
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('APPROVED');
    const orderId = answer.body.orderId as string;
    const payment = (await billing(first).transactions(orderId)).body.orderTransactions.payments[0];
    const intentId = payment.regularPaymentDetails.gatewayTransactionId as string;
    return { orderId, paymentId: payment.id as string, intent: () => standIn.paymentIntents.get(intentId)! };
  };
  const eventOf = (type: string, id: string, field = 'id') =>
    standIn.events.findLast(
      (event) =>
        event.type === type && (event.data as { object: Record<string, unknown> }).object[field] === id,
    )!;
  const deliver = (to: TestPlatform, event: Record<string, unknown>, options = {}) =>
    standIn.deliver(`${to.url}${WEBHOOK}`, event, options);
  const ordersOf = (checkoutId: string) =>
    db().selectFrom('orders').select(['id', 'status']).where('checkout_id', '=', checkoutId).execute();
  const paymentsOf = (orderId: string) =>
    db().selectFrom('order_payments').selectAll().where('order_id', '=', orderId).execute();

  it("a 3-D Secure payment completed by the page's return and by Stripe's webhook at once makes one payment and one order", async () => {
    // round 0: the page never comes back (the tab closed), the webhook alone completes the order
    for (const round of [0, 1, 2]) {
      const { checkoutId, session } = await newPage(first);
      const page = pageCalls(first, session);
      const step = await page.payWith({
        attemptKey: `race-3ds-${round}`,
        paymentToken: 'pm_card_threeDSecure2Required',
      });
      expect(step.body.status, JSON.stringify(step.body)).toBe('REQUIRES_ACTION');
      const attemptId = new URL(step.body.actionUrl, first.url).searchParams.get('attempt')!;
      const intent = [...standIn.paymentIntents.values()].at(-1)!;
      // the shopper passes Stripe's step: Stripe confirms the intent and sends its event
      standIn.completeAction(String(intent.id), true);
      const event = eventOf('payment_intent.succeeded', String(intent.id));
      const delivery = deliver(second, event);
      const [delivered, returned] = await Promise.all([
        delivery,
        round === 0 ? delivery.then(() => page.confirm(attemptId, true)) : page.confirm(attemptId, true),
      ]);
      expect(delivered.status).toBe(200);
      const { outcome } = await delivered.json();
      // alone, the webhook made the order; racing, whichever came first did
      expect(round === 0 ? ['APPLIED'] : ['APPLIED', 'UNCHANGED']).toContain(outcome);
      expect(returned.body.status, JSON.stringify(returned.body)).toBe('APPROVED');
      const orders = await ordersOf(checkoutId);
      expect(orders.map((order) => [order.id, order.status])).toEqual([[returned.body.orderId, 'APPROVED']]);
      const payments = await paymentsOf(returned.body.orderId);
      expect(payments.map((payment) => [payment.gateway_transaction_id, payment.status])).toEqual([
        [intent.id, 'APPROVED'],
      ]);
      // a late delivery of the same event changes nothing more
      expect(await (await deliver(first, event)).json()).toMatchObject({ outcome: 'UNCHANGED' });
    }
  });

  it('a capture and a void of one authorization racing on two processes: one wins, the other gets the hosted error, and Stripe agrees', async () => {
    await setCapture(first, 'AUTHORIZE_ONLY');
    const won: string[] = [];
    try {
      for (const round of [0, 1]) {
        const { orderId, paymentId, intent } = await paid('pm_card_visa', `race-capture-void-${round}`);
        expect(intent().status).toBe('requires_capture');
        const [capturing, voiding] = round % 2 === 0 ? [first, second] : [second, first];
        const [captured, voided] = await Promise.all([
          billing(capturing).capture(orderId, [{ paymentId }]),
          billing(voiding).void(orderId, [paymentId]),
        ]);
        const winner = captured.status === 200 ? captured : voided;
        const loser = winner === captured ? voided : captured;
        expect([winner.status, loser.status], JSON.stringify([captured.body, voided.body])).toEqual([
          200, 428,
        ]);
        expect([
          'PAYMENT_ALREADY_CAPTURED',
          'PAYMENT_ALREADY_VOIDED',
          'PAYMENT_HAS_PENDING_CAPTURE',
        ]).toContain(applicationCode(loser));
        const status = (await paymentsOf(orderId))[0]!.status;
        won.push(status);
        expect([status, intent().status]).toEqual(
          winner === captured ? ['APPROVED', 'succeeded'] : ['VOIDED', 'canceled'],
        );
        // Stripe was asked once, by the winner
        const asked = standIn.calls.filter(
          (call) =>
            call.method === 'POST' &&
            (call.path === `/v1/payment_intents/${intent().id}/capture` ||
              call.path === `/v1/payment_intents/${intent().id}/cancel`),
        );
        expect(asked).toHaveLength(1);
      }
    } finally {
      await setCapture(first, 'IMMEDIATE');
    }
    expect(won).toHaveLength(2);
  });

  it('a refund whose answer from Stripe is lost, retried on the other process, refunds once at Stripe', async () => {
    const { orderId, paymentId, intent } = await paid('pm_card_visa', 'refund-retried');
    const refundsAtStripe = () =>
      [...standIn.refunds.values()].filter((refund) => refund.payment_intent === intent().id);
    const request = { paymentRefunds: [{ paymentId, amount: { amount: '7.00' } }] };
    // Stripe makes the refund, and its answer (and the library's two retries') never arrives
    standIn.loseAnswerOfNext(3);
    const timedOut = await billing(first).refund(orderId, request, 'refund-after-timeout');
    expect([timedOut.status, applicationCode(timedOut)], JSON.stringify(timedOut.body)).toEqual([
      409,
      'PAYMENT_PROVIDER_UNAVAILABLE',
    ]);
    expect(refundsAtStripe().map((refund) => refund.amount)).toEqual([700]);
    // meanwhile the money counts as on its way back: no second refund of it can start
    const meanwhile = (await billing(second).refundability(orderId)).body.payments[0];
    expect(meanwhile).toMatchObject({ refundable: false, nonRefundable: { reason: 'PENDING_REFUND' } });

    const retried = await billing(second).refund(orderId, request, 'refund-after-timeout');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.refund.transactions[0]).toMatchObject({ refundStatus: 'SUCCEEDED' });
    const again = await billing(first).refund(orderId, request, 'refund-after-timeout');
    expect(again.body.refund.id).toBe(retried.body.refund.id);
    expect(refundsAtStripe().map((refund) => refund.amount)).toEqual([700]);
    const monetary = (await billing(first).refundability(orderId)).body.payments[0].payment.monetary;
    expect([monetary.refunded.amount, monetary.refundPending.amount]).toEqual(['7.00', '0.00']);
  });

  it('a webhook delivered ten times at once to both processes applies once; a bad signature or an old timestamp is refused', async () => {
    // a refund made at Stripe's dashboard, its event delivered ten times over
    const sale = await paid('pm_card_visa', 'replayed-refund');
    await dashboard.refunds.create({ payment_intent: String(sale.intent().id), amount: 300 });
    const refunded = eventOf('charge.refunded', String(sale.intent().id), 'payment_intent');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => deliver(i % 2 === 0 ? first : second, refunded)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const outcomes = await Promise.all(answers.map(async (answer) => (await answer.json()).outcome));
    expect(outcomes).toContain('APPLIED');
    const refunds = (await billing(first).transactions(sale.orderId)).body.orderTransactions.refunds;
    expect(
      refunds.map((refund: { transactions: Array<{ amount: { amount: string } }> }) =>
        refund.transactions.map((transaction) => transaction.amount.amount),
      ),
    ).toEqual([['3.00']]);
    expect(
      [...standIn.refunds.values()].filter((refund) => refund.payment_intent === sale.intent().id),
    ).toHaveLength(1);

    // an authorization cancelled at Stripe, its event delivered ten times over
    await setCapture(first, 'AUTHORIZE_ONLY');
    const held = await paid('pm_card_visa', 'replayed-cancel').finally(() => setCapture(first, 'IMMEDIATE'));
    await dashboard.paymentIntents.cancel(String(held.intent().id));
    const canceled = eventOf('payment_intent.canceled', String(held.intent().id));
    const cancels = await Promise.all(
      Array.from({ length: 10 }, (_, i) => deliver(i % 2 === 0 ? second : first, canceled)),
    );
    expect(cancels.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const payment = (await paymentsOf(held.orderId))[0]!;
    expect(payment.status).toBe('VOIDED');
    const requests = await db()
      .selectFrom('billing_requests')
      .select('key')
      .where('key', 'like', `%stripe-event:${String(canceled.id)}%`)
      .execute();
    expect(requests).toHaveLength(1);

    // signed with another secret, or signed too long ago: refused, whichever process takes it
    const wrong = await deliver(second, canceled, { secret: 'whsec_not_this_store_s' });
    const old = await deliver(first, refunded, { timestamp: standIn.now() - 301 });
    expect([wrong.status, old.status]).toEqual([400, 400]);
  });

  it("after the races, reconciliation finds Stripe's records and Cartwheel's books equal, refunds included", async () => {
    const period = {
      from: new Date(Date.now() - 60 * 60_000).toISOString(),
      to: new Date(Date.now() + 60 * 60_000).toISOString(),
    };
    const answer = await admin(second).post('/api/cartwheel/payments/reconcile', period);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.reconciliation.differences).toEqual([]);
    expect(answer.body.reconciliation.providers).toEqual([
      expect.objectContaining({ providerId: 'stripe', compared: true }),
    ]);
  });
});
