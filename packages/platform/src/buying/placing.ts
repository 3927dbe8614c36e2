import type { Kysely, Transaction } from 'kysely';
import type { StockItem } from '../catalog/service.ts';
import { type CheckoutInputs, mustPay, orderBlocker, PAGE_NAMES } from '../checkouts/document.ts';
import {
  type CheckoutService,
  completedError,
  expiredOutcome,
  orderSource,
  stockItems,
} from '../checkouts/service.ts';
import type { CheckoutAttemptRow, CheckoutRow } from '../checkouts/tables.ts';
import type { Tables } from '../db/tables.ts';
import type { MembersService } from '../members/service.ts';
import type { OrderService } from '../orders/service.ts';
import { type CardInput, type CheckedCard, checkCard } from '../payments/card.ts';
import type {
  CardEntry,
  ChargeResult,
  NextAction,
  PaymentMethod,
  PaymentProvider,
} from '../payments/provider.ts';
import type { PaymentService } from '../payments/service.ts';
import type { Priced } from '../pricing/contract.ts';
import { applicationError, DomainError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import { type SubscriptionService, subscriptionLineOf } from '../subscriptions/service.ts';
import { type CompletionDependencies, completeCheckout } from './complete.ts';

/** A pending 3-D Secure step holds its stock this long; then the next look at the checkout gives it back. */
export const ATTEMPT_HOLD_MS = 15 * 60 * 1000;
/** How long a second request for a checkout waits for the payment already in flight. */
const WAIT_FOR_ATTEMPT_MS = 20_000;
/**
 * A charge not back after this (a process that died mid-payment, a gateway call that hung) is driven
 * again by a retry of its key, or settled with the gateway when another payment for the checkout starts.
 */
const STALE_CHARGE_MS = 30_000;
/** A charge nobody came back for is settled by the sweep after this, giving its stock back if unpaid. */
export const ABANDONED_CHARGE_MS = 10 * 60 * 1000;

/**
 * How the page pays: a card as the shopper typed it (only where the provider takes card numbers), the
 * provider's one-time token from its own card fields, or a method saved for the signed-in buyer.
 */
export type PaymentInput =
  | { kind: 'card'; card: CardInput }
  | { kind: 'token'; token: string }
  | { kind: 'saved'; savedMethodId: string };

/** What placing an order answers the page. */
export type PlacementAnswer =
  | { status: 'APPROVED'; orderId: string }
  | { status: 'REQUIRES_ACTION'; attemptId: string };

/**
 * What placing an order uses: the checkout it pays (locked, its stock taken or given back), the order
 * it makes and approves, the payment providers (the default for a new attempt, the attempt's own after;
 * read at each charge: a test may replace one), the buyer's
 * contact, and the cart the paid order empties.
 */
export interface PlacementDependencies extends CompletionDependencies {
  checkouts: CheckoutService;
  orders: Pick<OrderService, 'createInitialized' | 'approve' | 'waitingForPayment' | 'notePreorders'>;
  payments: Pick<PaymentService, 'providers' | 'captureMode' | 'recordPayment'>;
  members: Pick<MembersService, 'document'>;
  /** A checkout selling by subscription: the card saved for its renewals, the contract its paid order starts. */
  subscriptions: Pick<SubscriptionService, 'methodFor' | 'start'>;
}

/** The signed-in buyer a checkout's subscription is sold to (its renewals charge their saved card). */
type Subscriber = { memberId: string; contactId: string | null };

/** The page (or a test) names the checkout; the session already proved who may pay it. */
const PAGE: Principal = { kind: 'admin' };

/**
 * Placing an order from the hosted checkout page (docs/buying-path.md, "Placing an order"): one
 * transaction takes the stock and creates an `INITIALIZED` order, the gateway is charged outside any
 * transaction with a key derived from the order and the attempt, and a second transaction approves
 * the order (payment recorded, checkout completed, cart deleted) or gives everything back. The same
 * attempt key always gets the same answer, one order and one charge.
 */
export class OrderPlacement {
  private readonly checkouts: CheckoutService;

  constructor(private readonly domains: PlacementDependencies) {
    this.checkouts = domains.checkouts;
  }

  async pay(
    checkoutId: string,
    attemptKey: string,
    input: PaymentInput | undefined,
  ): Promise<PlacementAnswer> {
    const started = Date.now();
    for (;;) {
      const step = await this.begin(checkoutId, attemptKey, input);
      if (step.kind === 'answer') return step.answer;
      if (step.kind === 'charge') {
        // a subscription's card is saved with the provider first, and charged as the saved method
        const method = step.subscriber
          ? await this.domains.subscriptions.methodFor(
              step.attempt.id,
              this.providerOf(step.attempt),
              step.subscriber,
              step.method,
              new Date(),
            )
          : step.method;
        return this.charge(step.attempt, method, step.subscriber !== undefined);
      }
      if (step.kind === 'settle') {
        // an earlier payment for this checkout lost its answer: what the gateway did decides, then look again
        await this.settle(step.attempt);
        continue;
      }
      // another request for this checkout is paying right now: wait for its outcome, then look again
      if (Date.now() - started > WAIT_FOR_ATTEMPT_MS) {
        throw applicationError(
          'ABORTED',
          'PAYMENT_IN_PROGRESS',
          'a payment for this checkout is still in progress: try again in a moment',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** The 3-D Secure step of `attemptId` was passed (`approve`) or failed. */
  async confirm(checkoutId: string, attemptId: string, approve: boolean): Promise<PlacementAnswer> {
    const attempt = await this.checkouts.inTransaction(async (trx) => {
      await this.checkouts.lock(trx, checkoutId, PAGE);
      const row = await this.attemptOf(checkoutId, attemptId, trx);
      if (row.status === 'REQUIRES_ACTION' && row.expires_at <= new Date().toISOString()) {
        await this.checkouts.releaseAttempt(trx, row, 'EXPIRED', expiredOutcome());
        return { ...row, status: 'EXPIRED', outcome: JSON.stringify(expiredOutcome()) };
      }
      if (row.status !== 'REQUIRES_ACTION') return row;
      // this request finishes the step; a second confirm waits for its outcome like a second pay
      await this.checkouts.attempts.move(
        row.id,
        { status: 'PROCESSING', updated_at: new Date().toISOString() },
        { executor: trx },
      );
      return { ...row, status: 'CONFIRMING' };
    });
    if (attempt.status === 'CONFIRMING') {
      let result: ChargeResult;
      try {
        result = await this.providerOf(attempt).completeAction({
          actionId: attempt.action_id!,
          approved: approve,
        });
      } catch (error) {
        // the gateway's answer is in doubt: the step waits again, and confirming again asks it again
        await this.markInDoubt(attempt, 'REQUIRES_ACTION');
        throw gatewayUnavailable(error);
      }
      return this.finish(attempt, result);
    }
    if (attempt.status === 'PROCESSING') return this.pay(checkoutId, attempt.attempt_key, undefined);
    return answerOf(attempt);
  }

  /**
   * A provider says the 3-D Secure step `actionId` of `attemptId` is over (Stripe's webhook): the step
   * is completed as the page's return completes it (`confirm`, holding the checkout), so whichever of
   * the two comes first makes the order and the other answers it. The provider's own status of the
   * charge decides, not this call. `SETTLED`: the step was over already (the page came back first);
   * undefined: no attempt of `providerId` ever waited on that step.
   */
  async completeStep(
    providerId: string,
    attemptId: string,
    actionId: string,
  ): Promise<'COMPLETED' | 'SETTLED' | undefined> {
    const attempt = await this.checkouts.attempts.byId(attemptId);
    if (!attempt || attempt.provider_id !== providerId || attempt.action_id !== actionId) return undefined;
    if (attempt.status !== 'REQUIRES_ACTION' && attempt.status !== 'PROCESSING') return 'SETTLED';
    try {
      await this.confirm(attempt.checkout_id, attempt.id, true);
    } catch (error) {
      // a decline (the step failed at the provider) is how the attempt ended: settled all the same
      if (!(error instanceof DomainError && error.kind === 'FAILED_PRECONDITION')) throw error;
    }
    return 'COMPLETED';
  }

  /**
   * Settles an attempt whose charge never answered, by asking the gateway what it did under the key:
   * a charge made is finished as if it had answered (the order approved, or the decline recorded); no
   * charge (the gateway then closes the key, so none can follow) gives the stock back and discards the
   * order. Safe to run from any process at any time: only a still-`PROCESSING` attempt moves.
   */
  async settle(attempt: CheckoutAttemptRow): Promise<void> {
    let result: ChargeResult | undefined;
    try {
      result = await this.providerOf(attempt).settle(chargeKey(attempt));
    } catch (error) {
      throw gatewayUnavailable(error);
    }
    if (result) {
      await this.finish(attempt, result).catch((error: unknown) => {
        // a decline is how that attempt ended; the caller only needed it settled
        if (!(error instanceof DomainError && error.kind === 'FAILED_PRECONDITION')) throw error;
      });
      return;
    }
    await this.checkouts.inTransaction(async (trx) => {
      await this.checkouts.lock(trx, attempt.checkout_id, PAGE);
      const current = await this.attemptOf(attempt.checkout_id, attempt.id, trx);
      if (current.status !== 'PROCESSING') return;
      await this.checkouts.releaseAttempt(trx, current, 'INTERRUPTED', interruptedOutcome());
    });
  }

  /**
   * Settles the charges nobody came back for (the shopper left after their request was lost): paid
   * ones become orders, unpaid ones give their stock back; so do 3-D Secure steps past their hold.
   * Runs on a timer in every process; answers how many attempts it settled.
   */
  async sweep(now = new Date()): Promise<number> {
    // an attempt whose provider the store no longer registers waits for it, not blocking the others
    const registered = this.domains.payments.providers.list().map((provider) => provider.id);
    const abandoned = await this.checkouts.attempts.abandoned(
      new Date(now.getTime() - ABANDONED_CHARGE_MS),
      new Date(now.getTime() - STALE_CHARGE_MS),
      registered,
    );
    for (const attempt of abandoned) await this.settle(attempt);
    const lapsed = await this.checkouts.inTransaction((trx) => this.checkouts.releaseExpiredHolds(trx));
    return abandoned.length + lapsed;
  }

  /** An attempt of this checkout (the page's confirm step; in `executor`'s transaction when given). */
  async attemptOf(
    checkoutId: string,
    attemptId: string,
    executor?: Kysely<Tables>,
  ): Promise<CheckoutAttemptRow> {
    const row = await this.checkouts.attempts.find(checkoutId, attemptId, executor);
    if (!row) throw notFound('attempt', attemptId);
    return row;
  }

  /**
   * Step 1, holding the checkout: answers what an earlier request already settled, says to wait while
   * another is charging, or takes the stock, creates the order and records the attempt.
   */
  private async begin(
    checkoutId: string,
    attemptKey: string,
    input: PaymentInput | undefined,
  ): Promise<
    | { kind: 'answer'; answer: PlacementAnswer }
    | { kind: 'wait' }
    | { kind: 'settle'; attempt: CheckoutAttemptRow }
    | { kind: 'charge'; attempt: CheckoutAttemptRow; method: PaymentMethod; subscriber?: Subscriber }
  > {
    const { memberId, contactId } = await this.buyerOf(checkoutId);
    return this.checkouts.inTransaction(async (trx) => {
      const checkout = await this.checkouts.lock(trx, checkoutId, PAGE);
      const now = new Date();
      const attempts = await this.checkouts.attempts.ofCheckout(trx, checkoutId);
      const mine = attempts.find((attempt) => attempt.attempt_key === attemptKey);
      if (checkout.completed === 1 && checkout.order_id) {
        // paid already (by another tab, or another try): whatever this key did, that order is the answer
        return { kind: 'answer', answer: { status: 'APPROVED', orderId: checkout.order_id } };
      }
      if (mine?.status === 'PROCESSING' && isStale(mine, now) && input) {
        // the request that charged this key never came back: this retry (carrying the method again)
        // finishes it under the same idempotency key, so the gateway answers the first charge if made
        const method = paymentMethodOf(input, this.providerOf(mine), memberId, now);
        await this.touch(trx, mine, now);
        const subscriber = subscriberOf(JSON.parse(checkout.priced) as Priced, memberId, contactId);
        return { kind: 'charge', attempt: mine, method, ...(subscriber ? { subscriber } : {}) };
      }
      if (mine && mine.status !== 'PROCESSING') {
        if (mine.status === 'REQUIRES_ACTION' && mine.expires_at <= now.toISOString()) {
          await this.checkouts.releaseAttempt(trx, mine, 'EXPIRED', expiredOutcome());
          throw outcomeError(expiredOutcome());
        }
        return { kind: 'answer', answer: answerOf(mine) };
      }
      if (checkout.completed === 1) throw completedError(checkoutId);
      const inFlight = attempts.filter((attempt) => attempt.status === 'PROCESSING');
      const lost = inFlight.find((attempt) => isStale(attempt, now));
      if (lost) return { kind: 'settle', attempt: lost };
      if (inFlight.length > 0) return { kind: 'wait' };
      // a 3-D Secure step left waiting (the shopper came back and tried again) gives its stock back first
      for (const pending of attempts.filter((attempt) => attempt.status === 'REQUIRES_ACTION')) {
        const expired = pending.expires_at <= now.toISOString();
        await this.checkouts.releaseAttempt(
          trx,
          pending,
          expired ? 'EXPIRED' : 'ABANDONED',
          expired ? expiredOutcome() : abandonedOutcome(),
        );
      }

      const inputs = JSON.parse(checkout.inputs) as CheckoutInputs;
      const priced = JSON.parse(checkout.priced) as Priced;
      const blocker = orderBlocker(inputs, priced, PAGE_NAMES);
      if (blocker) throw blocker;
      const paying = mustPay(priced);
      if (paying && !input)
        throw invalidArgument([violation('card.number', 'is required', 'REQUIRED_FIELD')]);
      const subscriber = subscriberOf(priced, memberId, contactId);
      // a new attempt pays through the store's provider of the moment, and stays with it to the end
      const provider = this.domains.payments.providers.default;
      const method = paying ? paymentMethodOf(input!, provider, memberId, now) : undefined;
      const card = method?.kind === 'card' ? method.card : undefined;
      // an order create-order made and left unpaid: this payment is for it, at its total
      const unpaid = checkout.order_id
        ? await this.domains.orders.waitingForPayment(trx, checkout.order_id)
        : undefined;
      const unpaidTotal = unpaid
        ? (JSON.parse(unpaid.doc) as { priceSummary: { total: { amount: string; formattedAmount: string } } })
            .priceSummary.total
        : undefined;
      // the stock is taken now, as the payment starts (an unpaid order an earlier version made took its own)
      const stock = Number(unpaid?.holds_stock) === 1 ? [] : await this.checkouts.takeStock(trx, inputs);
      const orderId =
        unpaid?.id ??
        (await this.domains.orders.createInitialized(
          trx,
          orderSource(checkout, inputs, priced, contactId),
          now,
        ));
      await this.domains.orders.notePreorders(trx, orderId, preorderedByLine(inputs, stock));
      const attempt: CheckoutAttemptRow = {
        id: newId(),
        checkout_id: checkoutId,
        attempt_key: attemptKey,
        status: 'PROCESSING',
        order_id: orderId,
        stock: JSON.stringify(stock),
        // an unpaid order is paid for what it was created at
        amount: unpaidTotal?.amount ?? priced.amounts.total,
        formatted_amount:
          unpaidTotal?.formattedAmount ?? priced.priceSummary.total?.formattedAmount ?? priced.amounts.total,
        currency: priced.currency,
        card_last4: card?.last4 ?? '',
        card_brand: card?.brand ?? '',
        action_id: null,
        provider_id: provider.id,
        outcome: null,
        expires_at: new Date(now.getTime() + ATTEMPT_HOLD_MS).toISOString(),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await this.checkouts.attempts.insert(trx, attempt);
      if (!paying) {
        // nothing to charge: the order is approved in this same transaction
        await this.approve(trx, checkout, attempt, undefined, now);
        return { kind: 'answer', answer: { status: 'APPROVED', orderId } };
      }
      return { kind: 'charge', attempt, method: method!, ...(subscriber ? { subscriber } : {}) };
    });
  }

  /** Step 2: the charge, outside any transaction (a real gateway is a network call); then step 3. */
  private async charge(
    attempt: CheckoutAttemptRow,
    method: PaymentMethod,
    forRenewals: boolean,
  ): Promise<PlacementAnswer> {
    const payments = this.domains.payments;
    let result: ChargeResult;
    try {
      result = await this.providerOf(attempt).authorize({
        idempotencyKey: chargeKey(attempt),
        amount: attempt.amount,
        currency: attempt.currency,
        method,
        capture: (await payments.captureMode()) === 'IMMEDIATE',
        // a subscription's card stays with the provider for its renewals
        ...(forRenewals ? { saveForOffSession: true } : {}),
      });
    } catch (error) {
      // the charge may or may not have been made: a retry of this key drives it again at once, and the
      // gateway answers what it did under the key (never a second charge)
      await this.markInDoubt(attempt, 'PROCESSING');
      throw gatewayUnavailable(error);
    }
    return this.finish(attempt, result);
  }

  /** An attempt whose gateway call failed: a retry may take it up at once. */
  private async markInDoubt(
    attempt: CheckoutAttemptRow,
    status: 'PROCESSING' | 'REQUIRES_ACTION',
  ): Promise<void> {
    await this.checkouts.attempts.move(
      attempt.id,
      { status, updated_at: new Date(0).toISOString() },
      { whileStatus: 'PROCESSING' },
    );
  }

  /** Step 3: the gateway's answer, written in one transaction holding the checkout. */
  private async finish(attempt: CheckoutAttemptRow, result: ChargeResult): Promise<PlacementAnswer> {
    const settled = await this.checkouts.inTransaction(async (trx) => {
      const checkout = await this.checkouts.lock(trx, attempt.checkout_id, PAGE);
      const current = await this.attemptOf(attempt.checkout_id, attempt.id, trx);
      // another request settled it first (a driven-again charge racing the original): its answer stands
      if (current.status !== 'PROCESSING') return current;
      const now = new Date();
      switch (result.status) {
        case 'APPROVED':
          await this.approve(trx, checkout, current, result, now);
          return { ...current, status: 'APPROVED' };
        case 'REQUIRES_ACTION':
          await this.checkouts.attempts.move(
            current.id,
            {
              status: 'REQUIRES_ACTION',
              action_id: result.actionId,
              expires_at: new Date(now.getTime() + ATTEMPT_HOLD_MS).toISOString(),
              updated_at: now.toISOString(),
            },
            { executor: trx },
          );
          return { ...current, status: 'REQUIRES_ACTION' };
        case 'DECLINED': {
          const outcome = { code: result.code, description: result.reason };
          await this.checkouts.releaseAttempt(trx, current, 'DECLINED', outcome);
          return { ...current, status: 'DECLINED', outcome: JSON.stringify(outcome) };
        }
      }
    });
    return answerOf(settled);
  }

  /** The order is paid (or authorized): approved, payment recorded, checkout completed, cart deleted. */
  private async approve(
    trx: Transaction<Tables>,
    checkout: CheckoutRow,
    attempt: CheckoutAttemptRow,
    result: Extract<ChargeResult, { status: 'APPROVED' }> | undefined,
    now: Date,
  ): Promise<void> {
    const { orders, payments } = this.domains;
    const orderId = attempt.order_id!;
    const authorizeOnly = result !== undefined && !result.captured;
    await orders.approve(trx, orderId, { paymentStatus: authorizeOnly ? 'PENDING' : 'PAID' }, now);
    if (result) {
      await payments.recordPayment(
        trx,
        {
          orderId,
          attemptId: attempt.id,
          amount: attempt.amount,
          formattedAmount: attempt.formatted_amount,
          currency: attempt.currency,
          providerId: attempt.provider_id,
          transactionId: result.transactionId,
          providerTransactionId: result.providerTransactionId,
          // a token or saved method names its card only through the provider's answer
          card: result.card ?? {
            last4: attempt.card_last4,
            brand: attempt.card_brand as CheckedCard['brand'],
          },
          authorizeOnly,
        },
        now,
      );
    }
    await this.checkouts.attempts.move(
      attempt.id,
      { status: 'APPROVED', updated_at: now.toISOString() },
      { executor: trx },
    );
    // a line bought by subscription: the paid order is its contract's first cycle
    const priced = JSON.parse(checkout.priced) as Priced;
    if (result && subscriptionLineOf(priced)) {
      const inputs = JSON.parse(checkout.inputs) as CheckoutInputs;
      await this.domains.subscriptions.start(
        trx,
        {
          attemptId: attempt.id,
          orderId,
          source: orderSource(checkout, inputs, priced, null),
          savedMethodId: result.savedMethodId,
        },
        now,
      );
    }
    await completeCheckout(this.domains, trx, checkout, orderId, now);
  }

  private async touch(trx: Transaction<Tables>, attempt: CheckoutAttemptRow, now: Date): Promise<void> {
    await this.checkouts.attempts.move(attempt.id, { updated_at: now.toISOString() }, { executor: trx });
  }

  /** How the page takes the 3-D Secure step an attempt waits on: the provider that charged it says. */
  async nextActionOf(attempt: CheckoutAttemptRow): Promise<NextAction | undefined> {
    if (attempt.status !== 'REQUIRES_ACTION' || !attempt.action_id) return undefined;
    const provider = this.providerOf(attempt);
    return provider.nextActionOf ? provider.nextActionOf(attempt.action_id) : { kind: 'PAGE' };
  }

  /** How the hosted page takes a card: as the provider a new attempt pays through takes one. */
  cardEntry(): CardEntry {
    return this.domains.payments.providers.default.cardEntry;
  }

  /** The provider an attempt charges through, from its start to its end. */
  private providerOf(attempt: CheckoutAttemptRow): PaymentProvider {
    return this.domains.payments.providers.get(attempt.provider_id);
  }

  /** The checkout's signed-in member (whose saved methods it may pay with) and their contact. */
  private async buyerOf(checkoutId: string): Promise<{ memberId: string | null; contactId: string | null }> {
    const memberId = await this.checkouts.memberIdOf(checkoutId);
    if (!memberId) return { memberId: null, contactId: null };
    const contactId = (await this.domains.members.document(memberId))?.contactId ?? null;
    return { memberId, contactId };
  }
}

/**
 * The page's payment as the provider takes it: a card checked (refused outright, before any stock is
 * taken, by a provider whose card fields are its own), a token as given, a saved method as the
 * signed-in member's.
 */
function paymentMethodOf(
  input: PaymentInput,
  provider: PaymentProvider,
  memberId: string | null,
  now: Date,
): PaymentMethod {
  switch (input.kind) {
    case 'card':
      if (!provider.acceptsRawCards) {
        throw applicationError(
          'INVALID_ARGUMENT',
          'CARD_NUMBERS_NOT_ACCEPTED',
          "this store's payment provider takes cards through its own card fields: card numbers are not accepted",
          { providerId: provider.id },
        );
      }
      return { kind: 'card', card: checkCard(input.card, now) };
    case 'token':
      return { kind: 'token', token: input.token };
    case 'saved':
      if (!memberId)
        throw invalidArgument([
          violation('savedMethodId', 'is paid with by its signed-in member', 'VALIDATION'),
        ]);
      return { kind: 'saved', savedMethodId: input.savedMethodId, customerId: memberId };
  }
}

/**
 * The member a checkout sells by subscription to, when one of its lines is bought by subscription: a
 * subscription is sold to a signed-in member alone (its renewals are theirs to see and stop), and
 * bought on its own (each renewal's order is that line again).
 */
function subscriberOf(
  priced: Priced,
  memberId: string | null,
  contactId: string | null,
): Subscriber | undefined {
  if (!subscriptionLineOf(priced)) return undefined;
  if (!memberId)
    throw applicationError(
      'FAILED_PRECONDITION',
      'SUBSCRIPTION_REQUIRES_MEMBER',
      'sign in to buy by subscription: the subscription is kept in your account',
    );
  if (priced.lineItems.length > 1)
    throw applicationError(
      'FAILED_PRECONDITION',
      'SUBSCRIPTION_BOUGHT_ALONE',
      'a subscription is bought on its own: check out its line apart from the others',
    );
  return { memberId, contactId };
}

/** The gateway's idempotency key of an attempt's charge: one charge per attempt, ever. */
const chargeKey = (attempt: CheckoutAttemptRow) => `${attempt.order_id}:${attempt.id}`;

const isStale = (attempt: CheckoutAttemptRow, now: Date) =>
  now.getTime() - new Date(attempt.updated_at).getTime() > STALE_CHARGE_MS;

const interruptedOutcome = () => ({
  code: 'PAYMENT_INTERRUPTED',
  description: 'this payment was interrupted and not made: place the order again',
});
const abandonedOutcome = () => ({
  code: 'AUTHENTICATION_ABANDONED',
  description: 'another payment was started for this checkout',
});

/** The payment provider could not be reached, or failed: the shopper may try again safely. */
function gatewayUnavailable(cause: unknown): DomainError {
  const error = applicationError(
    'ABORTED',
    'PAYMENT_PROVIDER_UNAVAILABLE',
    'the payment could not be completed just now: try again (you will not be charged twice)',
  );
  error.cause = cause;
  return error;
}

/** What a settled attempt answers, again and again. */
function answerOf(attempt: CheckoutAttemptRow): PlacementAnswer {
  switch (attempt.status) {
    case 'APPROVED':
      return { status: 'APPROVED', orderId: attempt.order_id! };
    case 'REQUIRES_ACTION':
      return { status: 'REQUIRES_ACTION', attemptId: attempt.id };
    default:
      throw outcomeError(JSON.parse(attempt.outcome ?? '{}') as { code?: string; description?: string });
  }
}

/** A refused payment in the wire's error form: the decline's own code and a sentence a shopper reads. */
function outcomeError(outcome: { code?: string; description?: string }): DomainError {
  return applicationError(
    'FAILED_PRECONDITION',
    outcome.code ?? 'CARD_DECLINED',
    outcome.description ?? 'The card was declined.',
  );
}

/** How many units of each line (by id) `takeStock` took as preorders: the stock items it answered, noted. */
export function preorderedByLine(
  inputs: CheckoutInputs,
  taken: readonly StockItem[],
): Record<string, number> {
  const { lineIds } = stockItems(inputs);
  const units: Record<string, number> = {};
  for (const [index, item] of taken.entries()) {
    const lineId = lineIds[index];
    if (lineId && item.preordered) units[lineId] = item.preordered;
  }
  return units;
}
