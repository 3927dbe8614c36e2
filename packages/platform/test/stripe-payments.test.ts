import { STORES_APP_ID } from '@cartwheel/sdk';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StripeProvider } from '../src/payments/stripe.ts';
import { openServices } from '../src/platform.ts';
import { RENEWAL_CLAIM_MS } from '../src/subscriptions/service.ts';
import { billing, setCapture } from './billing-support.ts';
import { cartCalls, signUpFrom } from './cart-calls.ts';
import { admin, call, visitorToken } from './catalog-http.ts';
import {
  applicationCode,
  buyerDetails,
  CARDS,
  checkoutCalls,
  checkoutSession,
  expectBooksBalance,
  pageCalls,
  shipToUs,
  shopperCheckout,
  stockedProduct,
  stockOf,
  violatedFields,
} from './checkout-support.ts';
import { uniqueEmail } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';
import { type StripeStandIn, startStripeStandIn } from './support/stripe-stand-in.ts';

/**
 * The Stripe provider (issue 32), against the Stripe stand-in: a store with STRIPE_SECRET_KEY set pays
 * through Stripe's PaymentIntents with the payment method Stripe's own card fields give the page, and
 * its captures, voids and refunds reach Stripe under keys derived from Cartwheel's, so a retry never
 * moves money twice. Stripe's webhook deliveries are verified and bring payments up to date.
 */
