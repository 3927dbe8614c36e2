import {
  type BackInStockItemDetails,
  type BackInStockRequestStatus,
  type BackInStockSettings,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import { type Kysely, sql } from 'kysely';
import { variantInStock, variantNamedBy } from '../catalog/model.ts';
import type { CatalogService } from '../catalog/service.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { type DomainEvent, type RecordedEvent, recordEvents } from '../events/outbox.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId, timeOrderedId } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import {
  applyWqlFilter,
  applyWqlSort,
  readWqlCursor,
  type WqlField,
  writeWqlCursor,
} from '../shared/wql-query.ts';
import type { BackInStockRequestRow } from './tables.ts';

/** How long a claimed (PROCESSING) request is its claimer's: past it, a crashed claim is taken again. */
const CLAIM_MS = 5 * 60_000;
/** Notification attempts a request gets before it stays FAILED; each retry waits twice the last. */
export const MAX_ATTEMPTS = 5;
const FIRST_RETRY_MS = 60_000;
/** Requests one step of a restock or the retry job reads at once. */
const BATCH = 100;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A catalog reference as the wire writes it. */
export interface CatalogReferenceIn {
  catalogItemId: string;
  appId: string;
  options?: { variantId?: string; options?: Record<string, string> } | null;
}

/** A back-in-stock request as the hosted wire answers it (`BackInStockNotificationRequest`). */
export interface BackInStockRequestWire {
  id: string;
  catalogReference: CatalogReferenceIn;
  email: string;
  contactId?: string;
  status: BackInStockRequestStatus;
  autoNotified?: boolean;
  createdDate: string;
  itemUrl?: string;
  failureReason?: string;
}

export interface QueryInput {
  filter?: Record<string, unknown> | null;
  sort?: Array<{ fieldName: string; order?: 'ASC' | 'DESC' }>;
  cursorPaging?: { limit?: number | null; cursor?: string | null };
  paging?: { limit?: number | null; offset?: number | null };
}

export interface BackInStockDependencies {
  catalog: Pick<CatalogService, 'pricingFacts'>;
  mailer: Pick<Mailer, 'sendNow'>;
}

export interface BackInStockOptions {
  publicUrl: string;
  storeName: string;
}

/** A wire field the query filters and sorts on, and its column. */
const FIELDS: Record<string, WqlField & { column: keyof BackInStockRequestRow }> = {
  id: { column: 'id', sortable: true },
  _id: { column: 'id', sortable: true },
  status: { column: 'status', sortable: true },
  contactId: { column: 'contact_id', sortable: true },
  autoNotified: { column: 'auto_notified', sortable: true, kind: 'boolean' },
  createdDate: { column: 'created_date', sortable: true },
  _createdDate: { column: 'created_date', sortable: true },
  itemUrl: { column: 'item_url', sortable: true },
  // Cartwheel's: the back office lists one product's requests
  email: { column: 'email', sortable: false },
  'catalogReference.catalogItemId': { column: 'product_id', sortable: false },
  'catalogReference.options.variantId': { column: 'variant_id', sortable: false },
};

/**
 * Back-in-stock requests (point 1): a shopper asks to hear when an out-of-stock variant is back;
 * when its stock comes back (any stock change the catalog announces: the back office, the API, an
 * order's restock, a v3 inventory change) each waiting request is claimed (RECEIVED → PROCESSING, an
 * update only one process can make), its email handed to the mail server while the claim holds, then
 * the request marked NOTIFICATION_SENT; a refusal (the server down, or refusing) marks it FAILED with
 * the server's reason, and the leased retry job takes it again once its wait (doubling) is over. A
 * process killed between the server's yes and the mark leaves a claim that lapses: sent again then,
 * the one way an email goes twice.
 */
