import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import type { Tables } from '../db/tables.ts';
import { Big, Currency } from '../shared/money.ts';
import type { CardBrand } from './card.ts';
import type {
  CardEntry,
  ChargedCard,
  ChargeRequest,
  ChargeResult,
  DeclineCode,
  NextAction,
  PaymentProvider,
  ProviderActionResult,
  ProviderCharge,
  ProviderRefundability,
} from './provider.ts';
import { StripeCustomers } from './stripe-customers.ts';
import { KEY_METADATA } from './stripe-keys.ts';

/** How long one call to Stripe may take, unless STRIPE_TIMEOUT_MS says (ms). */
export const DEFAULT_TIMEOUT_MS = 20_000;

/** How the platform reaches Stripe: its secret key, and its API's address (a stand-in in tests). */
export interface StripeOptions {
  secretKey: string;
  /** `https://api.stripe.com` unless set (STRIPE_API_URL). */
  apiUrl?: string | undefined;
  /** What the page's Payment Element loads with (STRIPE_PUBLISHABLE_KEY); without it the page takes no card. */
  publishableKey?: string | undefined;
  /** How long one call may take before it counts as unanswered (ms). */
  timeoutMs?: number | undefined;
}

/**
 * How long a read that answers a merchant's page (refundability) waits for Stripe, with no retry: a
 * Stripe that does not answer by then is down for that page, which says so.
 */
const READ_TIMEOUT_MS = 5_000;

const BRANDS: Record<string, CardBrand> = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  amex: 'AMEX',
  discover: 'DISCOVER',
};

/** Stripe's decline codes as the seam's, by `decline_code` first, then by the error's `code`. */
const DECLINES: Record<string, DeclineCode> = {
  insufficient_funds: 'INSUFFICIENT_FUNDS',
  authentication_required: 'AUTHENTICATION_REQUIRED',
  // the shopper's 3-D Secure check failed
  payment_intent_authentication_failure: 'AUTHENTICATION_FAILED',
  resource_missing: 'PAYMENT_METHOD_UNUSABLE',
  payment_method_unexpected_state: 'PAYMENT_METHOD_UNUSABLE',
};

/**
 * Stripe as a payment provider, through its PaymentIntents: one intent per charge, confirmed at once
 * with the payment method the shopper's page got from Stripe's own card fields (`pm_...`), so no card
 * number ever reaches the platform. Capture is automatic for a sale and manual when the store
 * authorizes only; a void cancels the intent; refunds are Stripe refunds of it. Every call carries a
 * Stripe idempotency key derived from Cartwheel's own, so a retry is answered with the first result
 * and never charges twice. The intent's id is the payment's transaction id.
 */
export class StripeProvider implements PaymentProvider {
  readonly methodName = 'creditCard';
  readonly acceptsRawCards = false;
  /** Stripe's own way: the card fields' payment method is attached to the member's Customer by the charge. */
  readonly savesTokensOnCharge = true;
  readonly cardEntry: CardEntry;
  private readonly stripe: Stripe;
  private readonly customers: StripeCustomers;

  constructor(
    readonly id: string,
    options: StripeOptions,
    db: Kysely<Tables>,
  ) {
    this.cardEntry = options.publishableKey
      ? { kind: 'STRIPE', publishableKey: options.publishableKey }
      : { kind: 'NONE' };
    this.stripe = new Stripe(options.secretKey, {
      ...addressOf(options.apiUrl),
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      // the library retries a lost or rate-limited call under the same idempotency key
      maxNetworkRetries: 2,
      appInfo: { name: 'Cartwheel' },
    });
    this.customers = new StripeCustomers(db, id, this.stripe, stripeKey);
  }

