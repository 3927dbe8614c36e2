/**
 * A stand-in for the Stripe API on a loopback port, for tests of the Stripe payment provider (issue 32):
 * the endpoints that provider calls, answering as Stripe's API reference says, with its test payment
 * methods (`pm_card_visa`, `pm_card_chargeDeclined`, `pm_card_threeDSecure2Required`, ...), idempotent
 * replays (`Idempotent-Replayed`), and events signed as Stripe signs webhook deliveries. Stripe is a
 * service outside Cartwheel: standing in for it is the one kind of fake the tests allow.
 *
 * The `stripe` package reaches it with `new Stripe(secretKey, standIn.clientOptions)`. Tests steer it:
 * `failNext(429)` (a rate limit), `hangNext()` (a call that never answers: the client's timeout),
 * `loseAnswerOfNext()` (a call Stripe carries out whose answer never reaches the caller),
 * `completeAction(id, approved)` (the shopper's 3-D Secure step), `settleRefund(id)` (a pending refund
 * reaching the card), `replaceCard(id, testCard)` (a saved card its bank now answers otherwise),
 * `dispute(intentId)` (the cardholder disputes the charge).
 *
 * Saved cards as Stripe keeps them: a Customer (`POST /v1/customers`), a payment method attached to it
 * by a PaymentIntent confirmed with `customer` and `setup_future_usage` (a test card's shortcut such as
 * `pm_card_visa` becomes a payment method of its own), then charged with `customer`, `payment_method`,
 * `off_session: true` and `confirm: true`: a card that asks for 3-D Secure is declined
 * `authentication_required` off session, and `pm_card_chargeCustomerFail` attaches but declines every
 * charge of its customer.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export interface StripeStandInCall {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  params: Json;
}

/** A test card as Stripe's test payment methods describe it, and what charging it does. */
interface TestCard {
  brand: string;
  last4: string;
  /** `customer_charge_fails`: attaches to a Customer, then every charge of that customer is declined. */
  outcome: 'succeeds' | 'declined' | 'insufficient_funds' | 'requires_action' | 'customer_charge_fails';
  /** A refund of its charge starts `pending` and succeeds later (Stripe's 4000 0000 0000 7726). */
  pendingRefunds?: true;
}

/** Stripe's test payment methods (docs.stripe.com/testing), the ones the provider's tests use. */
const TEST_CARDS: Record<string, TestCard> = {
  pm_card_visa: { brand: 'visa', last4: '4242', outcome: 'succeeds' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', outcome: 'succeeds' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', outcome: 'declined' },
  pm_card_chargeDeclinedInsufficientFunds: { brand: 'visa', last4: '9995', outcome: 'insufficient_funds' },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', outcome: 'requires_action' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', outcome: 'requires_action' },
  pm_card_pendingRefund: { brand: 'visa', last4: '7726', outcome: 'succeeds', pendingRefunds: true },
  pm_card_chargeCustomerFail: { brand: 'visa', last4: '0341', outcome: 'customer_charge_fails' },
};

/** Stripe's test card numbers (docs.stripe.com/testing), as a shopper types them into Stripe.js's fields. */
const TEST_NUMBERS: Record<string, TestCard> = {
  '4242424242424242': TEST_CARDS.pm_card_visa!,
  '5555555555554444': TEST_CARDS.pm_card_mastercard!,
  '4000000000000002': TEST_CARDS.pm_card_chargeDeclined!,
  '4000000000009995': TEST_CARDS.pm_card_chargeDeclinedInsufficientFunds!,
  '4000002500003155': TEST_CARDS.pm_card_threeDSecure2Required!,
};

const CANCELABLE = new Set([
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
]);

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

const invalidRequest = (message: string, extra: Json = {}, status = 400) =>
  new StripeApiError(status, { type: 'invalid_request_error', message, ...extra });

