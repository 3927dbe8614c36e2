import type {
  AddressWithContact,
  Cart,
  CatalogReference,
  EstimateTotalsResponse,
  MerchantDiscountInput,
  PriceSummary,
  SelectedShippingOption,
} from '@cartwheel/sdk';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { CatalogService } from '../catalog/service.ts';
import { CompiledStatement } from '../db/compiled.ts';
import { type Database, type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import type { Priced, PricingRequest, StoredLine } from '../pricing/contract.ts';
import { addLines as addHeldLines } from '../pricing/line-limits.ts';
import { pushLineItemJson, sameItemKey } from '../pricing/lines.ts';
import { currencyOf, zero } from '../pricing/money.ts';
import type { PricingService } from '../pricing/service.ts';
import {
  catalogVersionNow,
  type PricingVersions,
  pricingVersionColumns,
  settingsVersionNow,
} from '../pricing/versions.ts';
import { nowIso } from '../shared/clock.ts';
import { applicationError, DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { storedLinesJson } from './lines-json.ts';
import { PricedAnswers } from './priced-answers.ts';
import type {
  AddToCartBody,
  CatalogLineInput,
  CustomLineInput,
  EstimateTotalsBody,
  UpdateCartBody,
} from './schemas.ts';
import { SharedCommits } from './shared-commits.ts';
import { SharedReads } from './shared-reads.ts';
import type { CartRow } from './tables.ts';

/**
 * Whose current cart a call acts on: a visitor's (keyed by visitor id) or a member's (keyed by member
 * id; `visitorId` is who they were before signing in, whose cart merges into theirs). `elevated`: the
 * caller also holds the admin API key, and may set merchant discounts and catalog override fields.
 */
export type CartOwner =
  | { kind: 'visitor'; visitorId: string; elevated?: boolean }
  | { kind: 'member'; memberId: string; visitorId: string; elevated?: boolean };

/** What the cart needs of the other domains: its prices, and the catalog's facts about its lines. */
export interface CartDependencies {
  pricing: Pick<PricingService, 'price' | 'priceToKeep' | 'checkCoupon' | 'recordChosenVariants'>;
  catalog: Pick<CatalogService, 'pricingFacts'>;
}

/** What a checkout of the cart starts from (buying/path.ts makes the checkout). */
export type CartToCheckOut = Pick<
  StoredCart,
  | 'id'
  | 'visitorId'
  | 'memberId'
  | 'lines'
  | 'couponCode'
  | 'merchantDiscounts'
  | 'buyerNote'
  | 'contactInfo'
  | 'selectedShippingOption'
>;

/** What names a cart row's revision: enough to know a kept answer is still the cart's. */
const REVISION_COLUMNS = ['id', 'member_id', 'revision'] as const;
type RevisionColumn = (typeof REVISION_COLUMNS)[number];

/** A cart row as `readVersioned` reads it, with the pricing versions beside it. */
type VersionedRow = CartRow & { catalog_version: number | null; settings_version: number | null };

/** A cart as stored: what the shopper chose, no amounts. */
interface StoredCart {
  id: string;
  ownerKey: string;
  visitorId: string;
  memberId: string | null;
  lines: StoredLine[];
  couponCode: string | null;
  merchantDiscounts: MerchantDiscountInput[];
  buyerNote: string | null;
  contactInfo: AddressWithContact | null;
  selectedShippingOption: SelectedShippingOption | null;
  checkoutId: string | null;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** A price made for a change, before it was written: `cart` is the change as priced. */
interface KnownPrice {
  cart: StoredCart;
  priced: Priced;
  until: number;
}

/** The lines one call adds: its catalog lines (checked against the catalog), and all of them in order. */
interface NewLines {
  catalog: StoredLine[];
  all: StoredLine[];
}

const visitorKey = (visitorId: string) => `visitor:${visitorId}`;
const memberKey = (memberId: string) => `member:${memberId}`;
const ownerKeyOf = (owner: CartOwner) =>
  owner.kind === 'member' ? memberKey(owner.memberId) : visitorKey(owner.visitorId);

function ownedCartNotFound(): DomainError {
  return applicationError(
    'NOT_FOUND',
    'OWNED_CART_NOT_FOUND',
    'the current visitor or member has no cart yet',
  );
}

/**
 * Each visitor's and member's current cart: its lines, coupon and buyer's choices, priced by
 * `PricingService` whenever it is read, and the merge of a visitor's cart into the member's on sign-in.
 */
export class CartService {
  /**
   * Each owner's last priced answer, served again while provably unchanged (priced-answers.ts), with
   * the row it was priced from and the cart that row was read or written as: a change that starts from
   * a kept row copies that cart instead of parsing the row's JSON again (changes work on a copy).
   */
  private readonly answers = new PricedAnswers<StoredCart>();
  /** The SQL texts of `readVersioned`, by columns and number of owner keys. */
  private readonly versionedReads = new Map<string, string>();
  /** Where `writeIfUnchanged` commits, together with the writes arriving beside it (SQLite). */
  private readonly sharedCommits: SharedCommits;
  /** Where `readVersioned` reads, together with the reads arriving beside it (SQLite). */
  private readonly sharedReads: SharedReads;

  private readonly db: Kysely<Tables>;
  private readonly dialect: DialectName;

  constructor(
    database: Database,
    private readonly deps: CartDependencies,
  ) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.sharedCommits = new SharedCommits(database);
    this.sharedReads = new SharedReads(database.db, database.dialect);
  }

  // ---- reads ----

  /**
   * `{"cart": ...}`, the owner's cart priced, as JSON text; OWNED_CART_NOT_FOUND when there is none yet.
   * One statement reads the cart's revision and the pricing versions; an answer kept from that very cart
   * and those versions is served as it is (see PricedAnswers). Anything else reads the whole row (with
   * the versions again), is priced, and kept.
   */
  async currentJson(owner: CartOwner): Promise<string> {
    const known = await this.readVersioned(owner, 'revision');
    if (known.row && known.versions && !known.mergePending) {
      const kept = this.answers.get(ownerKeyOf(owner), {
        cartId: known.row.id,
        revision: Number(known.row.revision),
        versions: known.versions,
      });
      if (kept !== undefined) return kept;
    }
    const { cart, versions, row } = await this.readPriceable(owner);
    if (!cart) throw ownedCartNotFound();
    return this.answer(cart, versions, undefined, row);
  }

  /** Every total a checkout would show, for the cart as it is and the destination given. */
  async estimateTotals(owner: CartOwner, input: EstimateTotalsBody): Promise<EstimateTotalsResponse> {
    const { cart, versions } = await this.readPriceable(owner);
    if (!cart || cart.lines.length === 0) throw ownedCartNotFound();
    const { priced } = await this.deps.pricing.priceToKeep(
      {
        lines: cart.lines,
        couponCode: cart.couponCode,
        merchantDiscounts: cart.merchantDiscounts,
        shippingAddress: input.shippingAddress ?? cart.contactInfo?.address ?? null,
        billingAddress: input.billingAddress ?? null,
        selectedShippingOption: input.selectedShippingOption ?? cart.selectedShippingOption,
        calculateTax: input.calculateTax ?? true,
        calculateShipping: input.calculateShipping ?? true,
      },
      pricingAt(versions),
    );
    const nothing = currencyOf(priced.currency).price(zero());
    const payLater: PriceSummary = {
      subtotal: nothing,
      shipping: nothing,
      tax: nothing,
      discount: nothing,
      total: nothing,
    };
    return {
      cart: this.wire(cart, priced),
      calculatedLineItems: priced.calculatedLineItems,
      priceSummary: priced.priceSummary,
      taxSummary: priced.taxSummary,
      shippingInfo: priced.shippingInfo,
      appliedDiscounts: priced.appliedDiscounts,
      ...(priced.calculationErrors ? { calculationErrors: priced.calculationErrors } : {}),
      weightUnit: priced.weightUnit,
      currency: priced.currency,
      // every line is paid in full online: all now, nothing later
      payNow: priced.priceSummary,
      payLater,
      membershipOptions: priced.membershipOptions,
      additionalFees: [],
      violations: priced.violations,
    };
  }

  // ---- changes ----

  /**
   * Adds catalog and custom lines, creating the cart; the same catalog item and options grows its line.
   * Answers `{"cart": ...}` as JSON text.
   */
  async addToCart(owner: CartOwner, input: AddToCartBody): Promise<string> {
    const lines = await this.newLines(owner, input.lineItems ?? [], input.customLineItems ?? []);
    return this.changeWithLines(owner, lines, (cart) => addLines(cart, lines.all));
  }

  /** PATCH: the buyer's note and contact, the coupon, merchant discounts, and lines to add (`{"cart": ...}` text). */
  async update(owner: CartOwner, input: UpdateCartBody): Promise<string> {
    if (input.merchantDiscounts !== undefined && !owner.elevated) {
      throw permissionDenied('merchantDiscounts');
    }
    // each merchant discount is an amount off or a percentage, never both or neither
    const unclear = (input.merchantDiscounts ?? []).flatMap((discount, index) =>
      (discount.amount === undefined) === (discount.percentage === undefined)
        ? [violation(`merchantDiscounts[${index}]`, 'an amount or a percentage is required, not both')]
        : [],
    );
    if (unclear.length > 0) throw invalidArgument(unclear);
    const couponCode = input.couponCode?.trim() || null;
    // an unknown or expired code is refused before anything changes
    if (couponCode) await this.deps.pricing.checkCoupon(couponCode);
    const lines = await this.newLines(owner, input.lineItems ?? [], input.customLineItems ?? []);
    return this.changeWithLines(owner, lines, (cart) => {
      const info = input.cartInfo;
      if (info?.buyerNote !== undefined) cart.buyerNote = info.buyerNote;
      if (info?.contactInfo !== undefined)
        cart.contactInfo = (info.contactInfo as AddressWithContact) ?? null;
      if (info?.selectedShippingOption !== undefined) {
        cart.selectedShippingOption = info.selectedShippingOption ?? null;
      }
      if (couponCode) cart.couponCode = couponCode; // one coupon a cart: a new one replaces the old
      if (input.merchantDiscounts !== undefined) cart.merchantDiscounts = input.merchantDiscounts;
      addLines(cart, lines.all);
    });
  }

  /** Removes the named lines; ids the cart does not hold are ignored, so a retried call succeeds. */
  async removeLineItems(owner: CartOwner, lineItemIds: string[]): Promise<Cart> {
    const removed = new Set(lineItemIds);
    const cart = await this.change(owner, { create: false }, (cart) => {
      cart.lines = cart.lines.filter((line) => !removed.has(line.id));
    });
    return this.wire(cart, await this.price(cart));
  }

  /** Sets lines' quantities; a line id the cart does not hold is refused and nothing changes. */
  async updateLineItemsQuantity(
    owner: CartOwner,
    updates: Array<{ id: string; quantity: number }>,
  ): Promise<Cart> {
    const cart = await this.change(owner, { create: false }, (cart) => {
      const byId = new Map(cart.lines.map((line) => [line.id, line]));
      const unknown = updates.flatMap((update, index) =>
        byId.has(update.id) ? [] : [violation(`lineItems[${index}].id`, 'is not a line item of this cart')],
      );
      if (unknown.length > 0) {
        throw new DomainError('INVALID_ARGUMENT', 'INVALID_ARGUMENT', unknown, {
          code: 'LINE_ITEM_NOT_FOUND',
          description: 'the cart holds no line item with this id',
          data: { lineItemIds: updates.filter((update) => !byId.has(update.id)).map((update) => update.id) },
        });
      }
      for (const update of updates) (byId.get(update.id) as StoredLine).quantity = update.quantity;
    });
    return this.wire(cart, await this.price(cart));
  }

  async removeCoupon(owner: CartOwner): Promise<Cart> {
    const cart = await this.change(owner, { create: false }, (cart) => {
      cart.couponCode = null;
    });
    return this.wire(cart, await this.price(cart));
  }

  /** The owner's cart as it is now, for a checkout of it; refused when there is none or it is empty. */
  async toCheckOut(owner: CartOwner): Promise<CartToCheckOut> {
    const { cart } = await this.readPriceable(owner);
    if (!cart) throw ownedCartNotFound();
    if (cart.lines.length === 0) {
      throw applicationError(
        'FAILED_PRECONDITION',
        'CART_IS_EMPTY',
        'the cart has no line items to check out',
      );
    }
    return cart;
  }

  /** Remembers on the owner's cart the checkout made of it (`checkoutId` on the wire). */
  async rememberCheckout(owner: CartOwner, cartId: string, checkoutId: string): Promise<void> {
    try {
      await this.change(owner, { create: false }, (current) => {
        if (current.id === cartId) current.checkoutId = checkoutId;
      });
    } catch (error) {
      // the cart was paid for and deleted meanwhile: there is nothing to remember the checkout on
      if (!(error instanceof DomainError && error.kind === 'NOT_FOUND')) throw error;
    }
  }

  /** Deletes the owner's cart; answers the same when there is none (a retried delete succeeds). */
  async deleteCurrent(owner: CartOwner): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const carts = await this.lockOwned(trx, owner);
      for (const cart of carts) await deleteCart(trx, cart.id);
    });
  }

  /**
   * The buying path calls this in the transaction that approves an order: what the order bought leaves
   * the cart. A cart as it was when checked out empties and is deleted; one the shopper changed since
   * (an item added in another tab, a quantity raised) keeps what the order did not buy, never losing
   * an item the buyer put there.
   */
  async removeBought(trx: Transaction<Tables>, cartId: string, bought: readonly StoredLine[]): Promise<void> {
    const row = await trx
      .selectFrom('carts')
      .selectAll()
      .where('id', '=', cartId)
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
      .executeTakeFirst();
    if (!row) return;
    const cart = fromRow(row);
    const owed = new Map<string, number>();
    for (const line of bought) owed.set(boughtKey(line), (owed.get(boughtKey(line)) ?? 0) + line.quantity);
    cart.lines = cart.lines.flatMap((line) => {
      const key = boughtKey(line);
      const taken = Math.min(owed.get(key) ?? 0, line.quantity);
      if (taken === 0) return [line];
      owed.set(key, (owed.get(key) ?? 0) - taken);
      const quantity = line.quantity - taken;
      if (quantity === 0) return [];
      return [{ ...line, quantity, ...(line.custom ? { custom: { ...line.custom, quantity } } : {}) }];
    });
    if (cart.lines.length === 0) {
      await deleteCart(trx, cartId);
      return;
    }
    cart.checkoutId = null;
    cart.revision += 1;
    cart.updatedAt = nowIso();
    await trx.updateTable('carts').set(contentOf(cart)).where('id', '=', cartId).execute();
    await recordEvents(trx, [cartEvent('updated', cart)]);
  }

  // ---- storage ----

  /** The owner's cart, a pending sign-in merge done first, and the pricing versions read with it. */
  private async readPriceable(
    owner: CartOwner,
  ): Promise<{ cart: StoredCart | undefined; versions: PricingVersions | null; row?: CartRow }> {
    const { row, mergePending, versions } = await this.readVersioned(owner, 'row');
    if (mergePending) return { cart: await this.change(owner, { create: false }, () => {}), versions };
    return row ? { cart: fromRow(row), versions, row } : { cart: undefined, versions };
  }

  /**
   * The owner's cart row (`revision`: only what names its revision) and, in the same statement, the
   * versions it is priced at (null when the owner has no cart). `mergePending`: a member whose visitor
   * cart still exists, to be merged first.
   */
  private async readVersioned<Columns extends 'revision' | 'row'>(
    owner: CartOwner,
    columns: Columns,
  ): Promise<{
    row: (Columns extends 'row' ? CartRow : Pick<CartRow, RevisionColumn>) | undefined;
    mergePending: boolean;
    versions: PricingVersions | null;
  }> {
    const keys = ownerKeys(owner);
    const query = CompiledQuery.raw(this.versionedRead(keys.length, columns), keys);
    const { rows } = await this.sharedReads.run((db) => db.executeQuery<VersionedRow>(query));
    const first = rows[0];
    const versions =
      first && first.catalog_version !== null && first.settings_version !== null
        ? { catalog: Number(first.catalog_version), settings: Number(first.settings_version) }
        : null;
    const mergePending = owner.kind === 'member' && rows.some((row) => row.member_id === null);
    return { row: first, mergePending, versions };
  }

  /**
   * The SQL of `readVersioned`, built once for each number of owner keys: every GET makes this read,
   * and Kysely would build and compile the same text again each time (a third of the read's cost).
   */
  private versionedRead(keyCount: number, columns: 'revision' | 'row'): string {
    const name = `${columns}:${keyCount}`;
    let text = this.versionedReads.get(name);
    if (text === undefined) {
      const query = this.db.selectFrom('carts');
      text = (columns === 'row' ? query.selectAll() : query.select(REVISION_COLUMNS))
        .select(pricingVersionColumns)
        .where(
          'owner_key',
          'in',
          Array.from({ length: keyCount }, () => ''),
        )
        .compile().sql;
      this.versionedReads.set(name, text);
    }
    return text;
  }

  /**
   * Prices the cart and answers `{"cart": ...}` text, kept for the next read when the versions the
   * catalog and settings were read after are known. `row`: the cart as stored, when the caller has it.
   */
  private async answer(
    cart: StoredCart,
    versions: PricingVersions | null,
    known?: KnownPrice,
    row?: CartRow,
  ): Promise<string> {
    // the very cart `known` priced (written as it was, only its revision and time moved) needs no compare
    const { priced, until } =
      known && (known.cart === cart || pricingInputs(known.cart) === pricingInputs(cart))
        ? known
        : await this.deps.pricing.priceToKeep(cartPricingRequest(cart), pricingAt(versions));
    const json = this.answerJson(cart, priced);
    if (versions) {
      const key = { cartId: cart.id, revision: cart.revision, versions };
      this.answers.keep(cart.ownerKey, key, until, json, row, row ? cart : undefined);
    }
    return json;
  }

  /** The rows of the owner's keys, held to the end of `trx` (SQLite serialises writers anyway). */
  private async lockOwned(trx: Transaction<Tables>, owner: CartOwner): Promise<CartRow[]> {
    return trx
      .selectFrom('carts')
      .selectAll()
      .where('owner_key', 'in', ownerKeys(owner))
      .orderBy('owner_key')
      .$if(this.dialect === 'postgres', (query) => query.forUpdate())
      .execute();
  }

  /**
   * Runs `mutate` on the owner's cart in one transaction holding its row, so concurrent calls apply one
   * after another and none is lost: merges a signed-in member's visitor cart first, creates the cart
   * when `create` says so, writes it back and records its events.
   */
  private async change(
    owner: CartOwner,
    options: { create: boolean },
    mutate: (cart: StoredCart) => void,
  ): Promise<StoredCart> {
    return inTransaction(this.db, async (trx) => {
      const events: DomainEvent[] = [];
      const now = new Date().toISOString();
      let rows = await this.lockOwned(trx, owner);
      let created = false;
      let cart = await this.mergeOnSignIn(trx, owner, rows, events, now);
      if (!cart) {
        if (!options.create) throw ownedCartNotFound();
        const fresh = newCart(owner, now);
        const inserted = await trx
          .insertInto('carts')
          .values(toRow(fresh))
          .onConflict((conflict) => conflict.column('owner_key').doNothing())
          .executeTakeFirst();
        created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
        if (created) cart = fresh;
        else {
          // another call made it at the same moment: take theirs
          rows = await this.lockOwned(trx, owner);
          const row = rows.find((candidate) => candidate.owner_key === ownerKeyOf(owner));
          if (!row) throw new Error('a cart just inserted is missing');
          cart = fromRow(row);
        }
      }
      const before = JSON.stringify(toRow(cart));
      mutate(cart);
      if (JSON.stringify(toRow(cart)) !== before) {
        cart.revision += 1;
        cart.updatedAt = now;
        await trx.updateTable('carts').set(contentOf(cart)).where('id', '=', cart.id).execute();
        if (!created) events.push(cartEvent('updated', cart));
      }
      if (created) events.push(cartEvent('created', cart));
      await recordEvents(trx, events);
      return cart;
    });
  }

  /**
   * A member's visitor cart (from before signing in) joins the member's cart: the same item's quantities
   * add, nothing is dropped, the coupon stays unless the member's cart has one; then the visitor cart is
   * gone. Runs holding both rows, so however many calls arrive at once it happens exactly once.
   */
  private async mergeOnSignIn(
    trx: Transaction<Tables>,
    owner: CartOwner,
    rows: CartRow[],
    events: DomainEvent[],
    now: string,
  ): Promise<StoredCart | undefined> {
    const own = rows.find((row) => row.owner_key === ownerKeyOf(owner));
    const visitors = owner.kind === 'member' ? rows.filter((row) => row.member_id === null) : [];
    if (visitors.length === 0) return own ? fromRow(own) : undefined;
    const member = owner as Extract<CartOwner, { kind: 'member' }>;
    const visitorCart = fromRow(visitors[0] as CartRow);
    if (!own) {
      // no cart of their own yet: the visitor's becomes the member's, id and all
      visitorCart.ownerKey = memberKey(member.memberId);
      visitorCart.memberId = member.memberId;
      visitorCart.revision += 1;
      visitorCart.updatedAt = now;
      await trx.updateTable('carts').set(toRow(visitorCart)).where('id', '=', visitorCart.id).execute();
      events.push(cartEvent('updated', visitorCart));
      return visitorCart;
    }
    const cart = fromRow(own);
    addLines(cart, visitorCart.lines, { capQuantity: true, allowOverLimit: true });
    cart.couponCode ??= visitorCart.couponCode;
    cart.buyerNote ??= visitorCart.buyerNote;
    cart.contactInfo ??= visitorCart.contactInfo;
    cart.selectedShippingOption ??= visitorCart.selectedShippingOption;
    cart.revision += 1;
    cart.updatedAt = now;
    await trx.updateTable('carts').set(toRow(cart)).where('id', '=', cart.id).execute();
    await trx.deleteFrom('carts').where('id', '=', visitorCart.id).execute();
    events.push(cartEvent('deleted', visitorCart), cartEvent('updated', cart));
    return cart;
  }

  /**
   * Applies a change that adds lines, creating the cart. The cart as it will be is priced first, so a
   * catalog line pricing cannot sell (a product that does not exist or is hidden, a variant or choices
   * it does not sell) is refused before anything is written: a shopper never sees a ghost line. (A line
   * whose product disappears later stays, and pricing marks it NOT_FOUND.) That price is the answer's,
   * unless another call changed the cart in between.
   */
  private async changeWithLines(
    owner: CartOwner,
    lines: NewLines,
    apply: (cart: StoredCart) => void,
  ): Promise<string> {
    const kept = this.answers.lastRow(ownerKeyOf(owner));
    if (kept) {
      const answered = await this.changeFromKept(owner, kept, lines, apply).catch(() => undefined);
      if (answered !== undefined) return answered;
    }
    let read = await this.readVersioned(owner, 'row');
    if (read.mergePending) {
      await this.change(owner, { create: false }, () => {});
      read = await this.readVersioned(owner, 'row');
    }
    const { row, versions } = read;
    const prospective = row ? fromRow(row) : newCart(owner, new Date().toISOString());
    apply(prospective);
    let known: KnownPrice | undefined;
    if (lines.catalog.length > 0) {
      const result = await this.deps.pricing.priceToKeep(
        cartPricingRequest(prospective),
        pricingAt(versions),
      );
      await this.refuseUnsold(prospective, lines.catalog, result.priced);
      known = { cart: prospective, ...result };
    }
    const after = toRow(prospective);
    if (row && sameContent(row, after)) return this.answer(prospective, versions, known, row);
    const written = row && (await this.writeIfUnchanged(row, prospective, after));
    if (written) return this.answer(prospective, versions, known, written);
    // the price was read after `versions`, so it may be kept under them with the cart's new revision
    const changed = await this.change(owner, { create: true }, apply);
    return this.answer(changed, versions, known, toRow(changed));
  }

  /**
   * The change made without reading the cart first: from the row this process last kept for the owner,
   * priced at the versions kept with it, written only if, at the moment of writing, the row is still at
   * that revision, the pricing versions are still those, and no visitor cart waits to merge into the
   * member's; so the answer is exactly what a read would have given. Undefined when any of that fails,
   * or the change is refused or changes nothing: the caller then reads the cart and decides afresh.
   */
  private async changeFromKept(
    owner: CartOwner,
    kept: { row: CartRow; versions: PricingVersions; read: StoredCart | undefined },
    lines: NewLines,
    apply: (cart: StoredCart) => void,
  ): Promise<string | undefined> {
    const prospective = kept.read ? copyOf(kept.read) : fromRow(kept.row);
    apply(prospective);
    const after = toRow(prospective);
    if (sameContent(kept.row, after)) return undefined;
    let known: KnownPrice | undefined;
    if (lines.catalog.length > 0) {
      const result = await this.deps.pricing.priceToKeep(
        cartPricingRequest(prospective),
        pricingAt(kept.versions),
      );
      if (unsoldLines(prospective, lines.catalog, result.priced).length > 0) return undefined;
      known = { cart: prospective, ...result };
    }
    const written = await this.writeIfUnchanged(kept.row, prospective, after, {
      versions: kept.versions,
      // a member's visitor cart may wait to merge; a visitor's own cart is the only one of its key
      waitingKey: owner.kind === 'member' ? visitorKey(owner.visitorId) : undefined,
    });
    return written && this.answer(prospective, kept.versions, known, written);
  }

  /**
   * Writes `cart`, the owner's row `read` and then changed (`content`: `toRow` of the change, taken
   * over as the row written), if the row still holds the revision read: one short transaction (or a
   * part of a shared one) of an update and its event, nothing read again. With `still`, also only if
   * the pricing versions are still those and no visitor cart waits to merge (`waitingKey`, for a
   * member). Answers the row as written; undefined when it was not, as another call changed or
   * deleted the cart meanwhile: the caller then applies its change under the row's lock.
   */
  private async writeIfUnchanged(
    read: CartRow,
    cart: StoredCart,
    content: CartRow,
    still?: { versions: PricingVersions; waitingKey: string | undefined },
  ): Promise<CartRow | undefined> {
    const revision = Number(read.revision);
    cart.revision = revision + 1;
    cart.updatedAt = nowIso();
    // `content` is the caller's to give: it becomes the row as written, not copied (every copy of a
    // row's fourteen columns is a cost on every cart change's path)
    const row = content;
    row.revision = cart.revision;
    row.updated_at = cart.updatedAt;
    // Object.assign, not `{ ...row, readRevision }`: Node 20's V8 adds properties after a leading
    // spread slowly (~0.4 µs each)
    const values = Object.assign({}, row, { readRevision: revision });
    let statement: CompiledQuery;
    if (!still) statement = writeAtRevision.query(this.db, values);
    else {
      const versioned = Object.assign(values, {
        catalogVersion: still.versions.catalog,
        settingsVersion: still.versions.settings,
      });
      statement = still.waitingKey
        ? writeStill.query(this.db, Object.assign(versioned, { waitingKey: still.waitingKey }))
        : writeAtVersions.query(this.db, versioned);
    }
    return this.sharedCommits.run({
      statement,
      outcome: (changed) =>
        changed === 0
          ? { value: undefined, events: [] }
          : { value: row, events: [cartEvent('updated', cart, row.lines)] },
    });
  }

  /**
   * The stored lines a call adds, with new ids; catalog override fields only from elevated callers. A
   * line naming its variant by choices gets the variant they choose, so that adding it again by its id
   * or with the choices spelled otherwise grows the same line.
   */
  private async newLines(
    owner: CartOwner,
    catalogLines: CatalogLineInput[],
    customLines: CustomLineInput[],
  ): Promise<NewLines> {
    if (!owner.elevated) {
      const index = catalogLines.findIndex((line) => line.catalogOverrideFields !== undefined);
      if (index >= 0) throw permissionDenied(`lineItems[${index}].catalogOverrideFields`);
      // a custom line names its own price: a shopper could buy anything for a cent (hosted: admin only)
      if (customLines.length > 0) throw permissionDenied('customLineItems');
    }
    const catalog: StoredLine[] = catalogLines.map((line) => ({
      id: newId(),
      quantity: line.quantity ?? 1,
      catalogReference: catalogReferenceOf(line.catalogReference),
      ...(line.catalogOverrideFields
        ? { catalogOverrideFields: line.catalogOverrideFields as StoredLine['catalogOverrideFields'] }
        : {}),
    }));
    await this.deps.pricing.recordChosenVariants(catalog);
    const custom: StoredLine[] = customLines.map((line) => ({
      id: newId(),
      quantity: line.quantity ?? 1,
      custom: { ...line, quantity: line.quantity ?? 1 } as StoredLine['custom'],
    }));
    return { catalog, all: [...catalog, ...custom] };
  }

  /** Refuses added catalog lines whose item (a new line, or the line it grew) pricing found no product for. */
  private async refuseUnsold(cart: StoredCart, added: StoredLine[], priced: Priced): Promise<void> {
    const unsold = unsoldLines(cart, added, priced);
    if (unsold.length === 0) return;
    const facts = await this.deps.catalog.pricingFacts(
      unsold.map(({ line }) => line.catalogReference?.catalogItemId ?? ''),
    );
    const violations = unsold.map(({ line, index }) => {
      const at = `lineItems[${index}].catalogReference`;
      return facts.get(line.catalogReference?.catalogItemId ?? '')?.visible
        ? violation(`${at}.options`, 'names no variant of this product that the store sells')
        : violation(`${at}.catalogItemId`, 'names no product of the store');
    });
    throw new DomainError('INVALID_ARGUMENT', 'INVALID_ARGUMENT', violations, {
      code: 'PRODUCT_NOT_FOUND',
      description: 'a line item names a product or variant the store does not sell',
      data: { fields: violations.map((v) => v.field) },
    });
  }

  private price(cart: StoredCart): Promise<Priced> {
    return this.deps.pricing.price(cartPricingRequest(cart));
  }

  /**
   * `{"cart": ...}` as JSON text, each line item's text as pricing keeps it (`pushLineItemJson`): most of a
   * changed cart's lines are as they were, and their text is most of the answer.
   */
  private answerJson(cart: StoredCart, priced: Priced): string {
    const items: string[] = [];
    for (const [index, item] of priced.lineItems.entries()) {
      if (index > 0) items.push(',');
      pushLineItemJson(items, item, priced.lineItemTexts[index]);
    }
    return withLines(JSON.stringify({ cart: this.wire(cart, priced, []) }), items);
  }

  private wire(cart: StoredCart, priced: Priced, lineItems = priced.lineItems): Cart {
    return {
      id: cart.id,
      lineItems,
      buyerNote: cart.buyerNote,
      buyerInfo: cart.memberId ? { memberId: cart.memberId } : { visitorId: cart.visitorId },
      currency: priced.currency,
      conversionCurrency: priced.currency,
      taxIncludedInPrices: priced.taxIncludedInPrices,
      weightUnit: priced.weightUnit,
      checkoutId: cart.checkoutId,
      appliedDiscounts: priced.appliedDiscounts,
      ...(cart.contactInfo ? { contactInfo: cart.contactInfo } : {}),
      ...(cart.selectedShippingOption ? { selectedShippingOption: cart.selectedShippingOption } : {}),
      createdDate: cart.createdAt as unknown as Date,
      updatedDate: cart.updatedAt as unknown as Date,
    };
  }
}