  async authorize(request: ChargeRequest): Promise<ChargeResult> {
    const { method } = request;
    // card numbers never reach Stripe through the platform (the checkout refuses them before this)
    if (method.kind === 'card')
      return declined('', 'PAYMENT_METHOD_UNUSABLE', 'card numbers are not accepted');
    const params: Stripe.PaymentIntentCreateParams = {
      amount: minorUnits(request.amount, request.currency),
      currency: request.currency.toLowerCase(),
      capture_method: request.capture ? 'automatic' : 'manual',
      payment_method: method.kind === 'token' ? method.token : method.savedMethodId,
      // a card's 3-D Secure is no redirect: confirmed from the server, no return address is needed
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      confirm: true,
      metadata: { [KEY_METADATA]: request.idempotencyKey },
      expand: ['payment_method'],
    };
    // a saved card is the member's Customer's at Stripe; a card saved by this charge is attached to it
    if (method.kind === 'saved' && method.customerId !== undefined)
      params.customer = await this.customers.of(method.customerId);
    if (request.saveForOffSession) params.setup_future_usage = 'off_session';
    // a renewal: nobody to authenticate, so Stripe declines (`authentication_required`) instead of asking
    if (request.offSession) params.off_session = true;
    try {
      const intent = await this.stripe.paymentIntents.create(params, {
        idempotencyKey: stripeKey('charge', request.idempotencyKey),
      });
      const result = await this.resultOf(intent);
      // a step for a shopper who is not there cannot be taken: the intent is cancelled, the charge failed
      if (result.status === 'REQUIRES_ACTION' && request.offSession) {
        return this.abandonStep(
          intent.id,
          'AUTHENTICATION_REQUIRED',
          'The card asks its owner to authenticate this payment, and they are not here.',
        );
      }
      return result;
    } catch (error) {
      // the key was used with other parameters: by the charge itself (asked again after a setting
      // changed), whose intent answers; or by `settle` closing it, and then the charge never happens
      if (error instanceof Stripe.errors.StripeIdempotencyError) {
        return (
          (await this.chargedUnder(request.idempotencyKey)) ??
          declined(
            '',
            'PAYMENT_INTERRUPTED',
            'This payment was interrupted and not made: place the order again.',
          )
        );
      }
      const refused = refusalOf(error);
      if (refused) return refused;
      throw error;
    }
  }

  /** Stripe's own step in the page: its script takes the shopper through it with the intent's client secret. */
  async nextActionOf(actionId: string): Promise<NextAction> {
    if (this.cardEntry.kind !== 'STRIPE') return { kind: 'PAGE' };
    const intent = await this.stripe.paymentIntents.retrieve(actionId);
    return {
      kind: 'STRIPE',
      publishableKey: this.cardEntry.publishableKey,
      clientSecret: intent.client_secret ?? '',
    };
  }

  /**
   * Stripe's own word on refunding the intent: a refund of it still `pending` at Stripe, an intent it
   * does not know (another account's, or deleted test data), one it holds but will not refund (no
   * charge to refund: cancelled, never captured; or a charge its cardholder disputed, which Stripe
   * refuses to refund), or Stripe not answering. One read, no retry (a page waits on it).
   */
  async refundability(transactionId: string): Promise<ProviderRefundability> {
    const once = { maxNetworkRetries: 0, timeout: READ_TIMEOUT_MS };
    try {
      const intent = await this.stripe.paymentIntents.retrieve(
        transactionId,
        { expand: ['latest_charge'] },
        once,
      );
      const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      if (intent.status !== 'succeeded' || charge?.disputed)
        return { refundable: false, reason: 'DISABLED_BY_PROVIDER' };
      const refunds = await this.stripe.refunds.list({ payment_intent: intent.id, limit: 100 }, once);
      if (refunds.data.some((refund) => refund.status === 'pending' || refund.status === 'requires_action'))
        return { refundable: false, reason: 'PENDING_REFUND' };
      return { refundable: true };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
        return { refundable: false, reason: 'TRANSACTION_NOT_FOUND' };
      return { refundable: false, reason: 'PROVIDER_IS_DOWN' };
    }
  }

