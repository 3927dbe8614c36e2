import type { Kysely, Transaction } from 'kysely';
import { refundedLineQuantities } from '../billing/refund-calculation.ts';
import type { Tables } from '../db/tables.ts';
import type { DomainEvent } from '../events/outbox.ts';
import { shippingConfirmation } from '../orders/notices.ts';
import {
  failure,
  type ItemResult,
  type LockedOrder,
  metadataOf,
  type NewActivity,
  type OrderOperations,
} from '../orders/operations.ts';
import { documentOf, type OrderService } from '../orders/service.ts';
import { applicationError, DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import {
  type Fulfillment,
  type FulfillmentRecords,
  fulfillable,
  fulfillmentOf,
  fulfillmentStatus,
  type OrderLine,
} from './records.ts';
import type { OrderFulfillmentRow } from './tables.ts';
import { type TrackingInfo, withTrackingLink } from './tracking.ts';

export interface FulfillmentInput {
  lineItems?: Array<{ id: string; quantity?: number | null | undefined }> | undefined;
  trackingInfo?: TrackingInfo | null | undefined;
  customInfo?: { fieldsData?: Record<string, string> | undefined } | null | undefined;
  status?: string | null | undefined;
  completed?: boolean | null | undefined;
}

export interface OrderWithFulfillments {
  orderId: string;
  fulfillments: Fulfillment[];
}

/**
 * What fulfillments need: the orders domain's rule of who may read an order and its locked changes, and
 * this domain's reads of what shipped (records.ts, which the orders' cancel and refunds ask too).
 */
export interface FulfillmentDependencies {
  orders: Pick<OrderService, 'readable'>;
  orderOperations: Pick<OrderOperations, 'change' | 'save'>;
  records: Pick<FulfillmentRecords, 'read' | 'fulfilledQuantities'>;
}

/**
 * Fulfillments: the line quantities of an order that were shipped, with tracking. The order's
 * `fulfillmentStatus` is derived from them and from its refunds (`fulfillmentStatus` in records.ts, the one
 * rule), in the transaction that changes either, under the order's lock, so a fulfillment never ships
 * more than was bought less refunded and never races a cancel to both succeeding.
 */
export class FulfillmentService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: FulfillmentDependencies,
    private readonly options: { publicUrl: string; storeName: string },
  ) {}

  /** `GET /v1/fulfillments/orders/{orderId}`: the buyer's own order's, or any for an admin. */
  async listForOrder(orderId: string, principal: Principal): Promise<OrderWithFulfillments> {
    const readable = await this.deps.orders.readable([orderId], principal);
    if (!readable.has(orderId)) {
      throw new DomainError('NOT_FOUND', `order ${orderId} not found`, [], {
        code: 'ORDER_NOT_FOUND',
        description: `order ${orderId} not found`,
        data: { id: orderId },
      });
    }
    return { orderId, fulfillments: await this.deps.records.read(this.db, orderId) };
  }

  /** `POST /v1/fulfillments/list-by-ids`: those of the orders the caller may read, in the order asked. */
  async listForOrders(orderIds: string[], principal: Principal): Promise<OrderWithFulfillments[]> {
    const readable = await this.deps.orders.readable([...new Set(orderIds)], principal);
    const ids = [...new Set(orderIds)].filter((id) => readable.has(id));
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('order_fulfillments')
      .selectAll()
      .where('order_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return ids.map((orderId) => ({
      orderId,
      fulfillments: rows.filter((row) => row.order_id === orderId).map(fulfillmentOf),
    }));
  }

  /** `POST /v1/fulfillments/orders/{orderId}/create-fulfillment`. */
  async create(
    orderId: string,
    input: FulfillmentInput,
    now = new Date(),
  ): Promise<{ orderWithFulfillments: OrderWithFulfillments; fulfillmentId: string }> {
    return this.deps.orderOperations.change(orderId, async (trx, locked) => {
      const id = await this.add(trx, locked, input, 'fulfillment', now);
      return {
        orderWithFulfillments: { orderId, fulfillments: await this.deps.records.read(trx, orderId) },
        fulfillmentId: id,
      };
    });
  }

  /** `POST /v1/fulfillments/orders/bulk/create-fulfillments`: each order in its own transaction. */
  async bulkCreate(
    ordersWithFulfillments: Array<{ orderId: string; fulfillments: FulfillmentInput[] }>,
  ): Promise<{
    results: Array<ItemResult & { ordersWithFulfillments?: OrderWithFulfillments }>;
    bulkActionMetadata: ReturnType<typeof metadataOf>;
  }> {
    const results: Array<ItemResult & { ordersWithFulfillments?: OrderWithFulfillments }> = [];
    for (const [index, entry] of ordersWithFulfillments.entries()) {
      try {
        const answer = await this.deps.orderOperations.change(entry.orderId, async (trx, locked) => {
          for (const [at, fulfillment] of entry.fulfillments.entries())
            await this.add(
              trx,
              locked,
              fulfillment,
              `ordersWithFulfillments[${index}].fulfillments[${at}]`,
              new Date(),
            );
          return { orderId: entry.orderId, fulfillments: await this.deps.records.read(trx, entry.orderId) };
        });
        results.push({
          itemMetadata: { id: entry.orderId, originalIndex: index, success: true },
          ordersWithFulfillments: answer,
        });
      } catch (error) {
        results.push(failure(entry.orderId, index, error));
      }
    }
    return { results, bulkActionMetadata: metadataOf(results) };
  }

  /**
   * `PATCH /v1/fulfillments/{fulfillment.id}/orders/{orderId}`: tracking, custom info, status and
   * completed; its lines and quantities are fixed (delete it and create another to change them).
   */
  async update(
    orderId: string,
    fulfillmentId: string,
    input: FulfillmentInput,
    now = new Date(),
  ): Promise<OrderWithFulfillments> {
    return this.deps.orderOperations.change(orderId, async (trx, locked) => {
      const row = await this.row(trx, orderId, fulfillmentId);
      const current = fulfillmentOf(row);
      if (input.lineItems && input.lineItems.length > 0) {
        const same =
          input.lineItems.length === current.lineItems.length &&
          input.lineItems.every((line, index) => {
            const existing = current.lineItems[index]!;
            return line.id === existing.id && (line.quantity == null || line.quantity === existing.quantity);
          });
        if (!same)
          throw invalidArgument([
            violation(
              'fulfillment.lineItems',
              'cannot change: delete the fulfillment and create another',
              'FIELD_NOT_ALLOWED',
            ),
          ]);
      }
      const next: Fulfillment = { ...current };
      const activities: NewActivity[] = [];
      if (input.trackingInfo !== undefined) {
        const tracking = input.trackingInfo === null ? undefined : withTrackingLink(input.trackingInfo);
        if (tracking) next.trackingInfo = tracking;
        else delete next.trackingInfo;
        if (tracking?.trackingNumber !== current.trackingInfo?.trackingNumber)
          activities.push({
            type: current.trackingInfo?.trackingNumber ? 'TRACKING_NUMBER_EDITED' : 'TRACKING_NUMBER_ADDED',
            fulfillmentId,
          });
        if (tracking?.trackingLink && tracking.trackingLink !== current.trackingInfo?.trackingLink)
          activities.push({ type: 'TRACKING_LINK_ADDED', fulfillmentId });
      }
      if (input.customInfo !== undefined) {
        if (input.customInfo === null) delete next.customInfo;
        else next.customInfo = { fieldsData: input.customInfo.fieldsData ?? {} };
      }
      if (input.status !== undefined) next.status = input.status;
      if (input.completed !== undefined) next.completed = input.completed;
      const at = now.toISOString();
      await trx
        .updateTable('order_fulfillments')
        .set({ doc: JSON.stringify(stored(next)), updated_at: at })
        .where('id', '=', fulfillmentId)
        .execute();
      const fulfillments = await this.deps.records.read(trx, orderId);
      const newNumber =
        next.trackingInfo?.trackingNumber &&
        next.trackingInfo.trackingNumber !== current.trackingInfo?.trackingNumber;
      const email = newNumber
        ? shippingConfirmation(documentOf(locked.row) as never, next, this.store(orderId))
        : undefined;
      if (email) activities.push({ type: 'SHIPPING_CONFIRMATION_EMAIL_SENT', fulfillmentId });
      await this.deps.orderOperations.save(
        trx,
        locked,
        { activities, events: [fulfillmentsEvent(orderId, fulfillments)], emails: [email] },
        now,
      );
      return { orderId, fulfillments };
    });
  }

  /** `DELETE /v1/fulfillments/{fulfillmentId}/orders/{orderId}`: its quantities are open again. */
  async delete(orderId: string, fulfillmentId: string, now = new Date()): Promise<OrderWithFulfillments> {
    return this.deps.orderOperations.change(orderId, async (trx, locked) => {
      await this.row(trx, orderId, fulfillmentId);
      await trx.deleteFrom('order_fulfillments').where('id', '=', fulfillmentId).execute();
      const fulfillments = await this.deps.records.read(trx, orderId);
      const status = fulfillmentStatus(
        lines(locked),
        await this.deps.records.fulfilledQuantities(trx, orderId),
        await refundedLineQuantities(trx, orderId),
        locked.row.fulfillment_status,
      );
      const activities: NewActivity[] =
        status !== locked.row.fulfillment_status ? [{ type: 'ORDER_NOT_FULFILLED', fulfillmentId }] : [];
      await this.deps.orderOperations.save(
        trx,
        locked,
        {
          columns: { fulfillment_status: status },
          activities,
          events: [fulfillmentsEvent(orderId, fulfillments)],
        },
        now,
      );
      return { orderId, fulfillments };
    });
  }

  // ---- internals ----

  /** Adds one fulfillment to a locked order: checked against what is left to ship, status derived. */
  private async add(
    trx: Transaction<Tables>,
    locked: LockedOrder,
    input: FulfillmentInput,
    field: string,
    now: Date,
  ): Promise<string> {
    const { row } = locked;
    const orderId = row.id;
    if (row.status !== 'APPROVED') {
      throw applicationError(
        'FAILED_PRECONDITION',
        'ORDER_STATUS_IS_NOT_SUPPORTED',
        `an order ${row.status} cannot be fulfilled`,
        { orderId, status: row.status },
      );
    }
    const orderLines = lines(locked);
    const fulfilled = await this.deps.records.fulfilledQuantities(trx, orderId);
    // what was refunded is not shipped: a line's fulfillments never pass what was bought less refunds
    const refunded = await refundedLineQuantities(trx, orderId);
    const seen = new Set<string>();
    const problems = [];
    const chosen: Array<{ id: string; quantity: number }> = [];
    for (const [index, line] of (input.lineItems ?? []).entries()) {
      const at = `${field}.lineItems[${index}]`;
      const bought = orderLines.find((candidate) => candidate.id === line.id);
      if (!bought) {
        problems.push(violation(`${at}.id`, 'is not a line of this order', 'VALIDATION'));
        continue;
      }
      if (seen.has(line.id)) {
        problems.push(violation(`${at}.id`, 'names a line twice', 'VALIDATION'));
        continue;
      }
      seen.add(line.id);
      const left = Math.max(0, fulfillable(bought, refunded) - (fulfilled.get(line.id) ?? 0));
      const quantity = line.quantity ?? left;
      if (quantity < 1 || quantity > left) {
        throw applicationError(
          'FAILED_PRECONDITION',
          'QUANTITY_EXCEEDS_UNFULFILLED',
          `line ${line.id} has ${left} of ${bought.quantity} left to fulfil; ${quantity} asked`,
          { lineItemId: line.id, left, asked: quantity },
        );
      }
      chosen.push({ id: line.id, quantity });
    }
    if (problems.length > 0) throw invalidArgument(problems);
    if (chosen.length === 0)
      throw invalidArgument([violation(`${field}.lineItems`, 'must name a line', 'MIN_SIZE')]);
    for (const line of chosen) fulfilled.set(line.id, (fulfilled.get(line.id) ?? 0) + line.quantity);

    const id = newId();
    const at = now.toISOString();
    const tracking = input.trackingInfo ? withTrackingLink(input.trackingInfo) : undefined;
    const fulfillment: Fulfillment = {
      id,
      createdDate: at,
      lineItems: chosen,
      ...(tracking ? { trackingInfo: tracking } : {}),
      ...(input.customInfo ? { customInfo: { fieldsData: input.customInfo.fieldsData ?? {} } } : {}),
      ...(input.status != null ? { status: input.status } : {}),
      ...(input.completed != null ? { completed: input.completed } : {}),
    };
    await trx
      .insertInto('order_fulfillments')
      .values({
        id,
        order_id: orderId,
        created_at: at,
        updated_at: at,
        doc: JSON.stringify(stored(fulfillment)),
      })
      .execute();
    const status = fulfillmentStatus(orderLines, fulfilled, refunded, row.fulfillment_status);
    const activities: NewActivity[] = [];
    if (tracking?.trackingNumber) activities.push({ type: 'TRACKING_NUMBER_ADDED', fulfillmentId: id });
    if (tracking?.trackingLink) activities.push({ type: 'TRACKING_LINK_ADDED', fulfillmentId: id });
    if (status === 'FULFILLED' && row.fulfillment_status !== 'FULFILLED')
      activities.push({ type: 'ORDER_FULFILLED' });
    // the buyer hears of a shipment they can follow
    const email = tracking?.trackingNumber
      ? shippingConfirmation(documentOf(row) as never, fulfillment, this.store(orderId))
      : undefined;
    if (email) activities.push({ type: 'SHIPPING_CONFIRMATION_EMAIL_SENT', fulfillmentId: id });
    await this.deps.orderOperations.save(
      trx,
      locked,
      {
        columns: { fulfillment_status: status },
        activities,
        events: [fulfillmentsEvent(orderId, await this.deps.records.read(trx, orderId))],
        emails: [email],
      },
      now,
    );
    return id;
  }

  private async row(
    trx: Transaction<Tables>,
    orderId: string,
    fulfillmentId: string,
  ): Promise<OrderFulfillmentRow> {
    const row = await trx
      .selectFrom('order_fulfillments')
      .selectAll()
      .where('id', '=', fulfillmentId)
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    if (!row) {
      throw new DomainError('NOT_FOUND', `fulfillment ${fulfillmentId} not found`, [], {
        code: 'FULFILLMENT_NOT_FOUND',
        description: `fulfillment ${fulfillmentId} not found on order ${orderId}`,
        data: { orderId, fulfillmentId },
      });
    }
    return row;
  }

  private store(orderId: string) {
    return {
      storeName: this.options.storeName,
      orderUrl: `${this.options.publicUrl}/account/orders/${encodeURIComponent(orderId)}`,
    };
  }
}

function lines(locked: LockedOrder): OrderLine[] {
  return locked.doc.lineItems ?? [];
}

function stored(fulfillment: Fulfillment): Omit<Fulfillment, 'id' | 'createdDate'> {
  const { id: _, createdDate: __, ...rest } = fulfillment;
  return rest;
}

function fulfillmentsEvent(orderId: string, fulfillments: Fulfillment[]): DomainEvent {
  return { entity: 'fulfillments', slug: 'updated', entityId: orderId, payload: { orderId, fulfillments } };
}
