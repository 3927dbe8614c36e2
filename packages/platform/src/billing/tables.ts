/** The billing domain's rows: refunds, and the idempotent record of each money call. */
export interface BillingTables {
  order_refunds: OrderRefundRow;
  billing_requests: BillingRequestRow;
}

/** A refund of an order (`orderTransactions.refunds`): its wire document and how far it got. */
export interface OrderRefundRow {
  id: string;
  order_id: string;
  /**
   * `STARTED` while the provider is being asked (its amounts already count against the payments, so
   * a concurrent refund cannot take them too), then `SUCCEEDED`; a declined refund is removed.
   */
  status: string;
  /** The wire refund (`Refund` without its dates) as JSON text. */
  doc: string;
  created_at: string;
}

/**
 * One money call (capture, void, refund) by its idempotency key: a retry of a key answers what the
 * first call answered, and a call whose process stopped half way is finished by the retry.
 */
export interface BillingRequestRow {
  /** `<operation>:<order id>:<idempotency key>`. */
  key: string;
  order_id: string;
  /** `STARTED` (the plan is written, the provider may have been asked) or `DONE`. */
  status: string;
  /** What the call will do, as JSON: read again by a retry that finishes it. */
  plan: string;
  /** The answer, as JSON, once `DONE`. */
  answer: string | null;
  created_at: string;
  updated_at: string;
}
