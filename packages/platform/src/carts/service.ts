import type {
  AddressWithContact,
  Cart,
  CatalogReference,
  EstimateTotalsResponse,
  PriceSummary,
} from '@cartwheel/sdk';
import type { Kysely, Transaction } from 'kysely';
import type { Logger } from 'pino';
import type { CatalogService } from '../catalog/service.ts';
import { type Database, type DialectName, inTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';
import { type DomainEvent, recordEvents } from '../events/outbox.ts';
import type { Priced, PricingRequest, StoredLine } from '../pricing/contract.ts';
import { addLines as addHeldLines } from '../pricing/line-limits.ts';
import { sameItemKey } from '../pricing/lines.ts';
import { chosenModifiers } from '../pricing/modifiers.ts';
import type { PricingService } from '../pricing/service.ts';
import { nowIso } from '../shared/clock.ts';
import { applicationError, DomainError, invalidArgument, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import { currencyOf, zero } from '../shared/money.ts';
import type { PricingVersions } from '../store-settings/pricing-versions.ts';
import { type CartChange, CartFastPath, type KnownPrice } from './fast-path.ts';
import type {
  AddToCartBody,
  CatalogLineInput,
  CustomLineInput,
  EstimateTotalsBody,
  UpdateCartBody,
} from './schemas.ts';
import {
  type CartOwner,
  cartEvent,
  contentOf,
  fromRow,
  memberKey,
  ownerKeyOf,
  ownerKeys,
  type StoredCart,
  sameContent,
  toRow,
} from './stored.ts';
import type { CartRow } from './tables.ts';

export type { CartOwner } from './stored.ts';

/** What the cart needs of the other domains: its prices, the catalog's facts about its lines, a log. */
export interface CartDependencies {
  pricing: Pick<PricingService, 'price' | 'priceToKeep' | 'checkCoupon' | 'recordChosenVariants'>;
  catalog: Pick<CatalogService, 'pricingFacts'>;
  /** Where the fast path's errors are logged (carts/fast-path.ts). */
  log: Pick<Logger, 'warn'>;
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

/** The lines one call adds: its catalog lines (checked against the catalog), and all of them in order. */
interface NewLines {
  catalog: StoredLine[];
  all: StoredLine[];
}
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
  /** The cart's fast path: remembered answers, shared reads and commits, changes without the lock. */
  readonly fastPath: CartFastPath;
  private readonly db: Kysely<Tables>;
  private readonly dialect: DialectName;

  constructor(
    database: Database,
    private readonly deps: CartDependencies,
  ) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.fastPath = new CartFastPath(database, deps.log);
  }

  // ---- reads ----

  /**
   * `{"cart": ...}`, the owner's cart priced, as JSON text; OWNED_CART_NOT_FOUND when there is none yet.
   * The fast path serves the answer it remembers while provably unchanged; anything else reads the
   * whole row (with the pricing versions), is priced, and remembered.
   */
  async currentJson(owner: CartOwner): Promise<string> {
    const remembered = await this.fastPath.rememberedAnswer(owner);
    if (remembered !== undefined) return remembered;
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
    const { row, mergePending, versions } = await this.fastPath.readVersioned(owner, 'row');
    if (mergePending) return { cart: await this.change(owner, { create: false }, () => {}), versions };
    return row ? { cart: fromRow(row), versions, row } : { cart: undefined, versions };
  }

  /**
   * Prices the cart and answers `{"cart": ...}` text, remembered by the fast path for the next read
   * when the versions the catalog and settings were read after are known. `row`: the cart as stored,
   * when the caller has it.
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
    const json = JSON.stringify({ cart: this.wire(cart, priced) });
    if (versions) this.fastPath.remember(cart, versions, until, json, row);
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
    const change: CartChange = {
      apply,
      price: (cart, versions) => this.priceChange(cart, lines.catalog, versions),
      answer: (cart, versions, known, row) => this.answer(cart, versions, known, row),
    };
    const answered = await this.fastPath.change(owner, change);
    if (answered !== undefined) return answered;
    let read = await this.fastPath.readVersioned(owner, 'row');
    if (read.mergePending) {
      await this.change(owner, { create: false }, () => {});
      read = await this.fastPath.readVersioned(owner, 'row');
    }
    const { row, versions } = read;
    const prospective = row ? fromRow(row) : newCart(owner, new Date().toISOString());
    apply(prospective);
    const known = await this.priceChange(prospective, lines.catalog, versions);
    const after = toRow(prospective);
    if (row && sameContent(row, after)) return this.answer(prospective, versions, known, row);
    const written = row && (await this.fastPath.writeIfUnchanged(row, prospective, after));
    if (written) return this.answer(prospective, versions, known, written);
    // the price was read after `versions`, so it may be remembered under them with the cart's new revision
    const changed = await this.change(owner, { create: true }, apply);
    return this.answer(changed, versions, known, toRow(changed));
  }

  /**
   * The changed cart priced, when the change adds catalog lines (undefined otherwise): refused when
   * pricing finds no product for one of them.
   */
  private async priceChange(
    cart: StoredCart,
    added: StoredLine[],
    versions: PricingVersions | null,
  ): Promise<KnownPrice | undefined> {
    if (added.length === 0) return undefined;
    const result = await this.deps.pricing.priceToKeep(cartPricingRequest(cart), pricingAt(versions));
    await this.refuseUnsold(cart, added, result.priced);
    return { cart, ...result };
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
      const fact = facts.get(line.catalogReference?.catalogItemId ?? '');
      if (!fact?.visible) return violation(`${at}.catalogItemId`, 'names no product of the store');
      const modifiers = chosenModifiers(fact.record, line.catalogReference?.options);
      return violation(
        `${at}.options`,
        modifiers.ok ? 'names no variant of this product that the store sells' : modifiers.problem,
      );
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

  /** The cart as the wire shows it (the route writes `{"cart": ...}`). */
  private wire(cart: StoredCart, priced: Priced): Cart {
    return {
      id: cart.id,
      lineItems: priced.lineItems,
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

// ---- the cart's own rules, on a stored cart ----

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

async function deleteCart(trx: Transaction<Tables>, cartId: string): Promise<void> {
  const row = await trx.deleteFrom('carts').where('id', '=', cartId).returningAll().executeTakeFirst();
  if (row) await recordEvents(trx, [cartEvent('deleted', fromRow(row))]);
}