export class BackInStockService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: BackInStockDependencies,
    private readonly options: BackInStockOptions,
  ) {}

  /** A shopper's request for an out-of-stock variant: an item in stock or not sold is a field violation. */
  async create(
    input: { catalogReference: CatalogReferenceIn; email: string; itemUrl?: string | null | undefined },
    item: BackInStockItemDetails,
    principal: Principal,
  ): Promise<BackInStockRequestWire> {
    if (!(await this.collecting())) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'REQUEST_COLLECTION_DISABLED',
        'the store does not take back-in-stock requests now',
      );
    }
    const email = input.email.trim();
    const violations = [];
    if (!EMAIL_PATTERN.test(email))
      violations.push(violation('request.email', 'is not an email address', 'FORMAT'));
    if (input.itemUrl && !/^https?:\/\//i.test(input.itemUrl)) {
      violations.push(violation('request.itemUrl', 'is not a web address', 'FORMAT'));
    }
    const reference = input.catalogReference;
    const fact = (await this.deps.catalog.pricingFacts([reference.catalogItemId])).get(
      reference.catalogItemId,
    );
    const visible = fact?.visible || principal.kind === 'admin';
    const variant = fact && visible ? variantNamedBy(fact.record, reference.options) : undefined;
    if (!fact || !visible) {
      violations.push(violation('request.catalogReference.catalogItemId', 'names no product of the store'));
    } else if (!variant) {
      violations.push(
        violation(
          'request.catalogReference.options',
          'names no variant of the product (a variantId or one choice of every option)',
        ),
      );
    } else if (variantInStock(fact.record, variant)) {
      violations.push(
        violation(
          'request.catalogReference',
          'is in stock: it can be bought now, there is nothing to wait for',
        ),
      );
    }
    if (violations.length > 0 || !fact || !variant) throw invalidArgument(violations);
    const now = new Date().toISOString();
    const row: BackInStockRequestRow = {
      id: timeOrderedId(),
      product_id: fact.record.id,
      variant_id: variant.id,
      email,
      status: 'RECEIVED',
      contact_id: principal.kind === 'member' ? principal.memberId : null,
      auto_notified: null,
      item_url: input.itemUrl ?? null,
      catalog_reference: JSON.stringify(reference),
      item_name: item.name,
      item_price: item.price,
      item_path: `/product-page/${fact.record.slug}`,
      attempts: 0,
      claim: null,
      retry_at: null,
      failure_reason: null,
      created_date: now,
      updated_date: now,
    };
    try {
      await inTransaction(this.db, async (trx) => {
        await trx.insertInto('back_in_stock_requests').values(row).execute();
        await recordEvents(trx, [requestEvent('created', row)]);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw applicationError(
        'ALREADY_EXISTS',
        'BACK_IN_STOCK_NOTIFICATION_REQUEST_ALREADY_EXISTS',
        `${email} already waits for this item`,
      );
    }
    return wireOf(row);
  }

  async get(id: string): Promise<BackInStockRequestWire> {
    return wireOf(await this.row(id));
  }

  async delete(id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const deleted = await trx.deleteFrom('back_in_stock_requests').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('back in stock notification request', id);
      await recordEvents(trx, [
        { entity: 'backInStockRequest', slug: 'deleted', entityId: id, payload: { entityId: id } },
      ]);
    });
  }

  /** The hosted query: filter, sort (then id), and cursor paging whose cursor carries the query on. */
  async query(input: QueryInput | undefined) {
    let query: QueryInput = input ?? {};
    let offset = query.paging?.offset ?? 0;
    const limit = query.cursorPaging?.limit ?? query.paging?.limit ?? 50;
    const cursor = query.cursorPaging?.cursor;
    if (cursor) {
      const carried = readWqlCursor(cursor);
      query = { filter: carried.filter, sort: carried.sort };
      offset = carried.offset;
    }
    const sort = query.sort ?? [];
    let select = this.db.selectFrom('back_in_stock_requests').selectAll();
    select = applyWqlFilter(select, FIELDS, query.filter ?? {});
    select = applyWqlSort(select, FIELDS, sort, 'id');
    const rows = await select
      .limit(limit + 1)
      .offset(offset)
      .execute();
    const requests = rows.slice(0, limit).map(wireOf);
    const hasNext = rows.length > limit;
    const next = hasNext
      ? writeWqlCursor({ filter: query.filter ?? {}, sort, offset: offset + limit })
      : null;
    return { requests, metadata: { count: requests.length, cursors: { next, prev: null }, hasNext } };
  }

  /**
   * How many requests still wait (RECEIVED) for each item: a reference with options counts its
   * variant's, one without counts the whole product's.
   */
  async counts(references: CatalogReferenceIn[]) {
    const facts = await this.deps.catalog.pricingFacts(
      references.map((reference) => reference.catalogItemId),
    );
    const counted = [];
    for (const reference of references) {
      const fact = facts.get(reference.catalogItemId);
      const named = reference.options && Object.keys(reference.options).length > 0;
      const variant = fact && named ? variantNamedBy(fact.record, reference.options) : undefined;
      let count = 0;
      if (fact && (!named || variant)) {
        const found = await this.db
          .selectFrom('back_in_stock_requests')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('product_id', '=', fact.record.id)
          .$if(variant !== undefined, (qb) => qb.where('variant_id', '=', variant!.id))
          .where('status', '=', 'RECEIVED')
          .executeTakeFirst();
        count = Number(found?.count ?? 0);
      }
      counted.push({ catalogReference: reference, count });
    }
    return { countsPerCatalogReference: counted };
  }

  /** The merchant told the shopper another way: NOTIFICATION_SENT, not by the store (`autoNotified` false). */
  async markAsSent(id: string): Promise<BackInStockRequestWire> {
    return inTransaction(this.db, async (trx) => {
      const now = new Date().toISOString();
      const changed = await trx
        .updateTable('back_in_stock_requests')
        .set({
          status: 'NOTIFICATION_SENT',
          auto_notified: 0,
          claim: null,
          retry_at: null,
          updated_date: now,
        })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) {
        throw applicationError(
          'NOT_FOUND',
          'BACK_IN_STOCK_NOTIFICATION_REQUEST_NOT_FOUND',
          `back in stock notification request ${id} not found`,
          { id },
        );
      }
      const row = await trx
        .selectFrom('back_in_stock_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await recordEvents(trx, [requestEvent('updated', row)]);
      return wireOf(row);
    });
  }

  /**
   * The merchant says an item is back (`reportItemsBackInStock`): its waiting requests, or the
   * requests named (waiting or failed), are notified now, as a restock would.
   */
  async report(input: {
    catalogReference?: CatalogReferenceIn | undefined;
    requestIds?: string[] | undefined;
  }) {
    if (input.catalogReference && input.requestIds) {
      throw applicationError(
        'INVALID_ARGUMENT',
        'REQUEST_CONTAINS_BOTH_CATALOG_REFERENCE_AND_REQUEST_IDS',
        'name the item or the requests, not both',
      );
    }
    if (input.requestIds) {
      for (const id of input.requestIds) await this.notify(id, ['RECEIVED', 'FAILED'], new Date());
      return;
    }
    const reference = input.catalogReference;
    if (!reference) {
      throw invalidArgument([violation('catalogReference', 'name the item back in stock, or the requests')]);
    }
    const fact = (await this.deps.catalog.pricingFacts([reference.catalogItemId])).get(
      reference.catalogItemId,
    );
    const named = reference.options && Object.keys(reference.options).length > 0;
    const variant = fact && named ? variantNamedBy(fact.record, reference.options) : undefined;
    if (!fact || (named && !variant)) {
      throw invalidArgument([violation('catalogReference', 'names no item of the store')]);
    }
    await this.notifyWaiting(fact.record.id, variant ? [variant.id] : undefined);
  }

  /** The event bus's `inventory updated`: the product's variants now in stock have their requests notified. */
  async restocked(event: RecordedEvent): Promise<void> {
    const stock = event.payload as {
      productId?: string;
      trackQuantity?: boolean;
      variants?: Array<{ variantId: string; quantity: number | null; inStock: boolean }>;
    };
    const back = (stock.variants ?? [])
      .filter((variant) => (stock.trackQuantity ? (variant.quantity ?? 0) > 0 : variant.inStock))
      .map((variant) => variant.variantId);
    if (!stock.productId || back.length === 0) return;
    await this.notifyWaiting(stock.productId, back);
  }

  /** Takes again what is due: FAILED requests whose wait is over, PROCESSING ones whose claimer stopped. */
  async retryDue(now = new Date()): Promise<number> {
    let notified = 0;
    for (;;) {
      const due = await this.db
        .selectFrom('back_in_stock_requests')
        .select('id')
        .where('retry_at', '<=', now.toISOString())
        .orderBy('retry_at')
        .limit(BATCH)
        .execute();
      for (const { id } of due) if (await this.notify(id, ['FAILED', 'PROCESSING'], now)) notified += 1;
      if (due.length < BATCH) return notified;
    }
  }

  async settings(): Promise<{ settings: BackInStockSettings }> {
    return {
      settings: { collectionStates: [{ appId: STORES_APP_ID, collectingRequests: await this.collecting() }] },
    };
  }

  /** Starts or stops taking new requests for the stores app (the only catalog Cartwheel has). */
  async setCollecting(appId: string, collecting: boolean): Promise<{ settings: BackInStockSettings }> {
    if (appId !== STORES_APP_ID) {
      throw applicationError(
        'INVALID_ARGUMENT',
        'NOT_SUPPORTED_APP_DEF_ID',
        `the store has no catalog app ${appId}`,
      );
    }
    const value = collecting ? 1 : 0;
    const updated = new Date().toISOString();
    await this.db
      .insertInto('back_in_stock_settings')
      .values({ app_id: appId, collecting_requests: value, updated_date: updated })
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet({ collecting_requests: value, updated_date: updated }),
      )
      .execute();
    return this.settings();
  }

  private async collecting(): Promise<boolean> {
    const row = await this.db
      .selectFrom('back_in_stock_settings')
      .select('collecting_requests')
      .where('app_id', '=', STORES_APP_ID)
      .executeTakeFirst();
    return row === undefined || row.collecting_requests === 1;
  }

  private async row(id: string): Promise<BackInStockRequestRow> {
    const row = await this.db
      .selectFrom('back_in_stock_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('back in stock notification request', id);
    return row;
  }

  /** Notifies every waiting request of the product (of those variants), a batch at a time. */
  private async notifyWaiting(productId: string, variantIds: string[] | undefined): Promise<void> {
    for (;;) {
      const waiting = await this.db
        .selectFrom('back_in_stock_requests')
        .select('id')
        .where('product_id', '=', productId)
        .$if(variantIds !== undefined, (qb) => qb.where('variant_id', 'in', variantIds!))
        .where('status', '=', 'RECEIVED')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      const now = new Date();
      for (const { id } of waiting) await this.notify(id, ['RECEIVED'], now);
      if (waiting.length < BATCH) return;
    }
  }

  /**
   * Claims one request in one of the `from` states (an update only one process can make: RECEIVED →
   * PROCESSING, with a token of its own), hands its email to the mail server, then marks it
   * NOTIFICATION_SENT while the claim is still this one's. Answers whether it sent it.
   */
  private async notify(id: string, from: BackInStockRequestStatus[], now: Date): Promise<boolean> {
    const claim = newId();
    const at = now.toISOString();
    const claimed = await inTransaction(this.db, async (trx) => {
      const taken = await trx
        .updateTable('back_in_stock_requests')
        .set({
          status: 'PROCESSING',
          claim,
          attempts: sql<number>`attempts + 1`,
          retry_at: new Date(now.getTime() + CLAIM_MS).toISOString(),
          failure_reason: null,
          updated_date: at,
        })
        .where('id', '=', id)
        .where('status', 'in', from)
        .where('attempts', '<', MAX_ATTEMPTS)
        // a retry takes only what is due: a fresh claim of another process is left alone
        .$if(!from.includes('RECEIVED'), (qb) => qb.where('retry_at', '<=', at))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return undefined;
      const row = await trx
        .selectFrom('back_in_stock_requests')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await recordEvents(trx, [requestEvent('updated', row)]);
      return row;
    });
    if (!claimed) return false;
    try {
      // handed to the mail server while the claim is held: a refusal or a server down is this
      // request's failure (FAILED with the server's reason, tried again later), not a lost email
      await this.deps.mailer.sendNow(this.email(claimed));
    } catch (error) {
      await this.fail(claimed, claim, error instanceof Error ? error.message : String(error), now);
      return false;
    }
    return inTransaction(this.db, async (trx) => {
      const sent = await trx
        .updateTable('back_in_stock_requests')
        .set({
          status: 'NOTIFICATION_SENT',
          auto_notified: 1,
          claim: null,
          retry_at: null,
          updated_date: at,
        })
        .where('id', '=', id)
        .where('claim', '=', claim)
        .where('status', '=', 'PROCESSING')
        .executeTakeFirst();
      // the claim lapsed (the mail server took longer than the claim) and another process took it
      if (Number(sent.numUpdatedRows) === 0) return false;
      await recordEvents(trx, [
        requestEvent('updated', {
          ...claimed,
          status: 'NOTIFICATION_SENT',
          auto_notified: 1,
          updated_date: at,
        }),
      ]);
      return true;
    });
  }

  /** FAILED with its reason, tried again after a wait that doubles each time, until the last attempt. */
  private async fail(row: BackInStockRequestRow, claim: string, reason: string, now: Date): Promise<void> {
    const retryAt =
      row.attempts < MAX_ATTEMPTS
        ? new Date(now.getTime() + FIRST_RETRY_MS * 2 ** (row.attempts - 1)).toISOString()
        : null;
    const failed = { status: 'FAILED', failure_reason: reason.slice(0, 500), claim: null, retry_at: retryAt };
    await inTransaction(this.db, async (trx) => {
      const changed = await trx
        .updateTable('back_in_stock_requests')
        .set({ ...failed, updated_date: now.toISOString() })
        .where('id', '=', row.id)
        .where('claim', '=', claim)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return;
      await recordEvents(trx, [
        requestEvent('updated', { ...row, ...failed, updated_date: now.toISOString() }),
      ]);
    });
  }

  private email(row: BackInStockRequestRow) {
    const { storeName, publicUrl } = this.options;
    const link = `${publicUrl}${row.item_path}`;
    return {
      kind: 'BACK_IN_STOCK',
      to: row.email,
      subject: `${row.item_name} is back in stock at ${storeName}`,
      text: [
        `Good news: ${row.item_name} (${row.item_price}) is back in stock at ${storeName}.`,
        '',
        `Get it before it is gone: ${link}`,
      ].join('\n'),
      html: [
        `<p>Good news: ${escapeHtml(row.item_name)} (${escapeHtml(row.item_price)}) is back in stock at ${escapeHtml(storeName)}.</p>`,
        `<p><a href="${escapeHtml(link)}">Get it before it is gone</a></p>`,
      ].join(''),
    };
  }
}

function wireOf(row: BackInStockRequestRow): BackInStockRequestWire {
  return {
    id: row.id,
    catalogReference: JSON.parse(row.catalog_reference) as CatalogReferenceIn,
    email: row.email,
    ...(row.contact_id ? { contactId: row.contact_id } : {}),
    status: row.status as BackInStockRequestStatus,
    ...(row.auto_notified !== null ? { autoNotified: row.auto_notified === 1 } : {}),
    createdDate: row.created_date,
    ...(row.item_url ? { itemUrl: row.item_url } : {}),
    ...(row.status === 'FAILED' && row.failure_reason ? { failureReason: row.failure_reason } : {}),
  };
}

function requestEvent(slug: 'created' | 'updated', row: BackInStockRequestRow): DomainEvent {
  return { entity: 'backInStockRequest', slug, entityId: row.id, payload: { entity: wireOf(row) } };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as { message?: unknown })?.message ?? '');
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || message.includes('UNIQUE constraint');
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
