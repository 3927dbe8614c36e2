/** The abandoned checkouts domain's rows. */
export interface AbandonedCheckoutTables {
  /** A checkout with a buyer email left unfinished (0052): ABANDONED, RECOVERED once completed. */
  abandoned_checkouts: AbandonedCheckoutRow;
  /** Where the scan stopped (0052): the last checkout it read, by change time and id. */
  abandoned_checkout_scan: { name: string; updated_at: string; checkout_id: string };
  /** Buyers who asked for no more recovery emails (0052), by email in lower case. */
  abandoned_checkout_unsubscribes: { email: string; created_date: string };
}

export interface AbandonedCheckoutRow {
  /** Time-ordered: the query pages by it. */
  id: string;
  /** One abandoned checkout per checkout, however many processes scan at once. */
  checkout_id: string;
  status: string;
  /** The wire abandoned checkout but its id and status, as JSON text. */
  doc: string;
  created_date: string;
  updated_date: string;
}