  /**
   * The PaymentIntents Stripe holds for this store from `from` to `to` (the keys `settle` closed left
   * out), each with what Stripe refunded of it: its refunds made since `from`, up to now, as a refund
   * always comes after its charge and Cartwheel's books count every refund made so far.
   */
  async charges(from: Date, to: Date): Promise<ProviderCharge[]> {
    const charges: ProviderCharge[] = [];
    const created = { gte: Math.floor(from.getTime() / 1000), lt: Math.floor(to.getTime() / 1000) };
    const refunded = new Map<string, number>();
    for await (const refund of this.stripe.refunds.list({ created: { gte: created.gte }, limit: 100 })) {
      if (refund.status === 'failed' || refund.status === 'canceled') continue;
      const intentId =
        typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
      if (intentId) refunded.set(intentId, (refunded.get(intentId) ?? 0) + refund.amount);
    }
    for await (const intent of this.stripe.paymentIntents.list({ created, limit: 100 })) {
      if (intent.metadata?.closed === 'true') continue;
      const state: ProviderCharge['state'] | undefined =
        intent.status === 'succeeded'
          ? 'CAPTURED'
          : intent.status === 'requires_capture'
            ? 'AUTHORIZED'
            : intent.status === 'canceled'
              ? 'CANCELED'
              : intent.status === 'requires_action' || intent.status === 'processing'
                ? 'PENDING'
                : undefined; // a failed attempt (requires_payment_method) took nothing
      if (!state) continue;
      const currency = intent.currency.toUpperCase();
      charges.push({
        transactionId: intent.id,
        amount: decimalOf(intent.amount, currency),
        currency,
        state,
        capturedAmount: decimalOf(intent.amount_received ?? 0, currency),
        refundedAmount: decimalOf(refunded.get(intent.id) ?? 0, currency),
        createdAt: new Date(intent.created * 1000).toISOString(),
      });
    }
    return charges;
  }

  /** The shopper came back from Stripe's 3-D Secure step: the intent's own status says how it went. */
  async completeAction(request: { actionId: string; approved: boolean }): Promise<ChargeResult> {
    const intent = await this.stripe.paymentIntents.retrieve(request.actionId, {
      expand: ['payment_method'],
    });
    if (intent.status === 'requires_action') {
      // not passed at Stripe, whatever the page says
      return this.abandonStep(
        intent.id,
        'AUTHENTICATION_FAILED',
        'The card could not be authenticated (3-D Secure was not completed).',
      );
    }
    return this.resultOf(intent);
  }

