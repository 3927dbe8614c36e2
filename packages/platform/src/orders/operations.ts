import { type Address, STORES_APP_ID } from '@cartwheel/sdk';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { StockItem } from '../catalog/service.ts';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { normalizeAddress } from '../shared/address.ts';
import { applicationError, DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { checkFilterBudget } from '../shared/filter-budget.ts';
import { documentOf, type OrderDocument, preorderedInRestock, type StoredOrderLine } from './document.ts';
import { cancellationEmail } from './notices.ts';
import { compileFilter, tagsOf } from './search.ts';
import { transition } from './status.ts';
import {
  type LockedOrder,
  type NewActivity,
  type OrderChange,
  OrderWrites,
  type StoredOrder,
} from './writes.ts';

export type { LockedOrder, NewActivity, OrderChange, StoredOrder } from './writes.ts';

/** Orders one bulk call changes. */
export const MAX_BULK_ORDERS = 100;

/**
 * What the merchant's order operations need of the other domains: the outbox for the buyer's emails,
 * stock to give back on a cancel with restock, and what an order shipped (fulfillments/records.ts: an
 * order with fulfillments is not canceled).
 */
export interface OrderOperationDependencies {
  mailer: Pick<Mailer, 'queue'>;
  catalog: { returnStock(trx: Transaction<Tables>, items: StockItem[]): Promise<void> };
  fulfillments: {
    fulfilledQuantities(trx: Transaction<Tables>, orderId: string): Promise<Map<string, number>>;
  };
  /** The order's payments still authorized (neither captured nor voided): a cancel would leave them held. */
  payments: {
    authorizedPaymentIds(trx: Transaction<Tables>, orderId: string): Promise<string[]>;
  };
}

export interface OrderOperationOptions {
  dialect: DialectName;
  publicUrl: string;
  storeName: string;
}

/** `updateOrder`'s order: the fields the hosted platform lets a merchant change. */
export interface OrderUpdate {
  buyerInfo?: { email?: string | null } | null;
  buyerLanguage?: string | null;
  weightUnit?: string | null;
  billingInfo?: { address?: Address | null; contactDetails?: Record<string, unknown> | null } | null;
  recipientInfo?: { address?: Address | null; contactDetails?: Record<string, unknown> | null } | null;
  shippingInfo?: {
    logistics?: {
      shippingDestination?: {
        address?: Address | null;
        contactDetails?: Record<string, unknown> | null;
      } | null;
    } | null;
  } | null;
  archived?: boolean | null;
  seenByAHuman?: boolean | null;
  attributionSource?: string | null;
}

export interface CancelOptions {
  sendOrderCanceledEmail?: boolean | undefined;
  customMessage?: string | null | undefined;
  restockAllItems?: boolean | undefined;
}

export interface TagsInput {
  tags?: { tagIds?: string[] | undefined } | undefined;
  privateTags?: { tagIds?: string[] | undefined } | undefined;
}

export interface ActivityInput {
  merchantComment?: { message?: string | undefined } | undefined;
  customActivity?: { appId?: string; type?: string; additionalData?: Record<string, string> } | undefined;
  type?: string | undefined;
}

/** A bulk call's answer for one item, as the hosted platform writes it. */
export interface ItemResult {
  itemMetadata: {
    id: string | null;
    originalIndex: number;
    success: boolean;
    error?: { code: string; description: string; data?: Record<string, unknown> };
  };
  item?: OrderDocument;
}

/** The activities a merchant may write, and so may delete. */
const MERCHANT_ACTIVITIES = new Set(['MERCHANT_COMMENT', 'CUSTOM_ACTIVITY']);

/**
 * The merchant's operations on a placed order: update what the hosted platform lets change, cancel
 * (with restock and the buyer's email), tags, the timeline's comments, and the dashboards' counts.
 * Every change locks the order's row for its transaction (`lock`), writes the activity that tells of
 * it and the order's events to the outbox in that same transaction (`save`), so two merchants'
 * changes never lose one another and a cancel and a fulfillment never both succeed.
 */
export class OrderOperations {
  /** The one lock-and-save every change of an order goes through, billing's and fulfillments' too. */
  readonly writes: OrderWrites;

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: OrderOperationDependencies,
    private readonly options: OrderOperationOptions,
  ) {
    this.writes = new OrderWrites(deps, options);
  }

  /** The order's row, locked until `trx` ends (writes.ts). */
  lock(trx: Transaction<Tables>, orderId: string): Promise<LockedOrder> {
    return this.writes.lock(trx, orderId);
  }

  /** Writes a locked order's change (writes.ts: the one way an order is written). */
  save(
    trx: Transaction<Tables>,
    locked: LockedOrder,
    change: OrderChange,
    now: Date,
  ): Promise<OrderDocument> {
    return this.writes.save(trx, locked, change, now);
  }

  /** Runs `change` on one locked order in a transaction of its own. */
  async change<T>(
    orderId: string,
    change: (trx: Transaction<Tables>, locked: LockedOrder) => Promise<T>,
  ): Promise<T> {
    return inTransaction(this.db, async (trx) => change(trx, await this.lock(trx, orderId)));
  }

  /** `PATCH /v1/orders/{order.id}`: the fields the hosted platform lets change; the rest is kept. */
  async update(
    orderId: string,
    update: OrderUpdate,
    fieldMask?: string,
    now = new Date(),
  ): Promise<OrderDocument> {
    const masked = fieldMask ? maskedUpdate(update, fieldMask) : update;
    return this.change(orderId, async (trx, locked) => {
      const activities = applyUpdate(locked.doc, masked, 'order');
      if (activities === undefined) return documentOf(locked.row);
      return this.save(trx, locked, { activities }, now);
    });
  }

  /** `POST /v1/bulk/orders/update`: each order in its own transaction; a result for each. */
  async bulkUpdate(
    orders: Array<{ order?: (OrderUpdate & { id?: string }) | undefined; fieldMask?: string | undefined }>,
    returnEntity: boolean,
  ): Promise<{ results: ItemResult[]; bulkActionMetadata: BulkMetadata }> {
    const results: ItemResult[] = [];
    for (const [index, masked] of orders.entries()) {
      const id = masked.order?.id;
      if (!id) {
        results.push(
          failure(
            null,
            index,
            invalidArgument([violation(`orders[${index}].order.id`, 'is required', 'REQUIRED_FIELD')]),
          ),
        );
        continue;
      }
      try {
        const order = await this.update(id, masked.order ?? {}, masked.fieldMask);
        results.push({
          itemMetadata: { id, originalIndex: index, success: true },
          ...(returnEntity ? { item: order } : {}),
        });
      } catch (error) {
        results.push(failure(id, index, error));
      }
    }
    return { results, bulkActionMetadata: metadataOf(results) };
  }

  /**
   * `POST /v1/orders/{id}/cancel`: an approved order with nothing shipped, or one the merchant recorded
   * that still waits for its payment, becomes CANCELED (a payment recorded for it later is refused, and
   * it is never approved); with `restockAllItems` its lines' stock is given back, exactly as bought; with
   * `sendOrderCanceledEmail` the buyer is told. As the hosted call, an order holding an authorization is
   * refused with ORDER_HAS_AUTHORIZED_TRANSACTION (the buyer's money would stay held: void it first, or
   * `voidAndCancel`), a PENDING one with ORDER_IS_PENDING, a REJECTED one with ORDER_IS_REJECTED;
   * anything else is ORDER_STATUS_IS_NOT_SUPPORTED.
   */
  async cancel(orderId: string, options: CancelOptions, now = new Date()): Promise<OrderDocument> {
    return this.change(orderId, async (trx, locked) => {
      const { row, doc } = locked;
      const canceled = await this.refusalToCancel(trx, locked);
      const activities: NewActivity[] = [{ type: 'ORDER_CANCELED' }];
      if (options.restockAllItems) {
        const items = restockItems(doc);
        if (items.length > 0) await this.deps.catalog.returnStock(trx, items);
        const restocked = new Map(items.map((item) => [item.lineId, item.quantity]));
        for (const line of lineItemsOf(doc)) {
          const quantity = restocked.get(line.id);
          if (quantity) line.restockedQuantity = (Number(line.restockedQuantity) || 0) + quantity;
        }
      }
      const order = documentOf(row);
      const email = options.sendOrderCanceledEmail
        ? cancellationEmail(order as never, options.customMessage ?? undefined, this.store(orderId))
        : undefined;
      if (email)
        activities.push({
          type: 'CUSTOM_ACTIVITY',
          customActivity: { type: 'ORDER_CANCELED_EMAIL_SENT', additionalData: { to: email.to } },
        });
      return this.save(
        trx,
        locked,
        { columns: { status: canceled }, activities, slugs: ['canceled'], emails: [email] },
        now,
      );
    });
  }

  /**
   * Refuses (throws) when the order cannot be canceled now, without changing it: the checks
   * `voidAndCancel` makes before voiding, so a void is never asked for an order its cancel
   * would refuse anyway. `authorizations: false` skips the held-money check (the void releases it).
   */
  async checkCancel(orderId: string, authorizations = true): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const locked = await this.writes.lock(trx, orderId, { hold: false });
      await this.refusalToCancel(trx, locked, authorizations);
    });
  }

  private async refusalToCancel(
    trx: Transaction<Tables>,
    locked: LockedOrder,
    authorizations = true,
  ): Promise<'CANCELED'> {
    const { row } = locked;
    const orderId = row.id;
    if (row.status === 'PENDING' || row.status === 'REJECTED')
      throw applicationError(
        'FAILED_PRECONDITION',
        row.status === 'PENDING' ? 'ORDER_IS_PENDING' : 'ORDER_IS_REJECTED',
        `an order ${row.status} cannot be canceled`,
        { orderId, status: row.status },
      );
    // a checkout's order waiting for its page's payment is the buyer's to pay (status.ts)
    const canceled = transition('cancel', row);
    if (canceled !== 'CANCELED') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'ORDER_STATUS_IS_NOT_SUPPORTED',
        row.status === 'INITIALIZED'
          ? "the order is waiting for its checkout's payment: the buyer pays or leaves it"
          : `an order ${row.status} cannot be canceled`,
        { orderId, status: row.status },
      );
    }
    const fulfilled = await this.deps.fulfillments.fulfilledQuantities(trx, orderId);
    if (fulfilled.size > 0) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'ORDER_STATUS_IS_NOT_SUPPORTED',
        'an order with fulfillments cannot be canceled: delete its fulfillments first',
        { orderId, status: row.status, fulfillmentStatus: row.fulfillment_status },
      );
    }
    if (authorizations) {
      const paymentIds = await this.deps.payments.authorizedPaymentIds(trx, orderId);
      if (paymentIds.length > 0)
        throw applicationError(
          'FAILED_PRECONDITION',
          'ORDER_HAS_AUTHORIZED_TRANSACTION',
          "the order holds an authorized payment: canceling would leave the buyer's money held; void it first (void and cancel)",
          { orderId, paymentIds },
        );
    }
    return canceled;
  }

  /**
   * `POST /v1/bulk/orders/update-tags`: assigns and unassigns public and private tags on each order,
   * each under its order's lock, so concurrent calls on one order lose none of each other's tags.
   */
  async bulkUpdateTags(
    orderIds: string[],
    assign: TagsInput | undefined,
    unassign: TagsInput | undefined,
    now = new Date(),
  ): Promise<{ results: ItemResult[]; bulkActionMetadata: BulkMetadata }> {
    const results: ItemResult[] = [];
    for (const [index, id] of orderIds.entries()) {
      try {
        await this.change(id, async (trx, locked) => {
          const before = tagsOf(locked.doc);
          const after = {
            public: changedTags(before.public, assign?.tags?.tagIds, unassign?.tags?.tagIds),
            private: changedTags(before.private, assign?.privateTags?.tagIds, unassign?.privateTags?.tagIds),
          };
          const same = (a: string[], b: string[]) =>
            a.length === b.length && a.every((tag, i) => tag === b[i]);
          if (same(before.public, after.public) && same(before.private, after.private)) return;
          locked.doc.tags = { privateTags: { tagIds: after.private }, tags: { tagIds: after.public } };
          const data = {
            assigned: [...after.public, ...after.private]
              .filter((tag) => !before.public.includes(tag) && !before.private.includes(tag))
              .join(','),
            unassigned: [...before.public, ...before.private]
              .filter((tag) => !after.public.includes(tag) && !after.private.includes(tag))
              .join(','),
          };
          await this.save(
            trx,
            locked,
            {
              tags: true,
              activities: [
                { type: 'CUSTOM_ACTIVITY', customActivity: { type: 'TAGS_UPDATED', additionalData: data } },
              ],
            },
            now,
          );
        });
        results.push({ itemMetadata: { id, originalIndex: index, success: true } });
      } catch (error) {
        results.push(failure(id, index, error));
      }
    }
    return { results, bulkActionMetadata: metadataOf(results) };
  }

  /** `POST /v1/orders/{orderId}/activities/add`: merchant comments and custom activities. */
  async addActivities(
    orderId: string,
    activities: ActivityInput[],
    now = new Date(),
  ): Promise<{ order: OrderDocument; activityIds: string[] }> {
    const added: NewActivity[] = activities.map((activity, index) => {
      const at = `orderActivities[${index}]`;
      if (activity.merchantComment) {
        const message = activity.merchantComment.message?.trim();
        if (!message)
          throw invalidArgument([
            violation(`${at}.merchantComment.message`, 'must not be empty', 'REQUIRED_FIELD'),
          ]);
        return { type: 'MERCHANT_COMMENT', merchantComment: { message: activity.merchantComment.message } };
      }
      if (activity.customActivity) {
        if (!activity.customActivity.type)
          throw invalidArgument([violation(`${at}.customActivity.type`, 'is required', 'REQUIRED_FIELD')]);
        return { type: 'CUSTOM_ACTIVITY', customActivity: activity.customActivity };
      }
      throw invalidArgument([
        violation(at, 'must hold a merchantComment or a customActivity', 'REQUIRED_FIELD'),
      ]);
    });
    return this.change(orderId, async (trx, locked) => {
      const order = await this.save(trx, locked, { activities: added }, now);
      const ids = (order.activities as Array<{ id: string }>)
        .slice(-added.length)
        .map((activity) => activity.id);
      return { order, activityIds: ids };
    });
  }

  /** `DELETE /v1/orders/{id}/activities/{activityId}`: a merchant's own comment or custom activity. */
  async deleteActivity(orderId: string, activityId: string, now = new Date()): Promise<OrderDocument> {
    return this.change(orderId, async (trx, locked) => {
      const activities = locked.doc.activities ?? [];
      const found = activities.find((activity) => activity.id === activityId);
      if (!found) {
        throw new DomainError('NOT_FOUND', `activity ${activityId} not found`, [], {
          code: 'ACTIVITY_NOT_FOUND',
          description: `activity ${activityId} not found on order ${orderId}`,
          data: { orderId, activityId },
        });
      }
      if (!MERCHANT_ACTIVITIES.has(found.type ?? '')) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'ACTIVITY_NOT_DELETABLE',
          `only merchant comments and custom activities can be deleted, not ${found.type}`,
          { orderId, activityId, type: found.type },
        );
      }
      locked.doc.activities = activities.filter((activity) => activity.id !== activityId);
      return this.save(trx, locked, {}, now);
    });
  }

  /**
   * `POST /v1/orders/aggregate`: `{aggregation: {name: {$count: [fields]} | {$sum: field, groupBy?:
   * [fields]}}}` over the orders a search would list (never INITIALIZED), answered as
   * `{aggregates: {name: {"(v1|v2)": n}}}`, a single field's groups by their value, a sum without
   * groups as one number.
   */
  async aggregate(
    filter: Record<string, unknown> | undefined,
    aggregation: Record<string, unknown>,
    separator = '|',
  ): Promise<{ aggregates: Record<string, unknown> }> {
    checkFilterBudget(filter ?? {}, 'filter');
    const condition = compileFilter(filter ?? {}, 'filter');
    const aggregates: Record<string, unknown> = {};
    const entries = Object.entries(aggregation);
    if (entries.length === 0 || entries.length > 10)
      throw invalidArgument([violation('aggregation', 'must name 1 to 10 aggregations', 'MAX_SIZE')]);
    for (const [name, spec] of entries) {
      const at = `aggregation.${name}`;
      if (!spec || typeof spec !== 'object' || Array.isArray(spec))
        throw invalidArgument([
          violation(at, 'must be {$count: [fields]} or {$sum: field, groupBy: [fields]}', 'FORMAT'),
        ]);
      const { $count, $sum, groupBy } = spec as { $count?: unknown; $sum?: unknown; groupBy?: unknown };
      const groups = groupsOf(
        $count ?? groupBy ?? [],
        `${at}.${$count !== undefined ? '$count' : 'groupBy'}`,
      );
      if ($sum !== undefined && $sum !== 'priceSummary.total.amount')
        throw invalidArgument([
          violation(`${at}.$sum`, 'orders sum priceSummary.total.amount', 'INVALID_ENUM_VALUE'),
        ]);
      if ($count === undefined && $sum === undefined)
        throw invalidArgument([violation(at, 'must hold $count or $sum', 'REQUIRED_FIELD')]);
      const keys = groups.map((group, index) => sql.ref(group).as(`g${index}`));
      let query = this.db
        .selectFrom('orders')
        .where('number', 'is not', null)
        .where('status', '<>', 'INITIALIZED')
        .where((eb) => condition(eb))
        .select((eb) => [
          ...groups.map((group, index) =>
            group === 'day'
              ? eb.fn<string>('substr', [eb.ref('created_at'), eb.lit(1), eb.lit(10)]).as(`g${index}`)
              : keys[index]!,
          ),
          $sum !== undefined
            ? eb.fn.sum<number>('total_amount').as('value')
            : eb.fn.countAll<number>().as('value'),
        ]);
      for (const [index] of groups.entries()) query = query.groupBy(sql.ref(`g${index}`) as never);
      const rows = (await query.execute()) as Array<Record<string, unknown>>;
      const value = (row: Record<string, unknown>) =>
        $sum !== undefined ? Math.round(Number(row.value ?? 0) * 100) / 100 : Number(row.value);
      if (groups.length === 0) aggregates[name] = rows[0] ? value(rows[0]) : 0;
      else {
        const table: Record<string, number> = {};
        for (const row of rows) {
          const parts = groups.map((_, index) => String(row[`g${index}`] ?? ''));
          table[groups.length === 1 ? parts[0]! : `(${parts.join(separator)})`] = value(row);
        }
        aggregates[name] = table;
      }
    }
    return { aggregates };
  }

  private store(orderId: string) {
    return {
      storeName: this.options.storeName,
      orderUrl: `${this.options.publicUrl}/account/orders/${encodeURIComponent(orderId)}`,
    };
  }
}

