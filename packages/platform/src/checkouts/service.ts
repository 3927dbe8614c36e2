import { isDeepStrictEqual } from 'node:util';
import {
  type Address,
  type ChannelType,
  type FullAddressContactDetails,
  type MerchantDiscountInput,
  type SelectedShippingOption,
  STORES_APP_ID,
} from '@cartwheel/sdk';
import type { Kysely, Transaction } from 'kysely';
import type { CatalogService, StockItem } from '../catalog/service.ts';
import { type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { recordEvents } from '../events/outbox.ts';
import type { MembersService } from '../members/service.ts';
import { sha256 } from '../oauth/tokens.ts';
import type { OrderSource } from '../orders/model.ts';
import type { OrderService } from '../orders/service.ts';
import type { Priced, StoredLine } from '../pricing/contract.ts';
import { addLines, checkLineLimits } from '../pricing/line-limits.ts';
import type { PricingService } from '../pricing/service.ts';
import { normalizeAddress } from '../shared/address.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId, newSecret } from '../shared/ids.ts';
import type { Principal } from '../shared/principal.ts';
import { CheckoutAttempts } from './attempts.ts';
import {
  type CheckoutDocument,
  type CheckoutInputs,
  checkoutDocument,
  outOfStock,
  ownsCheckout,
} from './document.ts';
import type { CheckoutAttemptRow, CheckoutRow } from './tables.ts';

/** `CheckoutService.createFromCart`'s input (docs/buying-path.md). */
export interface CheckoutFromCart {
  cartId: string;
  owner: { visitorId: string; memberId: string | null };
  lines: StoredLine[];
  couponCode: string | null;
  merchantDiscounts: MerchantDiscountInput[];
  buyerNote?: string | null;
  channelType?: ChannelType;
  email?: string | null;
  shippingAddress?: Address | null;
  billingAddress?: Address | null;
  selectedShippingOption?: SelectedShippingOption | null;
}

/** A line as a checkout call sends it: a catalog reference, or (admins only) a custom line. */
export interface LineInput {
  id?: string | null | undefined;
  quantity?: number | undefined;
  catalogReference?:
    | {
        appId?: string | undefined;
        catalogItemId?: string | undefined;
        options?: Record<string, unknown> | null | undefined;
      }
    | undefined;
}

/** What `PATCH /v1/checkouts/{id}` (and the hosted page's update) may change. */
export interface CheckoutPatch {
  email?: string | null | undefined;
  buyerNote?: string | null | undefined;
  billingAddress?: (Address & { addressLine1?: string | null }) | null | undefined;
  shippingAddress?: (Address & { addressLine1?: string | null }) | null | undefined;
  contactDetails?: FullAddressContactDetails | null | undefined;
  selectedShippingOption?: SelectedShippingOption | null | undefined;
  couponCode?: string | null | undefined;
  /** The hosted page's checkbox: the billing address is the shipping address. */
  billingSameAsShipping?: boolean | undefined;
}

/**
 * What a checkout needs of the other domains: its prices and coupon checks, the stock its lines take
 * and give back, the unpaid order a change cancels, and a signed-in buyer's email and name.
 */
export interface CheckoutDependencies {
  pricing: Pick<PricingService, 'price' | 'checkCoupon' | 'recordChosenVariants'>;
  catalog: Pick<CatalogService, 'takeStock' | 'returnStock'>;
  orders: Pick<OrderService, 'cancelUnpaid' | 'discard'>;
  members: Pick<MembersService, 'document'>;
}

/** A hosted checkout page's session lasts a day. */
export const CHECKOUT_SESSION_MS = 24 * 60 * 60 * 1000;

/**
 * Checkouts: created from a cart or from lines, changed by their owner (each change re-prices them),
 * locked, completed. Turning one into an order (create-order, the hosted page's payment) is the buying
 * path's step (buying/). Business rules only: the API's routes and the hosted page's both call these.
 */
export class CheckoutService {
  /** The payment attempts of checkouts, read and moved by the buying path. */
  readonly attempts: CheckoutAttempts;

  constructor(
    private readonly db: Kysely<Tables>,
    readonly options: { dialect: DialectName; publicUrl: string; storeName: string },
    private readonly deps: CheckoutDependencies,
  ) {
    this.attempts = new CheckoutAttempts(db);
  }

  /** Runs `work` in one transaction: the buying path's steps across checkouts, orders and payments. */
  async inTransaction<T>(work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
    return inTransaction(this.db, work);
  }

  /** The order create-order made for the checkout, and whether that completed it (nothing to pay). */
  async attachOrder(
    trx: Transaction<Tables>,
    id: string,
    orderId: string,
    completed: boolean,
    now: Date,
  ): Promise<void> {
    await trx
      .updateTable('checkouts')
      .set({ order_id: orderId, ...(completed ? { completed: 1 } : {}), updated_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** The member a checkout belongs to, if a member's. */
  async memberIdOf(id: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('checkouts')
      .select('member_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.member_id ?? null;
  }

  /** A checkout of the cart's lines and choices, owned by the cart's owner (docs/buying-path.md). */
  async createFromCart(input: CheckoutFromCart): Promise<{ checkoutId: string }> {
    // a cart merged on sign-in may hold more lines than a checkout takes
    checkLineLimits(input.lines, 'checkout');
    const buyer = await this.memberBuyer(input.owner.memberId);
    const inputs: CheckoutInputs = {
      lines: input.lines,
      couponCode: input.couponCode,
      merchantDiscounts: input.merchantDiscounts,
      buyerNote: input.buyerNote ?? null,
      email: input.email ?? buyer.email,
      shippingAddress: normalizeAddress(input.shippingAddress),
      billingAddress: normalizeAddress(input.billingAddress),
      contactDetails: buyer.contactDetails,
      selectedShippingOption: input.selectedShippingOption ?? null,
    };
    const id = await this.insert(input.owner, input.cartId, input.channelType ?? 'WEB', inputs);
    return { checkoutId: id };
  }

  /**
   * "Use" of a checkout template (checkout-templates/): a checkout of its catalog lines (with the
   * merchant's overrides), custom lines and coupon, owned by the caller (nobody's, for a buy link
   * opened by anyone), and the hosted checkout page's address for it.
   */
  async createFromTemplate(
    principal: Principal,
    template: {
      lineItems: Array<LineInput & { catalogOverrideFields?: StoredLine['catalogOverrideFields'] }>;
      customLineItems: NonNullable<StoredLine['custom']>[];
      couponCode: string | null;
    },
  ): Promise<{ checkoutId: string; checkoutUrl: string }> {
    const catalogLines = storedLines(template.lineItems, 'checkoutTemplate.lineItems').map((line, index) => {
      const overrides = template.lineItems[index]?.catalogOverrideFields;
      return overrides ? { ...line, catalogOverrideFields: overrides } : line;
    });
    await this.deps.pricing.recordChosenVariants(catalogLines);
    const customLines: StoredLine[] = template.customLineItems.map((line) => ({
      id: newId(),
      quantity: line.quantity ?? 1,
      custom: { ...line, quantity: line.quantity ?? 1 },
    }));
    const lines: StoredLine[] = [];
    addLines(lines, [...catalogLines, ...customLines], 'checkout');
    if (template.couponCode) await this.deps.pricing.checkCoupon(template.couponCode);
    const owner = ownerOf(principal);
    const buyer = await this.memberBuyer(owner.memberId);
    const checkoutId = await this.insert(owner, null, 'WEB', {
      lines,
      couponCode: template.couponCode,
      merchantDiscounts: [],
      buyerNote: null,
      email: buyer.email,
      shippingAddress: null,
      billingAddress: null,
      contactDetails: buyer.contactDetails,
      selectedShippingOption: null,
    });
    return { checkoutId, checkoutUrl: (await this.newSession(checkoutId, {})).url };
  }

  /**
   * Unfinished checkouts last changed after `after` (a position of a previous read) up to `upTo`,
   * oldest change first, `limit` of them: what the abandoned-checkout scan reads, a range of the
   * `checkouts_unfinished` index. Each with its position, so the next read starts after it.
   */
  async unfinishedChangedIn(
    after: { updatedAt: string; id: string } | null,
    upTo: string,
    limit: number,
  ): Promise<Array<{ position: { updatedAt: string; id: string }; checkout: CheckoutDocument }>> {
    const rows = await this.unfinishedChangedInQuery(after, upTo, limit).execute();
    return rows.map((row) => ({
      position: { updatedAt: row.updated_at, id: row.id },
      checkout: checkoutDocument(row),
    }));
  }

  /** `unfinishedChangedIn`'s one query: a range of `checkouts_unfinished` (a test reads its plan). */
  unfinishedChangedInQuery(after: { updatedAt: string; id: string } | null, upTo: string, limit: number) {
    return this.db
      .selectFrom('checkouts')
      .selectAll()
      .where('completed', '=', 0)
      .where('updated_at', '<=', upTo)
      .$if(after !== null, (qb) =>
        qb.where((eb) =>
          eb(eb.refTuple('updated_at', 'id'), '>', eb.tuple(after?.updatedAt ?? '', after?.id ?? '')),
        ),
      )
      .orderBy('updated_at')
      .orderBy('id')
      .limit(limit);
  }

  /** Whether the checkout was completed (its order placed). */
  async isCompleted(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('checkouts')
      .select('completed')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.completed === 1;
  }

  /**
   * A new hosted checkout page session of the checkout, for a link the store sent its buyer (an
   * abandoned checkout's recovery email): the page's address.
   */
  async pageAddress(checkoutId: string): Promise<string> {
    const row = await this.db
      .selectFrom('checkouts')
      .select('id')
      .where('id', '=', checkoutId)
      .executeTakeFirst();
    if (!row) throw notFound('checkout', checkoutId);
    return (await this.newSession(checkoutId, {})).url;
  }

  /** `POST /v1/checkouts`: a checkout of the lines given, owned by the caller. */
  async createFromLines(
    principal: Principal,
    request: { lineItems?: LineInput[] | undefined; channelType?: string | undefined },
  ): Promise<CheckoutDocument> {
    const lines: StoredLine[] = [];
    addLines(lines, await this.newLines(request.lineItems ?? []), 'checkout');
    const owner = ownerOf(principal);
    const buyer = await this.memberBuyer(owner.memberId);
    const id = await this.insert(owner, null, (request.channelType as ChannelType | undefined) ?? 'WEB', {
      lines,
      couponCode: null,
      merchantDiscounts: [],
      buyerNote: null,
      email: buyer.email,
      shippingAddress: null,
      billingAddress: null,
      contactDetails: buyer.contactDetails,
      selectedShippingOption: null,
    });
    return this.get(id, principal);
  }

  async get(id: string, principal: Principal): Promise<CheckoutDocument> {
    return checkoutDocument(await this.owned(id, principal));
  }

  /** The newest checkout made from the cart, if the caller owns it. */
  async byCart(cartId: string, principal: Principal): Promise<CheckoutDocument> {
    const row = await this.db
      .selectFrom('checkouts')
      .selectAll()
      .where('cart_id', '=', cartId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!row || !ownsCheckout(principal, row)) throw notFound('checkout', cartId);
    return checkoutDocument(row);
  }

  async update(id: string, principal: Principal, patch: CheckoutPatch): Promise<CheckoutDocument> {
    if (patch.couponCode) await this.deps.pricing.checkCoupon(patch.couponCode);
    return this.change(id, principal, (inputs) => applyPatch(inputs, patch));
  }

  async addLines(id: string, principal: Principal, lineItems: LineInput[]): Promise<CheckoutDocument> {
    const added = await this.newLines(lineItems);
    return this.change(id, principal, (inputs) => {
      // the same catalog item and variant again adds to that line's quantity, as a cart does
      const lines = [...inputs.lines];
      addLines(lines, added, 'checkout');
      return { ...inputs, lines };
    });
  }

  async removeLines(id: string, principal: Principal, lineItemIds: string[]): Promise<CheckoutDocument> {
    const removed = new Set(lineItemIds);
    return this.change(id, principal, (inputs) => ({
      ...inputs,
      lines: inputs.lines.filter((line) => !removed.has(line.id)),
    }));
  }

  async updateQuantities(
    id: string,
    principal: Principal,
    updates: Array<{ id?: string | undefined; quantity?: number | undefined }>,
  ): Promise<CheckoutDocument> {
    return this.change(id, principal, (inputs) => {
      const lines = inputs.lines.map((line) => ({ ...line }));
      for (const [index, update] of updates.entries()) {
        const line = lines.find((candidate) => candidate.id === update.id);
        if (!line) {
          throw invalidArgument([
            violation(`lineItems[${index}].id`, `the checkout has no line ${update.id}`, 'VALIDATION'),
          ]);
        }
        line.quantity = update.quantity ?? line.quantity;
      }
      checkLineLimits(lines, 'checkout');
      return { ...inputs, lines };
    });
  }

  async removeCoupon(id: string, principal: Principal): Promise<CheckoutDocument> {
    return this.change(id, principal, (inputs) => ({ ...inputs, couponCode: null }));
  }

  /** `mark-as-completed`: the checkout is done with (an order was made elsewhere). */
  async markCompleted(id: string, principal: Principal): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await this.lock(trx, id, principal);
      if (row.completed === 1) return;
      const now = new Date();
      await trx
        .updateTable('checkouts')
        .set({ completed: 1, updated_at: now.toISOString() })
        .where('id', '=', id)
        .execute();
      await recordEvents(
        trx,
        [{ entity: 'checkout', slug: 'completed', entityId: id, payload: { entityId: id } }],
        now,
      );
    });
  }

  /** A hosted checkout page session for the caller's checkout: its token, and the page's address. */
  async openSession(
    checkoutId: string,
    principal: Principal,
    callbacks: { postFlowUrl?: string; thankYouPageUrl?: string; cartPageUrl?: string },
  ): Promise<{ token: string; url: string }> {
    await this.owned(checkoutId, principal);
    return this.newSession(checkoutId, callbacks);
  }

  /** A hosted checkout page session of the checkout: its token and the page's address. */
  private async newSession(
    checkoutId: string,
    callbacks: { postFlowUrl?: string; thankYouPageUrl?: string; cartPageUrl?: string },
  ): Promise<{ token: string; url: string }> {
    const token = newSecret();
    const now = new Date();
    await this.db
      .insertInto('checkout_sessions')
      .values({
        token_hash: sha256(token),
        checkout_id: checkoutId,
        callbacks: JSON.stringify(callbacks),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + CHECKOUT_SESSION_MS).toISOString(),
      })
      .execute();
    return { token, url: `${this.options.publicUrl}/auth/checkout?session=${encodeURIComponent(token)}` };
  }

  /** The checkout a hosted page session names, while the session lasts. */
  async sessionOf(
    token: string | undefined,
  ): Promise<{ checkoutId: string; callbacks: Record<string, string | undefined> }> {
    const row = token
      ? await this.db
          .selectFrom('checkout_sessions')
          .selectAll()
          .where('token_hash', '=', sha256(token))
          .executeTakeFirst()
      : undefined;
    if (!row || row.expires_at <= new Date().toISOString()) {
      throw applicationError(
        'NOT_FOUND',
        'CHECKOUT_SESSION_NOT_FOUND',
        'this checkout link has expired or is not valid: go back to the cart and check out again',
      );
    }
    return { checkoutId: row.checkout_id, callbacks: JSON.parse(row.callbacks) };
  }

  // ---- shared by the API, the page and placing an order ----

  /** Loads the caller's checkout; NOT_FOUND for anyone else, whether or not it exists. */
  async owned(id: string, principal: Principal): Promise<CheckoutRow> {
    const row = await this.db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !ownsCheckout(principal, row)) throw notFound('checkout', id);
    return row;
  }

  /** Holds the checkout's row for the rest of `trx` (PostgreSQL row lock; SQLite serialises writers). */
  async lock(trx: Transaction<Tables>, id: string, principal: Principal): Promise<CheckoutRow> {
    const row = await trx
      .selectFrom('checkouts')
      .selectAll()
      .where('id', '=', id)
      .$if(this.options.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!row || !ownsCheckout(principal, row)) throw notFound('checkout', id);
    return row;
  }

  /**
   * Changes what the buyer chose and re-prices; a completed checkout refuses, and an unpaid order
   * create-order made of it is canceled (`releaseUnpaidOrder`). A call that changes nothing (the page
   * saving the details it shows) writes nothing: the checkout keeps its prices and its order. Pricing
   * reads outside the transaction (it reads the store's settings on connections of its own), so the
   * write holds the row and goes ahead only if the checkout is still what was priced; else it prices
   * again.
   */
  async change(
    id: string,
    principal: Principal,
    mutate: (inputs: CheckoutInputs) => CheckoutInputs,
  ): Promise<CheckoutDocument> {
    for (;;) {
      const seen = await this.owned(id, principal);
      if (seen.completed === 1) throw completedError(id);
      const inputs = mutate(JSON.parse(seen.inputs) as CheckoutInputs);
      // compared as values, not text: a client sends back what it was shown, in whichever key order
      if (isDeepStrictEqual(JSON.parse(JSON.stringify(inputs)), JSON.parse(seen.inputs))) {
        return checkoutDocument(seen);
      }
      const priced = await this.price(inputs);
      const written = await inTransaction(this.db, async (trx) => {
        const row = await this.lock(trx, id, principal);
        if (row.completed === 1) throw completedError(id);
        if (row.inputs !== seen.inputs) return undefined; // changed meanwhile: price the new inputs
        await this.refuseWhilePaying(trx, row);
        const now = new Date();
        if (row.order_id) await this.releaseUnpaidOrder(trx, row, now);
        const next: CheckoutRow = {
          ...row,
          inputs: JSON.stringify(inputs),
          priced: JSON.stringify(priced),
          order_id: null,
          updated_at: now.toISOString(),
        };
        await trx
          .updateTable('checkouts')
          .set({ inputs: next.inputs, priced: next.priced, order_id: null, updated_at: next.updated_at })
          .where('id', '=', id)
          .execute();
        const document = checkoutDocument(next);
        await recordEvents(
          trx,
          [{ entity: 'checkout', slug: 'updated', entityId: id, payload: { entity: document } }],
          now,
        );
        return document;
      });
      if (written) return written;
    }
  }

  /**
   * Refuses, in the transaction holding the checkout, any change while a payment of it is under way: a
   * charge in flight or a 3-D Secure step waiting, whether the hosted page started it or it pays the
   * order create-order made. The buyer confirms the checkout as it was when they paid, so that is what
   * is charged, ordered and taken from the cart and the stock. A step past its hold is over: its stock
   * is given back here, as the next payment would, and the change goes ahead.
   */
  async refuseWhilePaying(trx: Transaction<Tables>, row: CheckoutRow): Promise<void> {
    const paying = await trx
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('checkout_id', '=', row.id)
      .where('status', 'in', ['PROCESSING', 'REQUIRES_ACTION'])
      .orderBy('id')
      .execute();
    const now = new Date().toISOString();
    for (const attempt of paying) {
      if (attempt.status === 'REQUIRES_ACTION' && attempt.expires_at <= now) {
        await this.releaseAttempt(trx, attempt, 'EXPIRED', expiredOutcome());
        continue;
      }
      throw applicationError(
        'FAILED_PRECONDITION',
        'PAYMENT_IN_PROGRESS',
        'this checkout is being paid: it can change once that payment is over (complete or fail the card check first)',
        { checkoutId: row.id, ...(attempt.order_id ? { orderId: attempt.order_id } : {}) },
      );
    }
  }

  /**
   * The checkout changes after create-order made an unpaid order of it: that order no longer holds
   * what the buyer chose, so it is canceled, and paying the checkout makes its order anew. The buyer
   * is never charged one total for a checkout that shows another (while that order is being paid, the
   * checkout takes no change: `refuseWhilePaying`).
   */
  private async releaseUnpaidOrder(trx: Transaction<Tables>, row: CheckoutRow, now: Date): Promise<void> {
    const orderId = row.order_id!;
    const canceled = await this.deps.orders.cancelUnpaid(trx, orderId, now);
    // only an order an earlier version made holds its stock unpaid (OrderRow.holds_stock)
    if (canceled?.heldStock) {
      await this.deps.catalog.returnStock(trx, stockItems(JSON.parse(row.inputs) as CheckoutInputs).items);
    }
  }

  /**
   * Takes the checkout's catalog lines out of stock in `trx`, or refuses naming the lines that fall
   * short. Stock held by 3-D Secure steps nobody finished in time is given back first when it matters.
   */
  async takeStock(trx: Transaction<Tables>, inputs: CheckoutInputs): Promise<StockItem[]> {
    const { items, lineIds } = stockItems(inputs);
    let { short } = await this.deps.catalog.takeStock(trx, items);
    if (short.length > 0 && (await this.releaseExpiredHolds(trx)) > 0) {
      ({ short } = await this.deps.catalog.takeStock(trx, items));
    }
    if (short.length > 0) throw outOfStock([...new Set(short.map((shortfall) => lineIds[shortfall.index]!))]);
    return items;
  }

  /**
   * An attempt that did not pay: its stock given back, its order discarded, how it ended kept. Only
   * the request that moves it out of its status gives anything back (two finding it expired at once).
   */
  async releaseAttempt(
    trx: Transaction<Tables>,
    attempt: CheckoutAttemptRow,
    status: 'DECLINED' | 'EXPIRED' | 'ABANDONED' | 'INTERRUPTED',
    outcome: { code: string; description: string },
  ): Promise<void> {
    const moved = await trx
      .updateTable('checkout_attempts')
      .set({ status, outcome: JSON.stringify(outcome), updated_at: new Date().toISOString() })
      .where('id', '=', attempt.id)
      .where('status', '=', attempt.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return;
    await this.deps.catalog.returnStock(trx, JSON.parse(attempt.stock) as StockItem[]);
    if (attempt.order_id) await this.deps.orders.discard(trx, attempt.order_id);
  }

  /** Gives back the stock of every 3-D Secure step past its hold; answers how many. */
  async releaseExpiredHolds(trx: Transaction<Tables>): Promise<number> {
    const expired = await trx
      .selectFrom('checkout_attempts')
      .selectAll()
      .where('status', '=', 'REQUIRES_ACTION')
      .where('expires_at', '<=', new Date().toISOString())
      .orderBy('id')
      .limit(100)
      .execute();
    for (const attempt of expired) await this.releaseAttempt(trx, attempt, 'EXPIRED', expiredOutcome());
    return expired.length;
  }

  /** The checkout is done: completed with its order and the event written, in `trx` (buying/complete.ts). */
  async completed(trx: Transaction<Tables>, row: CheckoutRow, orderId: string, now: Date): Promise<void> {
    await trx
      .updateTable('checkouts')
      .set({ completed: 1, order_id: orderId, updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .execute();
    await recordEvents(
      trx,
      [{ entity: 'checkout', slug: 'completed', entityId: row.id, payload: { entityId: row.id, orderId } }],
      now,
    );
  }

  /** The buyer's contact id, for the order's buyer info (members have one). */
  /**
   * What a member's new checkout starts with: their login email and their name, so a signed-in buyer
   * does not type them again (and pays as the account they are signed in to). Nothing for a visitor.
   */
  private async memberBuyer(
    memberId: string | null,
  ): Promise<{ email: string | null; contactDetails: FullAddressContactDetails | null }> {
    const member = memberId ? await this.deps.members.document(memberId) : undefined;
    if (!member) return { email: null, contactDetails: null };
    const { firstName, lastName } = member.contact ?? {};
    return {
      email: member.loginEmail ?? null,
      contactDetails:
        firstName || lastName
          ? { ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}) }
          : null,
    };
  }

  async contactIdOf(principal: Principal): Promise<string | null> {
    if (principal.kind !== 'member') return null;
    return (await this.deps.members.document(principal.memberId))?.contactId ?? null;
  }

  /** Lines as a checkout call sent them, checked, given ids and the variants their choices name. */
  private async newLines(lineItems: LineInput[]): Promise<StoredLine[]> {
    const lines = storedLines(lineItems, 'lineItems');
    await this.deps.pricing.recordChosenVariants(lines);
    return lines;
  }

  price(inputs: CheckoutInputs): Promise<Priced> {
    return this.deps.pricing.price({
      lines: inputs.lines,
      couponCode: inputs.couponCode,
      merchantDiscounts: inputs.merchantDiscounts,
      shippingAddress: inputs.shippingAddress,
      billingAddress: inputs.billingAddress,
      selectedShippingOption: inputs.selectedShippingOption,
    });
  }

  private async insert(
    owner: { visitorId: string | null; memberId: string | null },
    cartId: string | null,
    channelType: string,
    inputs: CheckoutInputs,
  ): Promise<string> {
    const id = newId();
    const priced = await this.price(inputs);
    return inTransaction(this.db, async (trx) => {
      const now = new Date();
      const row: CheckoutRow = {
        id,
        cart_id: cartId,
        visitor_id: owner.visitorId,
        member_id: owner.memberId,
        channel_type: channelType,
        completed: 0,
        order_id: null,
        inputs: JSON.stringify(inputs),
        priced: JSON.stringify(priced),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await trx.insertInto('checkouts').values(row).execute();
      await recordEvents(
        trx,
        [{ entity: 'checkout', slug: 'created', entityId: id, payload: { entity: checkoutDocument(row) } }],
        now,
      );
      return id;
    });
  }
}

/** How a 3-D Secure step left past its hold ends. */
export const expiredOutcome = () => ({
  code: 'AUTHENTICATION_EXPIRED',
  description: 'the card authentication was not completed in time: place the order again',
});

export function completedError(id: string) {
  return applicationError(
    'FAILED_PRECONDITION',
    'CHECKOUT_ALREADY_COMPLETED',
    `checkout ${id} is already completed`,
    {
      checkoutId: id,
    },
  );
}

/** The order a checkout becomes, from its row, what the buyer chose and what it was priced at. */
export function orderSource(
  row: CheckoutRow,
  inputs: CheckoutInputs,
  priced: Priced,
  contactId: string | null,
): OrderSource {
  return {
    checkoutId: row.id,
    channelType: row.channel_type as ChannelType, // written from the wire's channel types
    buyer: { visitorId: row.visitor_id, memberId: row.member_id, contactId, email: inputs.email },
    buyerNote: inputs.buyerNote,
    billingAddress: inputs.billingAddress,
    shippingAddress: inputs.shippingAddress,
    contactDetails: inputs.contactDetails,
    priced,
  };
}

/**
 * What the buyer chose, with a PATCH's or the hosted page's changes, each written one way (trimmed
 * email, `addressLine`, a carrier id or null) so that sending what is there already changes nothing.
 */
export function applyPatch(inputs: CheckoutInputs, patch: CheckoutPatch): CheckoutInputs {
  const next = { ...inputs };
  if (patch.email !== undefined) next.email = patch.email?.trim() || null;
  if (patch.buyerNote !== undefined) next.buyerNote = patch.buyerNote;
  if (patch.billingAddress !== undefined) next.billingAddress = normalizeAddress(patch.billingAddress);
  if (patch.shippingAddress !== undefined) next.shippingAddress = normalizeAddress(patch.shippingAddress);
  if (patch.billingSameAsShipping) next.billingAddress = next.shippingAddress;
  if (patch.contactDetails !== undefined) next.contactDetails = patch.contactDetails;
  if (patch.selectedShippingOption !== undefined) {
    const option = patch.selectedShippingOption;
    next.selectedShippingOption = option ? { code: option.code, carrierId: option.carrierId ?? null } : null;
  }
  if (patch.couponCode !== undefined) next.couponCode = patch.couponCode || null;
  return next;
}

/** Lines as a checkout call sent them, checked and given ids. */
function storedLines(lineItems: LineInput[], field: string): StoredLine[] {
  return lineItems.map((item, index) => {
    const reference = item.catalogReference;
    if (!reference?.catalogItemId) {
      throw invalidArgument([
        violation(`${field}[${index}].catalogReference.catalogItemId`, 'is required', 'REQUIRED_FIELD'),
      ]);
    }
    if (reference.appId && reference.appId !== STORES_APP_ID) {
      throw invalidArgument([
        violation(
          `${field}[${index}].catalogReference.appId`,
          `must be the stores app (${STORES_APP_ID})`,
          'VALIDATION',
        ),
      ]);
    }
    return {
      id: newId(),
      quantity: item.quantity ?? 1,
      catalogReference: {
        appId: STORES_APP_ID,
        catalogItemId: reference.catalogItemId,
        ...(reference.options ? { options: reference.options } : {}),
      },
    };
  });
}

/** Who a new checkout belongs to: a member, a visitor, or (an admin's, a buy link's) nobody. */
function ownerOf(principal: Principal): { visitorId: string | null; memberId: string | null } {
  if (principal.kind === 'member') return { visitorId: principal.visitorId, memberId: principal.memberId };
  if (principal.kind === 'visitor') return { visitorId: principal.visitorId, memberId: null };
  return { visitorId: null, memberId: null };
}

/** The catalog lines as stock sees them, and which line each came from. */
export function stockItems(inputs: CheckoutInputs): { items: StockItem[]; lineIds: string[] } {
  const items: StockItem[] = [];
  const lineIds: string[] = [];
  for (const line of inputs.lines) {
    const reference = line.catalogReference;
    if (!reference?.catalogItemId || (reference.appId && reference.appId !== STORES_APP_ID)) continue;
    const options = (reference.options ?? {}) as { variantId?: unknown; options?: unknown };
    items.push({
      productId: reference.catalogItemId,
      // the variant the line was priced as, recorded when it was added, however its choices were spelled
      variantId:
        line.chosenVariantId ?? (typeof options.variantId === 'string' ? options.variantId : undefined),
      choices:
        options.options && typeof options.options === 'object'
          ? (options.options as Record<string, string>)
          : undefined,
      quantity: line.quantity,
    });
    lineIds.push(line.id);
  }
  return { items, lineIds };
}