export class StripeStandIn {
  readonly secretKey = `sk_test_standin_${randomBytes(8).toString('hex')}`;
  readonly webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  /** What the page's Stripe.js calls with (`key=` in its form body), not the secret key. */
  readonly publishableKey = `pk_test_standin_${randomBytes(8).toString('hex')}`;
  /** Payment methods made from a card number typed into Stripe.js's fields (`POST /v1/payment_methods`). */
  readonly issuedMethods = new Map<string, TestCard>();
  readonly calls: StripeStandInCall[] = [];
  /** Every event the stand-in's objects went through, oldest first, as `GET /v1/events` lists them. */
  readonly events: Json[] = [];
  readonly paymentIntents = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  readonly customers = new Map<string, Json>();
  /** Payment methods attached to a customer (saved for charges without the shopper), by id. */
  readonly savedMethods = new Map<string, { card: TestCard; customer: string }>();
  /** The charges (`ch_...`) their cardholder disputed: Stripe refunds none of them. */
  readonly disputed = new Set<string>();

  private server: http.Server | undefined;
  private readonly idempotent = new Map<string, { params: string; status: number; body: string }>();
  private readonly failures: number[] = [];
  private hangs = 0;
  private lostAnswers = 0;
  private readonly hung: http.ServerResponse[] = [];
  private sequence = 0;
  /** The stand-in's clock (seconds), for `created` and signatures: tests may move it. */
  now = () => Math.floor(Date.now() / 1000);

  url = '';