/** What an aggregation may group by: the wire's field → the column (`day`: the day it was placed). */
const GROUP_COLUMNS: Record<string, string> = {
  status: 'status',
  paymentStatus: 'payment_status',
  fulfillmentStatus: 'fulfillment_status',
  'channelInfo.type': 'channel_type',
  archived: 'archived',
  createdDate: 'day',
  day: 'day',
};

function groupsOf(value: unknown, at: string): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length > 4)
    throw invalidArgument([violation(at, 'must be a list of at most 4 fields', 'FORMAT')]);
  return list.map((field, index) => {
    const column =
      typeof field === 'string' && Object.hasOwn(GROUP_COLUMNS, field) ? GROUP_COLUMNS[field] : undefined;
    if (!column)
      throw invalidArgument([
        violation(
          `${at}[${index}]`,
          `orders group by ${Object.keys(GROUP_COLUMNS).join(', ')}`,
          'INVALID_ENUM_VALUE',
        ),
      ]);
    return column;
  });
}

interface BulkMetadata {
  totalSuccesses: number;
  totalFailures: number;
  undetailedFailures: number;
}

export function metadataOf(results: ItemResult[]): BulkMetadata {
  const successes = results.filter((result) => result.itemMetadata.success).length;
  return { totalSuccesses: successes, totalFailures: results.length - successes, undetailedFailures: 0 };
}

