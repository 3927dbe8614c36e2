import type { CheckedCard } from './card.ts';

/** Why a gateway refused a charge: the codes a shopper's page explains. */
export type DeclineCode =
  | 'CARD_DECLINED'
  | 'INSUFFICIENT_FUNDS'
  | 'AUTHENTICATION_FAILED'
  /** The key was settled as never charged (`settle`): a charge asked for under it later is refused. */
  | 'PAYMENT_INTERRUPTED';

/** What a gateway answers a charge (or the end of its 3-D Secure step). */
export type ChargeResult =
  | { status: 'APPROVED'; transactionId: string; providerTransactionId: string; captured: boolean }
  | { status: 'DECLINED'; transactionId: string; code: DeclineCode; reason: string }
  | { status: 'REQUIRES_ACTION'; transactionId: string; actionId: string };

export interface ChargeRequest {
  /** The same key gives the same answer and never a second charge (a retry, a double click). */
  idempotencyKey: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  card: CheckedCard;
  /** True: capture at once (a sale); false: authorize only, captured later. */
  capture: boolean;
}

/**
 * A payment provider, as the checkout sees one: a network service, called outside any database
 * transaction; each call carries an idempotency key so a retry after a timeout is safe.
 */
export interface PaymentProvider {
  /** How order transactions name it (`paymentMethodName`). */
  readonly methodName: string;
  authorize(request: ChargeRequest): Promise<ChargeResult>;
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

/** What a gateway answers a capture, void or refund: `FAILED` with the gateway's reason. */
export interface ProviderActionResult {
  status: 'SUCCEEDED' | 'FAILED';
  reason?: string;
}
