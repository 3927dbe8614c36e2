/** The checkouts domain's rows. */
export interface CheckoutTables {
  checkouts: CheckoutRow;
  checkout_sessions: CheckoutSessionRow;
  checkout_attempts: CheckoutAttemptRow;
}

export interface CheckoutRow {
  id: string;
  /** The cart it was created from (deleted when its order is paid); null for a checkout made from lines. */
  cart_id: string | null;
  /** Its owner: the visitor (and member, when signed in) who created it. */
  visitor_id: string | null;
  member_id: string | null;
  channel_type: string;
  completed: number;
  /** The order it became, once paid (or created by create-order). */
  order_id: string | null;
  /** What the buyer chose (`CheckoutInputs` JSON): lines, coupon, addresses, carrier option, email. */
  inputs: string;
  /** The `Priced` result it was last priced at (JSON): kept until the buyer changes something. */
  priced: string;
  created_at: string;
  updated_at: string;
}

/** A hosted checkout page's session: an unguessable token (stored hashed) naming one checkout. */
export interface CheckoutSessionRow {
  token_hash: string;
  checkout_id: string;
  /** `{ postFlowUrl?, thankYouPageUrl?, cartPageUrl? }` JSON. */
  callbacks: string;
  created_at: string;
  expires_at: string;
}

/**
 * One "Place order" on the hosted page, keyed by the page's attempt key: what it took (stock, an
 * order) and how it ended, so the same key always gets the same answer.
 */
export interface CheckoutAttemptRow {
  id: string;
  checkout_id: string;
  attempt_key: string;
  /**
   * `PROCESSING` (the charge is in flight), `REQUIRES_ACTION` (3-D Secure), `APPROVED`, `DECLINED`,
   * `EXPIRED`, `ABANDONED`, `INTERRUPTED` (its answer was lost and the gateway made no charge).
   */
  status: string;
  /** The `INITIALIZED` order holding its stock while it is not over; the paid order once approved. */
  order_id: string | null;
  /** What it took from stock (`StockItem[]` JSON): given back if it fails. */
  stock: string;
  amount: string;
  formatted_amount: string;
  currency: string;
  card_last4: string;
  card_brand: string;
  /** The 3-D Secure step the gateway is waiting on. */
  action_id: string | null;
  /** The payment provider charged (PaymentProviders): a lost answer is settled with it. */
  provider_id: string;
  /** How it ended: `{ code, description }` of a refusal. */
  outcome: string | null;
  /** A pending 3-D Secure step (or a charge that never came back) gives its stock back after this. */
  expires_at: string;
  created_at: string;
  updated_at: string;
}