describe.each(DIALECTS)('the Stripe payment provider, on %s', (dialect) => {
  let standIn: StripeStandIn;
  let platform: TestPlatform;
  /** Stripe as the merchant's dashboard reaches it (a cancel or a capture made outside Cartwheel). */
  let dashboard: Stripe;
  let productId: string;
  /** A product sold by a daily subscription (issue 34), and that subscription's id. */
  let dailyProductId: string;
  let daily: string;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    dashboard = new Stripe(standIn.secretKey, standIn.clientOptions);
    platform = await startTestPlatform({
      dialect,
      env: {
        STRIPE_SECRET_KEY: standIn.secretKey,
        STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
        STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
        STRIPE_API_URL: standIn.url,
      },
    });
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Stripe Kettle', 40, 100)).id;
    const created = await admin(platform).post('/stores/v3/products', {
      product: {
        name: `Stripe coffee subscription ${dialect}`,
        productType: 'PHYSICAL',
        physicalProperties: {},
        variantsInfo: { variants: [{ price: { actualPrice: { amount: '20' } } }] },
        subscriptionDetails: {
          subscriptions: [{ title: 'Every day', frequency: 'DAY', interval: 1, autoRenewal: true }],
          allowOneTimePurchases: true,
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    dailyProductId = created.body.product.id;
    daily = created.body.product.subscriptionDetails.subscriptions[0].id;
  });
  afterAll(async () => {
    await platform?.stop();
    await standIn?.close();
  });

  // every test leaves Stripe's ledger and Cartwheel's books agreeing: each order's payment an intent of
  // its total, held, taken or released as its status says, refunded at Stripe as its refunds say
  afterEach(() => expectBooksBalance(platform, standIn.ledger()));

  const newPage = async () => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }]);
    return pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId));
  };
  const paymentRow = (orderId: string) =>
    platform.services.database.db
      .selectFrom('order_payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
  const callsTo = (path: string) =>
    standIn.calls.filter((call) => call.method === 'POST' && call.path === path);
  /** Pays a new checkout with `paymentMethod` and answers the order, its payment and Stripe's intent. */
  const paid = async (paymentMethod: string, attemptKey: string) => {
    const answer = await (await newPage()).payWith({ attemptKey, paymentToken: paymentMethod });
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('APPROVED');
    const payment = await paymentRow(answer.body.orderId);
    return {
      orderId: answer.body.orderId as string,
      payment,
      intent: () => standIn.paymentIntents.get(payment.gateway_transaction_id)!,
    };
  };
  /** Pays with the store authorizing only: the intent waits for a capture. */
  const authorized = async (attemptKey: string) => {
    await setCapture(platform, 'AUTHORIZE_ONLY');
    try {
      return await paid('pm_card_visa', attemptKey);
    } finally {
      await setCapture(platform, 'IMMEDIATE');
    }
  };
  const paymentOf = async (orderId: string) =>
    (await billing(platform).transactions(orderId)).body.orderTransactions.payments[0];
  const webhook = `/api/cartwheel/stripe/webhook`;
  const deliver = (event: Record<string, unknown>, options: { timestamp?: number; secret?: string } = {}) =>
    standIn.deliver(`${platform.url}${webhook}`, event, options);
  /** The last event of `type` Stripe recorded for the intent `intentId`. */
  const eventOf = (type: string, intentId: string) =>
    standIn.events.findLast(
      (event) => event.type === type && (event.data as { object: { id: string } }).object.id === intentId,
    )!;

  it('a checkout paid with a Stripe payment method is approved, through one PaymentIntent confirmed at once', async () => {
    const page = await newPage();
    const intentsBefore = standIn.paymentIntents.size;
    const answer = await page.payWith({ attemptKey: 'stripe-visa', paymentToken: 'pm_card_visa' });
    expect(answer.body.status, JSON.stringify(answer.body)).toBe('APPROVED');
    const payment = await paymentRow(answer.body.orderId);
    expect([payment.provider_id, payment.status, payment.card_last4, payment.card_brand]).toEqual([
      'stripe',
      'APPROVED',
      '4242',
      'VISA',
    ]);
    const intent = standIn.paymentIntents.get(payment.gateway_transaction_id)!;
    expect(intent).toMatchObject({
      status: 'succeeded',
      capture_method: 'automatic',
      amount_received: Math.round(Number(payment.amount) * 100),
      currency: 'usd',
    });
    expect(standIn.paymentIntents.size).toBe(intentsBefore + 1);
    const created = callsTo('/v1/payment_intents').at(-1)!;
    expect(created.idempotencyKey).toContain(`${payment.order_id}:${payment.payment_order_id}`);

    // the same attempt again answers its order; Stripe is not asked to charge again
    const again = await page.payWith({ attemptKey: 'stripe-visa', paymentToken: 'pm_card_visa' });
    expect(again.body.orderId).toBe(answer.body.orderId);
    expect(standIn.paymentIntents.size).toBe(intentsBefore + 1);
  });

  it("a card Stripe declines is declined with Stripe's reason, and the stock comes back", async () => {
    const stock = await stockOf(platform, productId);
    const page = await newPage();
    const declined = await page.payWith({
      attemptKey: 'stripe-declined',
      paymentToken: 'pm_card_chargeDeclined',
    });
    expect([declined.status, applicationCode(declined)]).toEqual([428, 'CARD_DECLINED']);
    expect(declined.body.details.applicationError.description).toBe('Your card was declined.');
    const poor = await page.payWith({
      attemptKey: 'stripe-poor',
      paymentToken: 'pm_card_chargeDeclinedInsufficientFunds',
    });
    expect(applicationCode(poor)).toBe('INSUFFICIENT_FUNDS');
    // a payment method Stripe does not know
    const unknown = await page.payWith({ attemptKey: 'stripe-unknown', paymentToken: 'pm_nobody_issued' });
    expect(applicationCode(unknown)).toBe('PAYMENT_METHOD_UNUSABLE');
    expect(await stockOf(platform, productId)).toBe(stock);
    // and the page can still pay
    const fine = await page.payWith({ attemptKey: 'stripe-after-decline', paymentToken: 'pm_card_visa' });
    expect(fine.body.status, JSON.stringify(fine.body)).toBe('APPROVED');
  });

  it('card numbers are refused outright: no order, no call to Stripe', async () => {
    const stock = await stockOf(platform, productId);
    const calls = standIn.calls.length;
    const refused = await (await newPage()).pay('stripe-raw-card', CARDS.approved);
    expect([refused.status, applicationCode(refused)]).toEqual([400, 'CARD_NUMBERS_NOT_ACCEPTED']);
    expect(standIn.calls.length).toBe(calls);
    expect(await stockOf(platform, productId)).toBe(stock);
  });

  it("a card asking for 3-D Secure waits for Stripe's step; passed at Stripe, the order is approved", async () => {
    const page = await newPage();
    const step = await page.payWith({
      attemptKey: 'stripe-3ds',
      paymentToken: 'pm_card_threeDSecure2Required',
    });
    expect(step.body.status, JSON.stringify(step.body)).toBe('REQUIRES_ACTION');
    const attemptId = new URL(step.body.actionUrl, platform.url).searchParams.get('attempt')!;
    const intent = [...standIn.paymentIntents.values()].at(-1)!;
    expect(intent.status).toBe('requires_action');

    // the page claiming success before Stripe says so changes nothing at Stripe's side
    standIn.completeAction(String(intent.id), true);
    const done = await page.confirm(attemptId, true);
    expect(done.body.status, JSON.stringify(done.body)).toBe('APPROVED');
    expect((await paymentRow(done.body.orderId)).gateway_transaction_id).toBe(intent.id);

    // a step the shopper never passed is declined, and its intent cancelled at Stripe
    const other = await newPage();
    const second = await other.payWith({
      attemptKey: 'stripe-3ds-2',
      paymentToken: 'pm_card_threeDSecure2Required',
    });
    const secondAttempt = new URL(second.body.actionUrl, platform.url).searchParams.get('attempt')!;
    const pending = [...standIn.paymentIntents.values()].at(-1)!;
    const failed = await other.confirm(secondAttempt, true);
    expect(applicationCode(failed)).toBe('AUTHENTICATION_FAILED');
    expect(pending.status).toBe('canceled');
  });

  it('an authorization is captured in part at Stripe, and a retried capture charges once', async () => {
    const { orderId, payment, intent } = await authorized('stripe-capture');
    expect(intent()).toMatchObject({ status: 'requires_capture', capture_method: 'manual' });
    const paymentId = (await paymentOf(orderId)).id;
    const part = (Number(payment.amount) - 5).toFixed(2);
    const first = await billing(platform).capture(
      orderId,
      [{ paymentId, amount: { amount: part } }],
      'cap-1',
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.orderTransactions.payments[0].status).toBe('APPROVED');
    expect(intent()).toMatchObject({ status: 'succeeded', amount_received: Math.round(Number(part) * 100) });
    const again = await billing(platform).capture(
      orderId,
      [{ paymentId, amount: { amount: part } }],
      'cap-1',
    );
    expect(again.body).toEqual(first.body);
    expect(callsTo(`/v1/payment_intents/${intent().id}/capture`)).toHaveLength(1);

    // the provider asked again under the same key (its first answer lost) answers without capturing again
    const provider = platform.services.payments.providers.get('stripe');
    const retried = await provider.capture({
      idempotencyKey: 'lost-answer',
      transactionId: String(intent().id),
      amount: part,
    });
    expect(retried.status).toBe('SUCCEEDED');
    expect(callsTo(`/v1/payment_intents/${intent().id}/capture`)).toHaveLength(1);
  });

  it('a void cancels the intent at Stripe; refunds, in parts, reach Stripe once each', async () => {
    const held = await authorized('stripe-void');
    const voided = await billing(platform).void(held.orderId, [(await paymentOf(held.orderId)).id]);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.orderTransactions.payments[0].status).toBe('VOIDED');
    expect(held.intent().status).toBe('canceled');

    const sale = await paid('pm_card_mastercard', 'stripe-refund');
    const paymentId = (await paymentOf(sale.orderId)).id;
    const refunds = () =>
      [...standIn.refunds.values()].filter((refund) => refund.payment_intent === sale.intent().id);
    const first = await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '10.00' } }] },
      'refund-1',
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.refund.transactions[0].refundStatus).toBe('SUCCEEDED');
    // the same call again is the same refund
    await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '10.00' } }] },
      'refund-1',
    );
    const second = await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '5.50' } }] },
      'refund-2',
    );
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(refunds().map((refund) => refund.amount)).toEqual([1000, 550]);
    // more than is left is refused by Stripe, and nothing is recorded
    const tooMuch = await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: sale.payment.amount } }] },
      'refund-3',
    );
    expect(tooMuch.status).toBeGreaterThanOrEqual(400);
    expect(refunds()).toHaveLength(2);
  });

  it('refunds under long Idempotency-Keys that differ only at their end are two refunds at Stripe, not one', async () => {
    const sale = await paid('pm_card_visa', 'stripe-long-keys');
    const paymentId = (await paymentOf(sale.orderId)).id;
    // the merchant's keys (200 characters, the most taken) make Stripe keys past its 255
    const key = (end: string) => `${'k'.repeat(199)}${end}`;
    const request = { paymentRefunds: [{ paymentId, amount: { amount: '2.00' } }] };
    for (const end of ['a', 'b']) {
      const answer = await billing(platform).refund(sale.orderId, request, key(end));
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const atStripe = [...standIn.refunds.values()].filter(
      (refund) => refund.payment_intent === sale.intent().id,
    );
    expect(atStripe.map((refund) => refund.amount)).toEqual([200, 200]);
    const keys = callsTo('/v1/refunds')
      .slice(-2)
      .map((call) => call.idempotencyKey ?? '');
    expect(keys.every((sent) => sent.length <= 255)).toBe(true);
    expect(new Set(keys).size).toBe(2);
  });

  it("refundability is Stripe's word too: a refund still pending there, a payment Stripe does not know, Stripe not answering", async () => {
    const sale = await paid('pm_card_pendingRefund', 'stripe-refundability');
    const paymentId = (await paymentOf(sale.orderId)).id;
    const refundability = async () => (await billing(platform).refundability(sale.orderId)).body.payments[0];
    expect(await refundability()).toMatchObject({ refundable: true });

    // Stripe takes the refund and sends it to the card: pending there until the bank confirms it
    const refunded = await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '5.00' } }] },
      'pending-at-stripe',
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const pending = await refundability();
    expect(pending).toMatchObject({ refundable: false, nonRefundable: { reason: 'PENDING_REFUND' } });
    expect(pending.payment.monetary).toMatchObject({
      refunded: { amount: '5.00' },
    });
    const [atStripe] = [...standIn.refunds.values()].filter(
      (refund) => refund.payment_intent === sale.intent().id,
    );
    standIn.settleRefund(String(atStripe!.id));
    expect(await refundability()).toMatchObject({ refundable: true });

    // Stripe answering an error (its own failure): the page says the provider is down, not that all is well
    standIn.failNext(500);
    expect(await refundability()).toMatchObject({
      refundable: false,
      nonRefundable: { reason: 'PROVIDER_IS_DOWN' },
    });

    // an intent Stripe does not know (another account's keys, test data deleted)
    const intent = sale.intent();
    standIn.paymentIntents.delete(String(intent.id));
    try {
      expect(await refundability()).toMatchObject({
        refundable: false,
        nonRefundable: { reason: 'TRANSACTION_NOT_FOUND' },
      });
    } finally {
      standIn.paymentIntents.set(String(intent.id), intent);
    }
    expect(await refundability()).toMatchObject({ refundable: true });
  });

  it('a webhook delivery is refused for a wrong signature, an old timestamp or a changed body', async () => {
    const { intent } = await paid('pm_card_visa', 'stripe-webhook-signatures');
    const event = eventOf('payment_intent.succeeded', String(intent().id));
    const wrong = await deliver(event, { secret: 'whsec_not_the_store_s' });
    expect(wrong.status).toBe(400);
    const old = await deliver(event, { timestamp: standIn.now() - 301 });
    expect(old.status).toBe(400);
    const { body, header } = standIn.signedDelivery(event);
    const changed = await fetch(`${platform.url}${webhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: body.replace('"succeeded"', '"canceled"'),
    });
    expect(changed.status).toBe(400);
    const unsigned = await fetch(`${platform.url}${webhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect([unsigned.status, violatedFields({ status: 400, body: await unsigned.json() })]).toEqual([
      400,
      ['stripe-signature'],
    ]);
    // signed as Stripe signs it, within the tolerance, it is taken (the payment is already up to date)
    const fine = await deliver(event, { timestamp: standIn.now() - 290 });
    expect([fine.status, await fine.json()]).toEqual([200, { received: true, outcome: 'UNCHANGED' }]);
  });

  it('an event for a payment Cartwheel does not know is acknowledged and ignored', async () => {
    const elsewhere = await dashboard.paymentIntents.create({
      amount: 700,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const answer = await deliver(eventOf('payment_intent.succeeded', elsewhere.id));
    expect([answer.status, await answer.json()]).toEqual([200, { received: true, outcome: 'IGNORED' }]);
  });

  it('an authorization cancelled or captured at Stripe reaches the payment by webhook, and a replay changes nothing', async () => {
    const cancelled = await authorized('stripe-webhook-cancel');
    await dashboard.paymentIntents.cancel(String(cancelled.intent().id));
    const event = eventOf('payment_intent.canceled', String(cancelled.intent().id));
    const applied = await deliver(event);
    expect([applied.status, await applied.json()]).toEqual([200, { received: true, outcome: 'APPLIED' }]);
    expect((await paymentOf(cancelled.orderId)).status).toBe('VOIDED');
    const requests = async () =>
      (await platform.services.database.db.selectFrom('billing_requests').select('key').execute()).length;
    const written = await requests();
    for (let i = 0; i < 3; i++) {
      const replay = await deliver(event);
      expect([replay.status, await replay.json()]).toEqual([200, { received: true, outcome: 'UNCHANGED' }]);
    }
    expect(await requests()).toBe(written);
    expect((await paymentOf(cancelled.orderId)).status).toBe('VOIDED');

    const captured = await authorized('stripe-webhook-capture');
    await dashboard.paymentIntents.capture(String(captured.intent().id));
    const capturedEvent = eventOf('payment_intent.succeeded', String(captured.intent().id));
    expect(await (await deliver(capturedEvent)).json()).toMatchObject({ outcome: 'APPLIED' });
    const payment = await paymentOf(captured.orderId);
    expect(payment.status).toBe('APPROVED');
    // Stripe was not asked to capture what it had captured already
    expect(callsTo(`/v1/payment_intents/${captured.intent().id}/capture`)).toHaveLength(1);
    expect(await (await deliver(capturedEvent)).json()).toMatchObject({ outcome: 'UNCHANGED' });
  });

  it("a refund made at Stripe's dashboard is recorded by webhook once; Cartwheel's own refunds are not recorded twice", async () => {
    const sale = await paid('pm_card_visa', 'stripe-webhook-refund');
    const paymentId = (await paymentOf(sale.orderId)).id;
    const intentId = String(sale.intent().id);
    const refunded = async () =>
      (await billing(platform).refundability(sale.orderId)).body.payments[0].payment.monetary.refunded.amount;

    // Cartwheel's refund reaches Stripe, and Stripe's event of it changes nothing
    const ours = await billing(platform).refund(
      sale.orderId,
      { paymentRefunds: [{ paymentId, amount: { amount: '4.00' } }] },
      'ours-1',
    );
    expect(ours.status, JSON.stringify(ours.body)).toBe(200);
    const ourEvent = standIn.events.findLast(
      (event) =>
        event.type === 'charge.refunded' &&
        (event.data as { object: { payment_intent: string } }).object.payment_intent === intentId,
    )!;
    expect(await (await deliver(ourEvent)).json()).toMatchObject({ outcome: 'UNCHANGED' });
    expect(await refunded()).toBe('4.00');

    // the merchant refunds 6.00 more at Stripe: the event records it, without asking Stripe again
    await dashboard.refunds.create({ payment_intent: intentId, amount: 600 });
    const theirEvent = standIn.events.at(-1)!;
    expect(theirEvent.type).toBe('charge.refunded');
    const refundCalls = callsTo('/v1/refunds').length;
    expect(await (await deliver(theirEvent)).json()).toMatchObject({ outcome: 'APPLIED' });
    expect(await refunded()).toBe('10.00');
    expect(callsTo('/v1/refunds')).toHaveLength(refundCalls);
    const transactions = (await billing(platform).transactions(sale.orderId)).body.orderTransactions.refunds;
    expect(transactions).toHaveLength(2);
    // a replay, and a late delivery of the earlier event, change nothing
    expect(await (await deliver(theirEvent)).json()).toMatchObject({ outcome: 'UNCHANGED' });
    expect(await (await deliver(ourEvent)).json()).toMatchObject({ outcome: 'UNCHANGED' });
    expect(await refunded()).toBe('10.00');
    expect([...standIn.refunds.values()].filter((refund) => refund.payment_intent === intentId)).toHaveLength(
      2,
    );
  });

  it('a charge whose answer was lost is settled from Stripe: found when made, its key closed when not', async () => {
    const provider = platform.services.payments.providers.get('stripe');
    const chargeRequest = (key: string) => ({
      idempotencyKey: key,
      amount: '12.50',
      currency: 'USD',
      method: { kind: 'token' as const, token: 'pm_card_visa' },
      capture: true,
    });
    const charge = async (key: string) => provider.authorize(chargeRequest(key));
    const made = await charge('settle-made');
    expect(made).toMatchObject({ status: 'APPROVED', captured: true, card: { last4: '4242' } });
    expect(await provider.settle('settle-made')).toEqual(made);
    // asked again under its key, the charge answers the first result and Stripe holds one intent
    expect(await charge('settle-made')).toEqual(made);
    const intents = () =>
      [...standIn.paymentIntents.values()].filter(
        (intent) => (intent.metadata as Record<string, string>).cartwheel_key === 'settle-made',
      );
    expect(intents()).toHaveLength(1);
    // asked again with other parameters (the store's capture setting changed meanwhile): still that charge
    expect(await provider.authorize({ ...chargeRequest('settle-made'), capture: false })).toEqual(made);
    expect(intents()).toHaveLength(1);

    // nothing charged under the key: it is closed, and a late charge under it is never made
    expect(await provider.settle('settle-never')).toBeUndefined();
    expect(await charge('settle-never')).toMatchObject({ status: 'DECLINED', code: 'PAYMENT_INTERRUPTED' });
    expect(
      [...standIn.paymentIntents.values()].filter(
        (intent) =>
          (intent.metadata as Record<string, string>).cartwheel_key === 'settle-never' &&
          intent.status !== 'canceled',
      ),
    ).toEqual([]);
    await provider.refund({
      idempotencyKey: 'settle-made:refund',
      transactionId: made.transactionId,
      amount: '12.50',
    });
  });

  it("reconciles the store's payments with Stripe's intents: the books agree, then an intent made outside the store shows", async () => {
    const period = {
      from: new Date(Date.now() - 60 * 60_000).toISOString(),
      to: new Date(Date.now() + 60 * 60_000).toISOString(),
    };
    const reconcile = async () => {
      const answer = await admin(platform).post('/api/cartwheel/payments/reconcile', period);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.reconciliation;
    };
    // the earlier tests' sales, authorizations, partial captures, voids and refunds all agree; what
    // differs is only what they charged at Stripe with no order (the provider called directly)
    const agreed = await reconcile();
    expect(agreed.providers).toMatchObject([{ providerId: 'stripe', compared: true }]);
    expect(agreed.providers[0].payments).toBeGreaterThan(3);
    const direct = (intent: Record<string, unknown>) =>
      !String((intent.metadata as Record<string, string>).cartwheel_key ?? '').includes(':');
    for (const difference of agreed.differences) {
      expect(difference.kind).toBe('NOT_IN_CARTWHEEL');
      expect(direct(standIn.paymentIntents.get(difference.transactionId)!)).toBe(true);
    }

    // a refund made at Stripe's dashboard whose event never came: refunded more at Stripe than here
    const sale = await paid('pm_card_visa', 'stripe-reconcile-refund');
    await dashboard.refunds.create({ payment_intent: String(sale.intent().id), amount: 250 });
    const unrecorded = await reconcile();
    expect(unrecorded.differences).toContainEqual({
      kind: 'REFUNDED_DIFFERS',
      providerId: 'stripe',
      transactionId: sale.intent().id,
      orderId: sale.orderId,
      cartwheel: expect.objectContaining({ state: 'CAPTURED', refundedAmount: '0' }),
      provider: expect.objectContaining({ state: 'CAPTURED', refundedAmount: '2.50' }),
    });
    // once its event is delivered, the two agree again
    const late = standIn.events.findLast((event) => event.type === 'charge.refunded')!;
    expect(await (await deliver(late)).json()).toMatchObject({ outcome: 'APPLIED' });
    expect((await reconcile()).differences).toEqual(agreed.differences);

    const outside = await dashboard.paymentIntents.create({
      amount: 1234,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    const found = await reconcile();
    expect(found.differences).toHaveLength(agreed.differences.length + 1);
    expect(found.differences).toEqual(
      expect.arrayContaining([
        ...agreed.differences,
        {
          kind: 'NOT_IN_CARTWHEEL',
          providerId: 'stripe',
          transactionId: outside.id,
          orderId: null,
          cartwheel: null,
          provider: expect.objectContaining({ amount: '12.34', currency: 'USD', state: 'CAPTURED' }),
        },
      ]),
    );
  });

  // ---- subscriptions: the card saved at Stripe for the member's Customer, renewals charged off session ----

  const DAY = 24 * 60 * 60_000;
  const HOUR = 60 * 60_000;
  /** A contract as its member reads it (the hosted wire), and where they stop it (Cartwheel's own route). */
  const contractPath = (id: string) => `/ecom/subscription-contracts/v1/subscription-contracts/${id}`;
  const cancelPath = (id: string) => `/api/cartwheel/subscription-contracts/${id}/cancel`;

  /** A new member's checkout of the daily subscription, paid on the hosted page with `paymentMethod`. */
  async function subscribe(label: string, paymentMethod: string) {
    const auth = await signUpFrom(platform, await visitorToken(platform), uniqueEmail(label));
    const cart = cartCalls(platform, auth);
    const line = {
      catalogReference: {
        appId: STORES_APP_ID,
        catalogItemId: dailyProductId,
        options: { subscriptionOptionId: daily },
      },
      quantity: 1,
    };
    expect((await cart.add({ lineItems: [line] })).status).toBe(200);
    const created = await cart.createCheckout({ channelType: 'WEB' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const checkoutId = created.body.checkoutId as string;
    const patched = await checkoutCalls(platform, auth).patch(checkoutId, buyerDetails(uniqueEmail(label)));
    expect(patched.status).toBe(200);
    const page = pageCalls(platform, await checkoutSession(platform, auth, checkoutId));
    const paid = await page.payWith({ attemptKey: `subscribe-${checkoutId}`, paymentToken: paymentMethod });
    return { auth, page, paid };
  }
  /** The contract the paid order `orderId` started. */
  const contractOf = async (orderId: string) =>
    platform.services.database.db
      .selectFrom('subscription_contracts')
      .selectAll()
      .where('first_order_id', '=', orderId)
      .executeTakeFirstOrThrow();
  const contractRow = (id: string) =>
    platform.services.database.db
      .selectFrom('subscription_contracts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** Stripe's intents charged under one cycle's keys (each try its own), oldest first. */
  const intentsOfCycle = (contractId: string, cycle: number) =>
    [...standIn.paymentIntents.values()].filter((intent) =>
      String((intent.metadata as Record<string, string>).cartwheel_key).startsWith(
        `subscription:${contractId}:${cycle}:`,
      ),
    );
  const cancel = (id: string, auth: string) => call(platform, 'POST', cancelPath(id), {}, auth);

  it("a member's subscription paid through Stripe saves the card for their Customer, and three renewals charge it off session once each", async () => {
    const { auth, paid } = await subscribe('stripe-renewals', 'pm_card_visa');
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const contract = await contractOf(paid.body.orderId);
    const { db } = platform.services.database;
    const customer = await db
      .selectFrom('payment_provider_customers')
      .selectAll()
      .where('member_id', '=', contract.member_id)
      .executeTakeFirstOrThrow();
    expect(standIn.customers.has(customer.customer_id)).toBe(true);
    // the first intent was the member's Customer's, saving its card; the contract keeps Stripe's ids alone
    const first = standIn.paymentIntents.get((await paymentRow(paid.body.orderId)).gateway_transaction_id)!;
    expect(first).toMatchObject({
      status: 'succeeded',
      customer: customer.customer_id,
      setup_future_usage: 'off_session',
    });
    expect([contract.provider_id, contract.customer_id]).toEqual(['stripe', contract.member_id]);
    expect(contract.saved_method_id).toBe(first.payment_method);
    expect(contract.saved_method_id).toMatch(/^pm_/);
    expect(contract.saved_method_id).not.toBe('pm_card_visa');
    expect(standIn.savedMethods.get(contract.saved_method_id)?.customer).toBe(customer.customer_id);

    const subscriptions = platform.services.subscriptions;
    // several processes of one store share PostgreSQL: a second one's worker races the first's
    const other =
      dialect === 'postgres'
        ? await openServices({ ...platform.services.config, logLevel: 'silent' })
        : undefined;
    const start = new Date(contract.anchor_at).getTime();
    for (const cycle of [2, 3, 4]) {
      const due = new Date(start + (cycle - 1) * DAY + 60_000);
      expect(await subscriptions.renewDue(new Date(due.getTime() - 2 * 60_000))).toBe(0);
      // two runs at once (another process's worker, or this one's again): one charge
      await Promise.all([
        subscriptions.renewDue(due),
        (other?.services.subscriptions ?? subscriptions).renewDue(due),
      ]);
      expect((await contractRow(contract.id)).cycles_billed).toBe(cycle);
      const intents = intentsOfCycle(contract.id, cycle);
      expect(intents.map((intent) => intent.status)).toEqual(['succeeded']);
      expect(intents[0]).toMatchObject({
        customer: customer.customer_id,
        payment_method: contract.saved_method_id,
        amount: first.amount,
      });
      const sent = callsTo('/v1/payment_intents').filter(
        (call) => call.idempotencyKey === `cartwheel:charge:subscription:${contract.id}:${cycle}:1`,
      );
      expect(sent.length).toBeGreaterThanOrEqual(1);
      expect(sent[0]!.params).toMatchObject({
        customer: customer.customer_id,
        payment_method: contract.saved_method_id,
        off_session: 'true',
        confirm: 'true',
      });
    }
    await other?.close();
    // one Customer for the member at Stripe, whatever was charged
    expect(
      [...standIn.customers.values()].filter(
        (made) => (made.metadata as Record<string, string>).cartwheel_member === contract.member_id,
      ),
    ).toHaveLength(1);
    const renewals = await db
      .selectFrom('subscription_renewals')
      .select(['cycle', 'status', 'try'])
      .where('contract_id', '=', contract.id)
      .orderBy('cycle')
      .execute();
    expect(renewals).toEqual([
      { cycle: 2, status: 'PAID', try: 1 },
      { cycle: 3, status: 'PAID', try: 1 },
      { cycle: 4, status: 'PAID', try: 1 },
    ]);
    expect((await cancel(contract.id, auth)).body.subscriptionContract.status).toBe('CANCELED');
  });

  it("two first charges saving a member's card at once, from two processes, make one Stripe Customer", async () => {
    const memberId = `member-racing-${dialect}`;
    const other =
      dialect === 'postgres'
        ? await openServices({ ...platform.services.config, logLevel: 'silent' })
        : undefined;
    try {
      const providers = [platform.services, other?.services ?? platform.services].map((services) =>
        services.payments.providers.get('stripe'),
      );
      const results = await Promise.all(
        providers.map((provider, n) =>
          provider.authorize({
            idempotencyKey: `customer-race-${dialect}-${n}`,
            amount: '3.00',
            currency: 'USD',
            method: { kind: 'saved', savedMethodId: 'pm_card_visa', customerId: memberId },
            capture: true,
            saveForOffSession: true,
          }),
        ),
      );
      const customers = await platform.services.database.db
        .selectFrom('payment_provider_customers')
        .selectAll()
        .where('member_id', '=', memberId)
        .execute();
      expect(customers).toHaveLength(1);
      const atStripe = [...standIn.customers.values()].filter(
        (made) => (made.metadata as Record<string, string>).cartwheel_member === memberId,
      );
      expect(atStripe.map((made) => made.id)).toEqual([customers[0]!.customer_id]);
      for (const result of results) {
        expect(result).toMatchObject({ status: 'APPROVED', savedMethodId: expect.stringMatching(/^pm_/) });
        const intent = standIn.paymentIntents.get((result as { transactionId: string }).transactionId)!;
        expect(intent.customer).toBe(customers[0]!.customer_id);
        // no order took these: given back
        await providers[0]!.refund({
          idempotencyKey: `${intent.id}:refund`,
          transactionId: String(intent.id),
          amount: '3.00',
        });
      }
    } finally {
      await other?.close();
    }
  });

  it('a renewal Stripe declines is tried again on the schedule; a card asking for 3-D Secure off session fails with that reason', async () => {
    const subscriptions = platform.services.subscriptions;
    const { auth, paid } = await subscribe('stripe-declined', 'pm_card_visa');
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const contract = await contractOf(paid.body.orderId);
    const read = async () =>
      (await call(platform, 'GET', contractPath(contract.id), undefined, auth)).body.subscriptionContract;
    // the card's bank declines its customer's charges from now on
    standIn.replaceCard(contract.saved_method_id, 'pm_card_chargeCustomerFail');
    const at = new Date(contract.anchor_at).getTime() + DAY + 60_000;
    await subscriptions.renewDue(new Date(at));
    const declined = await read();
    expect(declined).toMatchObject({
      status: 'ACTIVE',
      cyclesBilled: 1,
      renewalFailure: { code: 'CARD_DECLINED', failedAttempts: 1 },
    });
    expect(new Date(declined.renewalFailure.nextAttemptDate).getTime()).toBe(at + HOUR);
    expect(intentsOfCycle(contract.id, 2).map((intent) => intent.status)).toEqual([
      'requires_payment_method',
    ]);
    // the bank takes it again: the next try, under its own key, is paid
    standIn.replaceCard(contract.saved_method_id, 'pm_card_visa');
    expect(await subscriptions.renewDue(new Date(at + HOUR - 60_000))).toBe(0);
    await subscriptions.renewDue(new Date(at + HOUR + 1000));
    const renewed = await read();
    expect(renewed).toMatchObject({ status: 'ACTIVE', cyclesBilled: 2 });
    expect(renewed.renewalFailure).toBeUndefined();
    const tries = intentsOfCycle(contract.id, 2);
    expect(
      tries.map((intent) => [(intent.metadata as Record<string, string>).cartwheel_key, intent.status]),
    ).toEqual([
      [`subscription:${contract.id}:2:1`, 'requires_payment_method'],
      [`subscription:${contract.id}:2:2`, 'succeeded'],
    ]);
    expect((await cancel(contract.id, auth)).status).toBe(200);

    // a card that authenticates every payment: its owner passes the step at checkout, a renewal cannot
    const strict = await subscribe('stripe-3ds-renewal', 'pm_card_authenticationRequired');
    expect(strict.paid.body.status, JSON.stringify(strict.paid.body)).toBe('REQUIRES_ACTION');
    const attemptId = new URL(strict.paid.body.actionUrl, platform.url).searchParams.get('attempt')!;
    standIn.completeAction(String([...standIn.paymentIntents.values()].at(-1)!.id), true);
    const confirmed = await strict.page.confirm(attemptId, true);
    expect(confirmed.body.status, JSON.stringify(confirmed.body)).toBe('APPROVED');
    const strictContract = await contractOf(confirmed.body.orderId);
    expect(standIn.savedMethods.get(strictContract.saved_method_id)).toBeDefined();
    const strictAt = new Date(strictContract.anchor_at).getTime() + DAY + 60_000;
    await subscriptions.renewDue(new Date(strictAt));
    const failed = (await call(platform, 'GET', contractPath(strictContract.id), undefined, strict.auth)).body
      .subscriptionContract;
    expect(failed).toMatchObject({
      status: 'ACTIVE',
      cyclesBilled: 1,
      renewalFailure: { code: 'AUTHENTICATION_REQUIRED', failedAttempts: 1 },
    });
    // Stripe declined it at once: no intent is left waiting for a step nobody will take
    expect(intentsOfCycle(strictContract.id, 2).map((intent) => intent.status)).toEqual([
      'requires_payment_method',
    ]);
    expect((await cancel(strictContract.id, strict.auth)).status).toBe(200);
  });

  it('a renewal whose answer from Stripe was lost is asked again on the next run under its key, and charged once', async () => {
    const { auth, paid } = await subscribe('stripe-lost-renewal', 'pm_card_visa');
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const contract = await contractOf(paid.body.orderId);
    const providers = platform.services.payments.providers;
    const kept = providers.get('stripe');
    // this process's Stripe client waits a short while for an answer (the store's waits 20 s)
    providers.register(
      new StripeProvider(
        'stripe',
        { secretKey: standIn.secretKey, apiUrl: standIn.url, timeoutMs: 150 },
        platform.services.database.db,
      ),
    );
    try {
      const key = `cartwheel:charge:subscription:${contract.id}:2:1`;
      // Stripe charges, and neither the call nor the client's two retries under its key hear back
      standIn.loseAnswerOfNext(3);
      const at = new Date(contract.anchor_at).getTime() + DAY + 60_000;
      const errors: unknown[] = [];
      await platform.services.subscriptions.renewDue(new Date(at), (error) => errors.push(error));
      expect(errors).toHaveLength(1);
      expect(standIn.calls.filter((sent) => sent.idempotencyKey === key)).toHaveLength(3);
      expect((await contractRow(contract.id)).cycles_billed).toBe(1);
      expect(intentsOfCycle(contract.id, 2).map((intent) => intent.status)).toEqual(['succeeded']);
      // not asked again while the run's claim holds; once it lapses, the next run asks under the same key
      expect(await platform.services.subscriptions.renewDue(new Date(at + 1000))).toBe(0);
      await platform.services.subscriptions.renewDue(new Date(at + RENEWAL_CLAIM_MS + 1000));
      const row = await contractRow(contract.id);
      expect(row.cycles_billed).toBe(2);
      expect(intentsOfCycle(contract.id, 2).map((intent) => intent.status)).toEqual(['succeeded']);
      const renewal = await platform.services.database.db
        .selectFrom('subscription_renewals')
        .selectAll()
        .where('contract_id', '=', contract.id)
        .executeTakeFirstOrThrow();
      expect([renewal.status, renewal.try]).toEqual(['PAID', 1]);
      expect((await paymentRow(renewal.order_id)).gateway_transaction_id).toBe(
        intentsOfCycle(contract.id, 2)[0]!.id,
      );
    } finally {
      providers.register(kept);
    }
    expect((await cancel(contract.id, auth)).status).toBe(200);
  });

  it("a charge its cardholder disputed at Stripe is not refundable: Stripe's DISABLED_BY_PROVIDER", async () => {
    const sale = await paid('pm_card_visa', 'stripe-disputed');
    const refundability = async () => (await billing(platform).refundability(sale.orderId)).body.payments[0];
    expect(await refundability()).toMatchObject({ refundable: true });
    standIn.dispute(String(sale.intent().id));
    expect(await refundability()).toMatchObject({
      refundable: false,
      nonRefundable: { reason: 'DISABLED_BY_PROVIDER' },
    });
  });

  it('the platform starts and answers while Stripe cannot be reached', async () => {
    const unreachable = await startTestPlatform({
      dialect,
      sharing: platform,
      env: { STRIPE_SECRET_KEY: 'sk_test_unreachable', STRIPE_API_URL: 'http://127.0.0.1:9' },
    });
    try {
      expect(unreachable.services.payments.providers.default).toBeInstanceOf(StripeProvider);
      // the test gateway is off unless named
      expect(unreachable.services.payments.providers.list().map((provider) => provider.id)).toEqual([
        'stripe',
      ]);
      const page = pageCalls(
        unreachable,
        await (async () => {
          const shopper = await shopperCheckout(unreachable, [{ productId, quantity: 1 }]);
          return checkoutSession(unreachable, shopper.auth, shopper.checkoutId);
        })(),
      );
      const stock = await stockOf(unreachable, productId);
      const answer = await page.payWith({ attemptKey: 'stripe-down', paymentToken: 'pm_card_visa' });
      // a clear error the page can retry under the same attempt key, never a 500
      expect([answer.status, applicationCode(answer)]).toEqual([409, 'PAYMENT_PROVIDER_UNAVAILABLE']);
      expect((await page.session()).status).toBe(200);
      // the stock stays held while the charge is in doubt (settling it from Stripe gives it back)
      expect(await stockOf(unreachable, productId)).toBe(stock - 1);
    } finally {
      await unreachable.stop();
    }
  });
});
