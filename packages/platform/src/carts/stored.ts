import type { AddressWithContact, MerchantDiscountInput, SelectedShippingOption } from '@cartwheel/sdk';
import type { DomainEvent } from '../events/outbox.ts';
import type { StoredLine } from '../pricing/contract.ts';
import type { CartRow } from './tables.ts';

/**
 * Whose current cart a call acts on: a visitor's (keyed by visitor id) or a member's (keyed by member
 * id; `visitorId` is who they were before signing in, whose cart merges into theirs). `elevated`: the
 * caller also holds the admin API key, and may set merchant discounts and catalog override fields.
 */
export type CartOwner =
  | { kind: 'visitor'; visitorId: string; elevated?: boolean }
  | { kind: 'member'; memberId: string; visitorId: string; elevated?: boolean };

/** A cart as stored: what the shopper chose, no amounts. */
export interface StoredCart {
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

export const visitorKey = (visitorId: string) => `visitor:${visitorId}`;
export const memberKey = (memberId: string) => `member:${memberId}`;
export const ownerKeyOf = (owner: CartOwner) =>
  owner.kind === 'member' ? memberKey(owner.memberId) : visitorKey(owner.visitorId);
/** The keys a call's cart rows may be under: a member's own, and the visitor cart still to merge. */
export const ownerKeys = (owner: CartOwner): string[] =>
  owner.kind === 'member'
    ? [memberKey(owner.memberId), visitorKey(owner.visitorId)]
    : [visitorKey(owner.visitorId)];

/**
 * A change's own copy of a cart read before: a change replaces the cart's fields and alters its lines
 * (a quantity, a custom line's quantity) in place, so those are copied; references and overrides are
 * never altered, and are shared.
 */
export function copyOf(cart: StoredCart): StoredCart {
  const lines = cart.lines.map((line) =>
    line.custom ? Object.assign({}, line, { custom: { ...line.custom } }) : { ...line },
  );
  return Object.assign({}, cart, { lines });
}

export function fromRow(row: CartRow): StoredCart {
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

export function toRow(cart: StoredCart): CartRow {
  return {
    id: cart.id,
    owner_key: cart.ownerKey,
    visitor_id: cart.visitorId,
    member_id: cart.memberId,
    lines: JSON.stringify(cart.lines),
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
export type CartContent = Omit<CartRow, 'id' | 'owner_key' | 'visitor_id' | 'member_id' | 'created_at'>;

/**
 * The columns a change to the cart's content writes: not whose cart it is nor its id, which SQLite
 * would otherwise write into their unique indexes again (two more pages each commit).
 */
export const CONTENT_COLUMNS = [
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

export function contentColumns(row: CartContent): CartContent {
  return Object.fromEntries(CONTENT_COLUMNS.map((column) => [column, row[column]])) as CartContent;
}

export const contentOf = (cart: StoredCart): CartContent => contentColumns(toRow(cart));

/** Whether two cart rows hold the same content (what the shopper chose), whatever their revisions. */
export function sameContent(a: CartRow, b: CartRow): boolean {
  for (const column of CONTENT_COLUMNS) {
    if (column !== 'revision' && column !== 'updated_at' && a[column] !== b[column]) return false;
  }
  return true;
}

/** The cart's event: the stored cart as events carry it, what the shopper chose, without prices. */
export function cartEvent(slug: 'created' | 'updated' | 'deleted', cart: StoredCart): DomainEvent {
  const summary = {
    id: cart.id,
    lineItems: cart.lines,
    buyerInfo: cart.memberId ? { memberId: cart.memberId } : { visitorId: cart.visitorId },
    couponCode: cart.couponCode,
    merchantDiscounts: cart.merchantDiscounts,
    buyerNote: cart.buyerNote,
    checkoutId: cart.checkoutId,
    createdDate: cart.createdAt,
    updatedDate: cart.updatedAt,
  };
  return { entity: 'cart', slug, entityId: cart.id, payload: { cart: summary } };
}
