import { STORES_APP_ID, type SubscriptionContract, type SubscriptionContractStatus } from '@cartwheel/sdk';
import type { Kysely, Transaction } from 'kysely';
import type { CatalogService, StockItem } from '../catalog/service.ts';
import type { DialectName } from '../db/database.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { type OrderSource, orderDocument } from '../orders/model.ts';
import type { OrderService } from '../orders/service.ts';
import type { CheckedCard } from '../payments/card.ts';
import type { PaymentMethod, PaymentProvider } from '../payments/provider.ts';
import type { PaymentService } from '../payments/service.ts';
import type { Priced } from '../pricing/contract.ts';
import { applicationError, notFound } from '../shared/errors.ts';
import { timeOrderedId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import {
  applyWqlFilter,
  applyWqlSort,
  readWqlCursor,
  type WqlField,
  type WqlSort,
  writeWqlCursor,
} from '../shared/wql-query.ts';
import { addPeriods, type Frequency } from './schedule.ts';
import type { SubscriptionContractRow, SubscriptionRenewalRow } from './tables.ts';

/** How long a renewal's claim holds its contract: a process that died mid-renewal lets go after it. */
export const RENEWAL_CLAIM_MS = 2 * 60_000;
/** A declined renewal is tried again after these waits; after the last, the contract is PAYMENT_FAILED. */
export const RETRY_AFTER_MS = [60 * 60_000, 6 * 60 * 60_000, 24 * 60 * 60_000];
/** How many due contracts one run of the worker renews. */
const DUE_PAGE = 100;

export interface SubscriptionDependencies {
  orders: Pick<OrderService, 'createInitialized' | 'approve'>;
  payments: Pick<PaymentService, 'providers' | 'recordPayment'>;
  /** A renewal's order takes its stock as any order does, and a declined charge gives it back. */
  catalog: Pick<CatalogService, 'takeStock' | 'returnStock'>;
}

/** What starting a contract needs: the paid order of cycle 1 and what it was made of. */
export interface ContractStart {
  attemptId: string;
  orderId: string;
  source: OrderSource;
  /** The method the provider kept by the first charge (its answer's `savedMethodId`), renewed with. */
  savedMethodId?: string | undefined;
}

/** The line a checkout sells by subscription (a checkout holding one holds nothing else). */
export const subscriptionLineOf = (priced: Priced) =>
  priced.lineItems.find((line) => line.subscriptionOptionInfo !== undefined);

/**
 * Subscription contracts (issue 34): a member's checkout of a line bought by subscription starts one
 * when its order is paid, with the card saved at the provider; a leased worker makes each due cycle's
 * order and charges the saved method off session, once per cycle however many processes run it and
 * whenever one dies (a claim in a transaction, the provider's idempotency key per contract, cycle and
 * try); a decline is retried with backoff. Each renewal's order takes its stock in the claim, as any
 * order does (the products locked, so a shopper racing it for the last unit and it never both get it):
 * short, the try fails as `OUT_OF_STOCK` before any charge and is retried on the decline's schedule.
 * The member pauses, resumes or cancels their own; staff any.
 */
export class SubscriptionService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: SubscriptionDependencies,
    private readonly options: { dialect: DialectName },
  ) {}

  /**
   * The method a checkout's subscription is renewed with, saved with the provider before the first
   * charge (a card is saved, then charged as the saved method; a saved method is kept as it is) or by
   * it (a provider's token, charged for the member to be saved: Stripe), and remembered by the attempt
   * so a retry charges the same one. A provider that saves no card cannot sell by subscription.
   */
  async methodFor(
    attemptId: string,
    provider: PaymentProvider,
    buyer: { memberId: string; contactId: string | null },
    method: PaymentMethod,
    now: Date,
  ): Promise<PaymentMethod> {
    const remembered = await this.rememberedMethod(attemptId);
    if (remembered) return saved(remembered.saved_method_id, remembered.customer_id);
    let savedMethodId: string;
    if (method.kind === 'saved') savedMethodId = method.savedMethodId;
    else if (method.kind === 'card' && provider.saveMethod)
      savedMethodId = await provider.saveMethod(buyer.memberId, method.card as CheckedCard);
    // saved by the charge itself (Stripe): the provider's answer names the method it kept (`start`)
    else if (method.kind === 'token' && provider.savesTokensOnCharge) savedMethodId = method.token;
    else
      throw applicationError(
        'FAILED_PRECONDITION',
        'SUBSCRIPTION_PAYMENT_METHOD_NOT_SAVABLE',
        "a subscription is renewed with a card saved at the store's payment provider, and this payment cannot be saved",
        { providerId: provider.id },
      );
    await this.db
      .insertInto('subscription_checkout_methods')
      .values({
        attempt_id: attemptId,
        provider_id: provider.id,
        saved_method_id: savedMethodId,
        customer_id: buyer.memberId,
        contact_id: buyer.contactId,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column('attempt_id').doNothing())
      .execute();
    const kept = (await this.rememberedMethod(attemptId))!;
    return saved(kept.saved_method_id, kept.customer_id);
  }

  /**
   * In the transaction approving a checkout's paid order: the contract its subscription line starts
   * (once per order), renewed from `source` every period after the order's.
   */
  async start(trx: Transaction<Tables>, start: ContractStart, now: Date): Promise<string | undefined> {
    const line = subscriptionLineOf(start.source.priced);
    const memberId = start.source.buyer.memberId;
    if (!line || !memberId) return undefined;
    const method = await trx
      .selectFrom('subscription_checkout_methods')
      .selectAll()
      .where('attempt_id', '=', start.attemptId)
      .executeTakeFirst();
    if (!method) return undefined;
    const existing = await trx
      .selectFrom('subscription_contracts')
      .select('id')
      .where('first_order_id', '=', start.orderId)
      .executeTakeFirst();
    if (existing) return existing.id;
    const option = line.subscriptionOptionInfo!;
    const settings = option.subscriptionSettings ?? {};
    const frequency = (settings.frequency ?? 'MONTH') as Frequency;
    const interval = settings.interval ?? 1;
    const at = now.toISOString();
    const id = timeOrderedId();
    const source: OrderSource = {
      ...start.source,
      buyer: { ...start.source.buyer, contactId: start.source.buyer.contactId ?? method.contact_id },
    };
    const order = orderDocument(source) as Record<string, unknown>;
    const doc: ContractDoc = {
      title: option.title?.original ?? '',
      description: option.description?.original ?? null,
      subscriptionSettings: {
        frequency,
        interval,
        autoRenewal: settings.billingCycles == null,
        billingCycles: settings.billingCycles ?? null,
        enableCustomerCancellation: true,
        startDate: at,
      },
      lineItems: order.lineItems as ContractDoc['lineItems'],
      buyerInfo: order.buyerInfo as ContractDoc['buyerInfo'],
      buyerLanguage: 'en',
      weightUnit: source.priced.weightUnit,
      currency: source.priced.currency,
      taxIncludedInPrices: source.priced.taxIncludedInPrices,
      priceSummary: order.priceSummary as ContractDoc['priceSummary'],
      billingInfo: order.billingInfo as ContractDoc['billingInfo'],
      ...(order.shippingInfo ? { shippingInfo: order.shippingInfo as ContractDoc['shippingInfo'] } : {}),
      ...(order.recipientInfo ? { recipientInfo: order.recipientInfo as ContractDoc['recipientInfo'] } : {}),
      appliedDiscounts: source.priced.appliedDiscounts,
      channelInfo: order.channelInfo as ContractDoc['channelInfo'],
      firstOrderId: start.orderId,
    };
    const next = addPeriods(now, frequency, interval);
    const row: SubscriptionContractRow = {
      id,
      member_id: memberId,
      contact_id: source.buyer.contactId,
      status: 'ACTIVE',
      first_order_id: start.orderId,
      doc: JSON.stringify(doc),
      source: JSON.stringify(source),
      frequency,
      interval_count: interval,
      billing_cycles: settings.billingCycles ?? null,
      cycles_billed: 1,
      next_billing_at: next.toISOString(),
      due_at: next.toISOString(),
      anchor_at: at,
      anchor_cycle: 1,
      provider_id: method.provider_id,
      saved_method_id: start.savedMethodId ?? method.saved_method_id,
      customer_id: method.customer_id,
      created_at: at,
      updated_at: at,
      revision: 1,
    };
    // a contract of one cycle is billed whole by its first order
    if (row.billing_cycles !== null && row.billing_cycles <= 1) row.status = 'ENDED';
    await trx.insertInto('subscription_contracts').values(row).execute();
    await recordEvents(trx, [contractEvent('created', contractOf(row, null))], now);
    return id;
  }

  /** One contract, as its member or staff see it (another member's is not found). */
  async get(principal: Principal, id: string): Promise<SubscriptionContract> {
    const row = await this.db
      .selectFrom('subscription_contracts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || !mayRead(principal, row)) throw notFound('subscription contract', id);
    return contractOf(row, await this.lastFailure(this.db, row));
  }

  /**
   * The hosted query: a member's own contracts, staff's all; filtered and sorted on the hosted fields
   * (`_id`, `buyerInfo.contactId`) and Cartwheel's (`status`, `buyerInfo.memberId`), then oldest first;
   * the next page's cursor carries the query on.
   */
  async query(principal: Principal, input: ContractQuery | undefined) {
    let query: ContractQuery = input ?? {};
    let offset = 0;
    const limit = query.cursorPaging?.limit ?? 50;
    const cursor = query.cursorPaging?.cursor;
    if (cursor) {
      const carried = readWqlCursor(cursor);
      query = { filter: carried.filter, sort: carried.sort };
      offset = carried.offset;
    }
    const own = principal.kind === 'admin' ? null : memberOf(principal);
    if (principal.kind !== 'admin' && own === null)
      return {
        subscriptionContracts: [],
        pagingMetadata: { count: 0, cursors: { next: null }, hasNext: false },
      };
    const sort = query.sort ?? [];
    let select = this.db
      .selectFrom('subscription_contracts')
      .selectAll()
      .$if(own !== null, (qb) => qb.where('member_id', '=', own as string));
    select = applyWqlFilter(select, CONTRACT_FIELDS, query.filter ?? {});
    select = applyWqlSort(select, CONTRACT_FIELDS, sort, 'id');
    const rows = await select
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const items = rows.slice(0, limit).map((row) => contractOf(row, null));
    const hasNext = rows.length > limit;
    const next = hasNext
      ? writeWqlCursor({ filter: query.filter ?? {}, sort, offset: offset + limit })
      : null;
    return {
      subscriptionContracts: items,
      pagingMetadata: { count: items.length, cursors: { next }, hasNext },
    };
  }

  /** The member (their own) or staff stop it for good: no more orders. */
  cancel(principal: Principal, id: string, now = new Date()): Promise<SubscriptionContract> {
    return this.change(principal, id, now, (row) => {
      if (row.status === 'CANCELED') return undefined;
      if (row.status === 'ENDED') throw notChangeable(row, 'cancel');
      return { status: 'CANCELED' };
    });
  }

  /** Renewals stop until it is resumed. */
  pause(principal: Principal, id: string, now = new Date()): Promise<SubscriptionContract> {
    return this.change(principal, id, now, (row) => {
      if (row.status === 'PAUSED') return undefined;
      if (row.status !== 'ACTIVE') throw notChangeable(row, 'pause');
      return { status: 'PAUSED' };
    });
  }

  /**
   * Renewals start again: a cycle that fell due while it was paused (or whose charge failed for good)
   * is billed at once, and the next ones follow from then.
   */
  resume(principal: Principal, id: string, now = new Date()): Promise<SubscriptionContract> {
    return this.change(principal, id, now, (row) => {
      if (row.status === 'ACTIVE') return undefined;
      if (row.status !== 'PAUSED' && row.status !== 'PAYMENT_FAILED') throw notChangeable(row, 'resume');
      const at = now.toISOString();
      const next = row.next_billing_at < at ? at : row.next_billing_at;
      return {
        status: 'ACTIVE',
        next_billing_at: next,
        due_at: next,
        anchor_at: next,
        anchor_cycle: row.cycles_billed + 1,
      };
    });
  }

  /**
   * The worker's run: renews every active contract due by `now` (its next cycle's order made and paid,
   * or its decline scheduled for a retry). Safe on several processes at once; answers how many
   * renewals it settled (paid or declined).
   */
  async renewDue(now: Date, onError?: (error: unknown) => void): Promise<number> {
    const due = await this.db
      .selectFrom('subscription_contracts')
      .select('id')
      .where('status', '=', 'ACTIVE')
      .where('due_at', '<=', now.toISOString())
      .orderBy('due_at')
      .limit(DUE_PAGE)
      .execute();
    let settled = 0;
    for (const { id } of due) {
      try {
        if (await this.renew(id, now)) settled += 1;
      } catch (error) {
        // one contract's trouble (its provider unreachable) leaves the others to go on; its claim lapses
        if (onError) onError(error);
        else throw error;
      }
    }
    return settled;
  }

  /**
   * One contract's due cycle: (1) claimed in a transaction holding the contract, its order made
   * `INITIALIZED` once; (2) the saved method charged outside any transaction under the key of the
   * contract, cycle and try; (3) the answer written holding the contract again. A process that dies
   * between leaves the claim to lapse, and the next run asks again under the same key: the provider
   * answers the first charge, so a cycle is never charged twice.
   */
  async renew(id: string, now: Date): Promise<boolean> {
    const claim = await inTransaction(this.db, (trx) => this.claim(trx, id, now));
    if (!claim) return false;
    // out of stock: a failed try, written with the claim, no charge asked for
    if (claim === 'OUT_OF_STOCK') return true;
    const { row, renewal, source } = claim;
    const provider = this.deps.payments.providers.get(row.provider_id);
    const amount = source.priced.amounts.total;
    const result = await provider.authorize({
      idempotencyKey: renewalKey(renewal),
      amount,
      currency: source.priced.currency,
      method: saved(row.saved_method_id, row.customer_id),
      capture: true,
      offSession: true,
    });
    return inTransaction(this.db, async (trx) => {
      const current = await this.lock(trx, id);
      const held = await trx
        .selectFrom('subscription_renewals')
        .selectAll()
        .where('contract_id', '=', id)
        .where('cycle', '=', renewal.cycle)
        .executeTakeFirst();
      // another process settled this try already (the claim lapsed while this one waited)
      if (!current || held?.status !== 'CHARGING' || held.try !== renewal.try) return false;
      const at = now.toISOString();
      if (result.status === 'APPROVED') {
        await this.deps.orders.approve(
          trx,
          renewal.order_id,
          { paymentStatus: result.captured ? 'PAID' : 'PENDING' },
          now,
        );
        const total = source.priced.priceSummary.total;
        await this.deps.payments.recordPayment(
          trx,
          {
            orderId: renewal.order_id,
            attemptId: renewalKey(renewal),
            amount,
            formattedAmount: total?.formattedAmount ?? amount,
            currency: source.priced.currency,
            providerId: row.provider_id,
            transactionId: result.transactionId,
            providerTransactionId: result.providerTransactionId,
            card: result.card ?? { last4: '', brand: 'UNKNOWN' as CheckedCard['brand'] },
            authorizeOnly: !result.captured,
          },
          now,
        );
        await trx
          .updateTable('subscription_renewals')
          .set({ status: 'PAID', last_failure: null, next_attempt_at: null, updated_at: at })
          .where('contract_id', '=', id)
          .where('cycle', '=', renewal.cycle)
          .execute();
        const next = addPeriods(
          new Date(current.anchor_at),
          current.frequency as Frequency,
          current.interval_count * (renewal.cycle + 1 - current.anchor_cycle),
        ).toISOString();
        const ended = current.billing_cycles !== null && renewal.cycle >= current.billing_cycles;
        await this.write(trx, current, now, {
          cycles_billed: renewal.cycle,
          next_billing_at: next,
          due_at: next,
          // canceled or paused while this cycle was charging: it stays so
          ...(ended && current.status === 'ACTIVE' ? { status: 'ENDED' } : {}),
        });
        return true;
      }
      // declined (or a step off session cannot take): its stock back, tried again later under a new key
      await this.deps.catalog.returnStock(trx, renewalStock(source).items);
      await this.failTry(
        trx,
        current,
        renewal,
        result.status === 'DECLINED'
          ? { code: result.code, description: result.reason }
          : { code: 'AUTHENTICATION_REQUIRED', description: 'the card asks for its owner' },
        now,
      );
      return true;
    });
  }

  /**
   * A try of a renewal that failed (declined, or its items out of stock): tried again after the next
   * wait under a new key, or, the waits spent, given up on (the contract PAYMENT_FAILED until resumed).
   */
  private async failTry(
    trx: Transaction<Tables>,
    current: SubscriptionContractRow,
    renewal: SubscriptionRenewalRow,
    reason: { code: string; description: string },
    now: Date,
  ): Promise<void> {
    const at = now.toISOString();
    const failure = JSON.stringify({ ...reason, date: at });
    const wait = RETRY_AFTER_MS[renewal.try - 1];
    if (wait === undefined) {
      await trx
        .updateTable('subscription_renewals')
        .set({ status: 'FAILED', last_failure: failure, next_attempt_at: null, updated_at: at })
        .where('contract_id', '=', current.id)
        .where('cycle', '=', renewal.cycle)
        .execute();
      await this.write(trx, current, now, current.status === 'ACTIVE' ? { status: 'PAYMENT_FAILED' } : {});
      return;
    }
    const retryAt = new Date(now.getTime() + wait).toISOString();
    await trx
      .updateTable('subscription_renewals')
      .set({
        status: 'RETRYING',
        try: renewal.try + 1,
        last_failure: failure,
        next_attempt_at: retryAt,
        updated_at: at,
      })
      .where('contract_id', '=', current.id)
      .where('cycle', '=', renewal.cycle)
      .execute();
    await this.write(trx, current, now, { due_at: retryAt });
  }

  /** Step 1: the contract's due cycle claimed (its order made once), or undefined when not due here. */
  private async claim(trx: Transaction<Tables>, id: string, now: Date) {
    const row = await this.lock(trx, id);
    const at = now.toISOString();
    if (row === undefined) return undefined;
    if (row.status !== 'ACTIVE' || row.due_at > at) return undefined;
    const cycle = row.cycles_billed + 1;
    const source = JSON.parse(row.source) as OrderSource;
    let renewal = await trx
      .selectFrom('subscription_renewals')
      .selectAll()
      .where('contract_id', '=', id)
      .where('cycle', '=', cycle)
      .executeTakeFirst();
    // a claim that lapsed mid-charge still holds the stock it took; a new or failed try takes it again
    const holdsStock = renewal?.status === 'CHARGING';
    const claimedUntil = new Date(now.getTime() + RENEWAL_CLAIM_MS).toISOString();
    if (!renewal) {
      const orderId = await this.deps.orders.createInitialized(
        trx,
        { ...source, subscription: { contractId: id, cycleNumber: cycle, startDate: row.created_at } },
        now,
      );
      renewal = {
        contract_id: id,
        cycle,
        status: 'CHARGING',
        order_id: orderId,
        try: 1,
        claimed_until: claimedUntil,
        next_attempt_at: null,
        last_failure: null,
        created_at: at,
        updated_at: at,
      };
      await trx.insertInto('subscription_renewals').values(renewal).execute();
    } else {
      if (renewal.status === 'PAID') return undefined;
      // a cycle given up on (PAYMENT_FAILED), then resumed: one more try, under a new key
      const tryNumber = renewal.status === 'FAILED' ? renewal.try + 1 : renewal.try;
      renewal = {
        ...renewal,
        status: 'CHARGING',
        try: tryNumber,
        claimed_until: claimedUntil,
        updated_at: at,
      };
      await trx
        .updateTable('subscription_renewals')
        .set({ status: 'CHARGING', try: tryNumber, claimed_until: claimedUntil, updated_at: at })
        .where('contract_id', '=', id)
        .where('cycle', '=', cycle)
        .execute();
    }
    if (!holdsStock) {
      const stock = renewalStock(source);
      const { short } = await this.deps.catalog.takeStock(trx, stock.items);
      if (short.length > 0) {
        const names = [...new Set(short.map((shortfall) => stock.names[shortfall.index]))].join(', ');
        await this.failTry(
          trx,
          row,
          renewal,
          { code: 'OUT_OF_STOCK', description: `out of stock: ${names}` },
          now,
        );
        return 'OUT_OF_STOCK' as const;
      }
    }
    // no other run takes it up until this claim lapses
    await trx
      .updateTable('subscription_contracts')
      .set({ due_at: claimedUntil })
      .where('id', '=', id)
      .execute();
    return { row, renewal, source };
  }

  private async change(
    principal: Principal,
    id: string,
    now: Date,
    decide: (row: SubscriptionContractRow) => Partial<SubscriptionContractRow> | undefined,
  ): Promise<SubscriptionContract> {
    return inTransaction(this.db, async (trx) => {
      const row = await this.lock(trx, id);
      if (!row || !mayRead(principal, row)) throw notFound('subscription contract', id);
      const change = decide(row);
      if (!change) return contractOf(row, await this.lastFailure(trx, row));
      const written = await this.write(trx, row, now, change);
      return contractOf(written, await this.lastFailure(trx, written));
    });
  }

  /** Writes a held contract's change with its revision and its `updated` event. */
  private async write(
    trx: Transaction<Tables>,
    row: SubscriptionContractRow,
    now: Date,
    change: Partial<SubscriptionContractRow>,
  ): Promise<SubscriptionContractRow> {
    const written = { ...row, ...change, updated_at: now.toISOString(), revision: row.revision + 1 };
    const { id: _id, ...values } = written;
    await trx.updateTable('subscription_contracts').set(values).where('id', '=', row.id).execute();
    await recordEvents(
      trx,
      [contractEvent('updated', contractOf(written, await this.lastFailure(trx, written)))],
      now,
    );
    return written;
  }

  /** The contract's row held until the transaction ends (the row lock on PostgreSQL, the write lock on SQLite). */
  private async lock(trx: Transaction<Tables>, id: string): Promise<SubscriptionContractRow | undefined> {
    if (this.options.dialect === 'sqlite')
      return trx
        .updateTable('subscription_contracts')
        .set((eb) => ({ revision: eb.ref('revision') }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    return trx
      .selectFrom('subscription_contracts')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }

  /** The decline the contract's next cycle waits out, if any. */
  private async lastFailure(db: Kysely<Tables>, row: SubscriptionContractRow) {
    const renewal = await db
      .selectFrom('subscription_renewals')
      .select(['try', 'status', 'last_failure', 'next_attempt_at'])
      .where('contract_id', '=', row.id)
      .where('cycle', '=', row.cycles_billed + 1)
      .executeTakeFirst();
    return renewal?.last_failure ? renewal : null;
  }

  private rememberedMethod(attemptId: string) {
    return this.db
      .selectFrom('subscription_checkout_methods')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .executeTakeFirst();
  }
}

/** The hosted query's input (the cursor, when given, carries the filter and sort it was made with). */
export interface ContractQuery {
  filter?: Record<string, unknown> | null | undefined;
  sort?: WqlSort[] | undefined;
  cursorPaging?: { limit?: number | null | undefined; cursor?: string | null | undefined } | null | undefined;
}

/** What the query filters and sorts on: the hosted fields, then Cartwheel's own (filter only). */
const CONTRACT_FIELDS: Record<string, WqlField & { column: keyof SubscriptionContractRow }> = {
  id: { column: 'id', sortable: true },
  _id: { column: 'id', sortable: true },
  'buyerInfo.contactId': { column: 'contact_id', sortable: true },
  status: { column: 'status', sortable: false },
  'buyerInfo.memberId': { column: 'member_id', sortable: false },
};

/** The wire contract but what its row's columns say. */
type ContractDoc = Omit<
  SubscriptionContract,
  | 'id'
  | 'revision'
  | 'createdDate'
  | 'updatedDate'
  | 'status'
  | 'nextBillingDate'
  | 'cyclesBilled'
  | 'renewalFailure'
  | 'subscriptionSettings'
> & {
  subscriptionSettings: Omit<NonNullable<SubscriptionContract['subscriptionSettings']>, 'startDate'> & {
    startDate: string;
  };
};

function contractOf(
  row: SubscriptionContractRow,
  failure: Pick<SubscriptionRenewalRow, 'try' | 'status' | 'last_failure' | 'next_attempt_at'> | null,
): SubscriptionContract {
  const doc = JSON.parse(row.doc) as ContractDoc;
  const last = failure?.last_failure
    ? (JSON.parse(failure.last_failure) as { code: string; description: string; date: string })
    : undefined;
  return {
    id: row.id,
    revision: String(row.revision),
    createdDate: row.created_at as unknown as Date,
    updatedDate: row.updated_at as unknown as Date,
    ...(doc as unknown as SubscriptionContract),
    status: row.status as SubscriptionContractStatus,
    cyclesBilled: row.cycles_billed,
    ...(row.status === 'ACTIVE' || row.status === 'PAUSED'
      ? { nextBillingDate: row.next_billing_at as unknown as Date }
      : {}),
    ...(last
      ? {
          renewalFailure: {
            code: last.code,
            description: last.description,
            failedDate: last.date as unknown as Date,
            failedAttempts: failure!.status === 'FAILED' ? failure!.try : failure!.try - 1,
            ...(failure!.next_attempt_at
              ? { nextAttemptDate: failure!.next_attempt_at as unknown as Date }
              : {}),
          },
        }
      : {}),
  };
}

function contractEvent(slug: 'created' | 'updated', contract: SubscriptionContract): DomainEvent {
  return { entity: 'subscriptionContract', slug, entityId: contract.id!, payload: { entity: contract } };
}

const memberOf = (principal: Principal) => (principal.kind === 'member' ? principal.memberId : null);
const mayRead = (principal: Principal, row: SubscriptionContractRow) =>
  principal.kind === 'admin' || memberOf(principal) === row.member_id;

const saved = (savedMethodId: string, customerId: string): PaymentMethod => ({
  kind: 'saved',
  savedMethodId,
  customerId,
});

/** The catalog lines of a contract's order as stock counts them, and each one's name for a failure. */
function renewalStock(source: OrderSource): { items: StockItem[]; names: string[] } {
  const items: StockItem[] = [];
  const names: string[] = [];
  for (const line of source.priced.lineItems) {
    const reference = line.catalogReference;
    if (!reference?.catalogItemId || (reference.appId && reference.appId !== STORES_APP_ID)) continue;
    const options = (reference.options ?? {}) as { variantId?: unknown; options?: unknown };
    items.push({
      productId: reference.catalogItemId,
      variantId: typeof options.variantId === 'string' ? options.variantId : undefined,
      choices:
        options.options && typeof options.options === 'object'
          ? (options.options as Record<string, string>)
          : undefined,
      quantity: line.quantity ?? 1,
    });
    names.push(line.productName?.original ?? reference.catalogItemId);
  }
  return { items, names };
}

/** The provider's idempotency key of one try of one cycle: a retry after a crash asks under it again. */
const renewalKey = (renewal: Pick<SubscriptionRenewalRow, 'contract_id' | 'cycle' | 'try'>) =>
  `subscription:${renewal.contract_id}:${renewal.cycle}:${renewal.try}`;

function notChangeable(row: SubscriptionContractRow, action: string) {
  return applicationError(
    'FAILED_PRECONDITION',
    'SUBSCRIPTION_CONTRACT_STATUS_NOT_SUPPORTED',
    `a ${row.status} subscription contract cannot ${action}`,
    { id: row.id, status: row.status },
  );
}