/** A bulk item's failure in the hosted platform's form; an unexpected error is thrown on. */
export function failure(id: string | null, index: number, error: unknown): ItemResult {
  if (!(error instanceof DomainError)) throw error;
  const described =
    error.application ??
    ({
      code: error.kind,
      description:
        error.fieldViolations.map((v) => `${v.field} ${v.description}`).join('; ') || error.message,
      data: { fieldViolations: error.fieldViolations },
    } as const);
  return { itemMetadata: { id, originalIndex: index, success: false, error: { ...described } } };
}

function changedTags(
  current: string[],
  assign: string[] | undefined,
  unassign: string[] | undefined,
): string[] {
  const removed = new Set(unassign ?? []);
  const next = current.filter((tag) => !removed.has(tag));
  for (const tag of assign ?? []) if (!next.includes(tag) && !removed.has(tag)) next.push(tag);
  return next;
}

function lineItemsOf(doc: StoredOrder): StoredOrderLine[] {
  return doc.lineItems ?? [];
}

/** The stores lines of an order as stock counts them, less what was given back already. */
function restockItems(doc: StoredOrder): Array<StockItem & { lineId: string }> {
  const items: Array<StockItem & { lineId: string }> = [];
  for (const line of lineItemsOf(doc)) {
    const reference = line.catalogReference;
    if (!reference?.catalogItemId || (reference.appId && reference.appId !== STORES_APP_ID)) continue;
    const quantity = line.quantity - (Number(line.restockedQuantity) || 0);
    if (quantity <= 0) continue;
    const options = reference.options ?? {};
    const preordered = preorderedInRestock(doc, line, quantity);
    items.push({
      lineId: line.id,
      ...(preordered > 0 ? { preordered } : {}),
      productId: reference.catalogItemId,
      variantId: typeof options.variantId === 'string' ? options.variantId : undefined,
      choices:
        options.options && typeof options.options === 'object'
          ? (options.options as Record<string, string>)
          : undefined,
      quantity,
    });
  }
  return items;
}

