import type { FieldViolation, WeightUnit } from '@cartwheel/sdk';
import { type Kysely, sql, type Transaction } from 'kysely';
import { variantNamedBy } from '../catalog/model.ts';
import type { CatalogService } from '../catalog/service.ts';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { checkFilterBudget } from '../shared/filter-budget.ts';
import { newId } from '../shared/ids.ts';
import { currencyOf } from '../shared/money.ts';
import type { Principal } from '../shared/principal.ts';
import { documentOf, type OrderDocument, type StoredOrder } from './document.ts';
import { buyerEmail, type OrderSource, orderDocument } from './model.ts';
import { type RecordedOrder, recordedOrder } from './recorded.ts';
import type { RecordedOrderInput, RecordedOrderSettings } from './schemas.ts';
import {
  type Condition,
  compileFilter,
  decodeCursor,
  encodeCursor,
  indexOrderLists,
  leadingTag,
  MAX_ORDERS_PAGE,
  type OrderSearch,
  pageKeysQuery,
  searchColumns,
  sortOf,
  statusesNamed,
  textSearch,
  textSearchWay,
} from './search.ts';
import { statusesBefore, transition } from './status.ts';
import type { OrderRow } from './tables.ts';
import { type OrderChange, OrderWrites } from './writes.ts';

/** Order numbers start here and go up by one per order, as the hosted platform's do. */
export const FIRST_ORDER_NUMBER = 10001;

export { documentOf, type OrderDocument } from './document.ts';
export { MAX_ORDERS_PAGE, type OrderSearch } from './search.ts';

/**
 * What the orders domain needs of the others: the mailer its writes queue emails through, the store's currency, weight unit and tax setting a
 * recorded order is held to (read when used), the members, the catalog and the payment recorder.
 */
export interface OrderDependencies {
  /** The emails a change of an order queues in its transaction (OrderWrites' `emails`). */
  mailer: Pick<Mailer, 'queue'>;
  storeSettings: {
    storeSettings(): Promise<{ currency: string; weightUnit: WeightUnit; taxIncludedInPrices: boolean }>;
  };
  /** Whether a member of this id exists (a recorded order's `buyerInfo.memberId`). */
  memberExists: (memberId: string) => Promise<boolean>;
  /** What the catalog holds of these products (a recorded order's stores lines), by id. */
  catalog: Pick<CatalogService, 'pricingFacts'>;
  /**
   * Keeps the payment an order was recorded with as one of its transactions, in `trx` (billing);
   * answers the order's transactions `updated` event, recorded with the order's own.
   */
  recordPayment: (
    trx: Transaction<Tables>,
    orderId: string,
    payment: { amount: string; currency: string; status: 'APPROVED' | 'PENDING' },
    now: Date,
  ) => Promise<DomainEvent>;
}

export interface OrderOptions {
  /** Where the storefront answers (the link to the order in its confirmation). */
  publicUrl: string;
  storeName: string;
  dialect: DialectName;
}

/**
 * Orders: created from a checkout (`INITIALIZED` while its payment is in flight, numbered and
 * approved when paid, when the buyer is sent its confirmation), and the buyer's and the admin's
 * reads, and the orders a merchant records (`createRecorded`).
 */
export class OrderService {
  /** The one lock-and-save of an order (writes.ts), which orders being placed go through too. */
  private readonly writes: OrderWrites;