const EMPTY_LINES = '"lineItems":[]';

// ---- the cart's own rules, on a stored cart ----

const ownerKeys = (owner: CartOwner): string[] =>
  owner.kind === 'member'
    ? [memberKey(owner.memberId), visitorKey(owner.visitorId)]
    : [visitorKey(owner.visitorId)];

function permissionDenied(field: string): DomainError {
  return applicationError(
    'PERMISSION_DENIED',
    'PERMISSION_DENIED',
    `${field} may be set only by a caller holding the admin API key`,
    { field },
  );
}

/** The catalog reference as stored: the stores app, the product, and the variant or the choices. */
function catalogReferenceOf(reference: CatalogLineInput['catalogReference']): CatalogReference {
  const options = reference.options ?? undefined;
  return {
    appId: reference.appId,
    catalogItemId: reference.catalogItemId,
    ...(options && Object.keys(options).length > 0
      ? { options: sortedKeys(options) as Record<string, unknown> }
      : {}),
  };
}

/** A value with every object's keys in order: two spellings of the same options are one item. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Pricing at least as new as the versions read with the cart (none known: pricing reads as it will). */
const pricingAt = (versions: PricingVersions | null) =>
  versions ? { settingsVersion: versions.settings, catalogVersion: versions.catalog } : {};

