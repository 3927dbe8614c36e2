import type { Kysely } from 'kysely';
import type { CheckoutService } from '../checkouts/service.ts';
import { inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import type { Mailer } from '../email/mailer.ts';
import { type DomainEvent, type RecordedEvent, recordEvents } from '../events/outbox.ts';
import { notFound } from '../shared/errors.ts';
import { timeOrderedId } from '../shared/ids.ts';
import { idCursorPage } from '../shared/paging.ts';
import type { AbandonedCheckoutRow } from './tables.ts';

/** A checkout left unfinished this long after its last change is abandoned (issue 34: one hour). */
export const DEFAULT_ABANDON_AFTER_MS = 60 * 60 * 1000;
/** How many checkouts one step of the scan reads: each step is one index range. */
const SCAN_PAGE = 200;
const SCAN = 'abandoned-checkouts';

type Price = {
  amount: string;
  convertedAmount?: string;
  formattedAmount?: string;
  formattedConvertedAmount?: string;
};

/** An abandoned checkout as the hosted wire answers it (`AbandonedCheckout`). */
export interface AbandonedCheckout {
  id: string;
  checkoutId: string;
  cartId: string | null;
  status: 'ABANDONED' | 'RECOVERED';
  buyerInfo: { email: string; visitorId?: string; memberId?: string };
  contactDetails?: Record<string, unknown>;
  currency: string;
  totalPrice: Price;
  subtotalPrice: Price;
  lineItems: Array<Record<string, unknown>>;
  activities: Array<{ createdDate: string; type: 'EMAIL_SENT' | 'EMAIL_NOT_SENT' }>;
  checkoutRecoveredDate?: string;
  /** The recovery link the email carries: it restores the checkout on the hosted checkout page. */
  checkoutUrl: string;
  createdDate: string;
  updatedDate: string;
}

export interface AbandonedCheckoutDependencies {
  checkouts: Pick<CheckoutService, 'unfinishedChangedIn' | 'pageAddress'>;
  mailer: Pick<Mailer, 'queue'>;
}

export interface AbandonedCheckoutOptions {
  publicUrl: string;
  storeName: string;
  /** How long after its last change an unfinished checkout is abandoned. */
  abandonAfterMs: number;
}

/**
 * Abandoned checkouts (point 1): a checkout with a buyer email left unfinished `abandonAfterMs`
 * becomes ABANDONED, and its buyer gets one recovery email (through the email outbox) whose link
 * restores it on the hosted checkout page; completing it marks it RECOVERED. The scan reads checkouts
 * by an index from where it stopped, so it costs the same however many checkouts the store has.
 */
export class AbandonedCheckoutService {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly deps: AbandonedCheckoutDependencies,
    private readonly options: AbandonedCheckoutOptions,
  ) {}

  /**
   * Finds the checkouts abandoned by `now` since the last scan and makes each an abandoned checkout
   * with its email queued (or not sent, to a buyer who unsubscribed). Safe to run on several processes
   * at once (one abandoned checkout per checkout), though the worker's lease runs it on one. Answers
   * how many it made.
   */
  async scan(now = new Date()): Promise<number> {
    const upTo = new Date(now.getTime() - this.options.abandonAfterMs).toISOString();
    const stopped = await this.db
      .selectFrom('abandoned_checkout_scan')
      .select(['updated_at', 'checkout_id'])
      .where('name', '=', SCAN)
      .executeTakeFirst();
    let after = stopped ? { updatedAt: stopped.updated_at, id: stopped.checkout_id } : null;
    let made = 0;
    for (;;) {
      const page = await this.deps.checkouts.unfinishedChangedIn(after, upTo, SCAN_PAGE);
      for (const { checkout } of page) {
        if (await this.abandon(checkout, now)) made += 1;
      }
      const last = page.at(-1);
      if (!last) break;
      after = last.position;
      await this.db
        .insertInto('abandoned_checkout_scan')
        .values({ name: SCAN, updated_at: after.updatedAt, checkout_id: after.id })
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({ updated_at: after?.updatedAt ?? '', checkout_id: after?.id ?? '' }),
        )
        .execute();
      if (page.length < SCAN_PAGE) break;
    }
    return made;
  }

  async get(id: string): Promise<AbandonedCheckout> {
    const row = await this.db
      .selectFrom('abandoned_checkouts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('abandoned checkout', id);
    return fromRow(row);
  }

  async delete(id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const deleted = await trx.deleteFrom('abandoned_checkouts').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('abandoned checkout', id);
      await recordEvents(trx, [
        { entity: 'abandonedCheckout', slug: 'deleted', entityId: id, payload: { entityId: id } },
      ]);
    });
  }

  /** Abandoned checkouts oldest first, `limit` a page after the cursor's id, optionally of one status. */
  async query(limit: number, cursor: string | null, status: string | null) {
    const rows = await this.db
      .selectFrom('abandoned_checkouts')
      .selectAll()
      .$if(status !== null, (qb) => qb.where('status', '=', status as string))
      .$if(cursor !== null, (qb) => qb.where('id', '>', cursor as string))
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    const { items, metadata } = idCursorPage(rows, limit, fromRow);
    return { abandonedCheckouts: items, metadata };
  }

  /** The recovery link's target: a new hosted checkout page session of the abandoned checkout's checkout. */
  async recoveryAddress(id: string): Promise<string> {
    return this.deps.checkouts.pageAddress((await this.get(id)).checkoutId);
  }

  /** The email's unsubscribe link: its buyer gets no more recovery emails. */
  async unsubscribe(id: string, now = new Date()): Promise<string> {
    const email = (await this.get(id)).buyerInfo.email.toLowerCase();
    await this.db
      .insertInto('abandoned_checkout_unsubscribes')
      .values({ email, created_date: now.toISOString() })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return email;
  }

  /** The event bus's `checkout completed`: an abandoned checkout of it is RECOVERED (once). */
  async recover(event: RecordedEvent): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await trx
        .selectFrom('abandoned_checkouts')
        .selectAll()
        .where('checkout_id', '=', event.entityId)
        .where('status', '=', 'ABANDONED')
        .executeTakeFirst();
      if (!row) return;
      const recovered: AbandonedCheckout = {
        ...fromRow(row),
        status: 'RECOVERED',
        checkoutRecoveredDate: event.createdDate,
        updatedDate: event.createdDate,
      };
      const changed = await trx
        .updateTable('abandoned_checkouts')
        .set({ status: 'RECOVERED', doc: rowOf(recovered).doc, updated_date: recovered.updatedDate })
        .where('id', '=', row.id)
        .where('status', '=', 'ABANDONED')
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return;
      await recordEvents(trx, [
        {
          entity: 'abandonedCheckout',
          slug: 'recovered',
          entityId: row.id,
          payload: { abandonedCheckout: recovered },
        },
      ]);
    });
  }

  /** Makes one checkout abandoned, with its email, unless another scan did: answers whether this one did. */
  private async abandon(checkout: Record<string, unknown>, now: Date): Promise<boolean> {
    const buyer = (checkout.buyerInfo ?? {}) as {
      email?: string | null;
      visitorId?: string;
      memberId?: string;
    };
    const email = buyer.email?.trim();
    if (!email) return false;
    const id = timeOrderedId();
    const at = now.toISOString();
    const summary = (checkout.priceSummary ?? {}) as { total?: Price; subtotal?: Price };
    const unsubscribed = await this.db
      .selectFrom('abandoned_checkout_unsubscribes')
      .select('email')
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    const abandoned: AbandonedCheckout = {
      id,
      checkoutId: String(checkout.id),
      cartId: (checkout.cartId as string | null | undefined) ?? null,
      status: 'ABANDONED',
      buyerInfo: { ...buyer, email },
      ...(checkout.billingInfo &&
      (checkout.billingInfo as { contactDetails?: Record<string, unknown> }).contactDetails
        ? {
            contactDetails: (checkout.billingInfo as { contactDetails: Record<string, unknown> })
              .contactDetails,
          }
        : {}),
      currency: String(checkout.currency ?? ''),
      totalPrice: summary.total ?? { amount: '0' },
      subtotalPrice: summary.subtotal ?? { amount: '0' },
      lineItems: (checkout.lineItems as Array<Record<string, unknown>> | undefined) ?? [],
      activities: [{ createdDate: at, type: unsubscribed ? 'EMAIL_NOT_SENT' : 'EMAIL_SENT' }],
      checkoutUrl: `${this.options.publicUrl}/ecom/v1/abandoned-checkout/${id}/redirect-to-checkout`,
      createdDate: at,
      updatedDate: at,
    };
    return inTransaction(this.db, async (trx) => {
      const inserted = await trx
        .insertInto('abandoned_checkouts')
        .values(rowOf(abandoned))
        .onConflict((oc) => oc.column('checkout_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await recordEvents(trx, [abandonedEvent('created', abandoned)]);
      if (!unsubscribed) await this.deps.mailer.queue(trx, this.recoveryEmail(abandoned));
      return true;
    });
  }

  private recoveryEmail(abandoned: AbandonedCheckout) {
    const { storeName, publicUrl } = this.options;
    const total = abandoned.totalPrice.formattedAmount ?? abandoned.totalPrice.amount;
    const unsubscribe = `${publicUrl}/api/cartwheel/abandoned-checkouts/${abandoned.id}/unsubscribe`;
    const lines = abandoned.lineItems
      .map(
        (line) =>
          `- ${(line.productName as { original?: string } | undefined)?.original ?? 'Item'} × ${line.quantity}`,
      )
      .join('\n');
    return {
      kind: 'ABANDONED_CHECKOUT_RECOVERY',
      to: abandoned.buyerInfo.email,
      subject: `You left something at ${storeName}`,
      text: [
        `Your checkout at ${storeName} is waiting for you (${total}):`,
        lines,
        '',
        `Complete your purchase: ${abandoned.checkoutUrl}`,
        '',
        `No more of these emails: ${unsubscribe}`,
      ].join('\n'),
      html: [
        `<p>Your checkout at ${escapeHtml(storeName)} is waiting for you (${escapeHtml(total)}).</p>`,
        `<p><a href="${abandoned.checkoutUrl}">Complete your purchase</a></p>`,
        `<p><a href="${unsubscribe}">No more of these emails</a></p>`,
      ].join(''),
    };
  }
}

function rowOf(abandoned: AbandonedCheckout): AbandonedCheckoutRow {
  const { id, checkoutId, status, createdDate, updatedDate, ...doc } = abandoned;
  return {
    id,
    checkout_id: checkoutId,
    status,
    doc: JSON.stringify(doc),
    created_date: createdDate,
    updated_date: updatedDate,
  };
}

function fromRow(row: AbandonedCheckoutRow): AbandonedCheckout {
  return {
    id: row.id,
    checkoutId: row.checkout_id,
    status: row.status as AbandonedCheckout['status'],
    ...(JSON.parse(row.doc) as Omit<
      AbandonedCheckout,
      'id' | 'checkoutId' | 'status' | 'createdDate' | 'updatedDate'
    >),
    createdDate: row.created_date,
    updatedDate: row.updated_date,
  };
}

function abandonedEvent(slug: 'created', abandoned: AbandonedCheckout): DomainEvent {
  return { entity: 'abandonedCheckout', slug, entityId: abandoned.id, payload: { entity: abandoned } };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
