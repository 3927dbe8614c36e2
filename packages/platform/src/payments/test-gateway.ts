import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { newId } from '../shared/ids.ts';
import type {
  ChargeRequest,
  ChargeResult,
  DeclineCode,
  PaymentProvider,
  ProviderActionResult,
} from './provider.ts';
import type { GatewayChargeRow } from './tables.ts';

/** The test cards a shopper can use, and what the gateway does with each; any other valid card is approved. */
export const TEST_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  requiresAuthentication: '4000002500003155',
  /** Approved, and every refund of it is declined by the gateway. */
  refundDeclined: '4000000000005126',
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
