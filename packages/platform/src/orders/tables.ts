/** The orders domain's rows. */
export interface OrderTables {
  orders: OrderRow;
  /** Counters that give out numbers, one row each (`orders`): bumped in the transaction that uses one. */
  order_counters: { name: string; value: number };
  /**
   * An order's tags, one row a tag (`kind` `public` or `private`): what a search by tag walks (0026),
   * newest first by the order's created date kept on each row (0035; it never changes).
   */
  order_tags: { order_id: string; kind: string; tag_id: string; order_created_at: string };
  /** An order's lines as a search by product reads them (0026). */
  order_line_items: { order_id: string; product_id: string; product_name: string };
}

export interface OrderRow {
  id: string;
  /** The number buyers see; null while the order is `INITIALIZED` by a payment still in flight. */
  number: number | null;
  /** Point 4: `INITIALIZED`, `APPROVED`, `CANCELED`, `PENDING`, `REJECTED`. */
  status: string;
  payment_status: string;
  fulfillment_status: string;
  checkout_id: string | null;
  /** Who bought: what the buyer's reads are limited by. */
  visitor_id: string | null;
  member_id: string | null;
  /**
   * The buyer's email, trimmed and in lower case: a guest's order joins the member who proves it
   * (OrderService.adoptGuestOrders).
   */
  buyer_email: string | null;
  created_at: string;
  updated_at: string;
  /** The rest of the wire order as JSON text: lines as sold, addresses, totals, activities. */
  doc: string;
  /**
   * 1: an unpaid (`INITIALIZED`) order holding the stock of its lines, as create-order took it before
   * payments took it instead: paying it takes none again, canceling it gives that back. No order made
   * now holds stock unpaid.
   */
  holds_stock: number;
  // search columns (0026), derived from `doc` whenever it is written (search.ts `searchColumns`)
  contact_id: string | null;
  billing_first_name: string | null;
  billing_last_name: string | null;
  total_amount: number;
  archived: number;
  seen_by_a_human: number;
  channel_type: string | null;
  /**
   * What the free search reads (0043, search.ts `orderSearchText`): email and billing name in lower
   * case; trigram-indexed (PostgreSQL's pg_trgm; SQLite's FTS5 table `order_search`, kept by triggers).
   */
  search_text: string | null;
}
