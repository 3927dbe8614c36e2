import type { CardBrand, CheckedCard } from './card.ts';

/** Why a gateway refused a charge: the codes a shopper's page explains. */
export type DeclineCode =
  | 'CARD_DECLINED'
  | 'INSUFFICIENT_FUNDS'
  | 'AUTHENTICATION_FAILED'
  /** A saved method charged without the shopper needs them to authenticate: charge it with them present. */
  | 'AUTHENTICATION_REQUIRED'
  /** The token or saved method is unknown to the provider, used up (a single-use token), or another customer's. */
  | 'PAYMENT_METHOD_UNUSABLE'
  /** The key was settled as never charged (`settle`): a charge asked for under it later is refused. */
  | 'PAYMENT_INTERRUPTED';

/** The card a charge took, as the provider describes it (never its number). */
export interface ChargedCard {
  last4: string;
  brand: CardBrand;
}

/** What a gateway answers a charge (or the end of its 3-D Secure step). */
export type ChargeResult =
  | {
      status: 'APPROVED';
      transactionId: string;
      providerTransactionId: string;
      captured: boolean;
      /** The card charged, as the provider knows it: a token or saved method names no card to the platform. */
      card?: ChargedCard;
      /**
       * The method the provider kept for the customer (a charge `saveForOffSession`), under the id later
       * charges name: Stripe's payment method attached to the member's Customer.
       */
      savedMethodId?: string;
    }
  | { status: 'DECLINED'; transactionId: string; code: DeclineCode; reason: string }
  | { status: 'REQUIRES_ACTION'; transactionId: string; actionId: string };

/**
 * How a charge is paid: a card as the shopper typed it (only a provider that `acceptsRawCards`), the
 * provider's own one-time token from its card fields, or a method saved with the provider for a
 * customer (charged with the shopper present, or `offSession` without them: a renewal, say). The
 * `customerId` is the store's own (the member's id): a provider with customers of its own (Stripe's
 * `cus_...`) keeps which of them is the member's.
 */
export type PaymentMethod =
  | { kind: 'card'; card: CheckedCard }
  | { kind: 'token'; token: string }
  | { kind: 'saved'; savedMethodId: string; customerId?: string | undefined };

export interface ChargeRequest {
  /** The same key gives the same answer and never a second charge (a retry, a double click). */
  idempotencyKey: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  method: PaymentMethod;
  /** True: capture at once (a sale); false: authorize only, captured later. */
  capture: boolean;
  /** True: no shopper is there to pass a 3-D Secure step (a saved method charged by the store). */
  offSession?: boolean | undefined;
  /**
   * True: the provider keeps the method for its customer, to be charged later without them (a
   * subscription's first charge; Stripe's `setup_future_usage: off_session`). Its answer names the
   * kept method (`savedMethodId`).
   */
  saveForOffSession?: boolean | undefined;
}

/**
 * A payment provider, as the checkout and billing see one: a network service, called outside any
 * database transaction; each call carries an idempotency key so a retry after a timeout is safe.
 * Every payment records the `id` of the provider that took it, and its capture, void and refunds go
 * back to that provider (PaymentProviders).
 */
