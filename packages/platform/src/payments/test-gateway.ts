import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type { ChargeRequest, ChargeResult, DeclineCode, PaymentProvider } from './provider.ts';
import type { GatewayChargeRow } from './tables.ts';

/** The test cards a shopper can use, and what the gateway does with each; any other valid card is approved. */
export const TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  requiresAuthentication: '4000002500003155',
} as const;

const DECLINES: Record<string, { code: DeclineCode; reason: string }> = {
  [TEST_CARDS.declined]: { code: 'CARD_DECLINED', reason: 'The card was declined.' },
  [TEST_CARDS.insufficientFunds]: {
    code: 'INSUFFICIENT_FUNDS',
    reason: 'The card has insufficient funds to complete the purchase.',
  },
};

const INTERRUPTED = {
  code: 'PAYMENT_INTERRUPTED' as const,
  reason: 'This payment was interrupted and not made: place the order again.',
};

const AUTHENTICATION_FAILED = {
  code: 'AUTHENTICATION_FAILED' as const,
  reason: 'The card could not be authenticated (3-D Secure was not completed).',
};

/**
 * The built-in test gateway: behaves like a real one (approvals, declines, a 3-D Secure step) and
 * keeps its own ledger of charges keyed by idempotency key, so a retried call answers the first
 * result and never charges twice. It stores the last four digits and the brand, never the number.
 */
export class TestGateway implements PaymentProvider {
  readonly methodName = 'creditCard';

  constructor(private readonly db: Kysely<Tables>) {}

  async authorize(request: ChargeRequest): Promise<ChargeResult> {
    const now = new Date().toISOString();
    const decline = DECLINES[request.card.number];
    const needsAction = request.card.number === TEST_CARDS.requiresAuthentication;
    const row: GatewayChargeRow = {
      idempotency_key: request.idempotencyKey,
      transaction_id: newId(),
      amount: request.amount,
      currency: request.currency,
      captured: request.capture ? 1 : 0,
      status: decline ? 'DECLINED' : needsAction ? 'REQUIRES_ACTION' : 'APPROVED',
      decline_code: decline?.code ?? null,
      action_id: needsAction ? newId() : null,
      card_last4: request.card.last4,
      card_brand: request.card.brand,
      created_at: now,
      updated_at: now,
    };
    // the first call with a key writes its result; any later one (a retry, a race) reads that result
    await this.db
      .insertInto('gateway_charges')
      .values(row)
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    const charge = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirstOrThrow();
    return resultOf(charge);
  }

  async settle(idempotencyKey: string): Promise<ChargeResult | undefined> {
    const now = new Date().toISOString();
    // closes a key nothing was charged under; a charge already made under it is left as it is
    await this.db
      .insertInto('gateway_charges')
      .values({
        idempotency_key: idempotencyKey,
        transaction_id: newId(),
        amount: '0',
        currency: '',
        captured: 0,
        status: 'CLOSED',
        decline_code: INTERRUPTED.code,
        action_id: null,
        card_last4: '',
        card_brand: '',
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    const charge = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('idempotency_key', '=', idempotencyKey)
      .executeTakeFirstOrThrow();
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
          : { status: 'DECLINED', decline_code: AUTHENTICATION_FAILED.code, updated_at: now },
      )
      .where('action_id', '=', request.actionId)
      .where('status', '=', 'REQUIRES_ACTION')
      .execute();
    const charge = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('action_id', '=', request.actionId)
      .executeTakeFirst();
    if (!charge) {
      return {
        status: 'DECLINED',
        transactionId: '',
        code: AUTHENTICATION_FAILED.code,
        reason: AUTHENTICATION_FAILED.reason,
      };
    }
    return resultOf(charge);
  }

  async capture(request: { idempotencyKey: string; transactionId: string; amount: string }) {
    const charge = await this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('transaction_id', '=', request.transactionId)
      .executeTakeFirst();
    if (charge?.status !== 'APPROVED') {
      return { status: 'FAILED' as const, reason: 'no approved authorization with that transaction id' };
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

  /** Every charge in the ledger, oldest first (keys closed by `settle` are no charge). */
  async charges(): Promise<GatewayChargeRow[]> {
    return this.db
      .selectFrom('gateway_charges')
      .selectAll()
      .where('status', '<>', 'CLOSED')
      .orderBy('created_at')
      .execute();
  }
}

function resultOf(charge: GatewayChargeRow): ChargeResult {
  switch (charge.status) {
    case 'APPROVED':
      return {
        status: 'APPROVED',
        transactionId: charge.transaction_id,
        providerTransactionId: `test_${charge.transaction_id.replace(/-/g, '').slice(0, 24)}`,
        captured: charge.captured === 1,
      };
    case 'REQUIRES_ACTION':
      return { status: 'REQUIRES_ACTION', transactionId: charge.transaction_id, actionId: charge.action_id! };
    default: {
      const code = (charge.decline_code ?? 'CARD_DECLINED') as DeclineCode;
      const reason =
        code === 'AUTHENTICATION_FAILED'
          ? AUTHENTICATION_FAILED.reason
          : code === 'PAYMENT_INTERRUPTED'
            ? INTERRUPTED.reason
            : (Object.values(DECLINES).find((decline) => decline.code === code)?.reason ??
              'The card was declined.');
      return { status: 'DECLINED', transactionId: charge.transaction_id, code, reason };
    }
  }
}