/**
 * The part of `update` a field mask names (`"buyerInfo.email,archived"`, as the wire joins its paths):
 * a field the mask leaves out is not changed even when the order sent holds it.
 */
function maskedUpdate(update: OrderUpdate, fieldMask: string): OrderUpdate {
  const result: Record<string, unknown> = {};
  for (const path of fieldMask
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const keys = path.split('.');
    let source: unknown = update;
    for (const key of keys)
      source = source && typeof source === 'object' ? (source as Record<string, unknown>)[key] : undefined;
    if (source === undefined) continue;
    let target = result;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      const child = (next && typeof next === 'object' ? next : {}) as Record<string, unknown>;
      target[key] = child;
      target = child;
    }
    target[keys[keys.length - 1]!] = source;
  }
  return result as OrderUpdate;
}

/**
 * Applies `update` to the stored order: only the fields the hosted platform lets change, a field left
 * out kept. Answers the activities that tell of it, or undefined when nothing changed.
 */
function applyUpdate(doc: StoredOrder, update: OrderUpdate, at: string): NewActivity[] | undefined {
  const activities: NewActivity[] = [];
  const changed: string[] = [];
  const set = (path: string, target: Record<string, any>, key: string, value: unknown) => {
    if (value === undefined) return;
    if (JSON.stringify(target[key]) === JSON.stringify(value)) return;
    if (value === null) delete target[key];
    else target[key] = value;
    changed.push(path);
  };
  const refuseNull = (path: string, value: unknown) => {
    if (value === null)
      throw invalidArgument([violation(`${at}.${path}`, 'cannot be removed', 'REQUIRED_FIELD')]);
  };
  if (update.buyerInfo !== undefined) {
    refuseNull('buyerInfo', update.buyerInfo);
    const email = update.buyerInfo?.email;
    refuseNull('buyerInfo.email', email);
    if (email !== undefined) {
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email ?? ''))
        throw invalidArgument([violation(`${at}.buyerInfo.email`, 'must be an email address', 'FORMAT')]);
      doc.buyerInfo ??= {};
      const before = doc.buyerInfo.email;
      set('buyerInfo.email', doc.buyerInfo, 'email', email);
      if (before !== doc.buyerInfo.email) activities.push({ type: 'EMAIL_EDITED' });
    }
  }
  set('buyerLanguage', doc, 'buyerLanguage', update.buyerLanguage);
  set('weightUnit', doc, 'weightUnit', update.weightUnit);
  const contactPart = (
    name: string,
    part: { address?: Address | null; contactDetails?: Record<string, unknown> | null } | null | undefined,
    target: () => Record<string, any>,
  ) => {
    if (part === undefined) return;
    refuseNull(name, part);
    refuseNull(`${name}.contactDetails`, part?.contactDetails);
    if (part?.address !== undefined)
      set(
        `${name}.address`,
        target(),
        'address',
        part.address === null ? null : normalizeAddress(part.address as never),
      );
    if (part?.contactDetails !== undefined)
      set(`${name}.contactDetails`, target(), 'contactDetails', {
        ...target().contactDetails,
        ...part.contactDetails,
      });
  };
  contactPart('billingInfo', update.billingInfo, () => (doc.billingInfo ??= {}));
  contactPart('recipientInfo', update.recipientInfo, () => (doc.recipientInfo ??= {}));
  const destination = update.shippingInfo?.logistics?.shippingDestination;
  if (destination !== undefined) {
    const logistics = doc.shippingInfo?.logistics;
    if (!logistics || logistics.pickupDetails) {
      throw invalidArgument([
        violation(
          `${at}.shippingInfo.logistics.shippingDestination`,
          'this order is not shipped to an address',
          'FIELD_NOT_ALLOWED',
        ),
      ]);
    }
    const before = changed.length;
    contactPart(
      'shippingInfo.logistics.shippingDestination',
      destination,
      () => (logistics.shippingDestination ??= {}),
    );
    if (changed.length > before) activities.push({ type: 'SHIPPING_ADDRESS_EDITED' });
  }
  set('archived', doc, 'archived', update.archived);
  set('seenByAHuman', doc, 'seenByAHuman', update.seenByAHuman);
  set('attributionSource', doc, 'attributionSource', update.attributionSource);
  if (changed.length === 0) return undefined;
  const told = new Set([
    'buyerInfo.email',
    'shippingInfo.logistics.shippingDestination.address',
    'shippingInfo.logistics.shippingDestination.contactDetails',
  ]);
  const others = changed.filter((path) => !told.has(path));
  if (others.length > 0)
    activities.push({
      type: 'CUSTOM_ACTIVITY',
      customActivity: { type: 'ORDER_UPDATED', additionalData: { fields: others.join(',') } },
    });
  return activities;
}
