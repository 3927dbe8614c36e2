/**
 * The carts domain's rows: one current cart per visitor and per member. A cart stores only what the
 * shopper chose; every amount is priced when the cart is read (docs/buying-path.md).
 */
export interface CartTables {
  carts: CartRow;
}

export interface CartRow {
  id: string;
  /**
   * Whose current cart this is, `visitor:<visitorId>` or `member:<memberId>`: unique, so however many
   * calls arrive at once an owner has one cart.
   */
  owner_key: string;
  /** The visitor who made the cart (a member's cart keeps the visitor id it was made under). */
  visitor_id: string;
  member_id: string | null;
  /** `StoredLine[]` as JSON text, in the order the lines were added. */
  lines: string;
  coupon_code: string | null;
  /** `MerchantDiscountInput[]` as JSON text. */
  merchant_discounts: string;
  buyer_note: string | null;
  /** `AddressWithContact` as JSON text, or null. */
  contact_info: string | null;
  /** `SelectedShippingOption` as JSON text, or null. */
  selected_shipping_option: string | null;
  /** The checkout last created from this cart. */
  checkout_id: string | null;
  /** Grows by one with every change: what a concurrent writer can compare. */
  revision: number;
  created_at: string;
  updated_at: string;
}
