/** The subscription contracts domain's rows (issue 34). */
export interface SubscriptionTables {
  /** A member's agreement to be sold the same lines every period (0074). */
  subscription_contracts: SubscriptionContractRow;
  /** One row per contract and cycle its worker renews (0074): the claim, the order, the charge's try. */
  subscription_renewals: SubscriptionRenewalRow;
  /**
   * The method a checkout's payment saved with the provider for its subscription (0074), by the hosted
   * page's attempt: written before the charge, read when the paid order starts the contract.
   */
  subscription_checkout_methods: {
    attempt_id: string;
    provider_id: string;
    saved_method_id: string;
    customer_id: string;
    contact_id: string | null;
    created_at: string;
  };
}

export interface SubscriptionContractRow {
  /** Time-ordered: queries page by it. */
  id: string;
  /** The member who bought it: they alone (and staff) see and change it. */
  member_id: string;
  /** The buyer's contact (0080): the hosted query filters and sorts on `buyerInfo.contactId`. */
  contact_id: string | null;
  /** ACTIVE, PAUSED, CANCELED, ENDED (its cycles all billed) or PAYMENT_FAILED (its retries spent). */
  status: string;
  /** The order that started it (cycle 1). */
  first_order_id: string;
  /** The wire contract but its id, status and dates, as JSON text. */
  doc: string;
  /** What each renewal's order is made of (orders/model.ts `OrderSource`), as JSON text. */
  source: string;
  frequency: string;
  interval_count: number;
  /** Null: renewed until canceled. */
  billing_cycles: number | null;
  /** How many cycles have their order made and paid (1 once it starts). */
  cycles_billed: number;
  /** When the next cycle's order is due; moves only when that order is made. */
  next_billing_at: string;
  /**
   * When the worker may next look at it: `next_billing_at`, or later while a renewal's claim holds it
   * or a declined charge waits for its retry. The worker reads a range of (status, due_at).
   */
  due_at: string;
  /** The schedule's anchor: cycle `anchor_cycle` falls at `anchor_at`, each next `interval_count` units on. */
  anchor_at: string;
  anchor_cycle: number;
  /** The payment method saved with the provider, charged off session for each renewal. */
  provider_id: string;
  saved_method_id: string;
  customer_id: string;
  created_at: string;
  updated_at: string;
  revision: number;
}

export interface SubscriptionRenewalRow {
  contract_id: string;
  /** The cycle this renewal bills (2, 3, ...). */
  cycle: number;
  /** CHARGING (claimed), RETRYING (declined, waiting for `next_attempt_at`), PAID, FAILED (given up). */
  status: string;
  /** The order made for the cycle, INITIALIZED until its charge is approved. */
  order_id: string;
  /** Moves only after a definite decline: the provider's idempotency key is contract, cycle and try. */
  try: number;
  /** A claim lapses at this time (its process died): another process takes the same try up again. */
  claimed_until: string;
  next_attempt_at: string | null;
  /** The last decline: `{code, description, date}` as JSON text. */
  last_failure: string | null;
  created_at: string;
  updated_at: string;
}
