import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import { applicationError, invalidArgument, violation } from '../shared/errors.ts';
import { Big, Currency } from '../shared/money.ts';
import type { PaymentProviders } from './providers.ts';
import { KEY_METADATA } from './stripe-keys.ts';

/** How old a delivery's signature may be (Stripe's own libraries' default): older is a replay. */
export const SIGNATURE_TOLERANCE_S = 300;

/** The header Stripe signs each webhook delivery in. */
export const SIGNATURE_HEADER = 'stripe-signature';

/** A Stripe event, as far as Cartwheel reads one. */
export interface StripeEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/** What a delivery did: brought a payment up to date, or nothing (unknown payment, nothing new). */
export type WebhookOutcome = 'APPLIED' | 'UNCHANGED' | 'IGNORED';

/**
 * Checks `Stripe-Signature` over the delivery's exact body, as Stripe signs it: `t=<unix seconds>`
 * and one or more `v1=<hex HMAC-SHA256 of "<t>.<body>">` under the endpoint's secret; a signature
 * older (or newer) than the tolerance is refused, so a captured delivery cannot be replayed later.
 * Answers the event the body holds.
 */
export function verifiedEvent(
  body: string,
  header: string | undefined,
  secret: string,
  nowMs: number,
): StripeEvent {
  const refuse = (description: string) => invalidArgument([violation(SIGNATURE_HEADER, description)]);
  if (!header) throw refuse('is required: a Stripe webhook delivery is signed');
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (!Number.isInteger(timestamp) || signatures.length === 0)
    throw refuse('must carry a timestamp (t=) and a v1 signature');
  if (Math.abs(nowMs / 1000 - timestamp) > SIGNATURE_TOLERANCE_S)
    throw refuse(`is older than ${SIGNATURE_TOLERANCE_S} seconds (or from the future): not accepted again`);
  const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw refuse('does not match the body under the webhook secret');
  let event: StripeEvent;
  try {
    event = JSON.parse(body) as StripeEvent;
  } catch {
    throw invalidArgument([violation('body', 'is not a JSON Stripe event', 'FORMAT')]);
  }
  if (
    typeof event?.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.data?.object !== 'object'
  )
    throw invalidArgument([violation('body', 'is not a Stripe event (id, type, data.object)', 'FORMAT')]);
  return event;
}

/** The money calls a Stripe event may bring about, through billing's own paths (the same keys, the same books). */
export interface StripeEventBilling {
  void(orderId: string, paymentIds: string[], key?: string): Promise<unknown>;
  capture(
    orderId: string,
    captures: Array<{ paymentId: string; amount?: { amount: string } }>,
    key?: string,
  ): Promise<unknown>;
  refund(
    orderId: string,
    request: {
      paymentRefunds: Array<{ paymentId: string; amount: { amount: string }; externalRefund: boolean }>;
    },
    key?: string,
  ): Promise<unknown>;
  refundability(
    orderId: string,
    options: { askProviders: boolean },
  ): Promise<{
    payments: Array<{
      payment: {
        paymentId: string;
        monetary: { refunded: { amount: string }; refundPending: { amount: string } };
      };
    }>;
  }>;
}

/**
 * The hosted page's payments, as a Stripe event may finish one: a 3-D Secure step the shopper passed at
 * Stripe whose page never came back (closed, or its return racing this delivery) is completed as the
 * page's return completes it, holding the checkout, so the two make one payment and one order.
 * `SETTLED`: the page's return was first; undefined when no attempt of this provider waited on that step.
 */
export interface StripeEventCheckouts {
  completeStep(
    providerId: string,
    attemptId: string,
    actionId: string,
  ): Promise<'COMPLETED' | 'SETTLED' | undefined>;
}

/** The intent types that finish a charge: taken (a sale), or held for a capture (authorize only). */
const CHARGE_DONE = new Set(['payment_intent.succeeded', 'payment_intent.amount_capturable_updated']);

/**
 * Stripe's webhook deliveries (`POST /api/cartwheel/stripe/webhook`): an authorization cancelled or
 * captured at Stripe (its dashboard, an expiry), or a refund made there, is brought into the order's
 * payment through billing's void, capture and (external) refund, under a key made of the event's id, so a delivery repeated (Stripe retries until
 * it is answered 2xx) changes nothing more. An event for a payment Cartwheel does not know is
 * acknowledged and ignored, as are the types it does not read.
 */
