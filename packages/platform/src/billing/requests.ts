import type { Kysely, Transaction } from 'kysely';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { OrderWrites } from '../orders/writes.ts';
import { applicationError } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { type Ledger, type Outcome, type ProviderResults, readLedger } from './ledger.ts';

/**
 * A money call that asks the provider: `perform` asks it (provider-calls.ts), outside any
 * transaction, with keys derived from the call's; `finish` (the order held again) writes its answer.
 * Both read only the plan, so a call whose process stopped after its plan was written can be finished
 * by a retry of its key or by the sweep alike.
 */
export interface ProviderStep<Plan, Answer> {
  perform(plan: Plan, requestKey: string): Promise<ProviderResults>;
  finish(
    trx: Transaction<Tables>,
    ledger: Ledger,
    plan: Plan,
    results: ProviderResults,
    now: Date,
  ): Promise<Outcome<Answer>>;
}

/** A money call left `STARTED` this long (its process stopped, or its provider never answered) is swept. */
export const STALE_REQUEST_MS = 2 * 60 * 1000;

/**
 * The record of each money call by its idempotency key (`billing_requests`): a retry of a key answers
 * what the first call answered, and a call that stopped between its two transactions is finished by
 * its retry or by `sweepStarted`.
 */
export class BillingRequests {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly orders: Pick<OrderWrites, 'lock'>,
    /** The calls that ask the provider, by operation name (the first part of a request's key). */
    private readonly steps: Record<string, ProviderStep<any, any>>,
  ) {}

  /** A money call without a provider step, once per idempotency key. */
  async once<Answer>(
    operation: string,
    orderId: string,
    key: string | undefined,
    change: (trx: Transaction<Tables>, ledger: Ledger, now: Date) => Promise<Answer>,
  ): Promise<Answer> {
    const requestKey = `${operation}:${orderId}:${key ?? newId()}`;
    return inTransaction(this.db, async (trx) => {
      const ledger = await readLedger(trx, this.orders, orderId, true);
      const existing = await this.find(trx, requestKey);
      if (existing?.answer) return JSON.parse(existing.answer) as Answer;
      const now = new Date();
      const answer = await change(trx, ledger, now);
      if (key !== undefined) {
        await trx
          .insertInto('billing_requests')
          .values({
            key: requestKey,
            order_id: orderId,
            status: 'DONE',
            plan: '{}',
            answer: JSON.stringify(answer),
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
          })
          .execute();
      }
      return answer;
    });
  }

  /**
   * A money call around the provider: `plan` (the order held) checks it and writes what it will do, so a
   * concurrent call on any process sees that money as spoken for; then the operation's provider step.
   * The same idempotency key answers the first outcome, and finishes a call whose process stopped
   * after its plan was written.
   */
  async twoPhase<Plan, Answer>(
    operation: string,
    orderId: string,
    key: string | undefined,
    plan: (trx: Transaction<Tables>, ledger: Ledger, now: Date) => Promise<Plan>,
  ): Promise<Answer> {
    const callKey = key ?? newId();
    const requestKey = `${operation}:${orderId}:${callKey}`;
    const started = await inTransaction(this.db, async (trx) => {
      const ledger = await readLedger(trx, this.orders, orderId, true);
      const existing = await this.find(trx, requestKey);
      if (existing?.answer) return { outcome: JSON.parse(existing.answer) as Outcome<Answer> };
      if (existing) return { plan: JSON.parse(existing.plan) as Plan };
      const now = new Date();
      const planned = await plan(trx, ledger, now);
      await trx
        .insertInto('billing_requests')
        .values({
          key: requestKey,
          order_id: orderId,
          status: 'STARTED',
          plan: JSON.stringify(planned),
          answer: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
      return { plan: planned };
    });
    const outcome =
      started.outcome ??
      (await this.complete<Plan, Answer>(operation, orderId, requestKey, started.plan as Plan, callKey));
    if ('error' in outcome) {
      const { kind, code, description, data } = outcome.error;
      throw applicationError(kind, code, description, data);
    }
    return outcome.ok;
  }

  /**
   * Finishes the money calls left `STARTED` for `STALE_REQUEST_MS` (their process stopped, or their
   * provider's answer was lost and no one retried): each asks the provider again under its own keys,
   * which answers what it did the first time, and writes the answer as its retry would. A provider
   * still not answering leaves it for the next sweep. Answers how many were finished.
   */
  async sweepStarted(now = new Date()): Promise<number> {
    const started = await this.db
      .selectFrom('billing_requests')
      .select(['key', 'order_id', 'plan'])
      .where('status', '=', 'STARTED')
      .where('updated_at', '<=', new Date(now.getTime() - STALE_REQUEST_MS).toISOString())
      .orderBy('updated_at')
      .limit(100)
      .execute();
    let finished = 0;
    for (const request of started) {
      const operation = request.key.slice(0, request.key.indexOf(':'));
      const callKey = request.key.slice(operation.length + request.order_id.length + 2);
      try {
        await this.complete(operation, request.order_id, request.key, JSON.parse(request.plan), callKey);
        finished++;
      } catch {
        // the provider still does not answer (or the order is gone): the next sweep asks again
      }
    }
    return finished;
  }

  /** The provider step of a started call, then its answer written (unless another finished it first). */
  private async complete<Plan, Answer>(
    operation: string,
    orderId: string,
    requestKey: string,
    plan: Plan,
    callKey: string,
  ): Promise<Outcome<Answer>> {
    const step = this.steps[operation] as ProviderStep<Plan, Answer> | undefined;
    if (!step) throw new Error(`no provider step for the money call ${operation}`);
    let results: ProviderResults;
    try {
      results = await step.perform(plan, requestKey);
    } catch {
      // the provider's answer never came: the call stays started, and the same key finishes it
      throw applicationError(
        'ABORTED',
        'PAYMENT_PROVIDER_UNAVAILABLE',
        'the payment provider did not answer: make the same call again with this Idempotency-Key',
        { idempotencyKey: callKey },
      );
    }
    return inTransaction(this.db, async (trx) => {
      const ledger = await readLedger(trx, this.orders, orderId, true);
      const existing = await this.find(trx, requestKey);
      if (existing?.answer) return JSON.parse(existing.answer) as Outcome<Answer>;
      const now = new Date();
      const finished = await step.finish(trx, ledger, plan, results, now);
      await trx
        .updateTable('billing_requests')
        .set({ status: 'DONE', answer: JSON.stringify(finished), updated_at: now.toISOString() })
        .where('key', '=', requestKey)
        .execute();
      return finished;
    });
  }

  private find(trx: Transaction<Tables>, requestKey: string) {
    return trx.selectFrom('billing_requests').selectAll().where('key', '=', requestKey).executeTakeFirst();
  }
}