/** What pricing is asked for a cart as the shopper sees it. */
function cartPricingRequest(cart: StoredCart): PricingRequest {
  return {
    lines: cart.lines,
    couponCode: cart.couponCode,
    merchantDiscounts: cart.merchantDiscounts,
    selectedShippingOption: cart.selectedShippingOption,
    // a cart shows its lines and discounts; estimate-totals adds shipping and tax
    calculateTax: false,
    calculateShipping: false,
  };
}

/** What a cart's price depends on, of what the cart stores: equal inputs, equal prices. */
const pricingInputs = (cart: StoredCart): string =>
  JSON.stringify([cart.lines, cart.couponCode, cart.merchantDiscounts, cart.selectedShippingOption]);

/**
 * The added catalog lines whose item (a new line, or the line it grew) pricing found no product for,
 * with their index in the call.
 */
function unsoldLines(
  cart: StoredCart,
  added: StoredLine[],
  priced: Priced,
): Array<{ line: StoredLine; index: number }> {
  const status = new Map(priced.lineItems.map((item) => [item.id, item.availability?.status]));
  const lineOf = new Map(cart.lines.map((line) => [sameItemKey(line), line.id]));
  return added.flatMap((line, index) =>
    status.get(lineOf.get(sameItemKey(line)) ?? line.id) === 'NOT_FOUND' ? [{ line, index }] : [],
  );
}