export class StripeWebhooks {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: {
      billing: StripeEventBilling;
      checkouts: StripeEventCheckouts;
      providers: PaymentProviders;
      webhookSecret: string | undefined;
      clock?: Clock;
    },
  ) {}

  async receive(body: string, signature: string | undefined): Promise<WebhookOutcome> {
    const { webhookSecret } = this.deps;
    if (!webhookSecret) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'STRIPE_WEBHOOK_NOT_CONFIGURED',
        'this store takes no Stripe webhooks: set STRIPE_WEBHOOK_SECRET to the endpoint secret Stripe shows',
      );
    }
    const event = verifiedEvent(body, signature, webhookSecret, (this.deps.clock ?? systemClock).now());
    const intentId = intentIdOf(event);
    if (!intentId) return 'IGNORED';
    const payment = await this.paymentOf(intentId);
    if (!payment) return this.finishedStep(event, intentId);
    const key = `stripe-event:${event.id}`;
    switch (event.type) {
      case 'payment_intent.canceled':
        if (payment.status !== 'AUTHORIZED') return 'UNCHANGED';
        await this.deps.billing.void(payment.order_id, [payment.id], key);
        return 'APPLIED';
      case 'payment_intent.succeeded': {
        if (payment.status !== 'AUTHORIZED') return 'UNCHANGED';
        const received = Number(event.data.object.amount_received ?? 0);
        const { decimals } = new Currency(payment.currency);
        const amount = new Big(received).div(new Big(10).pow(decimals)).toFixed(decimals);
        await this.deps.billing.capture(
          payment.order_id,
          [{ paymentId: payment.id, amount: { amount } }],
          key,
        );
        return 'APPLIED';
      }
      case 'charge.refunded':
        return this.refundedAtStripe(payment, Number(event.data.object.amount_refunded ?? 0), key);
      default:
        return 'IGNORED';
    }
  }

  /**
   * What Stripe has refunded of the payment beyond what Cartwheel's books say (refunded or on its way,
   * so a refund Cartwheel itself is making counts): a refund made at Stripe's dashboard, recorded as an
   * external refund so Stripe is not asked to give it back a second time.
   */
  private async refundedAtStripe(
    payment: { id: string; order_id: string; currency: string },
    refundedMinor: number,
    key: string,
  ): Promise<WebhookOutcome> {
    const { decimals } = new Currency(payment.currency);
    const atStripe = new Big(refundedMinor).div(new Big(10).pow(decimals));
    const books = (
      await this.deps.billing.refundability(payment.order_id, { askProviders: false })
    ).payments.find((entry) => entry.payment.paymentId === payment.id);
    if (!books) return 'UNCHANGED';
    const { refunded, refundPending } = books.payment.monetary;
    const missing = atStripe.minus(refunded.amount).minus(refundPending.amount);
    if (missing.lte(0)) return 'UNCHANGED';
    await this.deps.billing.refund(
      payment.order_id,
      {
        paymentRefunds: [
          { paymentId: payment.id, amount: { amount: missing.toFixed(decimals) }, externalRefund: true },
        ],
      },
      key,
    );
    return 'APPLIED';
  }

  /**
   * A charge done at Stripe with no payment here yet: the page's 3-D Secure step passed, its return
   * not (yet) in. The intent names its attempt in the key Cartwheel charged it under (`<order>:<attempt>`).
   */
  private async finishedStep(event: StripeEvent, intentId: string): Promise<WebhookOutcome> {
    if (!CHARGE_DONE.has(event.type)) return 'IGNORED';
    const metadata = event.data.object.metadata as Record<string, unknown> | undefined;
    const key = typeof metadata?.[KEY_METADATA] === 'string' ? metadata[KEY_METADATA] : '';
    const attemptId = key.slice(key.lastIndexOf(':') + 1);
    if (!attemptId) return 'IGNORED';
    for (const providerId of this.stripeIds()) {
      const step = await this.deps.checkouts.completeStep(providerId, attemptId, intentId);
      if (step) return step === 'COMPLETED' ? 'APPLIED' : 'UNCHANGED';
    }
    return 'IGNORED';
  }

  private stripeIds(): string[] {
    return this.deps.providers.idsOf('stripe');
  }

  /** The order payment a Stripe provider of this store took as the intent `intentId`. */
  private paymentOf(intentId: string) {
    const stripeIds = this.stripeIds();
    if (stripeIds.length === 0) return Promise.resolve(undefined);
    return this.db
      .selectFrom('order_payments')
      .select(['id', 'order_id', 'status', 'currency'])
      .where('gateway_transaction_id', '=', intentId)
      .where('provider_id', 'in', stripeIds)
      .executeTakeFirst();
  }
}

/** The PaymentIntent an event is about: the intent itself, or a charge's or refund's intent. */
function intentIdOf(event: StripeEvent): string | undefined {
  const object = event.data.object;
  if (object.object === 'payment_intent' && typeof object.id === 'string') return object.id;
  return typeof object.payment_intent === 'string' ? object.payment_intent : undefined;
}