  /** Which database: the free search's trigram index differs (search.ts `textSearch`). */
  private readonly dialect: DialectName;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: OrderDependencies,
    options: OrderOptions,
  ) {
    this.writes = new OrderWrites(deps, options);
    this.dialect = options.dialect;
  }

  /**
   * An `INITIALIZED` order for a checkout whose payment is about to be asked for, inside `trx`. It has
   * no number and is announced to no one until `approve`; `discard` removes it if the payment fails.
   */
  async createInitialized(trx: Transaction<Tables>, source: OrderSource, now: Date): Promise<string> {
    const id = newId();
    const doc = { ...orderDocument(source), shippable: source.priced.shippable };
    await this.insert(trx, id, doc, now, {
      number: null,
      status: 'INITIALIZED',
      // a subscription's renewal is made of its contract, not of a checkout
      checkout_id: source.subscription ? null : source.checkoutId,
      visitor_id: source.buyer.visitorId,
      member_id: source.buyer.memberId,
    });
    return id;
  }

  /**
   * `POST /v1/orders` (`createOrder`): an order the merchant or an app records, e.g. from a till. Its
   * lines and totals are checked to add up (recorded.ts), its member and its stores lines to exist; it
   * is numbered from the checkout orders' counter. Its approval strategy met (paid, or an order of 0
   * under DEFAULT) it is `APPROVED` and told as a placed order is (its activities, its `created` and
   * `approved` events, the buyer's confirmation unless asked not to); otherwise it is `INITIALIZED`,
   * announced `created` only, until it is paid (billing, through OrderWrites.settlePayment). A `PAID` or `PENDING` order keeps its
   * total as a recorded payment, told by its transactions' `updated` event. It takes no stock: the
   * hosted call has no setting for it.
   */
  async createRecorded(
    order: RecordedOrderInput,
    settings: RecordedOrderSettings | null | undefined,
  ): Promise<OrderDocument> {
    const store = await this.deps.storeSettings.storeSettings();
    const currency = currencyOf(store.currency);
    const recorded = recordedOrder(order, settings, {
      currency,
      weightUnit: store.weightUnit,
      taxIncludedInPrices: store.taxIncludedInPrices,
    });
    await this.checkReferences(recorded);
    const approved = recorded.status === 'APPROVED';
    return inTransaction(this.db, async (trx) => {
      const now = new Date();
      const id = newId();
      // an order waiting for its payment sends the buyer its confirmation when approved
      const doc = approved ? recorded.doc : { ...recorded.doc, confirmOnApproval: recorded.notifyBuyer };
      await this.insert(trx, id, doc, now, {
        number: await this.nextNumber(trx),
        status: recorded.status,
        checkout_id: null,
        visitor_id: null,
        member_id: recorded.memberId,
      });
      const paid = recorded.payment
        ? await this.deps.recordPayment(trx, id, { ...recorded.payment, currency: currency.code }, now)
        : undefined;
      await this.writeActivities(
        trx,
        id,
        [{ type: 'ORDER_PLACED' }, ...(recorded.paymentStatus === 'PAID' ? [{ type: 'ORDER_PAID' }] : [])],
        now,
        { payment_status: recorded.paymentStatus },
      );
      const created = (await this.read(trx, id))!;
      const events: DomainEvent[] = [
        { entity: 'order', slug: 'created', entityId: id, payload: { entity: created } },
      ];
      // its transactions are told as every later payment's are: the order's transactions updated
      if (paid) events.push(paid);
      if (approved) events.push(approvedEvent(created, recorded.notifyBuyer));
      await recordEvents(trx, events, now);
      return created;
    });
  }

  /**
   * A recorded order's member and stores lines must exist: the member, and each line's product and the
   * variant its options name (a product with options needs one named). Field violations name the
   * fields; other apps' catalog items are theirs to know.
   */
  private async checkReferences(recorded: RecordedOrder): Promise<void> {
    const violations: FieldViolation[] = [];
    if (recorded.memberId !== null && !(await this.deps.memberExists(recorded.memberId)))
      violations.push(
        violation('order.buyerInfo.memberId', `no member has the id ${recorded.memberId}`, 'VALIDATION'),
      );
    const lines = recorded.catalogLines;
    if (lines.length > 0) {
      const facts = await this.deps.catalog.pricingFacts([...new Set(lines.map((line) => line.productId))]);
      for (const line of lines) {
        const fact = facts.get(line.productId);
        if (!fact)
          violations.push(
            violation(
              `${line.field}.catalogItemId`,
              `the store has no product ${line.productId}`,
              'VALIDATION',
            ),
          );
        else if (!variantNamedBy(fact.record, line.options))
          violations.push(
            violation(
              `${line.field}.options`,
              `names no variant of product ${line.productId} (its variantId, or a choice of each option)`,
              'VALIDATION',
            ),
          );
      }
    }
    if (violations.length > 0) throw invalidArgument(violations);
  }

  /**
   * An order created by the API's create-order, numbered at once: `APPROVED` when there is nothing to
   * pay, else `INITIALIZED` and `NOT_PAID` until its payment is collected.
   */
  async createFromCheckout(
    trx: Transaction<Tables>,
    source: OrderSource,
    paid: boolean,
    now: Date,
  ): Promise<OrderDocument> {
    const id = await this.createInitialized(trx, source, now);
    if (paid) return this.approve(trx, id, { paymentStatus: 'PAID' }, now);
    const number = await this.nextNumber(trx);
    await this.writeActivities(trx, id, [{ type: 'ORDER_PLACED' }], now, { number });
    const order = (await this.read(trx, id))!;
    await recordEvents(
      trx,
      [{ entity: 'order', slug: 'created', entityId: id, payload: { entity: order } }],
      now,
    );
    return order;
  }

  /**
   * The order's payment went through (or needs none): it gets its number, `APPROVED`, the payment
   * status given, `FULFILLED` at once when nothing ships; its activities, events and the buyer's
   * confirmation email are written in `trx`. An order is approved once (its checkout's lock and
   * attempt say so), so a retried payment never mails a second confirmation.
   */
  async approve(
    trx: Transaction<Tables>,
    orderId: string,
    outcome: { paymentStatus: 'PAID' | 'PENDING' },
    now: Date,
  ): Promise<OrderDocument> {
    const row = await trx
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow();
    const approved = transition('approve', row);
    if (approved !== 'APPROVED')
      throw applicationError(
        'FAILED_PRECONDITION',
        'ORDER_STATUS_IS_NOT_SUPPORTED',
        `an order ${row.status} cannot be approved`,
        { orderId, status: row.status },
      );
    const doc = JSON.parse(row.doc) as { shippable?: boolean };
    const number = row.number ?? (await this.nextNumber(trx));
    const activities = [
      ...(row.number === null ? [{ type: 'ORDER_PLACED' }] : []),
      ...(outcome.paymentStatus === 'PAID' ? [{ type: 'ORDER_PAID' }] : []),
    ];
    await this.writeActivities(trx, orderId, activities, now, {
      number,
      status: approved,
      payment_status: outcome.paymentStatus,
      fulfillment_status: doc.shippable ? 'NOT_FULFILLED' : 'FULFILLED',
    });
    const order = (await this.read(trx, orderId))!;
    const events: DomainEvent[] = [];
    // an order paid through the checkout page was never announced while its payment was in flight
    if (row.number === null)
      events.push({ entity: 'order', slug: 'created', entityId: orderId, payload: { entity: order } });
    else events.push({ entity: 'order', slug: 'updated', entityId: orderId, payload: { entity: order } });
    events.push(approvedEvent(order, true));
    await recordEvents(trx, events, now);
    return order;
  }

  /**
   * Cancels an order still waiting for its payment (`INITIALIZED`): its checkout changed, so it will
   * never be paid as it is. Undefined when the order is past that (paid, or canceled already);
   * `heldStock`: it held its lines' stock (OrderRow.holds_stock), for the caller to give back.
   */
  async cancelUnpaid(
    trx: Transaction<Tables>,
    orderId: string,
    now: Date,
  ): Promise<{ heldStock: boolean } | undefined> {
    const row = await trx
      .selectFrom('orders')
      .select(['id', 'status', 'checkout_id', 'holds_stock'])
      .where('id', '=', orderId)
      .executeTakeFirst();
    const canceled = row ? transition('cancelUnpaid', row) : undefined;
    if (!row || canceled !== 'CANCELED') return undefined;
    await this.writeActivities(trx, orderId, [{ type: 'ORDER_CANCELED' }], now, {
      status: canceled,
      holds_stock: 0,
    });
    const order = (await this.read(trx, orderId))!;
    await recordEvents(
      trx,
      [
        { entity: 'order', slug: 'updated', entityId: orderId, payload: { entity: order } },
        { entity: 'order', slug: 'canceled', entityId: orderId, payload: { entity: order } },
      ],
      now,
    );
    return { heldStock: Number(row.holds_stock) === 1 };
  }

  /**
   * A guest's orders join a member: those bought with `email` by a visitor no member was signed in
   * as. Call it only for whoever may have them: the member who proved `email` is theirs (verified),
   * or, with `fromVisitor`, the very visitor who placed them, signing in as a member with that
   * email (they could read those orders already). Each joins once; answers how many joined.
   */
  async adoptGuestOrders(memberId: string, email: string, fromVisitor?: string): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      let query = trx
        .selectFrom('orders')
        .select(['id', 'doc'])
        .where('buyer_email', '=', buyerEmail(email))
        .where('member_id', 'is', null);
      if (fromVisitor !== undefined) query = query.where('visitor_id', '=', fromVisitor);
      const guests = await query.execute();
      const now = new Date();
      const events: DomainEvent[] = [];
      let adopted = 0;
      for (const guest of guests) {
        const doc = JSON.parse(guest.doc) as { buyerInfo?: Record<string, unknown> };
        doc.buyerInfo = { ...doc.buyerInfo, memberId };
        const joined = await trx
          .updateTable('orders')
          .set({ member_id: memberId, doc: JSON.stringify(doc), updated_at: now.toISOString() })
          .where('id', '=', guest.id)
          .where('member_id', 'is', null)
          .executeTakeFirst();
        if (Number(joined.numUpdatedRows) === 0) continue;
        adopted++;
        const order = await this.read(trx, guest.id);
        // an order still waiting for its payment is announced when approved, with its member then
        if (order?.number !== undefined)
          events.push({ entity: 'order', slug: 'updated', entityId: guest.id, payload: { entity: order } });
      }
      await recordEvents(trx, events, now);
      return adopted;
    });
  }

  /** The order's status, if there is such an order (create-order's answer for a checkout that has one). */
  async statusOf(
    trx: Transaction<Tables>,
    orderId: string,
  ): Promise<Pick<OrderRow, 'id' | 'status'> | undefined> {
    return trx.selectFrom('orders').select(['id', 'status']).where('id', '=', orderId).executeTakeFirst();
  }

  /**
   * Keeps on the order how many of each line's units its checkout took as preorders (by line id), so a
   * restock (a cancel's, a refund's) gives them back to the preorder count (document.ts).
   */
  async notePreorders(
    trx: Transaction<Tables>,
    orderId: string,
    units: Record<string, number>,
  ): Promise<void> {
    if (Object.keys(units).length === 0) return;
    const row = await trx.selectFrom('orders').select('doc').where('id', '=', orderId).executeTakeFirst();
    if (!row) return;
    const doc = JSON.parse(row.doc) as StoredOrder;
    doc.preorderedUnits = units;
    await trx
      .updateTable('orders')
      .set({ doc: JSON.stringify(doc) })
      .where('id', '=', orderId)
      .execute();
  }

  /** The order if it still waits for its payment (`INITIALIZED`): what a payment for it is for. */
  async waitingForPayment(
    trx: Transaction<Tables>,
    orderId: string,
  ): Promise<Pick<OrderRow, 'id' | 'doc' | 'holds_stock'> | undefined> {
    return trx
      .selectFrom('orders')
      .select(['id', 'doc', 'holds_stock'])
      .where('id', '=', orderId)
      .where('status', '=', 'INITIALIZED')
      .executeTakeFirst();
  }

  /** Removes an order whose payment failed before it was ever numbered or announced. */
  async discard(trx: Transaction<Tables>, orderId: string): Promise<void> {
    await trx
      .deleteFrom('orders')
      .where('id', '=', orderId)
      .where('status', 'in', statusesBefore('discard'))
      .where('number', 'is', null)
      .execute();
  }

  /** `GET /v1/orders/{id}`: the buyer's own order, or any for an admin; NOT_FOUND otherwise. */
  async get(id: string, principal: Principal): Promise<OrderDocument> {
    const row = await this.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.number === null || !ownsOrder(principal, row)) throw notFound('order', id);
    return documentOf(row);
  }

  /** Of `ids`, those the caller may read (numbered orders they bought; all for an admin). */
  async readable(ids: string[], principal: Principal): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('orders')
      .select(['id', 'number', 'visitor_id', 'member_id'])
      .where('id', 'in', ids)
      .execute();
    return new Set(
      rows.filter((row) => row.number !== null && ownsOrder(principal, row)).map((row) => row.id),
    );
  }

  /** `POST /v1/orders/search`: cursor paging, newest first by default; never `INITIALIZED`. */
  async search(
    search: OrderSearch,
    principal: Principal,
  ): Promise<{
    orders: OrderDocument[];
    metadata: { count: number; cursors: { next: string | null; prev: string | null }; hasNext: boolean };
  }> {
    const cursor = search.cursorPaging?.cursor ? decodeCursor(search.cursorPaging.cursor) : undefined;
    const filter = cursor?.filter ?? search.filter ?? {};
    const text = cursor ? cursor.text : (search.search?.expression ?? undefined);
    const sort = cursor?.sort ?? sortOf(search.sort);
    const limit = search.cursorPaging?.limit ?? cursor?.limit ?? MAX_ORDERS_PAGE;
    checkFilterBudget(filter, 'search.filter');
    // a tag every order found holds leads: its rows walk newest first, each joined to its order
    const tag = sort.column === 'created_at' ? leadingTag(filter) : undefined;
    const filtered = compileFilter(tag?.rest ?? filter, 'search.filter');
    const way = principal.kind === 'anonymous' ? 'index' : await textSearchWay(this.db, text, this.dialect);
    const typed = textSearch(text, this.dialect, way);
    const condition: Condition = typed ? (eb) => eb.and([filtered(eb), typed(eb)]) : filtered;
    const named = statusesNamed(filter);
    const backwards = cursor?.direction === 'prev';
    // walking back to the previous page reads the sort the other way, then turns the page around
    const descending = backwards ? !sort.descending : sort.descending;
    if (principal.kind === 'anonymous') return emptyPage();
    // the page is chosen on the keys alone, then its documents are read
    const keys = await pageKeysQuery(this.db, {
      tag,
      condition,
      sort: { column: sort.column, descending },
      hiddenStatuses: ['PENDING', 'REJECTED'].filter((status) => !named.has(status)),
      owner: principal,
      after: cursor?.key,
      limit: limit + 1,
    }).execute();
    const more = keys.length > limit;
    const chosen = keys.slice(0, limit).map((key) => key.id);
    const found =
      chosen.length === 0
        ? []
        : await this.db.selectFrom('orders').selectAll().where('id', 'in', chosen).execute();
    const byId = new Map(found.map((row) => [row.id, row]));
    const page = chosen.map((id) => byId.get(id)).filter((row): row is OrderRow => row !== undefined);
    if (backwards) page.reverse();
    const keyOf = (row: OrderRow): [string | number, string] => [row[sort.column] as string | number, row.id];
    const base = { filter, sort, limit, ...(typed && text ? { text } : {}) };
    const first = page[0];
    const last = page[page.length - 1];
    const hasNext = backwards ? true : more;
    const hasPrev = backwards ? more : cursor !== undefined;
    return {
      orders: page.map(documentOf),
      metadata: {
        count: page.length,
        cursors: {
          next: hasNext && last ? encodeCursor({ ...base, key: keyOf(last), direction: 'next' }) : null,
          prev: hasPrev && first ? encodeCursor({ ...base, key: keyOf(first), direction: 'prev' }) : null,
        },
        hasNext: hasNext && last !== undefined,
      },
    };
  }

  // ---- internals ----

  /** Writes a new order's row, its search columns and side tables (one way for every kind of order). */
  private async insert(
    trx: Transaction<Tables>,
    id: string,
    doc: Record<string, unknown>,
    now: Date,
    columns: Pick<OrderRow, 'number' | 'status' | 'checkout_id' | 'visitor_id' | 'member_id'>,
  ): Promise<void> {
    const at = now.toISOString();
    await trx
      .insertInto('orders')
      .values({
        id,
        ...columns,
        payment_status: 'NOT_PAID',
        fulfillment_status: 'NOT_FULFILLED',
        created_at: at,
        updated_at: at,
        doc: JSON.stringify(doc),
        holds_stock: 0,
        ...searchColumns(doc),
      })
      .execute();
    await indexOrderLists(trx, { id, created_at: at }, doc);
  }

  /** The next order number: the counter row is bumped inside the order's transaction (and locked by it). */
  private async nextNumber(trx: Transaction<Tables>): Promise<number> {
    const row = await trx
      .insertInto('order_counters')
      .values({ name: 'orders', value: FIRST_ORDER_NUMBER })
      .onConflict((conflict) =>
        conflict.column('name').doUpdateSet({ value: sql<number>`order_counters.value + 1` }),
      )
      .returning('value')
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  /** A change as an order is placed, through the one save (writes.ts); its events are the caller's. */
  private async writeActivities(
    trx: Transaction<Tables>,
    orderId: string,
    activities: Array<{ type: string }>,
    now: Date,
    columns: OrderChange['columns'],
  ): Promise<void> {
    const locked = await this.writes.lock(trx, orderId, { hold: false, unplaced: true });
    await this.writes.save(trx, locked, { columns, activities, announce: false }, now);
  }

  private async read(trx: Transaction<Tables>, id: string): Promise<OrderDocument | undefined> {
    const row = await trx.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
    return row && documentOf(row);
  }
}