/** Which cart line an order's line was bought as: the same item, or for a custom line the same line. */
const boughtKey = (line: StoredLine): string => sameItemKey(line) ?? `line:${line.id}`;

/** Adds lines: the same catalog item and options already in the cart grows its quantity instead. */
function addLines(
  cart: StoredCart,
  lines: StoredLine[],
  merging: { capQuantity?: boolean; allowOverLimit?: boolean } = {},
): void {
  addHeldLines(cart.lines, lines, 'cart', merging);
}

function newCart(owner: CartOwner, now: string): StoredCart {
  return {
    id: newId(),
    ownerKey: ownerKeyOf(owner),
    visitorId: owner.visitorId,
    memberId: owner.kind === 'member' ? owner.memberId : null,
    lines: [],
    couponCode: null,
    merchantDiscounts: [],
    buyerNote: null,
    contactInfo: null,
    selectedShippingOption: null,
    checkoutId: null,
    revision: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * A change's own copy of a cart read before: a change replaces the cart's fields and alters its lines
 * (a quantity, a custom line's quantity) in place, so those are copied; references and overrides are
 * never altered, and are shared.
 */
function copyOf(cart: StoredCart): StoredCart {
  const lines = cart.lines.map((line) =>
    line.custom ? Object.assign({}, line, { custom: { ...line.custom } }) : { ...line },
  );
  return Object.assign({}, cart, { lines });
}

function fromRow(row: CartRow): StoredCart {
  return {
    id: row.id,
    ownerKey: row.owner_key,
    visitorId: row.visitor_id,
    memberId: row.member_id,
    lines: JSON.parse(row.lines) as StoredLine[],
    couponCode: row.coupon_code,
    merchantDiscounts: JSON.parse(row.merchant_discounts) as MerchantDiscountInput[],
    buyerNote: row.buyer_note,
    contactInfo: row.contact_info ? (JSON.parse(row.contact_info) as AddressWithContact) : null,
    selectedShippingOption: row.selected_shipping_option
      ? (JSON.parse(row.selected_shipping_option) as SelectedShippingOption)
      : null,
    checkoutId: row.checkout_id,
    revision: Number(row.revision),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(cart: StoredCart): CartRow {
  return {
    id: cart.id,
    owner_key: cart.ownerKey,
    visitor_id: cart.visitorId,
    member_id: cart.memberId,
    lines: storedLinesJson(cart.lines),
    coupon_code: cart.couponCode,
    merchant_discounts: JSON.stringify(cart.merchantDiscounts),
    buyer_note: cart.buyerNote,
    contact_info: cart.contactInfo ? JSON.stringify(cart.contactInfo) : null,
    selected_shipping_option: cart.selectedShippingOption
      ? JSON.stringify(cart.selectedShippingOption)
      : null,
    checkout_id: cart.checkoutId,
    revision: cart.revision,
    created_at: cart.createdAt,
    updated_at: cart.updatedAt,
  };
}

/** What a cart change may set: everything but whose cart it is, its id and when it was made. */
type CartContent = Omit<CartRow, 'id' | 'owner_key' | 'visitor_id' | 'member_id' | 'created_at'>;

/**
 * The columns a change to the cart's content writes: not whose cart it is nor its id, which SQLite
 * would otherwise write into their unique indexes again (two more pages each commit).
 */
const CONTENT_COLUMNS = [
  'lines',
  'coupon_code',
  'merchant_discounts',
  'buyer_note',
  'contact_info',
  'selected_shipping_option',
  'checkout_id',
  'revision',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CartContent>;

function contentOf(cart: StoredCart): CartContent {
  return contentColumns(toRow(cart));
}

function contentColumns(row: CartContent): CartContent {
  return Object.fromEntries(CONTENT_COLUMNS.map((column) => [column, row[column]])) as CartContent;
}

/** Whether two cart rows hold the same content (what the shopper chose), whatever their revisions. */
function sameContent(a: CartRow, b: CartRow): boolean {
  for (const column of CONTENT_COLUMNS) {
    if (column !== 'revision' && column !== 'updated_at' && a[column] !== b[column]) return false;
  }
  return true;
}

type RevisionWrite = CartContent & { id: string; readRevision: number };

/** The write of `writeIfUnchanged`: the content, if the row is still at the revision read. */
const writeAtRevision = new CompiledStatement<RevisionWrite>(
  [...CONTENT_COLUMNS, 'id', 'readRevision'],
  (db, values) =>
    db
      .updateTable('carts')
      .set(contentColumns(values))
      .where('id', '=', values.id)
      .where('revision', '=', values.readRevision),
);

type VersionedWrite = RevisionWrite & { catalogVersion: number; settingsVersion: number };

/** As `writeAtRevision`, and only while the pricing versions are those the change was priced at. */
const atVersions = (db: Parameters<typeof writeAtRevision.query>[0], values: VersionedWrite) =>
  db
    .updateTable('carts')
    .set(contentColumns(values))
    .where('id', '=', values.id)
    .where('revision', '=', values.readRevision)
    .where(catalogVersionNow(), '=', values.catalogVersion)
    .where(settingsVersionNow(), '=', values.settingsVersion);

const VERSIONED_NAMES = [
  ...CONTENT_COLUMNS,
  'id',
  'readRevision',
  'catalogVersion',
  'settingsVersion',
] as const;

/** A visitor's change: nothing can wait to merge into a visitor's cart. */
const writeAtVersions = new CompiledStatement<VersionedWrite>(VERSIONED_NAMES, atVersions);

/**
 * A member's change: as `writeAtVersions`, and only while no visitor cart other than this one is
 * `waitingKey`'s (the member's visitor cart, still to merge).
 */
const writeStill = new CompiledStatement<VersionedWrite & { waitingKey: string }>(
  [...VERSIONED_NAMES, 'waitingKey'],
  (db, values) =>
    atVersions(db, values).where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('carts as waiting')
            .select('waiting.id')
            .where('waiting.owner_key', '=', values.waitingKey)
            .where('waiting.member_id', 'is', null)
            .where('waiting.id', '<>', values.id),
        ),
      ),
    ),
);

/** The stored cart as events carry it: what the shopper chose, without prices. */
function summary(cart: StoredCart, lineItems: unknown = cart.lines): Record<string, unknown> {
  return {
    id: cart.id,
    lineItems,
    buyerInfo: cart.memberId ? { memberId: cart.memberId } : { visitorId: cart.visitorId },
    couponCode: cart.couponCode,
    merchantDiscounts: cart.merchantDiscounts,
    buyerNote: cart.buyerNote,
    checkoutId: cart.checkoutId,
    createdDate: cart.createdAt,
    updatedDate: cart.updatedAt,
  };
}

/** `linesJson`: the cart's lines as the row holds them, when written already (serialised once for both). */
function cartEvent(
  slug: 'created' | 'updated' | 'deleted',
  cart: StoredCart,
  linesJson?: string,
): DomainEvent {
  const payload =
    linesJson === undefined
      ? { cart: summary(cart) }
      : withLines(JSON.stringify({ cart: summary(cart, []) }), [linesJson.slice(1, -1)]);
  return { entity: 'cart', slug, entityId: cart.id, payload };
}

/**
 * `json` with `inside` (the pieces of an array's inside, as JSON text) put into its first
 * `"lineItems":[]`, which must come after nothing but an id (a JSON string holds no unescaped quote,
 * so it cannot hold the marker).
 */
function withLines(json: string, inside: string[]): string {
  const at = json.indexOf(EMPTY_LINES) + EMPTY_LINES.length - 1;
  // joined once, not concatenated: one flat string, where `+` makes a rope each later write flattens again
  return [json.slice(0, at), ...inside, json.slice(at)].join('');
}

async function deleteCart(trx: Transaction<Tables>, cartId: string): Promise<void> {
  const row = await trx.deleteFrom('carts').where('id', '=', cartId).returningAll().executeTakeFirst();
  if (row) await recordEvents(trx, [cartEvent('deleted', fromRow(row))]);
}
