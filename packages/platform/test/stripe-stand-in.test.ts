import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeStandIn, startStripeStandIn } from './support/stripe-stand-in.ts';

/**
 * The Stripe stand-in the Stripe provider's tests run against (issue 32), driven by the `stripe` package
 * itself: what it answers is what that library reads, errors included, so a provider built on the library
 * meets Stripe's behaviour here before it meets Stripe.
 */
describe('the Stripe stand-in, as the stripe package sees it', () => {
  let standIn: StripeStandIn;
  let stripe: Stripe;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    stripe = new Stripe(standIn.secretKey, standIn.clientOptions);
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('charges a test card at once, and authorizes then captures part with manual capture', async () => {
    const sale = await stripe.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(sale).toMatchObject({ status: 'succeeded', amount_received: 2500 });

    const held = await stripe.paymentIntents.create({
      amount: 3000,
      currency: 'usd',
      capture_method: 'manual',
      payment_method: 'pm_card_visa',
      confirm: true,
      metadata: { orderId: 'order-1' },
    });
    expect(held).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 3000,
      metadata: { orderId: 'order-1' },
    });
    const captured = await stripe.paymentIntents.capture(held.id, { amount_to_capture: 2000 });
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 2000, amount_capturable: 0 });
    await expect(stripe.paymentIntents.capture(held.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'payment_intent_unexpected_state',
    });
  });

  it('voids an authorization by cancelling it, and refunds a sale in parts but never past what was paid', async () => {
    const held = await stripe.paymentIntents.create({
      amount: 1200,
      currency: 'eur',
      capture_method: 'manual',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(await stripe.paymentIntents.cancel(held.id)).toMatchObject({
      status: 'canceled',
      amount_capturable: 0,
    });

    const sale = await stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(await stripe.refunds.create({ payment_intent: sale.id, amount: 400 })).toMatchObject({
      status: 'succeeded',
      amount: 400,
    });
    expect(await stripe.refunds.create({ payment_intent: sale.id, amount: 600 })).toMatchObject({
      amount: 600,
    });
    await expect(stripe.refunds.create({ payment_intent: sale.id, amount: 1 })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'charge_already_refunded',
    });
    const listed = await stripe.refunds.list({ payment_intent: sale.id });
    expect(listed.data.map((refund) => refund.amount).sort()).toEqual([400, 600]);
  });

  it('declines as card errors with their decline codes', async () => {
    for (const [method, declineCode] of [
      ['pm_card_chargeDeclined', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ] as const) {
      const failure = await stripe.paymentIntents
        .create({ amount: 500, currency: 'usd', payment_method: method, confirm: true })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(failure).toMatchObject({ code: 'card_declined', decline_code: declineCode, statusCode: 402 });
      expect((failure as Stripe.errors.StripeCardError).payment_intent?.status).toBe(
        'requires_payment_method',
      );
    }
  });

  it("asks for 3-D Secure through the provider's next action, and settles when the shopper completes or fails it", async () => {
    const intent = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
      return_url: 'http://127.0.0.1/return',
    });
    expect(intent.status).toBe('requires_action');
    expect(intent.next_action?.type).toBe('redirect_to_url');
    standIn.completeAction(intent.id, true);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe('succeeded');

    const failed = await stripe.paymentIntents.create({
      amount: 900,
      currency: 'usd',
      payment_method: 'pm_card_threeDSecure2Required',
      confirm: true,
    });
    standIn.completeAction(failed.id, false);
    const after = await stripe.paymentIntents.retrieve(failed.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.code).toBe('payment_intent_authentication_failure');
  });

  it('charges a saved card without the shopper, and refuses off-session a card that needs authentication', async () => {
    const customer = await stripe.customers.create({ email: 'buyer@example.com' });
    await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    const renewal = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_mastercard',
      off_session: true,
      confirm: true,
    });
    expect(renewal.status).toBe('succeeded');
    expect((await stripe.paymentMethods.retrieve('pm_card_mastercard')).card?.last4).toBe('4444');
    await expect(
      stripe.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_authenticationRequired',
        off_session: true,
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'authentication_required' });
  });

  it('replays an idempotent request, and refuses the same key with other parameters', async () => {
    const key = `order-7-attempt-1-${Date.now()}`;
    const first = await stripe.paymentIntents.create(
      { amount: 700, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
      { idempotencyKey: key },
    );
    const again = await stripe.paymentIntents.create(
      { amount: 700, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
      { idempotencyKey: key },
    );
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect([...standIn.paymentIntents.values()].filter((intent) => intent.amount === 700)).toHaveLength(1);
    await expect(
      stripe.paymentIntents.create(
        { amount: 701, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
        { idempotencyKey: key },
      ),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('answers a rate limit, and a call it never answers runs into the client timeout', async () => {
    standIn.failNext(429);
    await expect(stripe.paymentIntents.list({ limit: 1 })).rejects.toBeInstanceOf(
      Stripe.errors.StripeRateLimitError,
    );
    const impatient = new Stripe(standIn.secretKey, { ...standIn.clientOptions, timeout: 200 });
    standIn.hangNext();
    await expect(impatient.paymentIntents.list({ limit: 1 })).rejects.toBeInstanceOf(
      Stripe.errors.StripeConnectionError,
    );
    await expect(
      new Stripe('sk_test_wrong', standIn.clientOptions).paymentIntents.list(),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it("signs events as Stripe signs webhook deliveries: the library's check takes them, and refuses a changed body or an old timestamp", async () => {
    const event = standIn.events.find((candidate) => candidate.type === 'charge.refunded')!;
    expect(event).toBeDefined();
    const { body, header } = standIn.signedDelivery(event);
    expect(stripe.webhooks.constructEvent(body, header, standIn.webhookSecret).id).toBe(event.id);
    expect(() =>
      stripe.webhooks.constructEvent(
        body.replace('charge.refunded', 'charge.captured'),
        header,
        standIn.webhookSecret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const old = standIn.signedDelivery(event, { timestamp: standIn.now() - 301 });
    expect(() => stripe.webhooks.constructEvent(old.body, old.header, standIn.webhookSecret)).toThrow(
      /tolerance/,
    );
  });

  it('saves a card for a Customer as Stripe does, charges it off session, and declines off session what asks for its owner', async () => {
    const customer = await stripe.customers.create({ metadata: { cartwheel_member: 'member-1' } });
    const first = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      setup_future_usage: 'off_session',
      confirm: true,
    });
    expect(first).toMatchObject({
      status: 'succeeded',
      customer: customer.id,
      setup_future_usage: 'off_session',
    });
    // the test card's shortcut became a payment method of its own, attached to the Customer
    const saved = String(first.payment_method);
    expect(saved).toMatch(/^pm_/);
    expect(saved).not.toBe('pm_card_visa');
    const attached = await stripe.customers.listPaymentMethods(customer.id);
    expect(attached.data.map((method) => [method.id, method.customer, method.card?.last4])).toEqual([
      [saved, customer.id, '4242'],
    ]);
    const renewal = await stripe.paymentIntents.create({
      amount: 1500,
      currency: 'usd',
      customer: customer.id,
      payment_method: saved,
      off_session: true,
      confirm: true,
    });
    expect(renewal).toMatchObject({ status: 'succeeded', payment_method: saved });
    // another Customer cannot charge it; `off_session` without `confirm` is refused
    const other = await stripe.customers.create({});
    await expect(
      stripe.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        customer: other.id,
        payment_method: saved,
        off_session: true,
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'payment_method' });
    await expect(
      stripe.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        customer: customer.id,
        off_session: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'off_session' });

    // a card that authenticates every payment: off session, Stripe declines it at once
    await expect(
      stripe.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_authenticationRequired',
        off_session: true,
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'authentication_required' });
    // a card that attaches but whose customer's charges fail
    await expect(
      stripe.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_chargeCustomerFail',
        setup_future_usage: 'off_session',
        confirm: true,
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError', code: 'card_declined' });
    // a disputed charge shows on its intent's expanded charge, and Stripe refunds none of it
    standIn.dispute(renewal.id);
    const read = await stripe.paymentIntents.retrieve(renewal.id, { expand: ['latest_charge'] });
    expect(read.latest_charge).toMatchObject({ object: 'charge', disputed: true });
    await expect(stripe.refunds.create({ payment_intent: renewal.id })).rejects.toMatchObject({
      code: 'charge_disputed',
    });
  });
});