/**
 * Whether the caller bought the order: a member's own orders, and (as for a visitor) those bought as a
 * guest by the visitor the member signed in as, whose identity the member's tokens carry on: a guest
 * who signs up on the thank-you page still reads the order they just placed, whatever email it names.
 */
export function ownsOrder(principal: Principal, row: Pick<OrderRow, 'visitor_id' | 'member_id'>): boolean {
  switch (principal.kind) {
    case 'admin':
      return true;
    case 'member':
      return (
        row.member_id === principal.memberId ||
        (row.member_id === null && row.visitor_id === principal.visitorId)
      );
    case 'visitor':
      return row.member_id === null && row.visitor_id === principal.visitorId;
    default:
      return false;
  }
}

/**
 * An order's `approved` event. `notifyBuyer: false` (a recorded order asked not to) tells the
 * confirmation email's subscriber (orders/confirmation-email.ts) to send none.
 */
function approvedEvent(order: OrderDocument, notifyBuyer: boolean): DomainEvent {
  const payload = notifyBuyer ? { entity: order } : { entity: order, notifyBuyer: false };
  return { entity: 'order', slug: 'approved', entityId: order.id, payload };
}

function emptyPage() {
  return { orders: [], metadata: { count: 0, cursors: { next: null, prev: null }, hasNext: false } };
}