  /** An intent whose 3-D Secure step will not be taken: cancelled, so it cannot complete later; declined. */
  private async abandonStep(intentId: string, code: DeclineCode, reason: string): Promise<ChargeResult> {
    await this.stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey: stripeKey('abandon', intentId) });
    return declined(intentId, code, reason);
  }

  /**
   * Finds the intent made under `idempotencyKey` by its metadata, or closes the key: an empty intent
   * is made under the key's Stripe key (and cancelled), so a late charge under it meets Stripe's
   * idempotency error and is never made.
   */
  async settle(idempotencyKey: string): Promise<ChargeResult | undefined> {
    try {
      const closing = await this.stripe.paymentIntents.create(
        { amount: 100, currency: 'usd', metadata: { [KEY_METADATA]: idempotencyKey, closed: 'true' } },
        { idempotencyKey: stripeKey('charge', idempotencyKey) },
      );
      if (closing.metadata.closed === 'true') {
        if (closing.status !== 'canceled') {
          await this.stripe.paymentIntents.cancel(
            closing.id,
            {},
            { idempotencyKey: stripeKey('close', idempotencyKey) },
          );
        }
        return undefined;
      }
      return this.resultOf(closing);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeIdempotencyError)) {
        const refused = refusalOf(error);
        if (refused) return refused;
        throw error;
      }
    }
    // the key made a charge: its intent answers
    return this.chargedUnder(idempotencyKey);
  }

  /**
   * The result of the intent a charge under `idempotencyKey` made, found by its metadata (Stripe keeps
   * an idempotency key 24 hours, so two days back); undefined when it made none.
   */
  private async chargedUnder(idempotencyKey: string): Promise<ChargeResult | undefined> {
    const since = Math.floor(Date.now() / 1000) - 2 * 24 * 60 * 60;
    for await (const intent of this.stripe.paymentIntents.list({ created: { gte: since }, limit: 100 })) {
      if (intent.metadata?.[KEY_METADATA] === idempotencyKey && intent.metadata.closed !== 'true') {
        return this.resultOf(
          typeof intent.payment_method === 'string'
            ? await this.stripe.paymentIntents.retrieve(intent.id, { expand: ['payment_method'] })
            : intent,
        );
      }
    }
    return undefined;
  }

  async capture(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<ProviderActionResult> {
    const intent = await this.stripe.paymentIntents.retrieve(request.transactionId);
    const amount = minorUnits(request.amount, intent.currency);
    // captured already (by this key's first call, whose answer was lost)
    if (intent.status === 'succeeded' && intent.amount_received === amount) return { status: 'SUCCEEDED' };
    try {
      await this.stripe.paymentIntents.capture(
        intent.id,
        { amount_to_capture: amount },
        { idempotencyKey: stripeKey('capture', request.idempotencyKey) },
      );
      return { status: 'SUCCEEDED' };
    } catch (error) {
      return failedOrThrow(error);
    }
  }

  async void(request: { idempotencyKey: string; transactionId: string }): Promise<ProviderActionResult> {
    try {
      await this.stripe.paymentIntents.cancel(
        request.transactionId,
        {},
        { idempotencyKey: stripeKey('void', request.idempotencyKey) },
      );
      return { status: 'SUCCEEDED' };
    } catch (error) {
      // cancelled already (from Stripe's dashboard, or a call whose answer was lost)
      const intent = stateOf(error);
      if (intent?.status === 'canceled') return { status: 'SUCCEEDED' };
      return failedOrThrow(error);
    }
  }

  async refund(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<ProviderActionResult & { refundId?: string }> {
    try {
      const intent = await this.stripe.paymentIntents.retrieve(request.transactionId);
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: intent.id,
          amount: minorUnits(request.amount, intent.currency),
          metadata: { [KEY_METADATA]: request.idempotencyKey },
        },
        { idempotencyKey: stripeKey('refund', request.idempotencyKey) },
      );
      if (refund.status === 'failed' || refund.status === 'canceled')
        return {
          status: 'FAILED',
          reason: `Stripe refused the refund (${refund.failure_reason ?? refund.status})`,
        };
      return { status: 'SUCCEEDED', refundId: refund.id };
    } catch (error) {
      return failedOrThrow(error);
    }
  }

  /** The seam's answer for an intent as Stripe left it. */
  private async resultOf(intent: Stripe.PaymentIntent): Promise<ChargeResult> {
    switch (intent.status) {
      case 'succeeded':
      case 'requires_capture':
        return {
          status: 'APPROVED',
          transactionId: intent.id,
          providerTransactionId: intent.id,
          captured: intent.status === 'succeeded',
          ...(await this.cardOf(intent.payment_method)),
          // Stripe attached the method to the Customer (a test card's `pm_card_visa` under a new id)
          ...(intent.setup_future_usage && intent.customer && intent.payment_method
            ? { savedMethodId: idOf(intent.payment_method) }
            : {}),
        };
      case 'requires_action':
        return { status: 'REQUIRES_ACTION', transactionId: intent.id, actionId: intent.id };
      case 'requires_payment_method':
      case 'canceled': {
        const error = intent.last_payment_error;
        const code = declineCodeOf(error?.decline_code ?? error?.code);
        return declined(intent.id, code, error?.message ?? 'The card was declined.');
      }
      default:
        // `processing` and the like: no answer yet, so the charge stays in doubt and is asked again
        throw new Error(`the Stripe payment ${intent.id} is ${intent.status}`);
    }
  }

  /** The card an intent charged, as Stripe describes it (its last four digits and brand). */
  private async cardOf(method: string | Stripe.PaymentMethod | null): Promise<{ card?: ChargedCard }> {
    if (method === null) return {};
    const expanded = typeof method === 'string' ? await this.stripe.paymentMethods.retrieve(method) : method;
    if (!expanded.card) return {};
    return { card: { last4: expanded.card.last4, brand: BRANDS[expanded.card.brand] ?? 'UNKNOWN' } };
  }
}

