import type { Kysely } from 'kysely';
import { TEST_GATEWAY_ID } from '../config.ts';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import { Big } from '../shared/money.ts';
import type { CardBrand, CheckedCard } from './card.ts';
import type {
  CardEntry,
  ChargeRequest,
  ChargeResult,
  DeclineCode,
  PaymentProvider,
  ProviderActionResult,
  ProviderCharge,
} from './provider.ts';
import type { GatewayChargeRow, TestCardBehaviour } from './tables.ts';

export { TEST_GATEWAY_ID };

/** The test cards a shopper can use, and what the gateway does with each; any other valid card is approved. */
export const TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  requiresAuthentication: '4000002500003155',
  /** Approved, and every refund of it is declined by the gateway. */
  refundDeclined: '4000000000005126',
} as const;

/** What each decline says to the shopper. */
const DECLINE_REASONS: Record<DeclineCode, string> = {
  CARD_DECLINED: 'The card was declined.',
  INSUFFICIENT_FUNDS: 'The card has insufficient funds to complete the purchase.',
  AUTHENTICATION_FAILED: 'The card could not be authenticated (3-D Secure was not completed).',
  AUTHENTICATION_REQUIRED:
    'The card asks its holder to authenticate this payment: pay with the card holder present.',
  PAYMENT_METHOD_UNUSABLE:
    'This payment method cannot be used: enter the card again (a card token serves one payment).',
  PAYMENT_INTERRUPTED: 'This payment was interrupted and not made: place the order again.',
};

/** The card a charge is paid with, as the gateway knows it: what it does, never its number. */
interface PayingCard {
  behaviour: TestCardBehaviour;
  last4: string;
  brand: CardBrand;
}

/** What a test card does when charged. */
function behaviourOf(card: CheckedCard): TestCardBehaviour {
  const named = Object.entries(TEST_CARDS).find(([, number]) => number === card.number);
  return (named?.[0] as TestCardBehaviour | undefined) ?? 'approved';
}

/**
 * The built-in test gateway: behaves like a real one (approvals, declines, a 3-D Secure step, one-time
 * tokens, cards saved for a customer) and keeps its own ledger of charges keyed by idempotency key, so
 * a retried call answers the first result and never charges twice. It stores the last four digits
 * and the brand, never the number. Several may be registered under different ids (a store moving
 * between providers, in tests): each answers only for the charges it made.
 */
export class TestGateway implements PaymentProvider {
  readonly id: string;
  readonly methodName = 'creditCard';
  readonly acceptsRawCards: boolean;
  readonly cardEntry: CardEntry;

  constructor(
    private readonly db: Kysely<Tables>,
    options: { id?: string; acceptsRawCards?: boolean } = {},
  ) {
    this.id = options.id ?? TEST_GATEWAY_ID;
    this.acceptsRawCards = options.acceptsRawCards ?? true;
    // its tokens are made by the platform's own tokenize (tests), not by fields a page can show
    this.cardEntry = this.acceptsRawCards ? { kind: 'FORM' } : { kind: 'NONE' };
  }

