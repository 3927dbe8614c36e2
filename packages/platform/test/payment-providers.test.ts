import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkCard } from '../src/payments/card.ts';
import { TEST_CARDS, type TestGateway } from '../src/payments/test-gateway.ts';
import { billing, buy } from './billing-support.ts';
import { signUpFrom } from './cart-calls.ts';
import { visitorToken } from './catalog-http.ts';
import {
  applicationCode,
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

/**
 * The store's payment providers, registered by config: the built-in test gateway, a second test
 * gateway under another id (each answers only for the charges it made, as two real providers do),
 * and one that takes no card numbers (as a provider with its own card fields).
 */
const PROVIDERS = 'cartwheel-test-gateway, other-gateway=test-gateway, fields-only=test-gateway-tokens-only';

const checked = (number: string) => checkCard({ number, expiry: '12/40', cvc: '123' });

/**
 * Each payment remembers the provider that took it, and every later money call goes there; the
 * seam takes a card, the provider's one-time token, or a method saved for a customer.
 */
describe.each(DIALECTS)('payment providers, on %s', (dialect) => {
  let platform: TestPlatform;
  /** The same store in processes whose default provider is another, as after a restart with new settings. */
  let switched: TestPlatform;
  let fieldsOnly: TestPlatform;
  let productId: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect, env: { CARTWHEEL_PAYMENT_PROVIDERS: PROVIDERS } });
    const defaulting = (providerId: string) =>
      startTestPlatform({
        dialect,
        sharing: platform,
        env: { CARTWHEEL_PAYMENT_PROVIDERS: PROVIDERS, CARTWHEEL_PAYMENT_PROVIDER: providerId },
      });
    switched = await defaulting('other-gateway');
    fieldsOnly = await defaulting('fields-only');
    await shipToUs(platform);
    productId = (await stockedProduct(platform, 'Provider Teapot', 30, 100)).id;
  });
  afterAll(async () => {
    await fieldsOnly?.stop();
    await switched?.stop();
    await platform?.stop();
  });
  // every order's payments still match the charges the gateways made
  afterEach(() => expectBooksBalance(platform));
  /** A registered test gateway, opened in the test's process over the store's database. */
  const gateway = (id: string) => platform.services.payments.providers.get(id) as TestGateway;
  const paymentRow = (orderId: string) =>
    platform.services.database.db
      .selectFrom('order_payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
  const chargeOf = (transactionId: string) =>
    platform.services.database.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .executeTakeFirstOrThrow();
  const firstPayment = async (target: TestPlatform, orderId: string) =>
    (await billing(target).transactions(orderId)).body.orderTransactions.payments[0];
  const newPage = async (auth?: string) => {
    const shopper = await shopperCheckout(platform, [{ productId, quantity: 1 }], auth ? { auth } : {});
    return {
      ...shopper,
      page: pageCalls(platform, await checkoutSession(platform, shopper.auth, shopper.checkoutId)),
    };
  };

  it('a payment is captured, voided and refunded by the provider that took it, after the default provider changes', async () => {
    const toCapture = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const toVoid = await buy(platform, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const toRefund = await buy(platform, [{ productId, quantity: 1 }]);
    for (const orderId of [toCapture, toVoid, toRefund]) {
      expect((await paymentRow(orderId)).provider_id).toBe('cartwheel-test-gateway');
    }

    // a new payment goes to the new default, and its ledger is the other gateway's
    const newer = await buy(switched, [{ productId, quantity: 1 }], { authorizeOnly: true });
    const newerRow = await paymentRow(newer);
    expect(newerRow.provider_id).toBe('other-gateway');
    expect((await chargeOf(newerRow.gateway_transaction_id)).gateway_id).toBe('other-gateway');
    // the wire still names the method as before
    expect((await firstPayment(switched, newer)).regularPaymentDetails.paymentMethod).toBe(
      (await firstPayment(switched, toCapture)).regularPaymentDetails.paymentMethod,
    );

    // the earlier payments go back to the test gateway (the other one holds no such authorization)
    const captured = await billing(switched).capture(toCapture, [
      { paymentId: (await firstPayment(switched, toCapture)).id },
    ]);
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    expect(captured.body.orderTransactions.payments[0].status).toBe('APPROVED');

    const voided = await billing(switched).void(toVoid, [(await firstPayment(switched, toVoid)).id]);
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.orderTransactions.payments[0].status).toBe('VOIDED');

    const refundedPayment = await firstPayment(switched, toRefund);
    const refunded = await billing(switched).refund(toRefund, {
      paymentRefunds: [{ paymentId: refundedPayment.id, amount: { amount: refundedPayment.amount.amount } }],
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.refund.transactions[0].refundStatus).toBe('SUCCEEDED');

    // and the new payment goes to its own provider from the process whose default is the first
    const capturedNewer = await billing(platform).capture(newer, [
      { paymentId: (await firstPayment(platform, newer)).id },
    ]);
    expect(capturedNewer.status, JSON.stringify(capturedNewer.body)).toBe(200);
    expect(capturedNewer.body.orderTransactions.payments[0].status).toBe('APPROVED');

    // each gateway answers only for its own charges: sent to the wrong one, a capture fails
    const wrong = await gateway('other-gateway').capture({
      idempotencyKey: 'wrong-gateway-capture',
      transactionId: (await paymentRow(toVoid)).gateway_transaction_id,
      amount: '1.00',
    });
    expect(wrong).toMatchObject({ status: 'FAILED' });
  });

  it("pays with the provider's one-time token; the same token for another payment is refused", async () => {
    const token = await gateway('cartwheel-test-gateway').tokenize(checked(TEST_CARDS.approved));
    const first = await newPage();
    const paid = await first.page.payWith({ attemptKey: 'with-token', paymentToken: token });
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    const row = await paymentRow(paid.body.orderId);
    // the card as the provider describes it: the page never named it
    expect([row.card_last4, row.card_brand, row.provider_id]).toEqual([
      '4242',
      'VISA',
      'cartwheel-test-gateway',
    ]);
    // the same attempt again answers its order
    const again = await first.page.payWith({ attemptKey: 'with-token', paymentToken: token });
    expect(again.body.orderId).toBe(paid.body.orderId);

    const second = await newPage();
    const stock = await stockOf(platform, productId);
    const reused = await second.page.payWith({ attemptKey: 'reused-token', paymentToken: token });
    expect([reused.status, applicationCode(reused)]).toEqual([428, 'PAYMENT_METHOD_UNUSABLE']);
    expect(await stockOf(platform, productId)).toBe(stock);

    // a token another provider issued is unknown to this one
    const foreign = await gateway('other-gateway').tokenize(checked(TEST_CARDS.approved));
    const refused = await second.page.payWith({ attemptKey: 'foreign-token', paymentToken: foreign });
    expect(applicationCode(refused)).toBe('PAYMENT_METHOD_UNUSABLE');

    // a token for a card the issuer declines is declined as the card would be
    const declining = await gateway('cartwheel-test-gateway').tokenize(checked(TEST_CARDS.declined));
    const declined = await second.page.payWith({ attemptKey: 'declined-token', paymentToken: declining });
    expect(applicationCode(declined)).toBe('CARD_DECLINED');
    expect(await stockOf(platform, productId)).toBe(stock);

    const fresh = await gateway('cartwheel-test-gateway').tokenize(checked(TEST_CARDS.approved));
    const paidAgain = await second.page.payWith({ attemptKey: 'fresh-token', paymentToken: fresh });
    expect(paidAgain.body.status, JSON.stringify(paidAgain.body)).toBe('APPROVED');
  });

  it('a card saved for a member pays their checkout, and is charged again without them', async () => {
    const auth = await signUpFrom(platform, await visitorToken(platform), uniqueEmail('saved-card'));
    const shopper = await newPage(auth);
    const { member_id: memberId } = await platform.services.database.db
      .selectFrom('checkouts')
      .select('member_id')
      .where('id', '=', shopper.checkoutId)
      .executeTakeFirstOrThrow();
    const provider = gateway('cartwheel-test-gateway');
    const saved = await provider.saveMethod(memberId!, checked(TEST_CARDS.approved));

    // a visitor's checkout cannot pay with a member's saved method
    const visitor = await newPage();
    const anonymous = await visitor.page.payWith({ attemptKey: 'visitor-saved', savedMethodId: saved });
    expect([anonymous.status, violatedFields(anonymous)]).toEqual([400, ['savedMethodId']]);
    // nor can another member's checkout
    const other = await newPage(
      await signUpFrom(platform, await visitorToken(platform), uniqueEmail('other')),
    );
    const theirs = await other.page.payWith({ attemptKey: 'not-mine', savedMethodId: saved });
    expect(applicationCode(theirs)).toBe('PAYMENT_METHOD_UNUSABLE');

    const paid = await shopper.page.payWith({ attemptKey: 'member-saved', savedMethodId: saved });
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect((await paymentRow(paid.body.orderId)).card_last4).toBe('4242');

    // off session (a renewal): no shopper, the same key never charges twice, and it refunds
    const renewal = {
      idempotencyKey: `renewal:${memberId}:1`,
      amount: '12.00',
      currency: 'USD',
      method: { kind: 'saved' as const, savedMethodId: saved, customerId: memberId! },
      capture: true,
      offSession: true,
    };
    const charged = await provider.authorize(renewal);
    expect(charged).toMatchObject({ status: 'APPROVED', captured: true, card: { last4: '4242' } });
    expect(await provider.authorize(renewal)).toEqual(charged);
    const refund = await provider.refund({
      idempotencyKey: `${renewal.idempotencyKey}:refund`,
      transactionId: charged.transactionId,
      amount: '12.00',
    });
    expect(refund.status).toBe('SUCCEEDED');
    // a card that asks its holder to authenticate cannot be charged without them
    const strict = await provider.saveMethod(memberId!, checked(TEST_CARDS.requiresAuthentication));
    expect(
      await provider.authorize({
        ...renewal,
        idempotencyKey: `renewal:${memberId}:2`,
        method: { kind: 'saved', savedMethodId: strict, customerId: memberId! },
      }),
    ).toMatchObject({ status: 'DECLINED', code: 'AUTHENTICATION_REQUIRED' });
    // nor is a saved method charged for a customer it does not belong to
    expect(
      await provider.authorize({
        ...renewal,
        idempotencyKey: `renewal:${memberId}:3`,
        method: { kind: 'saved', savedMethodId: saved, customerId: 'someone-else' },
      }),
    ).toMatchObject({ status: 'DECLINED', code: 'PAYMENT_METHOD_UNUSABLE' });
  });

  it('a store whose provider takes no card numbers refuses them before any stock or order, and pays by token', async () => {
    const shopper = await shopperCheckout(fieldsOnly, [{ productId, quantity: 1 }]);
    const page = pageCalls(fieldsOnly, await checkoutSession(fieldsOnly, shopper.auth, shopper.checkoutId));
    const stock = await stockOf(platform, productId);
    const refused = await page.pay('typed-card', TEST_CARDS.approved);
    expect([refused.status, applicationCode(refused)]).toEqual([400, 'CARD_NUMBERS_NOT_ACCEPTED']);
    expect(await stockOf(platform, productId)).toBe(stock);
    const attempts = await platform.services.database.db
      .selectFrom('checkout_attempts')
      .select('id')
      .where('checkout_id', '=', shopper.checkoutId)
      .execute();
    expect(attempts).toEqual([]);

    const token = await gateway('fields-only').tokenize(checked(TEST_CARDS.approved));
    const paid = await page.payWith({ attemptKey: 'fields-token', paymentToken: token });
    expect(paid.body.status, JSON.stringify(paid.body)).toBe('APPROVED');
    expect((await paymentRow(paid.body.orderId)).provider_id).toBe('fields-only');
  });

  it('names one way of paying: a card and a token together are refused', async () => {
    const { page } = await newPage();
    const both = await page.payWith({
      attemptKey: 'both',
      card: { number: TEST_CARDS.approved, expiry: '12/40', cvc: '123' },
      paymentToken: 'tok_anything',
    });
    expect([both.status, violatedFields(both)]).toEqual([400, ['paymentToken']]);
  });
});