export interface PaymentProvider {
  /** Stable across restarts and stored on every payment (`cartwheel-test-gateway`). */
  readonly id: string;
  /** How order transactions name it (`paymentMethodName`). */
  readonly methodName: string;
  /**
   * False for a provider whose card fields are its own (a real one): card numbers never reach the
   * platform, which refuses a `card` method before any charge.
   */
  readonly acceptsRawCards: boolean;
  /**
   * How the hosted checkout page takes a card for this provider: its own form (a provider that takes
   * card numbers), the provider's own card fields in the page (Stripe's Payment Element, with the
   * publishable key they load with), or none the page can show (a tokens-only test provider).
   */
  readonly cardEntry: CardEntry;
  authorize(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Saves `card` for `customerId`, to be charged later without them (a subscription's renewals): the
   * saved method's id. Absent: the provider saves no card the platform hands it.
   */
  saveMethod?(customerId: string, card: CheckedCard): Promise<string>;
  /**
   * True: a one-time token from the provider's own card fields is saved by the charge that pays with
   * it (`saveForOffSession`, with a `customerId`): how a provider that never sees card numbers saves a
   * subscription's card (Stripe).
   */
  readonly savesTokensOnCharge?: boolean;
  /**
   * How the shopper's page takes the 3-D Secure step `actionId`: the platform's own confirm page
   * (absent: the test gateway), or the provider's script in the page with what it needs (Stripe's
   * `handleNextAction` with the intent's client secret).
   */
  nextActionOf?(actionId: string): Promise<NextAction>;
  /**
   * Every charge the provider made for this store from `from` to `to` (its own records, not Cartwheel's):
   * what reconciliation compares the store's payments with. Absent: the provider cannot list them.
   */
  charges?(from: Date, to: Date): Promise<ProviderCharge[]>;
  /**
   * Whether the provider would refund the charge `transactionId` now, as it answers (a refund still on
   * its way to the card, a charge it does not know, itself not answering): what the store's books
   * cannot say. Never throws: a provider that cannot be asked is `PROVIDER_IS_DOWN`. Absent: the books
   * alone decide (the test gateway's books are the provider's).
   */
  refundability?(transactionId: string): Promise<ProviderRefundability>;
  /** The shopper passed (`approved`) or failed the 3-D Secure step `actionId`. */
  completeAction(request: { actionId: string; approved: boolean }): Promise<ChargeResult>;
  /**
   * What the charge under `idempotencyKey` came to, for a charge whose answer never reached the
   * platform (its process stopped, or the call hung): the result as `authorize` gave it, or undefined
   * when no charge was made, in which case the key is closed and no charge is ever made under it
   * (a call still under way with it is refused), so giving the stock back cannot race a late charge.
   */
  settle(idempotencyKey: string): Promise<ChargeResult | undefined>;
  /** Captures an authorized charge (all of it unless `amount` says less). */
  capture(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<{ status: 'SUCCEEDED' | 'FAILED'; reason?: string }>;
  /**
   * Releases an authorized charge that was never captured (or what a partial capture left): the
   * same key answers the first result.
   */
  void(request: { idempotencyKey: string; transactionId: string }): Promise<ProviderActionResult>;
  /** Gives `amount` of a captured charge back to the card; the same key never refunds twice. */
  refund(request: {
    idempotencyKey: string;
    transactionId: string;
    amount: string;
  }): Promise<ProviderActionResult & { refundId?: string }>;
}

/** What a provider holds of one charge: reconciliation's view of its side. */
export interface ProviderCharge {
  /** The payment's transaction id at Cartwheel (`gateway_transaction_id`). */
  transactionId: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  /** Money held (`AUTHORIZED`), taken (`CAPTURED`), released (`CANCELED`), or a step still open (`PENDING`). */
  state: ChargeState;
  /** What a capture took (the whole amount for a sale). */
  capturedAmount: string;
  /** What the provider gave back of it, refunds on their way to the card included. */
  refundedAmount: string;
  createdAt: string;
}
export type ChargeState = 'AUTHORIZED' | 'CAPTURED' | 'CANCELED' | 'PENDING';

/** Point 8's refund-disabled reasons a provider's own answer gives (PaymentProvider `refundability`). */
export type ProviderRefundBlock =
  | 'PROVIDER_IS_DOWN'
  | 'DISABLED_BY_PROVIDER'
  | 'PENDING_REFUND'
  | 'TRANSACTION_NOT_FOUND';
export type ProviderRefundability = { refundable: true } | { refundable: false; reason: ProviderRefundBlock };

/** How the page takes a charge's 3-D Secure step (PaymentProvider `nextActionOf`). */
export type NextAction = { kind: 'PAGE' } | { kind: 'STRIPE'; publishableKey: string; clientSecret: string };

/** How the hosted checkout page takes a card (PaymentProvider `cardEntry`). */
export type CardEntry = { kind: 'FORM' } | { kind: 'STRIPE'; publishableKey: string } | { kind: 'NONE' };

/** What a gateway answers a capture, void or refund: `FAILED` with the gateway's reason. */
export interface ProviderActionResult {
  status: 'SUCCEEDED' | 'FAILED';
  reason?: string;
}
