/** Saved views of the back office's orders table (issue 22, migration 0033). */
export interface OrderViewTables {
  order_views: OrderViewRow;
}

export interface OrderViewRow {
  id: string;
  /** The name staff gave it: one view a name (saving a name again replaces that view). */
  name: string;
  /** The table's address parameters (search, filters, sort) as a JSON object of strings. */
  params: string;
  /** Who saved it last: the staff member's email or the key's name; null for the admin key. */
  saved_by: string | null;
  created_at: string;
  updated_at: string;
}