  /** A one-time token for `card`, as a real provider's card fields give the shopper's page. */
  async tokenize(card: CheckedCard): Promise<string> {
    const token = `tok_${newId().replace(/-/g, '')}`;
    await this.db
      .insertInto('gateway_tokens')
      .values({
        token,
        gateway_id: this.id,
        behaviour: behaviourOf(card),
        card_last4: card.last4,
        card_brand: card.brand,
        used_by: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    return token;
  }

  /** Saves `card` for `customerId`, to be charged later (with or without them): the saved method's id. */
  async saveMethod(customerId: string, card: CheckedCard): Promise<string> {
    const id = `pm_${newId().replace(/-/g, '')}`;
    await this.db
      .insertInto('gateway_saved_methods')
      .values({
        id,
        gateway_id: this.id,
        customer_id: customerId,
        behaviour: behaviourOf(card),
        card_last4: card.last4,
        card_brand: card.brand,
        created_at: new Date().toISOString(),
      })
      .execute();
    return id;
  }

  async authorize(request: ChargeRequest): Promise<ChargeResult> {
    // a retry (or a race) of a key answers its first result, before the method is looked at again
    const earlier = await this.chargeUnder(request.idempotencyKey);
    if (earlier) return resultOf(earlier);
    const paying = await this.payingCard(request);
    const now = new Date().toISOString();
    const decline: DeclineCode | undefined =
      paying === undefined
        ? 'PAYMENT_METHOD_UNUSABLE'
        : paying.behaviour === 'declined'
          ? 'CARD_DECLINED'
          : paying.behaviour === 'insufficientFunds'
            ? 'INSUFFICIENT_FUNDS'
            : paying.behaviour === 'requiresAuthentication' && request.offSession
              ? 'AUTHENTICATION_REQUIRED'
              : undefined;
    const needsAction = !decline && paying?.behaviour === 'requiresAuthentication';
    const row: GatewayChargeRow = {
      idempotency_key: request.idempotencyKey,
      gateway_id: this.id,
      transaction_id: newId(),
      amount: request.amount,
      currency: request.currency,
      captured: request.capture ? 1 : 0,
      status: decline ? 'DECLINED' : needsAction ? 'REQUIRES_ACTION' : 'APPROVED',
      decline_code: decline ?? null,
      action_id: needsAction ? newId() : null,
      card_last4: paying?.last4 ?? '',
      card_brand: paying?.brand ?? '',
      created_at: now,
      updated_at: now,
    };
    // the first call with a key writes its result; any later one (a retry, a race) reads that result
    await this.db
      .insertInto('gateway_charges')
      .values(row)
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    return resultOf((await this.chargeUnder(request.idempotencyKey))!);
  }

  /**
   * The card behind the charge's method: a card as typed, a token this gateway issued and no other
   * charge used (claimed for this key), or a card saved for the customer named. Undefined: unusable.
   */
  private async payingCard(request: ChargeRequest): Promise<PayingCard | undefined> {
    const { method } = request;
    switch (method.kind) {
      case 'card':
        if (!this.acceptsRawCards) return undefined;
        return { behaviour: behaviourOf(method.card), last4: method.card.last4, brand: method.card.brand };
      case 'token': {
        const claimed = await this.db
          .updateTable('gateway_tokens')
          .set({ used_by: request.idempotencyKey })
          .where('token', '=', method.token)
          .where('gateway_id', '=', this.id)
          .where((where) =>
            where.or([where('used_by', 'is', null), where('used_by', '=', request.idempotencyKey)]),
          )
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return undefined;
        const token = await this.db
          .selectFrom('gateway_tokens')
          .selectAll()
          .where('token', '=', method.token)
          .executeTakeFirstOrThrow();
        return payingOf(token);
      }
      case 'saved': {
        const saved = await this.db
          .selectFrom('gateway_saved_methods')
          .selectAll()
          .where('id', '=', method.savedMethodId)
          .where('gateway_id', '=', this.id)
          .executeTakeFirst();
        if (!saved || (method.customerId !== undefined && saved.customer_id !== method.customerId))
          return undefined;
        return payingOf(saved);
      }
    }
  }

  private chargeUnder(idempotencyKey: string): Promise<GatewayChargeRow | undefined> {
    return this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirst();
  }

  async settle(idempotencyKey: string): Promise<ChargeResult | undefined> {
    const now = new Date().toISOString();
    // closes a key nothing was charged under; a charge already made under it is left as it is
    await this.db
      .insertInto('gateway_charges')
      .values({
        idempotency_key: idempotencyKey,
        gateway_id: this.id,
        transaction_id: newId(),
        amount: '0',
        currency: '',
        captured: 0,
        status: 'CLOSED',
        decline_code: 'PAYMENT_INTERRUPTED',
        action_id: null,
        card_last4: '',
        card_brand: '',
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    const charge = (await this.chargeUnder(idempotencyKey))!;
    return charge.status === 'CLOSED' ? undefined : resultOf(charge);
  }

  async completeAction(request: { actionId: string; approved: boolean }): Promise<ChargeResult> {
    const now = new Date().toISOString();
    // only a pending step moves: a second answer to the same step reads the first one's outcome
    await this.db
      .updateTable('gateway_charges')
      .set(
        request.approved
          ? { status: 'APPROVED', updated_at: now }
          : { status: 'DECLINED', decline_code: 'AUTHENTICATION_FAILED', updated_at: now },
      )
      .where('action_id', '=', request.actionId)
      .where('gateway_id', '=', this.id)
      .where('status', '=', 'REQUIRES_ACTION')
      .execute();
    const charge = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('action_id', '=', request.actionId)
      .where('gateway_id', '=', this.id)
      .executeTakeFirst();
    if (!charge) {
      return {
        status: 'DECLINED',
        transactionId: '',
        code: 'AUTHENTICATION_FAILED',
        reason: DECLINE_REASONS.AUTHENTICATION_FAILED,
      };
    }
    return resultOf(charge);
  }

  /** Its ledger's charges made from `from` to `to`, as reconciliation reads a provider's side. */
  async charges(from: Date, to: Date): Promise<ProviderCharge[]> {
    const rows = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('gateway_id', '=', this.id)
      .where('status', 'in', ['APPROVED', 'REQUIRES_ACTION'])
      .where('created_at', '>=', from.toISOString())
      .where('created_at', '<', to.toISOString())
      .orderBy('created_at')
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.transaction_id);
    const [captures, voids, refunds] = await Promise.all([
      this.db
        .selectFrom('gateway_captures')
        .select(['transaction_id', 'amount'])
        .where('transaction_id', 'in', ids)
        .execute(),
      this.db
        .selectFrom('gateway_voids')
        .select('transaction_id')
        .where('transaction_id', 'in', ids)
        .where('status', '=', 'SUCCEEDED')
        .execute(),
      this.db
        .selectFrom('gateway_refunds')
        .select(['transaction_id', 'amount'])
        .where('transaction_id', 'in', ids)
        .where('status', '=', 'SUCCEEDED')
        .execute(),
    ]);
    const refunded = new Map<string, Big>();
    for (const refund of refunds)
      refunded.set(
        refund.transaction_id,
        (refunded.get(refund.transaction_id) ?? new Big(0)).plus(refund.amount),
      );
    const captured = new Map(captures.map((capture) => [capture.transaction_id, capture.amount]));
    const voided = new Set(voids.map((row) => row.transaction_id));
    return rows.map((row) => ({
      transactionId: row.transaction_id,
      amount: row.amount,
      currency: row.currency,
      state:
        row.status === 'REQUIRES_ACTION'
          ? 'PENDING'
          : row.captured === 1 || captured.has(row.transaction_id)
            ? 'CAPTURED'
            : voided.has(row.transaction_id)
              ? 'CANCELED'
              : 'AUTHORIZED',
      capturedAmount: row.captured === 1 ? row.amount : (captured.get(row.transaction_id) ?? '0'),
      refundedAmount: (refunded.get(row.transaction_id) ?? new Big(0)).toFixed(),
      createdAt: row.created_at,
    }));
  }

  async capture(request: { idempotencyKey: string; transactionId: string; amount: string }) {
    const done = await this.db
      .selectFrom('gateway_captures')
      .select('transaction_id')
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirst();
    if (done) return { status: 'SUCCEEDED' as const };
    const charge = await this.approved(request.transactionId);
    if (!charge) {
      return { status: 'FAILED' as const, reason: 'no approved authorization with that transaction id' };
    }
    if (await this.voided(request.transactionId)) {
      return { status: 'FAILED' as const, reason: 'the authorization was voided' };
    }
    // captured under another key already (a retry of this key, racing itself, is the same capture)
    const captured = await this.db
      .selectFrom('gateway_captures')
      .select('amount')
      .where('transaction_id', '=', request.transactionId)
      .where('idempotency_key', '<>', request.idempotencyKey)
      .execute();
    if (captured.length > 0 || Number(request.amount) > Number(charge.amount)) {
      return { status: 'FAILED' as const, reason: 'more than the authorization holds' };
    }
    await this.db
      .insertInto('gateway_captures')
      .values({
        idempotency_key: request.idempotencyKey,
        transaction_id: request.transactionId,
        amount: request.amount,
        created_at: new Date().toISOString(),
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    return { status: 'SUCCEEDED' as const };
  }

  async void(request: { idempotencyKey: string; transactionId: string }): Promise<ProviderActionResult> {
    const charge = await this.approved(request.transactionId);
    if (!charge) return { status: 'FAILED', reason: 'no approved authorization with that transaction id' };
    return this.record('gateway_voids', request.idempotencyKey, request.transactionId, '0', 'SUCCEEDED');
  }

  async refund(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<ProviderActionResult & { refundId?: string }> {
    const charge = await this.approved(request.transactionId);
    // a card the gateway refuses refunds for (TEST_CARDS.refundDeclined), as a real gateway may
    const declined = !charge || charge.card_last4 === TEST_CARDS.refundDeclined.slice(-4);
    const result = await this.record(
      'gateway_refunds',
      request.idempotencyKey,
      request.transactionId,
      request.amount,
      declined ? 'FAILED' : 'SUCCEEDED',
    );
    return result.status === 'SUCCEEDED' ? { ...result, refundId: `re_${request.idempotencyKey}` } : result;
  }

  private approved(transactionId: string): Promise<GatewayChargeRow | undefined> {
    return this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .where('gateway_id', '=', this.id)
      .where('status', '=', 'APPROVED')
      .executeTakeFirst();
  }

  private async voided(transactionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('gateway_voids')
      .select('status')
      .where('transaction_id', '=', transactionId)
      .where('status', '=', 'SUCCEEDED')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The first result under a key wins: a retry (or a race) reads it back. */
  private async record(
    table: 'gateway_refunds' | 'gateway_voids',
    idempotencyKey: string,
    transactionId: string,
    amount: string,
    status: 'SUCCEEDED' | 'FAILED',
  ): Promise<ProviderActionResult> {
    await this.db
      .insertInto(table)
      .values({
        idempotency_key: idempotencyKey,
        transaction_id: transactionId,
        amount,
        status,
        created_at: new Date().toISOString(),
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom(table)
      .select('status')
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirstOrThrow();
    return row.status === 'SUCCEEDED'
      ? { status: 'SUCCEEDED' }
      : { status: 'FAILED', reason: 'the gateway declined this refund' };
  }
}

function payingOf(row: { behaviour: string; card_last4: string; card_brand: string }): PayingCard {
  return {
    behaviour: row.behaviour as TestCardBehaviour,
    last4: row.card_last4,
    brand: row.card_brand as CardBrand,
  };
}

function resultOf(charge: GatewayChargeRow): ChargeResult {
  switch (charge.status) {
    case 'APPROVED':
      return {
        status: 'APPROVED',
        transactionId: charge.transaction_id,
        providerTransactionId: `test_${charge.transaction_id.replace(/-/g, '').slice(0, 24)}`,
        captured: charge.captured === 1,
        card: { last4: charge.card_last4, brand: charge.card_brand as CardBrand },
      };
    case 'REQUIRES_ACTION':
      return { status: 'REQUIRES_ACTION', transactionId: charge.transaction_id, actionId: charge.action_id! };
    default: {
      const code = (charge.decline_code ?? 'CARD_DECLINED') as DeclineCode;
      return {
        status: 'DECLINED',
        transactionId: charge.transaction_id,
        code,
        reason: DECLINE_REASONS[code] ?? DECLINE_REASONS.CARD_DECLINED,
      };
    }
  }
}
