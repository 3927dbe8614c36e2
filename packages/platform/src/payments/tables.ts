/** The payments domain's rows: every order's payments, the test gateway's own ledger, and members' Stripe Customers. */
export interface PaymentTables extends TestGatewayTables {
  order_payments: OrderPaymentRow;
  /**
   * A member's customer at a provider that keeps cards for its customers (Stripe's `cus_...`), made
   * once, before their first card is saved there (0079): its id is all the store keeps of them there.
   */
  payment_provider_customers: {
    provider_id: string;
    member_id: string;
    customer_id: string;
    created_at: string;
  };
}

/**
 * The built-in test gateway's ledger, as a real provider keeps its own on its side: written and read
 * by `test-gateway.ts` alone. Every registered test gateway shares them, each row naming its gateway.
 */
export interface TestGatewayTables {
  gateway_charges: GatewayChargeRow;
  gateway_captures: GatewayCaptureRow;
  /** Declared with billing's tables until 0042 (its migration, 0028, stays billing's). */
  gateway_refunds: GatewayActionRow;
  gateway_voids: GatewayActionRow;
  gateway_tokens: GatewayTokenRow;
  gateway_saved_methods: GatewaySavedMethodRow;
}

/**
 * One charge the built-in test gateway made, keyed by the caller's idempotency key: a retried call
 * finds the row and answers its first result, so a card is never charged twice.
 */
export interface GatewayChargeRow {
  idempotency_key: string;
  /** The registered test gateway (its provider id) that made the charge. */
  gateway_id: string;
  transaction_id: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  /** 1 when the charge was captured at once (a sale), 0 when only authorized. */
  captured: number;
  /**
   * `APPROVED`, `DECLINED` or `REQUIRES_ACTION` (a 3-D Secure step is pending); `CLOSED`: no charge was
   * made under the key and none will be (`settle`).
   */
  status: string;
  /** Why a decline: `CARD_DECLINED`, `INSUFFICIENT_FUNDS`, `AUTHENTICATION_FAILED`, `PAYMENT_INTERRUPTED`. */
  decline_code: string | null;
  /** The 3-D Secure step's id while one is pending. */
  action_id: string | null;
  card_last4: string;
  card_brand: string;
  created_at: string;
  updated_at: string;
}

/** A capture of an authorized charge, keyed by its idempotency key. */
export interface GatewayCaptureRow {
  idempotency_key: string;
  transaction_id: string;
  amount: string;
  created_at: string;
}

/** A refund or void the built-in test gateway made, by the caller's idempotency key. */
export interface GatewayActionRow {
  idempotency_key: string;
  transaction_id: string;
  amount: string;
  /** `SUCCEEDED` or `FAILED`. */
  status: string;
  created_at: string;
}

/**
 * What a test card does when charged: its behaviour, kept instead of its number for a card the test
 * gateway tokenized or saved (`approved` for any card that is not one of TEST_CARDS).
 */
export type TestCardBehaviour =
  | 'approved'
  | 'declined'
  | 'insufficientFunds'
  | 'requiresAuthentication'
  | 'refundDeclined';

/** A one-time token the test gateway issued for a card (as a real provider's card fields do). */
export interface GatewayTokenRow {
  token: string;
  gateway_id: string;
  behaviour: string;
  card_last4: string;
  card_brand: string;
  /** The charge's idempotency key that used it; a token serves one charge (and that charge's retries). */
  used_by: string | null;
  created_at: string;
}

/** A card the test gateway saved for a customer, charged later with or without them present. */
export interface GatewaySavedMethodRow {
  id: string;
  gateway_id: string;
  /** Whose card it is: a charge naming another customer is refused. */
  customer_id: string;
  behaviour: string;
  card_last4: string;
  card_brand: string;
  created_at: string;
}

/** A payment in an order's transactions (`orderTransactions.payments`). */
export interface OrderPaymentRow {
  id: string;
  order_id: string;
  /** Decimal string, and as the shopper read it (`$12.00`). */
  amount: string;
  formatted_amount: string;
  currency: string;
  /** Point 4's payment status: `APPROVED`, `AUTHORIZED`, ... */
  status: string;
  /** The checkout attempt that paid (the gateway order). */
  payment_order_id: string;
  gateway_transaction_id: string;
  provider_transaction_id: string;
  method_name: string;
  card_brand: string;
  card_last4: string;
  /** 1 when the store only authorized: captured later by the merchant. */
  delayed_capture: number;
  authorized_at: string | null;
  /** What a delayed capture took (all or part of `amount`); null until captured. */
  captured_amount: string | null;
  /** The capture of an authorization (`authorizationDetails.captures`) as JSON; null until asked. */
  captures: string | null;
  /** The void of an authorization (`authorizationDetails.void`) as JSON; null until asked. */
  void: string | null;
  /** 1: taken outside the platform (cash, a transfer) and recorded by the merchant (`addPayments`). */
  offline: number;
  /**
   * The provider that took it (PaymentProviders): its capture, void and refunds go there. Null for a
   * payment taken outside the platform; the test gateway's for payments taken before 0042.
   */
  provider_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A refund or void the built-in test gateway made, by the caller's idempotency key. */
export interface GatewayActionRow {
  idempotency_key: string;
  transaction_id: string;
  amount: string;
  /** `SUCCEEDED` or `FAILED`. */
  status: string;
  created_at: string;
}