/**
 * Stripe's idempotency key for one kind of call under one of Cartwheel's keys. Stripe takes at most 255
 * characters: a longer one (a merchant's own long Idempotency-Key in it) is its call and a SHA-256 of
 * the whole, never cut short, since two keys sharing their first 255 characters would be one charge.
 */
export function stripeKey(call: string, key: string): string {
  const whole = `cartwheel:${call}:${key}`;
  if (whole.length <= 255) return whole;
  return `cartwheel:${call}:sha256:${createHash('sha256').update(whole).digest('hex')}`;
}

/** `"10.50"` USD as Stripe counts it: 1050 (cents; a currency without decimals counts units). */
export function minorUnits(amount: string, currency: string): number {
  const { decimals } = new Currency(currency.toUpperCase());
  return new Big(amount).times(new Big(10).pow(decimals)).round(0).toNumber();
}

/** Stripe's minor units of `currency` as Cartwheel's decimal string (`2176` USD is `21.76`). */
function decimalOf(minor: number, currency: string): string {
  const { decimals } = new Currency(currency);
  return new Big(minor).div(new Big(10).pow(decimals)).toFixed(decimals);
}

/** `host`, `port` and `protocol` of the Stripe client for an API address other than Stripe's. */
function addressOf(apiUrl: string | undefined): Partial<Stripe.StripeConfig> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

function idOf(object: string | { id: string }): string {
  return typeof object === 'string' ? object : object.id;
}

function declined(transactionId: string, code: DeclineCode, reason: string): ChargeResult {
  return { status: 'DECLINED', transactionId, code, reason };
}

function declineCodeOf(code: string | null | undefined): DeclineCode {
  return (code && DECLINES[code]) || 'CARD_DECLINED';
}

/**
 * A charge Stripe refused: a card error (a decline, an authentication asked for off session), or a
 * payment method it does not know. Undefined for anything else (the network, Stripe's own failure).
 */
function refusalOf(error: unknown): ChargeResult | undefined {
  if (error instanceof Stripe.errors.StripeCardError) {
    return declined(
      error.payment_intent?.id ?? '',
      declineCodeOf(error.decline_code ?? error.code),
      stripeMessage(error),
    );
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    (error.param === 'payment_method' || error.code === 'payment_method_unexpected_state')
  ) {
    return declined('', 'PAYMENT_METHOD_UNUSABLE', stripeMessage(error));
  }
  return undefined;
}

/** The intent an "unexpected state" error carries (Stripe sends it with the error). */
function stateOf(error: unknown): { status?: string } | undefined {
  if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) return undefined;
  return error.payment_intent;
}

/** Stripe's refusal of a capture, void or refund is a FAILED answer; no answer at all is thrown. */
function failedOrThrow(error: unknown): ProviderActionResult {
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError ||
    error instanceof Stripe.errors.StripeCardError
  )
    return { status: 'FAILED', reason: stripeMessage(error) };
  throw error;
}

/** What Stripe said, as its API wrote it (the library's message adds its request id before it). */
function stripeMessage(error: InstanceType<typeof Stripe.errors.StripeError>): string {
  return (error.raw as { message?: string } | undefined)?.message ?? error.message;
}