  /** What `new Stripe(secretKey, ...)` takes to call the stand-in instead of Stripe. */
  get clientOptions() {
    const { port } = this.server!.address() as AddressInfo;
    return { host: '127.0.0.1', port, protocol: 'http' as const, maxNetworkRetries: 0 };
  }

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      void this.answer(request, response);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const response of this.hung.splice(0)) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `count` calls answer `status` (429: a rate limit; 500: Stripe's own failure). */
  failNext(status: number, count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push(status);
  }

  /** The next `count` calls are taken and never answered, as a call the network lost. */
  hangNext(count = 1): void {
    this.hangs += count;
  }

  /**
   * The next `count` calls are carried out (an intent made, a refund given) but never answered: the
   * caller's timeout, after which only a retry under the same idempotency key learns what happened.
   */
  loseAnswerOfNext(count = 1): void {
    this.lostAnswers += count;
  }

  /** A pending refund reaches the card: it succeeds, as Stripe tells with `charge.refund.updated`. */
  settleRefund(refundId: string): Json {
    const refund = this.refunds.get(refundId);
    if (refund?.status !== 'pending') throw new Error(`${refundId} is not pending`);
    refund.status = 'succeeded';
    this.emit('charge.refund.updated', refund);
    return refund;
  }

  /** The saved card `paymentMethodId` now answers as the test card `testCard` does (its bank changed its mind). */
  replaceCard(paymentMethodId: string, testCard: keyof typeof TEST_CARDS | string): void {
    const saved = this.savedMethods.get(paymentMethodId);
    const card = TEST_CARDS[testCard];
    if (!saved || !card)
      throw new Error(`${paymentMethodId} is no saved method, or ${testCard} no test card`);
    saved.card = card;
  }

  /** The cardholder disputes the charge of `paymentIntentId`, as Stripe tells with `charge.dispute.created`. */
  dispute(paymentIntentId: string): void {
    const charge = this.paymentIntents.get(paymentIntentId)?.latest_charge;
    if (typeof charge !== 'string') throw new Error(`${paymentIntentId} has no charge`);
    this.disputed.add(charge);
    this.emit('charge.dispute.created', {
      id: this.id('dp'),
      object: 'dispute',
      charge,
      payment_intent: paymentIntentId,
      status: 'needs_response',
    });
  }

  /** The shopper passes (`approved`) or fails the 3-D Secure step of a payment intent. */
  completeAction(paymentIntentId: string, approved: boolean): Json {
    const intent = this.paymentIntents.get(paymentIntentId);
    if (intent?.status !== 'requires_action') throw new Error(`${paymentIntentId} awaits no action`);
    intent.next_action = null;
    if (approved) this.approve(intent);
    // as Stripe answers a failed 3-D Secure check: the intent wants another payment method
    else this.fail(intent, 'payment_intent_authentication_failure', 'payment_intent_authentication_failure');
    return intent;
  }

  /**
   * Stripe's side of the books (checkout-support's ProviderLedger): each intent that took or held money
   * (a failed or abandoned one took none), under the Cartwheel key it was charged with, with what its
   * refunds gave back (pending ones too) and where it stands.
   */
  ledger() {
    const charges = () =>
      [...this.paymentIntents.values()]
        .filter((intent) => intent.latest_charge !== null && intent.status !== 'requires_payment_method')
        .map((intent) => ({
          transactionId: String(intent.id),
          idempotencyKey: String((intent.metadata as Json | null)?.cartwheel_key ?? ''),
          amount: (Number(intent.amount) / 100).toFixed(2),
          refunded: (
            [...this.refunds.values()]
              .filter((refund) => refund.payment_intent === intent.id && refund.status !== 'failed')
              .reduce((sum, refund) => sum + Number(refund.amount), 0) / 100
          ).toFixed(2),
          state:
            intent.status === 'requires_capture'
              ? ('AUTHORIZED' as const)
              : intent.status === 'canceled'
                ? ('CANCELED' as const)
                : ('CAPTURED' as const),
        }));
    return { charges: async () => charges() };
  }

  /** `event` as Stripe delivers it: its JSON body and the `Stripe-Signature` header over it. */
  signedDelivery(event: Json, options: { secret?: string; timestamp?: number } = {}) {
    const body = JSON.stringify(event, null, 2);
    const timestamp = options.timestamp ?? this.now();
    const signature = createHmac('sha256', options.secret ?? this.webhookSecret)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    return { body, header: `t=${timestamp},v1=${signature}` };
  }

  /** Posts `event` to a webhook endpoint as Stripe would, signed. */
  async deliver(endpoint: string, event: Json, options: { secret?: string; timestamp?: number } = {}) {
    const { body, header } = this.signedDelivery(event, options);
    return fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      body,
    });
  }

  private async answer(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const params = parseForm(
      method === 'GET' ? url.searchParams.toString() : Buffer.concat(chunks).toString(),
    );
    const idempotencyKey = header(request, 'idempotency-key');
    this.calls.push({ method, path: url.pathname, idempotencyKey, params });

    if (this.hangs > 0) {
      this.hangs--;
      this.hung.push(response);
      return;
    }
    const lost = this.lostAnswers > 0 && method === 'POST';
    if (lost) this.lostAnswers--;
    const send = (status: number, body: string, replayed = false) => {
      if (lost) {
        this.hung.push(response);
        return;
      }
      response.writeHead(status, {
        'content-type': 'application/json',
        // Stripe.js calls from the shopper's page, on another origin
        'access-control-allow-origin': '*',
        'request-id': `req_${randomBytes(7).toString('hex')}`,
        'stripe-version': header(request, 'stripe-version') ?? '',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      response.end(body);
    };
    const failure = this.failures.shift();
    if (failure === 429) {
      return send(
        429,
        JSON.stringify({
          error: {
            type: 'invalid_request_error',
            code: 'rate_limit',
            message: 'Too many requests hit the API too quickly.',
          },
        }),
      );
    }
    if (failure !== undefined) {
      return send(
        failure,
        JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred.' } }),
      );
    }
    if (method === 'OPTIONS') {
      response.writeHead(204, {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'POST, GET',
        'access-control-allow-headers': 'content-type',
      });
      response.end();
      return;
    }
    // the browser's one call: Stripe.js turns the typed card into a payment method, with the publishable key
    if (method === 'POST' && url.pathname === '/v1/payment_methods') {
      if (params.key !== this.publishableKey) {
        return send(
          401,
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }),
        );
      }
      const number = String((params.card as Json | undefined)?.number ?? '').replace(/\D/g, '');
      const card = TEST_NUMBERS[number];
      if (!card) {
        return send(
          402,
          JSON.stringify({
            error: {
              type: 'card_error',
              code: 'incorrect_number',
              param: 'number',
              message: 'Your card number is incorrect.',
            },
          }),
        );
      }
      const id = this.id('pm');
      this.issuedMethods.set(id, card);
      return send(200, JSON.stringify(this.paymentMethod(id, card)));
    }
    // the shopper's 3-D Secure step in Stripe.js's frame: the stand-in's own path, as Stripe's is its own
    const step = /^\/v1\/payment_intents\/([^/]+)\/stand_in_authenticate$/.exec(url.pathname);
    if (method === 'POST' && step) {
      if (params.key !== this.publishableKey) {
        return send(
          401,
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }),
        );
      }
      try {
        return send(200, JSON.stringify(this.completeAction(step[1]!, params.approve === 'true')));
      } catch (error) {
        return send(
          400,
          JSON.stringify({ error: { type: 'invalid_request_error', message: (error as Error).message } }),
        );
      }
    }
    if (header(request, 'authorization') !== `Bearer ${this.secretKey}`) {
      return send(
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } }),
      );
    }

    // a POST with a key seen before answers what it answered then, or refuses other parameters
    const stored = idempotencyKey && method === 'POST' ? this.idempotent.get(idempotencyKey) : undefined;
    const fingerprint = `${method} ${url.pathname} ${JSON.stringify(params)}`;
    if (stored) {
      if (stored.params !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        return send(400, JSON.stringify({ error: { type: 'idempotency_error', message } }));
      }
      return send(stored.status, stored.body, true);
    }
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(this.route(method, url, params));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = JSON.stringify({ error: error.body });
    }
    if (idempotencyKey && method === 'POST')
      this.idempotent.set(idempotencyKey, { params: fingerprint, status, body });
    send(status, body);
  }

  private route(method: string, url: URL, params: Json): Json {
    const parts = url.pathname.split('/').filter(Boolean); // ['v1', 'payment_intents', id, action]
    const [version, resource, id, action] = parts;
    if (version !== 'v1')
      throw invalidRequest(`Unrecognized request URL (${method}: ${url.pathname}).`, {}, 404);
    if (resource === 'payment_intents') {
      if (method === 'POST' && !id) return this.createIntent(params);
      if (method === 'GET' && !id)
        return this.list('/v1/payment_intents', [...this.paymentIntents.values()], params);
      const intent = this.paymentIntents.get(id ?? '');
      if (!intent) throw noSuch('payment_intent', id);
      if (method === 'GET' && !action) return this.expanded(intent, params);
      if (method === 'POST' && action === 'confirm') return this.confirm(intent, params);
      if (method === 'POST' && action === 'capture') return this.capture(intent, params);
      if (method === 'POST' && action === 'cancel') return this.cancel(intent, params);
    }
    if (resource === 'refunds') {
      if (method === 'POST' && !id) return this.refund(params);
      if (method === 'GET' && !id) {
        const created = (params.created ?? {}) as Json;
        const refunds = [...this.refunds.values()].filter(
          (refund) =>
            (!params.payment_intent || refund.payment_intent === params.payment_intent) &&
            (created.gte === undefined || Number(refund.created) >= Number(created.gte)) &&
            (created.lt === undefined || Number(refund.created) < Number(created.lt)),
        );
        return this.list('/v1/refunds', refunds, params);
      }
      const refund = this.refunds.get(id ?? '');
      if (!refund) throw noSuch('refund', id);
      if (method === 'GET') return refund;
    }
    if (resource === 'customers' && method === 'GET' && id) {
      const customer = this.customers.get(id);
      if (!customer) throw noSuch('customer', id);
      if (!action) return customer;
      if (action === 'payment_methods') {
        const attached = [...this.savedMethods.entries()]
          .filter(([, saved]) => saved.customer === id)
          .map(([methodId, saved]) => this.paymentMethod(methodId, saved.card));
        return this.list(`/v1/customers/${id}/payment_methods`, attached, params);
      }
    }
    if (resource === 'customers' && method === 'POST' && !id) {
      const customer = {
        id: this.id('cus'),
        object: 'customer',
        email: params.email ?? null,
        metadata: params.metadata ?? {},
        created: this.now(),
      };
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (resource === 'payment_methods' && id) {
      const card = this.cardOf(id);
      if (!card) throw noSuch('payment_method', id);
      if (method === 'GET' && !action) return this.paymentMethod(id, card);
      if (method === 'POST' && action === 'attach') {
        const customer = String(params.customer);
        if (!this.customers.has(customer)) throw noSuch('customer', customer);
        this.savedMethods.set(id, { card, customer });
        return this.paymentMethod(id, card);
      }
    }
    if (resource === 'events' && method === 'GET') {
      if (!id) return this.list('/v1/events', this.events, params);
      const event = this.events.find((candidate) => candidate.id === id);
      if (!event) throw noSuch('event', id);
      return event;
    }
    throw invalidRequest(`Unrecognized request URL (${method}: ${url.pathname}).`, {}, 404);
  }

  private createIntent(params: Json): Json {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      throw invalidRequest('Missing required param: amount.', { param: 'amount', code: 'parameter_missing' });
    }
    if (typeof params.currency !== 'string') {
      throw invalidRequest('Missing required param: currency.', {
        param: 'currency',
        code: 'parameter_missing',
      });
    }
    // a payment method Stripe never issued is refused before any intent is made
    if (params.payment_method !== undefined && !this.cardOf(params.payment_method)) {
      throw invalidRequest(`No such PaymentMethod: '${params.payment_method}'`, {
        code: 'resource_missing',
        param: 'payment_method',
      });
    }
    if (params.customer !== undefined && !this.customers.has(String(params.customer))) {
      throw invalidRequest(`No such customer: '${params.customer}'`, {
        code: 'resource_missing',
        param: 'customer',
      });
    }
    // a saved card is charged for its own customer alone
    const owner = this.savedMethods.get(String(params.payment_method))?.customer;
    if (owner !== undefined && owner !== params.customer) {
      throw invalidRequest(
        `The provided PaymentMethod ${params.payment_method} is attached to another customer than the one given.`,
        { param: 'payment_method' },
      );
    }
    if (params.off_session !== undefined && params.confirm !== 'true') {
      throw invalidRequest('You may only specify `off_session` when `confirm=true`.', {
        param: 'off_session',
      });
    }
    const id = this.id('pi');
    const intent: Json = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      capture_method: params.capture_method ?? 'automatic_async',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      created: this.now(),
      currency: params.currency.toLowerCase(),
      customer: params.customer ?? null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: params.metadata ?? {},
      next_action: null,
      payment_method: params.payment_method ?? null,
      setup_future_usage: params.setup_future_usage ?? null,
      status: params.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      canceled_at: null,
      cancellation_reason: null,
    };
    this.paymentIntents.set(id, intent);
    this.emit('payment_intent.created', intent);
    return params.confirm === 'true' ? this.confirm(intent, params) : intent;
  }

  private confirm(intent: Json, params: Json): Json {
    if (params.payment_method) intent.payment_method = params.payment_method;
    if (!['requires_payment_method', 'requires_confirmation'].includes(String(intent.status))) {
      throw unexpectedState(intent, 'confirm');
    }
    const card = this.cardOf(intent.payment_method);
    if (!card) {
      throw invalidRequest('You must provide a payment method to confirm this PaymentIntent.', {
        code: 'payment_intent_unexpected_state',
      });
    }
    if (card.outcome === 'declined') return this.decline(intent, 'card_declined', 'generic_decline');
    if (card.outcome === 'customer_charge_fails' && typeof intent.customer === 'string')
      return this.decline(intent, 'card_declined', 'generic_decline');
    if (card.outcome === 'insufficient_funds')
      return this.decline(intent, 'card_declined', 'insufficient_funds');
    if (card.outcome === 'requires_action') {
      // off the shopper's session there is nobody to authenticate: Stripe refuses at once
      if (params.off_session === 'true')
        return this.decline(intent, 'authentication_required', 'authentication_required');
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${this.url}/3ds/${intent.id}`, return_url: params.return_url ?? null },
      };
      this.emit('payment_intent.requires_action', intent);
      return intent;
    }
    return this.approve(intent);
  }

  private approve(intent: Json): Json {
    intent.latest_charge = this.id('ch');
    intent.last_payment_error = null;
    if (intent.capture_method === 'manual') {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
      this.emit('payment_intent.amount_capturable_updated', intent);
    } else {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      this.emit('payment_intent.succeeded', intent);
    }
    if (
      intent.setup_future_usage &&
      typeof intent.customer === 'string' &&
      typeof intent.payment_method === 'string' &&
      !this.savedMethods.has(intent.payment_method)
    ) {
      // a test card's shortcut (`pm_card_visa`) is no payment method of its own: Stripe makes one to attach
      const card = this.cardOf(intent.payment_method)!;
      const id = TEST_CARDS[intent.payment_method] ? this.id('pm') : intent.payment_method;
      intent.payment_method = id;
      this.savedMethods.set(id, { card, customer: intent.customer });
      this.emit('payment_method.attached', this.paymentMethod(id, card));
    }
    return intent;
  }

  /** Refuses the confirmation under way: the payment fails and the call answers a card error. */
  private decline(intent: Json, code: string, declineCode: string): never {
    const error = this.fail(intent, code, declineCode);
    throw new StripeApiError(402, { ...error, payment_intent: intent });
  }

  /** The payment intent's attempt fails (a decline, or a 3-D Secure step the shopper failed). */
  private fail(intent: Json, code: string, declineCode: string): Json {
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    const card = this.cardOf(intent.payment_method);
    const message =
      declineCode === 'insufficient_funds'
        ? 'Your card has insufficient funds.'
        : code === 'authentication_required'
          ? 'Your card was declined. This transaction requires authentication.'
          : code === 'payment_intent_authentication_failure'
            ? 'We are unable to authenticate your payment method. Please choose a different payment method and try again.'
            : 'Your card was declined.';
    const error = { type: 'card_error', code, decline_code: declineCode, message };
    intent.last_payment_error = {
      ...error,
      payment_method: card ? this.paymentMethod(String(intent.payment_method), card) : null,
    };
    this.emit('payment_intent.payment_failed', intent);
    return error;
  }

  private capture(intent: Json, params: Json): Json {
    if (intent.status !== 'requires_capture') throw unexpectedState(intent, 'capture');
    const amount =
      params.amount_to_capture === undefined
        ? Number(intent.amount_capturable)
        : Number(params.amount_to_capture);
    if (!Number.isInteger(amount) || amount < 1 || amount > Number(intent.amount_capturable)) {
      throw invalidRequest(
        'The amount to capture must be a positive integer no greater than the amount capturable.',
        { param: 'amount_to_capture', code: 'amount_too_large' },
      );
    }
    // what a partial capture leaves is released at once, as Stripe does without multicapture
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    intent.status = 'succeeded';
    this.emit('payment_intent.succeeded', intent);
    return intent;
  }

  private cancel(intent: Json, params: Json): Json {
    if (!CANCELABLE.has(String(intent.status))) throw unexpectedState(intent, 'cancel');
    intent.status = 'canceled';
    intent.amount_capturable = 0;
    intent.canceled_at = this.now();
    intent.cancellation_reason = params.cancellation_reason ?? null;
    this.emit('payment_intent.canceled', intent);
    return intent;
  }

  private refund(params: Json): Json {
    const intent = this.paymentIntents.get(String(params.payment_intent ?? ''));
    if (!intent) throw noSuch('payment_intent', String(params.payment_intent));
    if (intent.status !== 'succeeded') {
      throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
      });
    }
    if (this.disputed.has(String(intent.latest_charge))) {
      throw invalidRequest(`Charge ${intent.latest_charge} has been disputed; it cannot be refunded.`, {
        code: 'charge_disputed',
      });
    }
    const refunded = [...this.refunds.values()]
      .filter((refund) => refund.payment_intent === intent.id && refund.status !== 'failed')
      .reduce((sum, refund) => sum + Number(refund.amount), 0);
    const left = Number(intent.amount_received) - refunded;
    if (left <= 0)
      throw invalidRequest(`Charge ${intent.latest_charge} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      throw invalidRequest(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        { param: 'amount', code: 'amount_too_large' },
      );
    }
    const refund = {
      id: this.id('re'),
      object: 'refund',
      amount,
      charge: intent.latest_charge,
      created: this.now(),
      currency: intent.currency,
      metadata: params.metadata ?? {},
      payment_intent: intent.id,
      reason: params.reason ?? null,
      status: this.cardOf(intent.payment_method)?.pendingRefunds ? 'pending' : 'succeeded',
    };
    this.refunds.set(refund.id, refund);
    this.emit('refund.created', refund);
    this.emit('charge.refunded', {
      id: intent.latest_charge,
      object: 'charge',
      amount: intent.amount_received,
      amount_refunded: refunded + amount,
      refunded: refunded + amount === Number(intent.amount_received),
      payment_intent: intent.id,
      currency: intent.currency,
    });
    return refund;
  }

  /** The intent with what `expand[]` asked for in place of its ids (its latest charge, its payment method). */
  private expanded(intent: Json, params: Json): Json {
    const asked = Object.values((params.expand ?? {}) as Json);
    const out = { ...intent };
    if (asked.includes('latest_charge') && typeof intent.latest_charge === 'string') {
      out.latest_charge = {
        id: intent.latest_charge,
        object: 'charge',
        amount: intent.amount,
        amount_captured: intent.amount_received,
        currency: intent.currency,
        disputed: this.disputed.has(intent.latest_charge),
        payment_intent: intent.id,
      };
    }
    const card = this.cardOf(intent.payment_method);
    if (asked.includes('payment_method') && card)
      out.payment_method = this.paymentMethod(String(intent.payment_method), card);
    return out;
  }

  private list(path: string, items: Json[], params: Json): Json {
    const newestFirst = [...items].reverse();
    const after = params.starting_after
      ? newestFirst.findIndex((item) => item.id === params.starting_after) + 1
      : 0;
    const limit = Math.min(Number(params.limit ?? 10), 100);
    const page = newestFirst.slice(after, after + limit);
    return { object: 'list', url: path, has_more: after + limit < newestFirst.length, data: page };
  }

  private cardOf(paymentMethod: unknown): TestCard | undefined {
    if (typeof paymentMethod !== 'string') return undefined;
    return (
      TEST_CARDS[paymentMethod] ??
      this.issuedMethods.get(paymentMethod) ??
      this.savedMethods.get(paymentMethod)?.card
    );
  }

  private paymentMethod(id: string, card: TestCard): Json {
    return {
      id,
      object: 'payment_method',
      type: 'card',
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2034 },
      customer: this.savedMethods.get(id)?.customer ?? null,
      created: this.now(),
    };
  }

  private emit(type: string, object: Json): void {
    this.events.push({
      id: this.id('evt'),
      object: 'event',
      api_version: '2026-11-18.endive',
      created: this.now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
  }

  private id(prefix: string): string {
    this.sequence++;
    return `${prefix}_${randomBytes(6).toString('hex')}${this.sequence.toString(36).padStart(4, '0')}`;
  }
}

function noSuch(kind: string, id: string | undefined): StripeApiError {
  return invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param: 'id' }, 404);
}

function unexpectedState(intent: Json, action: string): StripeApiError {
  return invalidRequest(
    `This PaymentIntent's ${action} could not be done because it has a status of ${intent.status}.`,
    { code: 'payment_intent_unexpected_state', payment_intent: intent },
  );
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Stripe's form encoding (`metadata[order]=1`, `expand[0]=latest_charge`) to nested values. */
function parseForm(text: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let target: Json = out;
    for (const [index, part] of path.entries()) {
      if (index === path.length - 1) target[part] = value;
      else {
        target[part] ??= {};
        target = target[part] as Json;
      }
    }
  }
  return out;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  return new StripeStandIn().start();
}
